"""Issue 41 item 20: an event that is a knockout alone (the AABB starter) spoke of "grupos" on its desk pages, its
messages and its printed súmulas; it speaks of the chave."""

import re

import pytest
from django.test import Client

from tests.support.desk import add_duplas, client_for, make_tournament, make_user
from tests.support.event_states import knockout_live_make
from tests.support.reading import desk_urls, public_urls, read_text
from tournaments.draws import services
from tournaments.models import StaffRole
from tournaments.refusals import Refused

pytestmark = pytest.mark.django_db

GRUPOS = re.compile(r"(?i)\bgrupos?\b")
# where the word belongs: the format page offers groups as a choice; the classificação says there are none
ALLOWED = ("/formato/", "não tem fase de grupos")


def test_a_knockout_alone_never_speaks_of_grupos():
    t = knockout_live_make()
    organizer = StaffRole.objects.filter(tournament=t, role=StaffRole.ORGANIZER).first().user
    client = client_for(organizer)
    found = {}
    read = 0
    for url in desk_urls(t) + public_urls(t):
        response = client.get(url)
        if response.status_code != 200 or not response.get("Content-Type", "").startswith(("text/html", "appl")):
            continue
        read += 1
        if url.endswith(ALLOWED[0]):
            continue
        text = read_text(response).replace(ALLOWED[1], "")
        hits = [text[max(0, m.start() - 50) : m.end() + 30] for m in GRUPOS.finditer(text)]
        if hits:
            found[url] = hits
    assert read > 30 and not found, found
    with pytest.raises(Refused) as refused:
        services.pairing_undo(tournament=t, user=organizer, draw=t.draws.filter(kind="pairing").get().pk, reason="x")
    assert "o sorteio da chave já foi publicado" in refused.value.messages[0]


def test_the_next_step_of_a_knockout_alone_is_to_draw_the_chave():
    t = make_tournament("so-chave", fmt={"kind": "knockout"}, published=True)
    add_duplas(t, 6)
    page = read_text(client_for(make_user("org", t)).get(f"/organizar/{t.slug}/"))
    assert "Sortear a chave" in page and not GRUPOS.search(page), page
    assert Client().get(f"/torneios/{t.slug}/").status_code == 200
