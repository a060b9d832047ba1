"""A tournament jogo's online table (issue 44): players sit through their dupla's private page (which of the two is
sitting; one browser a seat; the link takes a seat back after a lost phone; partners opposite), everyone else
watches at /torneios/<slug>/jogos/<key>/mesa/, the partida starts when four are seated, and at the end each dupla
confirms or contests at the table (no answer in 10 minutes = confirmed)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.support.online_tournament import knockout_online_file, play_humans
from tournaments.models import Dupla, Jogo, OnlineProfile, OnlineTable, SumulaEvent, TableSeat
from tournaments.online import services
from tournaments.online import tournament as online
from tournaments.refusals import Refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(load_file):
    return load_file(knockout_online_file(duplas=4, slug="copa-mesa"))


def _first_jogo(event) -> Jogo:
    return Jogo.objects.filter(tournament=event, round=1).select_related("dupla_a", "dupla_b").order_by("position")[0]


def _sit(client: Client, event, jogo: Jogo, dupla: Dupla, jogador: str):
    return client.post(
        f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/sentar/", {"token": dupla.token, "jogador": jogador}
    )


def _profile(client: Client) -> OnlineProfile:
    from tournaments.play.identity import GUEST_SESSION_KEY

    return OnlineProfile.objects.get(guest_key=client.session[GUEST_SESSION_KEY])


def _four(event, jogo):
    clients = {seat: Client() for seat in range(4)}
    for seat, client in clients.items():
        dupla = (jogo.dupla_a, jogo.dupla_b)[seat % 2]
        response = _sit(client, event, jogo, dupla, "1" if seat < 2 else "2")
        assert response.status_code == 303
        assert response["Location"] == f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/"
    return clients


def test_the_dupla_page_offers_the_seat_and_asks_who_is_sitting(client, event):
    jogo = _first_jogo(event)
    html = client.get(f"/d/{jogo.dupla_a.token}/").content.decode()
    assert "Mesa online" in html
    assert "Quem vai jogar neste aparelho?" in html
    assert jogo.dupla_a.player1.name in html and jogo.dupla_a.player2.name in html
    assert f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/sentar/" in html


def test_four_players_sit_partners_opposite_and_the_partida_starts(event):
    jogo = _first_jogo(event)
    clients = _four(event, jogo)
    table = OnlineTable.objects.get(jogo=jogo)
    assert table.kind == OnlineTable.TORNEIO and table.status == OnlineTable.PLAYING and table.partida_n == 1
    seats = {s.seat: s for s in TableSeat.objects.filter(table=table)}
    assert seats[0].player_id == jogo.dupla_a.player1_id and seats[2].player_id == jogo.dupla_a.player2_id
    assert seats[1].player_id == jogo.dupla_b.player1_id and seats[3].player_id == jogo.dupla_b.player2_id
    # the seated player sees the table as theirs; a stranger watches
    mine = clients[0].get(f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/").content.decode()
    assert "Você joga por" in mine and jogo.dupla_a.display_name in mine
    watcher = Client().get(f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/")
    assert watcher.status_code == 200
    assert "Você está assistindo" in watcher.content.decode()
    assert 'name="token"' not in watcher.content.decode()  # no private link on the public table page
    # the casual table address leads to the jogo's
    assert Client().get(f"/jogar/mesas/{table.pk}/")["Location"] == f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/"


def test_a_lost_phone_takes_its_seat_back_and_a_browser_holds_one_seat(event):
    jogo = _first_jogo(event)
    first = Client()
    assert _sit(first, event, jogo, jogo.dupla_a, "1").status_code == 303
    old = _profile(first)
    # the same browser cannot also sit as the partner
    refused = _sit(first, event, jogo, jogo.dupla_a, "2")
    assert refused["Location"].endswith("#mesa-online")
    page = first.get(refused["Location"]).content.decode()
    assert "já está sentado como" in page
    # a new phone opens the link and sits as the same player: the seat is its now
    second = Client()
    assert _sit(second, event, jogo, jogo.dupla_a, "1").status_code == 303
    seat = TableSeat.objects.get(table__jogo=jogo, seat=0)
    assert seat.profile_id == _profile(second).pk != old.pk
    assert not TableSeat.objects.filter(table__jogo=jogo, profile=old).exists()


def test_bad_links_and_casual_powers_are_refused(event):
    jogo = _first_jogo(event)
    other = Dupla.objects.filter(tournament=event).exclude(pk__in=(jogo.dupla_a_id, jogo.dupla_b_id)).first()
    assert _sit(Client(), event, jogo, jogo.dupla_a, "3").status_code == 303  # asks again (message)
    bad = Client().post(f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/sentar/", {"token": "x" * 22, "jogador": "1"})
    assert bad.status_code == 404
    client = Client()
    response = _sit(client, event, jogo, other, "1")
    assert "Esta dupla não joga este jogo" in client.get(response["Location"]).content.decode()
    assert not TableSeat.objects.filter(table__jogo=jogo).exists()
    table = OnlineTable.objects.get(jogo=jogo)
    guest = OnlineProfile.objects.create(guest_key="k1", display_name="Zé")
    with pytest.raises(Refused, match="link privado"):
        services.seat_take(table=table, profile=guest)


def test_the_jogo_is_played_to_the_end_and_confirmed_at_the_table(event):
    jogo = _first_jogo(event)
    clients = _four(event, jogo)
    table = OnlineTable.objects.get(jogo=jogo)
    profiles = {seat: _profile(c) for seat, c in clients.items()}
    now = play_humans(table.pk, profiles, now=timezone.now())
    jogo.refresh_from_db()
    assert jogo.status == "awaiting_confirmation"
    table.refresh_from_db()
    assert table.status == OnlineTable.FINISHED and table.deadline is not None
    # dupla A confirms at the table; dupla B does not answer
    page = clients[2].get(f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/").content.decode()
    assert "confirma a súmula ou contesta" in page
    response = clients[2].post(
        f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/resposta/", {"resposta": "confirmar", "via": jogo.via}
    )
    assert response.status_code == 303
    jogo.refresh_from_db()
    assert jogo.confirmations["a"]["answer"] == "confirmed" and jogo.confirmations["a"]["by"] == online.METHOD
    assert "b" not in jogo.confirmations
    # a spectator cannot answer for a dupla
    watcher = Client()
    watcher.post(f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/resposta/", {"resposta": "contestar", "via": 1})
    jogo.refresh_from_db()
    assert "b" not in jogo.confirmations
    # ten minutes later the silence confirms, and the table closes
    services.table_tick(now=now + timedelta(minutes=online.CONFIRM_MINUTES, seconds=1))
    jogo.refresh_from_db()
    table.refresh_from_db()
    assert jogo.status == "confirmed"
    assert "10 minutos" in jogo.confirmations["b"]["reason"]
    assert table.status == OnlineTable.CLOSED
    # every mão of the súmula came from the table, by the user mesa-online
    maos = SumulaEvent.objects.filter(jogo=jogo, action="mao")
    assert maos.exists() and {e.user.username for e in maos} == {online.MESA_ONLINE}
    # the closed table still shows the jogo, its partidas and their replays
    page = Client().get(f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/").content.decode()
    assert f"/jogar/mesas/{table.pk}/partidas/1/" in page


def test_a_contest_at_the_table_goes_to_the_referee(event):
    jogo = _first_jogo(event)
    clients = _four(event, jogo)
    table = OnlineTable.objects.get(jogo=jogo)
    now = play_humans(table.pk, {seat: _profile(c) for seat, c in clients.items()}, now=timezone.now())
    clients[1].post(
        f"/torneios/{event.slug}/jogos/{jogo.key}/mesa/resposta/",
        {"resposta": "contestar", "motivo": "a conexão caiu na terceira mão", "via": 1},
    )
    services.table_tick(now=now + timedelta(minutes=online.CONFIRM_MINUTES, seconds=1))
    jogo.refresh_from_db()
    assert jogo.status == "contested"
    assert jogo.confirmations["b"] == jogo.confirmations["b"] | {
        "answer": "contested",
        "reason": "a conexão caiu na terceira mão",
    }
    assert jogo.confirmations["a"]["answer"] == "confirmed"
