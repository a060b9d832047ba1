"""Online jogos on the public pages, the TV and the referee's list (docs/regras.md §9.7): each with an "online"
badge and a link to watch its table, its live score like any other jogo; a physical jogo of a hybrid event with
neither."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.support.online_tournament import knockout_online_file, play_humans
from tests.support.sumula import staff_user
from tournaments.models import Jogo, OnlineTable, StaffRole
from tournaments.online import tournament as online

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_kept_partidas():
    from tournaments.online import selectors

    selectors._partidas.clear()
    yield
    selectors._partidas.clear()


def _items(html: str) -> dict[str, str]:
    """Each jogo's line on /jogos/ by its id attribute."""
    return {m.group(1): m.group(0) for m in re.finditer(r'<li class="jogo[^"]*" id="jogo-(\d+)">.*?</li>', html, re.S)}


def test_an_online_event_badges_every_jogo_and_links_its_table(client, load_file):
    event = load_file(knockout_online_file(duplas=4, slug="copa-badge"))
    jogos = list(Jogo.objects.filter(tournament=event, round=1).order_by("position"))
    html = client.get(f"/torneios/{event.slug}/jogos/").content.decode()
    items = _items(html)
    assert {str(j.pk) for j in jogos} <= set(items)
    for jogo in jogos:
        item = items[str(jogo.pk)]
        assert '<span class="badge-online">online</span>' in item
        assert f'href="/torneios/{event.slug}/jogos/{jogo.key}/mesa/">Assistir à mesa</a>' in item
    bracket = client.get(f"/torneios/{event.slug}/chave/").content.decode()
    assert bracket.count('<span class="badge-online">online</span>') >= len(jogos)


def test_a_hybrid_event_badges_only_its_mesas_online(client, load_file):
    event = load_file(knockout_online_file(duplas=4, slug="copa-hibrida", online_setting=None))
    first, second = Jogo.objects.filter(tournament=event, round=1).order_by("position")[:2]
    Jogo.objects.filter(pk=first.pk).update(online=True)  # before any page: the state is read after it
    items = _items(client.get(f"/torneios/{event.slug}/jogos/").content.decode())
    assert "badge-online" in items[str(first.pk)] and f"/jogos/{first.key}/mesa/" in items[str(first.pk)]
    assert "badge-online" not in items[str(second.pk)] and "/mesa/" not in items[str(second.pk)]


def test_a_jogo_played_online_shows_its_live_score_on_the_event_page_the_tv_and_the_referees_list(client, load_file):
    event = load_file(knockout_online_file(duplas=4, slug="copa-ao-vivo"))
    jogo = Jogo.objects.filter(tournament=event, round=1).select_related("dupla_a", "dupla_b").order_by("position")[0]
    from tests.support.online import guest

    profiles = {}
    for seat in range(4):
        profile, _key = guest(f"Convidado {seat + 1}")
        dupla = (jogo.dupla_a, jogo.dupla_b)[seat % 2]
        player = dupla.player1_id if seat < 2 else dupla.player2_id
        online.seat_take_by_link(jogo=jogo, dupla=dupla, player=player, profile=profile, now=timezone.now())
        profiles[seat] = profile
    table = OnlineTable.objects.get(jogo=jogo)
    play_humans(table.pk, profiles, now=timezone.now(), until_decided=False)  # one partida: mãos on the súmula
    jogo.refresh_from_db()
    assert jogo.status == Jogo.IN_PROGRESS
    page = client.get(f"/torneios/{event.slug}/").content.decode()
    assert '<span class="badge-online">online</span>' in page
    assert f'href="/torneios/{event.slug}/jogos/{jogo.key}/mesa/"' in page
    tv = client.get(f"/torneios/{event.slug}/tv/").content.decode()
    assert '<span class="badge-online">online</span>' in tv
    assert f"/jogos/{jogo.key}/mesa/" not in tv  # the TV shows, it has no links
    items = _items(client.get(f"/torneios/{event.slug}/jogos/").content.decode())
    assert "pill-live" in items[str(jogo.pk)] or "1 x 0" in items[str(jogo.pk)] or "0 x 1" in items[str(jogo.pk)]
    client.force_login(staff_user(event, "arbitro-vivo", StaffRole.REFEREE))
    referee = client.get(f"/organizar/{event.slug}/arbitragem/?todos=1").content.decode()
    assert referee.count('<span class="badge-online">online</span>') >= 2
    assert "Mesas online (" in referee
