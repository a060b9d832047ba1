"""Online tables for tests: guests with sessions, a table with four seated, live connections (Channels'
``WebsocketCommunicator`` on the site's own ASGI application) and a driver that plays with the robots' legal
actions over the sockets.

Tests are plain functions marked ``django_db(transaction=True)`` (broadcasts go out when a write commits) that
run their socket part with ``run(...)``; the clock is the test's: ``tick(now)`` runs ``services.table_tick``.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from scoring.rules import settings_build
from tournaments.models import OnlineProfile, OnlineTable, TableSeat
from tournaments.online import people, services
from tournaments.play.identity import GUEST_SESSION_KEY
from truco.actions import Action, AnswerBet, AskBet, CastVote, DecideOnze, PlayCard
from truco.deal import deal
from truco.moments import EPOCH, from_datetime
from truco.robots import legal_actions
from truco.rules import partida_at
from truco.store import partida_dump

ORIGIN = b"http://testserver"
STALE = "A mesa mudou"  # the refusal of an action sent with an old seq (services.table_act)
NAMES = ("Ana", "Bruno", "Carla", "Davi")
_ids = itertools.count(1)


def run[T](scenario: Callable[[], Awaitable[T]]) -> T:
    """Run an async scenario from a sync test (the consumers' database calls come back to this thread)."""
    return async_to_sync(scenario)()


def guest(name: str, avatar: str = "marreco") -> tuple[OnlineProfile, str]:
    """A guest's profile and the key of a session that holds it (the ``sessionid`` cookie)."""
    profile = people.profile_for_guest(guest_key=None, display_name=name, avatar=avatar)
    session = SessionStore()
    session[GUEST_SESSION_KEY] = profile.guest_key
    session.create()
    assert session.session_key is not None
    return profile, session.session_key


@dataclass
class Table:
    table: OnlineTable
    profiles: list[OnlineProfile]  # by seat
    sessions: list[str]  # by seat

    @property
    def id(self) -> int:
        return self.table.pk


def seated_table(*, start: bool = True, humans: int = 4, robots: str = "basico") -> Table:
    """A confirmed table with ``humans`` guests at seats 0.. (the host at 0), robots in the other seats, started
    (unless ``start`` is False)."""
    profiles, sessions = [], []
    for name in NAMES[:humans]:
        profile, key = guest(name)
        profiles.append(profile)
        sessions.append(key)
    table = services.table_create(host=profiles[0], appearance="", face="", back="")
    services.table_confirm(table=table, by=profiles[0])
    for seat, profile in enumerate(profiles[1:], start=1):
        services.seat_take(table=table, profile=profile, seat=seat)
    if humans < 4:
        services.robots_fill(table=table, by=profiles[0], level=robots)
    if start:
        services.table_start(table=table, by=profiles[0])
    table.refresh_from_db()
    return Table(table=table, profiles=profiles, sessions=sessions)


def headers(session: str | None, *, origin: bytes | None = ORIGIN) -> list[tuple[bytes, bytes]]:
    out = [(b"host", b"testserver")]
    if origin is not None:
        out.append((b"origin", origin))
    if session is not None:
        out.append((b"cookie", f"sessionid={session}".encode()))
    return out


def communicator(path: str, session: str | None, *, origin: bytes | None = ORIGIN) -> WebsocketCommunicator:
    from config.asgi import application

    return WebsocketCommunicator(application, path, headers=headers(session, origin=origin))


@dataclass
class Socket:
    """One live connection and every frame it received (``frames``), with the last state it was sent."""

    comm: WebsocketCommunicator
    seat: int | None
    table_id: int
    frames: list[dict[str, Any]] = field(default_factory=list)
    seq: int = -1
    state: dict[str, Any] | None = None

    sent: list[float] = field(default_factory=list)

    async def send(self, message: dict[str, Any], *, paced: bool = True) -> None:
        """Send ``message``; ``paced``: as a well-behaved client, at most 10 a second (the connection's limit)."""
        loop = asyncio.get_running_loop()
        if paced and len(self.sent) >= 9:
            wait = 1.05 - (loop.time() - self.sent[-9])
            if wait > 0:
                await asyncio.sleep(wait)
        self.sent = [*self.sent[-9:], loop.time()]
        await self.comm.send_json_to(message)

    async def send_text(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    def _keep(self, frame: dict[str, Any]) -> dict[str, Any]:
        self.frames.append(frame)
        if frame["type"] in ("state", "event"):
            self.seq = frame["seq"]
            self.state = frame["state"]
        return frame

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame (fails the test when none comes within ``timeout``)."""
        return self._keep(await self.comm.receive_json_from(timeout=timeout))

    async def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
        """Read frames until one satisfies ``predicate`` (fails the test after ``timeout``)."""
        while True:
            frame = await self.next(timeout)
            if predicate(frame):
                return frame

    async def drain(self, wait: float = 0.02) -> list[dict[str, Any]]:
        """Every frame that arrives until none comes for ``wait`` seconds; keeps the last state and seq."""
        got: list[dict[str, Any]] = []
        while not await self.comm.receive_nothing(timeout=wait, interval=0.002):
            got.append(self._keep(await self.comm.receive_json_from()))
        return got

    async def act(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send an action with a fresh id and the last seq; returns the first frame that answers it: its event,
        or its refusal (frames of other changes before it are kept, not returned). Refused for an old seq (a change
        it had not seen yet), it takes the new state and acts again, at most twice, as the table's page does."""
        for attempt in range(3):
            full = {"id": f"a{next(_ids)}", "seq": self.seq, **message}
            await self.send(full)
            while True:
                frame = await self.next()
                if frame["type"] == "refused" and frame.get("id") == full["id"]:
                    if frame["reason"].startswith(STALE) and attempt < 2:
                        await self.drain(0.2)  # as a client does: take the new state, then act again
                        break
                    return frame
                if (
                    frame["type"] == "event"
                    and frame["event"]["seat"] == self.seat
                    and frame["event"]["type"] == message["type"]
                ):
                    return frame
        raise AssertionError("unreachable")

    async def close(self) -> None:
        await self.comm.disconnect()


async def connect(
    table_id: int, session: str | None, *, seat: int | None = None, origin: bytes | None = ORIGIN
) -> Socket:
    comm = communicator(f"/ws/mesas/{table_id}/", session, origin=origin)
    connected, _code = await comm.connect(timeout=5)
    assert connected, f"table {table_id}: not connected ({_code})"
    socket = Socket(comm=comm, seat=seat, table_id=table_id)
    assert (await socket.next())["type"] == "state"
    assert (await socket.next())["type"] == "seats"
    if seat is not None:
        await _until_present(table_id, seat)
    await socket.drain()
    return socket


async def _until_present(table_id: int, seat: int, timeout: float = 10.0) -> None:
    """Wait until the connection's presence is written (the consumer writes it after the first frames; at a table
    in play it is an event with its seq): a ``settle`` after this sees that seq, however loaded the machine."""
    present = database_sync_to_async(
        lambda: TableSeat.objects.filter(table_id=table_id, seat=seat, present=True).exists()
    )
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while not await present():
        assert loop.time() < until, f"table {table_id}: seat {seat} not present after {timeout} s"
        await asyncio.sleep(0.01)


async def connect_all(table: Table) -> list[Socket]:
    sockets = [await connect(table.id, key, seat=seat) for seat, key in enumerate(table.sessions)]
    await settle(sockets)
    return sockets


def message_of(action: Action) -> dict[str, Any]:
    """A robot's action as the live connection's message (without id and seq)."""
    match action:
        case PlayCard(card=card, closed=closed, slot=slot):
            if slot is not None:
                return {"type": "play", "slot": slot}
            return {"type": "play", "card": card, "closed": closed}
        case AskBet():
            return {"type": "bet"}
        case AnswerBet(accept=accept):
            return {"type": "answer", "accept": accept}
        case DecideOnze(play=play):
            return {"type": "onze", "play": play}
        case CastVote(extend=extend):
            return {"type": "vote", "extend": extend}
    raise AssertionError(action)


async def settle(sockets: list[Socket], wait: float = 0.005) -> None:
    """Wait until every socket has been sent the table's last event (its seq), then read what else came within
    ``wait`` seconds."""
    seq = await database_sync_to_async(
        lambda: OnlineTable.objects.filter(pk=sockets[0].table_id).values_list("seq", flat=True).get()
    )()
    for s in sockets:
        while s.seq < seq:
            await s.next()
    if wait:
        await drain_all(sockets, wait=wait)


async def drain_all(sockets: list[Socket], wait: float = 0.02) -> None:
    for s in sockets:
        await s.drain(wait)


async def tick(now: datetime) -> list[int]:
    return await database_sync_to_async(services.table_tick)(now=now)


def later(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


class Clock:
    """The test's clock: what the live connection and ``tick`` see as now; moves only when told."""

    def __init__(self) -> None:
        self.at = timezone.now()

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


def set_partida(
    table: Table, *, score: tuple[int, int], first: int = 0, seed: bytes = bytes(range(32)), at: datetime | None = None
) -> None:
    """Put the table's partida at ``score`` with a fresh mão dealt by ``seed`` from ``first`` (a test's setup
    writes the row as the services would)."""
    row = table.table
    row.refresh_from_db()
    rules, errors = settings_build(preset=row.preset, overrides=None)
    assert rules is not None, errors
    now_ms = from_datetime(at or timezone.now())
    dealt = deal(seed=seed, first=first, with_vira=True)
    partida = partida_at(rules=rules, score=score, first=first, dealt=dealt, seed=seed, now=now_ms, seq=row.seq)
    row.state = partida_dump(partida)
    assert partida.deadline is not None
    row.deadline = EPOCH + timedelta(milliseconds=partida.deadline)
    row.save(update_fields=["state", "deadline"])


async def play_random(
    sockets: list[Socket],
    rng: random.Random,
    *,
    steps: int = 10_000,
    expire_every: float = 0.0,
    clock: Clock | None = None,
) -> int:
    """Play at random over the sockets, each action one the seat's state lists (``legal_actions``), until the
    partida ends; with ``expire_every`` > 0, that share of the steps lets the clock run out instead (a tick past
    the deadline). Returns the steps taken."""
    for n in range(steps):
        await settle(sockets, wait=0)
        state = sockets[0].state
        assert state is not None
        if state.get("ended") or state.get("status") != OnlineTable.PLAYING:
            await drain_all(sockets, wait=0.05)
            return n
        if expire_every and rng.random() < expire_every:
            await tick(clock.advance(40) if clock else later(40))
            continue
        movers = [s for s in sockets if s.state and s.state["may"]]
        if not movers:  # waiting on a robot, or nothing to do: let the clock decide
            await tick(clock() if clock else timezone.now())
            continue
        mover = rng.choice(movers)
        assert mover.state is not None
        action = rng.choice(legal_actions(mover.state))
        if clock:
            clock.advance(rng.uniform(0.1, 3))
        await mover.act(message_of(action))  # its event, or why it was refused (another seat acted first)
    raise AssertionError("the partida did not end")


async def wait_for(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)
