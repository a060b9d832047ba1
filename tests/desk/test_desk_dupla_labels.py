"""The desk names the duplas the pairing draw made as people know them (walk review #8): by their number in the
list (as the draw's preview numbers them) and their name, never by their key ("r1"), which stays in addresses and
in the tournament file."""

import re

import pytest
from django.urls import reverse

from tests.support.desk import add_individuals, client_for, make_tournament, make_user
from tournaments.draws import services
from tournaments.models import Dupla

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired():
    t = make_tournament(max_duplas=16)
    add_individuals(t, 8)
    user = make_user("ana", t)
    services.pairing_run(tournament=t, user=user, seed=424242)
    assert sorted(Dupla.objects.filter(tournament=t).values_list("key", flat=True)) == [f"r{n}" for n in range(1, 5)]
    return t, client_for(user)


def _cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", " ", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", html, re.S)]


def test_the_duplas_page_numbers_the_duplas_and_shows_no_key(paired):
    t, client = paired
    html = client.get(reverse("desk:duplas", args=[t.slug])).content.decode()
    cells = _cells(html)
    assert not [c for c in cells if re.search(r"\br\d+\b", c)], cells
    duplas = list(Dupla.objects.filter(tournament=t).select_related("player1", "player2").order_by("order", "id"))
    for n, dupla in enumerate(duplas, start=1):
        row = html.split(f'id="dupla-{dupla.pk}"', 1)[1].split("</tr>", 1)[0]
        assert f"<strong>{n}</strong>" in row and dupla.player1.name in row
    # the swap names each player's dupla by the partner, not by a key
    one = duplas[0]
    assert f"{one.player1.name} (com {one.player2.name})" in html
    assert not re.search(r"\(r\d+\)", html)
    # the edit page of a dupla without a name: its players' names
    edit = client.get(reverse("desk:dupla_edit", args=[t.slug, one.pk])).content.decode()
    assert f"<h2>{one.player1.name} / {one.player2.name}</h2>" in edit and "Dupla r1" not in edit


def test_the_pairing_draw_record_numbers_the_duplas_as_its_preview_did(paired):
    t, client = paired
    html = client.get(reverse("desk:pairing", args=[t.slug])).content.decode()
    record = html.split("Último sorteio", 1)[1].split("</table>", 1)[0]
    assert [c for c in _cells(record) if c.isdigit()] == ["1", "2", "3", "4"]
    assert not re.search(r"\br\d+\b", " ".join(_cells(record)))
