"""Partidas between accounts for the ranking's and the replay's tests: four accounts sit at a casual table and
play a whole partida through the services (``table_act``), each move the "básico" robot's choice for that seat,
with the test's clock; or one seat lets its turn run out and the other three vote it out (an abandonment)."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.support.online import message_of
from tournaments.models import OnlineProfile, OnlineTable, PartidaLog
from tournaments.online import people, services
from truco.robots import robot_action
from truco.rules import may
from truco.state import SEATS
from truco.store import partida_load
from truco.views import view

_ids = itertools.count(1)
STEP = timedelta(seconds=1)


def account(username: str, *, first_name: str = "", **extra) -> tuple[object, OnlineProfile]:
    user = get_user_model().objects.create_user(username=username, first_name=first_name, **extra)
    return user, people.profile_for_user(user=user)


def table_of(profiles: list[OnlineProfile]) -> OnlineTable:
    """A confirmed casual table with ``profiles`` at seats 0.. (robots in the rest), not started."""
    table = services.table_create(host=profiles[0], appearance="", face="", back="")
    services.table_confirm(table=table, by=profiles[0])
    for seat, profile in enumerate(profiles[1:], start=1):
        services.seat_take(table=table, profile=profile, seat=seat)
    if len(profiles) < SEATS:
        services.robots_fill(table=table, by=profiles[0], level="basico")
    return table


def play_partida(
    table: OnlineTable,
    profiles: list[OnlineProfile],
    *,
    seed: int,
    now: datetime | None = None,
    abandon: int | None = None,
    abandon_after: int = 6,
) -> tuple[PartidaLog, datetime]:
    """Start a partida at ``table`` and play it to its end with the robots' moves for the people's seats (robot
    seats move through the clock). ``abandon``: that seat stops playing after ``abandon_after`` moves of its
    own; its turn runs out and the other three vote no (DOMAIN §9.2). Returns the log and the clock after."""
    rng = random.Random(seed)
    now = now or timezone.now()
    by_seat = dict(enumerate(profiles))
    own_moves = 0
    with services.draws_seeded(seed):
        services.table_start(table=table, by=profiles[0], now=now)
        for _ in range(5000):
            table.refresh_from_db()
            if table.status != OnlineTable.PLAYING:
                break
            partida = partida_load(table.state)
            movers = [s for s in range(SEATS) if may(partida, s)]
            person = next((s for s in movers if s in by_seat), None)
            if partida.phase == "vote" and partida.vote is not None:
                voter = next(s for s, v in enumerate(partida.vote.votes) if v is None and s != partida.vote.absent)
                message = {"type": "vote", "extend": False}
                person = voter
            elif person is None or (person == abandon and own_moves >= abandon_after):
                # a robot's thinking time, or the abandoning seat's 35 s running out
                now += STEP if person is None else timedelta(seconds=36)
                services.table_tick(now=now, table_ids=[table.pk])
                continue
            else:
                action = robot_action(view(partida, person), level="basico", rng=rng)
                assert action is not None
                message = message_of(action)
                if person == abandon:
                    own_moves += 1
            now += STEP
            result = services.table_act(
                table_id=table.pk,
                profile=by_seat[person],
                message={**message, "id": f"t{next(_ids)}", "seq": table.seq},
                now=now,
            )
            assert result.refusal is None, result.refusal
        else:  # pragma: no cover
            raise AssertionError("the partida did not end")
    table.refresh_from_db()
    return PartidaLog.objects.get(table=table, n=table.partida_n), now
