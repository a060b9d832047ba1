"""The tables' clock (DOMAIN §9.2): an expiry fires once however many clocks tick at once (PostgreSQL's SKIP
LOCKED), robots act through it, and a table survives a restart: its state and deadline are in its row, and when
no clock ran for a while (every server down) it resumes with the time it had left."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from tests.support.online import seated_table
from tournaments.models import ClockBeat, OnlineTable, TableEvent
from tournaments.online import selectors, services
from truco.store import partida_load

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_expiry_fires_once_with_two_clocks_ticking_at_once():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no SELECT … FOR UPDATE SKIP LOCKED: two clocks at once need PostgreSQL")
    tables = [seated_table() for _ in range(6)]
    when = timezone.now() + timedelta(seconds=36)
    barrier = threading.Barrier(2)
    moved: list[list[int]] = []

    def clock():
        try:
            barrier.wait()
            moved.append(services.table_tick(now=when))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=clock) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = sorted(moved[0] + moved[1])
    assert ids == sorted(t.id for t in tables)  # each table moved by exactly one clock
    for t in tables:
        assert TableEvent.objects.filter(table_id=t.id, kind="expiry").count() == 1
        row = OnlineTable.objects.get(pk=t.id)
        assert partida_load(row.state).phase == "vote"
    assert services.table_tick(now=when) == []  # and never again


def test_robots_at_a_casual_table_act_through_the_clock(settings):
    settings.ZAP_ROBOT_DELAY_MS = 900
    table = seated_table(humans=1)
    row = OnlineTable.objects.get(pk=table.id)
    partida = partida_load(row.state)
    start = timezone.now()
    # whenever the turn is a robot's, the table's deadline is 900 ms away, not the 35 s of the turn
    if partida.mao.turn != 0:
        assert row.deadline <= start + timedelta(seconds=1)
        before = row.seq
        assert services.table_tick(now=start + timedelta(seconds=1)) == [table.id]
        assert OnlineTable.objects.get(pk=table.id).seq == before + 1  # one robot, one step per tick
    else:
        assert row.deadline > start + timedelta(seconds=30)


def test_a_table_resumes_after_a_restart_with_the_time_it_had_left():
    table = seated_table()
    start = timezone.now()
    resume_after = timedelta(seconds=5)
    services.table_tick(now=start, resume_after=resume_after)  # a clock beats
    row = OnlineTable.objects.get(pk=table.id)
    left = partida_load(row.state).deadline - int(start.timestamp() * 1000)
    assert 30_000 < left <= 35_000
    for second in range(2, 11, 2):  # the clock beats on: 10 s of the turn gone
        services.table_tick(now=start + timedelta(seconds=second), resume_after=resume_after)
    # every server stops; a new process (nothing kept in memory) starts 60 s later
    selectors._partidas.clear()
    stopped_at = ClockBeat.objects.get().at
    back = stopped_at + timedelta(seconds=60)
    moved = services.table_tick(now=back, resume_after=resume_after)
    assert moved == []  # nothing expired: the table got its time back
    row = OnlineTable.objects.get(pk=table.id)
    partida = partida_load(row.state)
    remaining = partida.deadline - int(back.timestamp() * 1000)
    assert abs(remaining - (left - 10_000)) <= 2  # what was left when the clocks stopped
    kinds = list(TableEvent.objects.filter(table_id=table.id).order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["suspend", "resume"]
    # the partida goes on from its row: the player whose turn it is plays
    turn = partida.mao.turn
    card = partida.mao.hands[turn][0]
    result = services.table_act(
        table_id=table.id,
        profile=table.profiles[turn],
        message={"type": "play", "id": "after-restart", "seq": row.seq, "card": card, "closed": False},
        now=back + timedelta(seconds=1),
    )
    assert result.refusal is None and result.seq == row.seq + 1


def test_a_clock_that_beat_recently_changes_no_deadline():
    table = seated_table()
    start = timezone.now()
    services.table_tick(now=start, resume_after=timedelta(seconds=5))
    before = OnlineTable.objects.get(pk=table.id).deadline
    services.table_tick(now=start + timedelta(seconds=3), resume_after=timedelta(seconds=5))
    assert OnlineTable.objects.get(pk=table.id).deadline == before
    assert not TableEvent.objects.filter(table_id=table.id, kind="suspend").exists()
