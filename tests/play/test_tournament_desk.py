"""The referee's desk of an event's online tables (/organizar/<slug>/mesas-online/, docs/regras.md §9.7): who is
seated, absent, voting or suspended; a table suspended for a technical problem (reason; the clocks stop with the
time they had) and resumed by a referee of that event, audited; nobody else may."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.online import guest
from tests.support.sumula import staff_user
from tournaments.models import AuditEntry, Jogo, OnlineTable, PartidaLog, StaffRole, TableEvent, TableSeat
from tournaments.online import referee, services
from tournaments.online.selectors import partida_of
from tournaments.online.tournament import seat_take_by_link
from tournaments.refusals import Refused
from truco.state import SUSPENDED

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_kept_partidas():
    """Partidas are kept by (table, seq): a rolled-back test's table id comes back in the next one."""
    from tournaments.online import selectors

    selectors._partidas.clear()
    yield
    selectors._partidas.clear()


def online_table(tournament, key: str, *, seated: int = 4, absent: tuple[int, ...] = ()):
    """The jogo, made a mesa online, with guests seated through their dupla's link at seats 0.. (partners
    opposite: dupla A at 0 and 2), connected but for ``absent``; four seated start the partida."""
    from tournaments.selectors import tournament_state_cache_clear

    Jogo.objects.filter(tournament=tournament, key=key).update(online=True)
    tournament_state_cache_clear()  # the row written as an import would: no state kept from before it
    jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, key=key)
    players = [
        (jogo.dupla_a, jogo.dupla_a.player1_id),
        (jogo.dupla_b, jogo.dupla_b.player1_id),
        (jogo.dupla_a, jogo.dupla_a.player2_id),
        (jogo.dupla_b, jogo.dupla_b.player2_id),
    ]
    for seat in range(seated):
        profile, _session = guest(f"Convidado {seat + 1}")
        dupla, player = players[seat]
        seat_take_by_link(jogo=jogo, dupla=dupla, player=player, profile=profile, now=timezone.now())
    table = OnlineTable.objects.get(jogo=jogo)
    TableSeat.objects.filter(table=table).exclude(seat__in=absent).update(present=True)
    table.refresh_from_db()
    return table


def seat_names(table) -> list[str]:
    return [row.player.name for row in TableSeat.objects.filter(table=table).select_related("player").order_by("seat")]


def url(slug: str, what: str = "") -> str:
    return f"/organizar/{slug}/mesas-online/{what}"


def test_the_desk_lists_each_online_table_with_who_sits_and_who_is_absent(cup, ref, j1):
    playing = online_table(cup, j1, absent=(3,))
    response = ref.get(url(cup.slug))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="mesa-online-{playing.pk}"' in html
    for name in seat_names(playing):  # the players of the duplas, by their names in the event
        assert name in html
    assert "(ausente)" in html and html.count("(presente)") == 3
    assert "em jogo" in html
    assert "1 jogador ausente" in html
    assert f'href="/torneios/{cup.slug}/jogos/{j1}/mesa/"' in html  # watch it as a spectator
    assert f'href="/organizar/{cup.slug}/arbitragem/{j1}/"' in html  # its súmula
    assert url(cup.slug, f"{playing.pk}/suspender/") in html


def test_a_table_waiting_for_players_says_how_many_sit(cup, ref, j1):
    online_table(cup, j1, seated=2)
    html = ref.get(url(cup.slug)).content.decode()
    assert "aguardando jogadores" in html
    assert "2 de 4 sentados" in html
    assert html.count("lugar vazio") == 2
    assert "/suspender/" not in html  # nothing to suspend before the partida


def test_a_vote_running_is_shown_with_the_absent_player(cup, ref, j1):
    table = online_table(cup, j1)
    partida = partida_of(table)
    assert partida is not None and partida.deadline is not None
    services.table_tick(now=table.deadline + timedelta(seconds=1))
    table.refresh_from_db()
    partida = partida_of(table)
    assert partida is not None and partida.vote is not None
    html = ref.get(url(cup.slug)).content.decode()
    assert "votação" in html
    absent = seat_names(table)[partida.vote.absent]
    assert f"a vez de <bdi>{absent}</bdi> acabou (0 sim, 0 não)" in html
    assert "1 em votação" in html


def test_a_referee_suspends_with_a_reason_and_resumes_with_the_time_left(cup, ref, j1):
    table = online_table(cup, j1)
    before = partida_of(table)
    assert before is not None and before.deadline is not None
    response = ref.post(url(cup.slug, f"{table.pk}/suspender/"), {"motivo": "queda do servidor do clube"})
    assert response.status_code == 302 and response["Location"] == url(cup.slug)
    table.refresh_from_db()
    suspended = partida_of(table)
    assert suspended is not None and suspended.phase == SUSPENDED
    assert suspended.suspension is not None and suspended.suspension.reason == "queda do servidor do clube"
    assert table.deadline is None  # the clocks stand still
    event = TableEvent.objects.filter(table=table, kind="suspend").get()
    assert event.data["reason"] == "queda do servidor do clube"
    entry = AuditEntry.objects.get(tournament=cup, action="online.table_suspend")
    assert entry.user is not None and entry.user.username == "arbitro"
    assert "queda do servidor do clube" in entry.summary and entry.after["jogo"] == j1
    left = suspended.suspension.remaining
    assert left is not None and 0 < left <= 35_000

    html = ref.get(url(cup.slug)).content.decode()
    assert "suspensa" in html and "queda do servidor do clube" in html
    assert url(cup.slug, f"{table.pk}/retomar/") in html
    assert "1 suspensa" in html

    moment = timezone.now()
    response = ref.post(url(cup.slug, f"{table.pk}/retomar/"))
    assert response.status_code == 302
    table.refresh_from_db()
    resumed = partida_of(table)
    assert resumed is not None and resumed.phase == before.phase and resumed.suspension is None
    assert table.deadline is not None
    given = (table.deadline - moment).total_seconds() * 1000
    assert left - 2_000 <= given <= left + 2_000  # the time it had left, not a fresh 35 s
    assert AuditEntry.objects.filter(tournament=cup, action="online.table_resume").count() == 1


def test_a_suspension_needs_a_reason_and_changes_nothing_without_one(cup, ref, j1):
    table = online_table(cup, j1)
    seq = table.seq
    page = ref.get(url(cup.slug, f"{table.pk}/suspender/"))
    assert page.status_code == 200 and 'name="motivo"' in page.content.decode()
    response = ref.post(url(cup.slug, f"{table.pk}/suspender/"), {"motivo": "   "})
    assert response.status_code == 400
    assert "Diga o motivo da suspensão" in response.content.decode()
    response = ref.post(url(cup.slug, f"{table.pk}/suspender/"), {"motivo": "x" * 201})
    assert response.status_code == 400
    assert "no máximo 200 caracteres" in response.content.decode()
    table.refresh_from_db()
    assert table.seq == seq and not AuditEntry.objects.filter(action="online.table_suspend").exists()


def test_resuming_a_table_that_is_not_suspended_is_refused_in_portuguese(cup, ref, j1):
    table = online_table(cup, j1)
    response = ref.post(url(cup.slug, f"{table.pk}/retomar/"), follow=True)
    assert "a mesa não está suspensa" in response.content.decode()
    assert not AuditEntry.objects.filter(action="online.table_resume").exists()


def test_only_a_referee_of_that_event_may_suspend_its_tables(cup, client, load_file, j1):
    from tests.support.sumula import cup_setup

    table = online_table(cup, j1)
    other = cup_setup(load_file, slug="outra-copa")
    client.force_login(staff_user(other, "arbitro-de-outra", StaffRole.REFEREE))
    assert client.get(url(cup.slug)).status_code == 404
    assert client.post(url(cup.slug, f"{table.pk}/suspender/"), {"motivo": "teste"}).status_code == 404
    # from its own event's desk, another event's table is not found
    response = client.post(url(other.slug, f"{table.pk}/suspender/"), {"motivo": "teste"}, follow=True)
    assert "não é deste evento" in response.content.decode()
    response = client.post(url(other.slug, f"{table.pk}/retomar/"), follow=True)
    assert "não é deste evento" in response.content.decode()
    table.refresh_from_db()
    assert table.deadline is not None and partida_of(table).phase != SUSPENDED  # type: ignore[union-attr]
    client.logout()
    assert client.get(url(cup.slug))["Location"].startswith("/entrar/")


def test_the_domain_refuses_someone_without_a_role_and_a_casual_table(cup, j1):
    table = online_table(cup, j1)
    nobody = staff_user(None, "ninguem")
    with pytest.raises(Refused) as refused:
        referee.table_suspend_by_referee(
            tournament=cup, table_id=table.pk, user=nobody, reason="teste", now=timezone.now()
        )
    assert refused.value.kind == Refused.FORBIDDEN
    arbitro = staff_user(cup, "arbitro-2", StaffRole.REFEREE)
    casual = services.robot_table_create()
    with pytest.raises(Refused) as refused:
        referee.table_suspend_by_referee(
            tournament=cup, table_id=casual.pk, user=arbitro, reason="teste", now=timezone.now()
        )
    assert refused.value.kind == Refused.NOT_FOUND


def test_the_list_refreshes_itself_as_a_partial(cup, ref, j1):
    table = online_table(cup, j1)
    html = ref.get(url(cup.slug), headers={"HX-Request": "true", "HX-Target": "mesas-online"}).content.decode()
    assert html.lstrip().startswith('<div id="mesas-online"')
    assert "<html" not in html and seat_names(table)[0] in html


def test_an_event_with_no_online_table_says_so(cup, ref):
    html = ref.get(url(cup.slug)).content.decode()
    assert "Nenhuma mesa online neste evento ainda" in html


def test_the_referees_list_links_the_online_tables_when_there_are_some(cup, ref, j1):
    assert "mesas-online" not in ref.get(f"/organizar/{cup.slug}/arbitragem/").content.decode()
    online_table(cup, j1, seated=1)
    html = ref.get(f"/organizar/{cup.slug}/arbitragem/").content.decode()
    assert f'href="{url(cup.slug)}"' in html and "Mesa online (1)" in html


def _seated_profiles(table) -> dict:
    return {row.seat: row.profile for row in TableSeat.objects.filter(table=table).select_related("profile")}


def test_a_contest_is_decided_with_the_replay_beside_the_sumula(cup, ref, j1):
    from tests.support.online_tournament import play_humans
    from tournaments.online import tournament as online

    table = online_table(cup, j1)
    profiles = _seated_profiles(table)
    # before a partida ends: the panel says the replay comes at its end
    screen = ref.get(f"/organizar/{cup.slug}/arbitragem/{j1}/").content.decode()
    assert 'id="replay"' in screen and "Nenhuma partida terminou ainda" in screen
    play_humans(table.pk, profiles, now=timezone.now())  # the whole jogo, best of 3
    jogo = Jogo.objects.select_related("tournament", "dupla_a", "dupla_b").get(tournament=cup, key=j1)
    assert jogo.status == Jogo.AWAITING
    online.table_answer(jogo=jogo, profile=profiles[1], accept=False, reason="a mão 3 não foi assim", via=jogo.via)
    jogo.refresh_from_db()
    assert jogo.status == Jogo.CONTESTED

    logs = list(PartidaLog.objects.filter(table=table).order_by("n"))
    assert len(logs) in (2, 3)
    screen = ref.get(f"/organizar/{cup.slug}/arbitragem/{j1}/").content.decode()
    assert 'class="sumula-with-replay"' in screen and "Replay da mesa online" in screen
    assert "a mão 3 não foi assim" in screen  # the contest, on the same screen
    for log in logs:
        assert f'href="?partida={log.n}#replay"' in screen
    last = logs[-1]
    assert f'href="?partida={last.n}#replay" aria-current="page"' in screen  # the last partida by default
    assert f"{last.data['score'][0]} × {last.data['score'][1]}" in screen
    assert "Todas as mãos conferidas" in screen and screen.count(">conferida<") == len(last.data["maos"])
    assert f'href="/jogar/mesas/{table.pk}/partidas/{last.n}/"' in screen
    first = ref.get(f"/organizar/{cup.slug}/arbitragem/{j1}/?partida=1").content.decode()
    assert 'href="?partida=1#replay" aria-current="page"' in first
    score = logs[0].data["score"]
    assert f"{score[0]} × {score[1]}" in first
    odd = ref.get(f"/organizar/{cup.slug}/arbitragem/{j1}/?partida=x9").content.decode()
    assert f'href="?partida={last.n}#replay" aria-current="page"' in odd  # a bad number: the last one

    # the referee decides the contest (signs, with the reason) as for any súmula
    response = ref.post(
        f"/organizar/{cup.slug}/arbitragem/{j1}/",
        {"op": "homologacao", "via": jogo.via, "reason": "conferido no replay: a mão 3 foi como registrada"},
    )
    assert response.status_code == 302
    jogo.refresh_from_db()
    assert jogo.status == Jogo.HOMOLOGATED
    assert jogo.signed_reason == "conferido no replay: a mão 3 foi como registrada"


def test_a_physical_jogo_has_no_replay_beside_its_sumula(cup, ref, j1):
    screen = ref.get(f"/organizar/{cup.slug}/arbitragem/{j1}/").content.decode()
    assert 'id="replay"' not in screen and "sumula-with-replay" not in screen
