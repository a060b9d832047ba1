"""Tournament jogos played online, for tests: an event's file with online settings, robots at every table and the
clock driven by the test (``services.table_tick``) until nothing more happens."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from tournaments.models import Jogo, OnlineTable, PartidaLog, Tournament
from tournaments.online import services
from tournaments.online import tournament as online


def knockout_online_file(*, duplas: int = 8, slug: str = "copa-online", online_setting: Any = "all", **extra) -> dict:
    """A single elimination of ``duplas`` duplas (seeded, best of 3, a third-place jogo), played online."""
    today = timezone.localdate()
    players = [{"key": f"p{i}", "name": f"Jogador {i}"} for i in range(1, 2 * duplas + 1)]
    pairs = [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"], "seed": i} for i in range(1, duplas + 1)]
    settings: dict[str, Any] = {"third_place": "match"}
    if online_setting is not None:
        settings["online"] = online_setting
    settings |= extra.pop("settings", {})
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Copa Online",
            "slug": slug,
            "date": today.isoformat(),
            "start_time": timezone.localtime().strftime("%H:%M"),
            "preset": "online",
            "settings": settings,
            **extra,
        },
        "players": players,
        "duplas": pairs,
        "stages": [
            {
                "key": "mata",
                "kind": "knockout",
                "best_of": 3,
                "entrants": [p["key"] for p in pairs],
                "draw": {"method": "seeded"},
            }
        ],
        "jogos": [],
    }


def robots_everywhere(tournament: Tournament, *, now: datetime, level: str = "basico") -> int:
    """Robots in every empty seat of the event's open tables; how many tables got some."""
    count = 0
    tables = OnlineTable.objects.filter(jogo__tournament=tournament, status=OnlineTable.OPEN, partida_n=0)
    for table in tables.select_related("jogo"):
        if table.seats.count() < 4:
            online.robots_seat(jogo=table.jogo, level=level, now=now)
            count += 1
    return count


def clock_run(tournament: Tournament, *, now: datetime, robots: bool = True, steps: int = 5000) -> datetime:
    """Tick the tables' clock (the test's time), seating robots at new tables, jumping to the next deadline when
    nothing is due, until no table of the event has one. Returns the time it reached."""
    for _ in range(steps):
        if robots:
            robots_everywhere(tournament, now=now)
        ids = list(OnlineTable.objects.filter(jogo__tournament=tournament).values_list("pk", flat=True))
        moved = services.table_tick(now=now, limit=500, table_ids=ids)
        if moved:
            continue
        nxt = (
            OnlineTable.objects.filter(jogo__tournament=tournament, deadline__isnull=False)
            .order_by("deadline")
            .values_list("deadline", flat=True)
            .first()
        )
        if nxt is None:
            return now
        now = max(now + timedelta(milliseconds=1), nxt)
    raise AssertionError("the tables did not settle")


def logs_of(jogo: Jogo) -> list[dict]:
    table = OnlineTable.objects.get(jogo=jogo)
    return [log.data for log in PartidaLog.objects.filter(table=table).order_by("n")]


def play_humans(table_id: int, profiles: dict[int, Any], *, now: datetime, until_decided: bool = True) -> datetime:
    """Play a tournament table whose seats are people (``profiles`` by seat) with the robots' choices, sent as
    their actions (``services.table_act``), the clock ticking between partidas; until the jogo is decided (or
    the current partida ends). Returns the time reached."""
    import itertools
    import random

    from tests.support.online import message_of
    from truco.robots import robot_action
    from truco.store import partida_load
    from truco.views import view

    rng = random.Random(7)
    ids = itertools.count(1)
    for _ in range(20_000):
        table = OnlineTable.objects.select_related("jogo").get(pk=table_id)
        if table.jogo.status not in ("scheduled", "in_progress"):
            return now
        if table.status == OnlineTable.PLAYING and table.state is not None:
            partida = partida_load(table.state)
            acted = False
            for seat, profile in profiles.items():
                action = robot_action(view(partida, seat), level="basico", rng=rng)
                if action is None:
                    continue
                message = message_of(action) | {"id": f"h{next(ids)}", "seq": table.seq}
                result = services.table_act(table_id=table_id, profile=profile, message=message, now=now)
                assert result.refusal is None, result.refusal
                acted = True
                break
            if acted:
                now += timedelta(milliseconds=200)
                continue
        if not until_decided and table.status == OnlineTable.FINISHED:
            return now
        moved = services.table_tick(now=now, limit=50)
        if not moved:
            nxt = OnlineTable.objects.filter(pk=table_id).values_list("deadline", flat=True).get()
            if nxt is None:
                return now
            now = max(now + timedelta(milliseconds=1), nxt)
    raise AssertionError("the jogo did not end")
