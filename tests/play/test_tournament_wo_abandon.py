"""WO by tolerance and abandonment at a tournament jogo's online table (issue 44; DOMAIN §9.2, §9.7): a dupla not
seated ``wo_tolerance_minutes`` after the table opened loses by WO, recorded by the system with its reason (the
referee may decide otherwise: a correction with a reason, audited); a player voted out after their turn ran out
loses the partida for the dupla: a *perda da partida* with the reason "abandono", and the jogo goes on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.desk import make_user
from tests.support.online_tournament import knockout_online_file
from tournaments.models import Jogo, OnlineProfile, OnlineTable, PartidaLog, SumulaEvent
from tournaments.online import services
from tournaments.online import tournament as online
from tournaments.sumula.commands import Correction
from tournaments.sumula.locked import Actor
from tournaments.sumula.selectors import sumula_get
from tournaments.sumula.services import sumula_correct, sumula_sign
from truco.store import partida_load

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(load_file):
    return load_file(knockout_online_file(duplas=4, slug="copa-wo", settings={"wo_tolerance_minutes": 10}))


def _jogo(event) -> Jogo:
    return Jogo.objects.filter(tournament=event, round=1).select_related("dupla_a", "dupla_b").order_by("position")[0]


def _sit(jogo: Jogo, seat: int, now) -> OnlineProfile:
    dupla = (jogo.dupla_a, jogo.dupla_b)[seat % 2]
    player = dupla.player1 if seat < 2 else dupla.player2
    profile = OnlineProfile.objects.create(guest_key=f"g{jogo.pk}-{seat}", display_name=player.name[:30])
    online.seat_take_by_link(jogo=jogo, dupla=dupla, player=player, profile=profile, now=now)
    return profile


def test_the_tolerance_is_the_events_and_the_file_keeps_it(event):
    assert event.wo_tolerance_minutes == 10
    table = OnlineTable.objects.get(jogo=_jogo(event))
    assert table.opens_at is not None
    assert table.deadline == table.opens_at + timedelta(minutes=10)


def test_a_dupla_not_seated_in_time_loses_by_wo_and_the_referee_may_decide_otherwise(event):
    jogo = _jogo(event)
    table = OnlineTable.objects.get(jogo=jogo)
    now = table.opens_at
    for seat in (0, 2, 1):  # dupla B's second player never comes
        _sit(jogo, seat, now)
    assert services.table_tick(now=now + timedelta(minutes=9, seconds=59)) == []  # within the tolerance
    jogo.refresh_from_db()
    assert jogo.status == "scheduled" and not jogo.walkover
    services.table_tick(now=now + timedelta(minutes=10))
    jogo.refresh_from_db()
    table.refresh_from_db()
    assert jogo.walkover == "b"
    assert "não se sentou à mesa até 10 minutos" in jogo.penalty_reason
    assert jogo.dupla_b.display_name in jogo.penalty_reason
    assert table.status == OnlineTable.CLOSED
    event_row = SumulaEvent.objects.get(jogo=jogo, action="result")
    assert event_row.user.username == online.MESA_ONLINE
    sheet = sumula_get(tournament=event, jogo=jogo)
    assert sheet.walkover == jogo.dupla_b.key and "mesa online" in (sheet.walkover_reason or "")
    # the referee decides otherwise (dupla B was there, the site failed it): signs, then corrects with a reason
    referee = make_user("arbitro", event, role="referee")
    actor = Actor(user=referee, method="session")
    if jogo.status != "homologated":
        sumula_sign(tournament=event, key=jogo.key, via=jogo.via, reason="WO da mesa conferido", actor=actor)
    sumula_correct(
        tournament=event,
        key=jogo.key,
        data=Correction.from_json(
            {"reason": "a dupla B estava conectada: falha do site", "partidas": [[12, 8], [10, 12], [12, 4]]}
        ),
        actor=actor,
    )
    jogo.refresh_from_db()
    assert jogo.via == 2 and not jogo.walkover and jogo.via_reason == "a dupla B estava conectada: falha do site"
    assert SumulaEvent.objects.filter(jogo=jogo, action="correction", user=referee).exists()


def test_both_duplas_absent_is_a_double_wo(event):
    jogo = _jogo(event)
    table = OnlineTable.objects.get(jogo=jogo)
    _sit(jogo, 0, table.opens_at)  # one player of each dupla is not a dupla seated
    _sit(jogo, 1, table.opens_at)
    services.table_tick(now=table.deadline)
    jogo.refresh_from_db()
    assert jogo.walkover == "both"
    assert "nenhuma das duplas" in jogo.penalty_reason


def test_four_seated_before_the_time_play_and_no_wo_comes(event):
    jogo = _jogo(event)
    table = OnlineTable.objects.get(jogo=jogo)
    for seat in range(4):
        _sit(jogo, seat, table.opens_at)
    table.refresh_from_db()
    assert table.status == OnlineTable.PLAYING
    assert table.deadline is not None and table.deadline < table.opens_at + timedelta(minutes=10)
    services.table_tick(now=table.opens_at + timedelta(minutes=10, seconds=1))
    jogo.refresh_from_db()
    assert not jogo.walkover


def test_an_abandonment_is_a_perda_da_partida_and_the_jogo_goes_on(event):
    jogo = _jogo(event)
    table = OnlineTable.objects.get(jogo=jogo)
    now = timezone.now()
    for seat in range(4):
        _sit(jogo, seat, now)
    table.refresh_from_db()
    partida = partida_load(table.state)
    absent = partida.mao.turn  # the first to play never does
    # the turn runs out: the other three vote (nobody votes: no), then the partida ends with an abandonment
    now += timedelta(seconds=36)
    services.table_tick(now=now)
    now += timedelta(seconds=36)
    services.table_tick(now=now)
    log = PartidaLog.objects.get(table=table, n=1)
    assert log.ended_by == "abandonment" and log.data["abandoned_by"] == absent
    jogo.refresh_from_db()
    sheet = sumula_get(tournament=event, jogo=jogo)
    loser = (jogo.dupla_a, jogo.dupla_b)[absent % 2].key
    first = sheet.partidas[0]
    assert first.penalty is not None and first.penalty.lost_by == loser and first.penalty.reason == "abandono"
    assert first.finished and first.winner != loser
    assert jogo.status == "in_progress"
    # the next partida is dealt on the same table after a pause
    table.refresh_from_db()
    assert table.status == OnlineTable.FINISHED and table.deadline is not None
    services.table_tick(now=table.deadline)
    table.refresh_from_db()
    assert table.status == OnlineTable.PLAYING and table.partida_n == 2


def test_a_jogo_the_referee_decided_first_closes_its_table_without_a_second_wo(event):
    from tournaments.sumula.commands import ResultSet
    from tournaments.sumula.services import sumula_result_set

    jogo = _jogo(event)
    table = OnlineTable.objects.get(jogo=jogo)
    referee = make_user("arbitro2", event, role="referee")
    sumula_result_set(
        tournament=event,
        key=jogo.key,
        data=ResultSet.from_json({"walkover": jogo.dupla_a.key, "walkover_reason": "avisou que não vem"}),
        actor=Actor(user=referee, method="session"),
    )
    services.table_tick(now=table.deadline)
    jogo.refresh_from_db()
    table.refresh_from_db()
    assert table.status == OnlineTable.CLOSED and table.deadline is None
    assert jogo.walkover == "a" and jogo.penalty_reason == "avisou que não vem"
    assert not SumulaEvent.objects.filter(jogo=jogo, user__username=online.MESA_ONLINE).exists()
