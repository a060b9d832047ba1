"""Issue 41 item 18: the keys the site makes for jogos (j1, j2…) and for the duplas of a pairing draw (r1, r2…) are
for addresses and files; a person reads jogos and duplas by the names people know them by. Every page and PDF of
events made at the desk is read, as the organizer, the referee, a dupla and the public see them."""

import re

import pytest
from django.test import Client

from tests.support.event_states import event_during_make, knockout_live_make
from tests.support.reading import desk_urls, public_urls, read_text
from tournaments.calls.services import jogo_call
from tournaments.models import Dupla, Jogo, StaffRole, Tournament
from tournaments.staff.pins import pin_reset, pins_reset
from tournaments.sumula.appeals import appeal_file
from tournaments.sumula.commands import ResultSet
from tournaments.sumula.services import Actor, sumula_result_set, sumula_sign

pytestmark = pytest.mark.django_db

KEY = re.compile(r"\b[jr]\d+\b")


def _history(t: Tournament) -> None:
    """What puts jogos and duplas in the history: a WO, a contest decided and its appeal, a call, a lost card."""
    organizer = StaffRole.objects.filter(tournament=t, role=StaffRole.ORGANIZER).first().user
    staff = Actor(user=organizer, method="session")
    waiting = Jogo.objects.filter(tournament=t, status=Jogo.SCHEDULED).select_related("dupla_a", "dupla_b")
    walkover, called = waiting[0], waiting[len(waiting) - 1]
    data = ResultSet.from_json({"walkover": walkover.dupla_b.key, "walkover_reason": "não compareceu"})
    sumula_result_set(tournament=t, key=walkover.key, data=data, actor=staff)
    jogo_call(tournament=t, jogo_id=called.pk, user=organizer) if called.pk != walkover.pk else None
    contested = Jogo.objects.filter(tournament=t, status=Jogo.CONTESTED).select_related("dupla_a", "dupla_b").first()
    sumula_sign(tournament=t, key=contested.key, via=1, reason="placar conferido", actor=staff)
    loser = contested.dupla_b  # the dupla that contested appeals the referee's decision
    appeal_file(tournament=t, key=contested.key, dupla=loser, via=1, reason="placar errado", actor=Actor(dupla=loser))
    pin_reset(tournament=t, dupla=loser, by=organizer)


@pytest.mark.parametrize("make", [knockout_live_make, event_during_make], ids=["chave", "grupos"])
def test_no_page_or_pdf_names_a_jogo_or_a_dupla_by_its_key(make):
    t = make()
    pins_reset(tournament=t)
    _history(t)
    assert Dupla.objects.filter(tournament=t, key__regex=r"^r\d+$").exists()  # the pairing draw's keys are there
    people = {
        "organizer": StaffRole.objects.filter(tournament=t, role=StaffRole.ORGANIZER).first().user,
        "referee": StaffRole.objects.filter(tournament=t, role=StaffRole.REFEREE).first().user,
    }
    read: dict[str, int] = {}
    found: dict[str, list[str]] = {}
    for who, urls in (("organizer", desk_urls(t)), ("referee", desk_urls(t)), ("public", public_urls(t))):
        client = Client()
        if who in people:
            client.force_login(people[who])
        for url in urls:
            response = client.get(url)
            kind = response.get("Content-Type", "")
            if response.status_code != 200 or not kind.startswith(("text/html", "application/pdf")):
                continue
            text = read_text(response)
            read[url] = len(text)
            for m in KEY.finditer(text):
                found.setdefault(f"{who} {url}", []).append(text[max(0, m.start() - 40) : m.end() + 20])
    assert len(read) > 40 and any(u.endswith("/historico/") for u in read) and any("/arbitragem/" in u for u in read)
    assert not found, found
