"""Reads of online play: the lobby, a sala's tables, who sits where, a seat's state (what it may see, DOMAIN
§9.3), the events a connection missed, the logs of finished partidas.

A seat's state is the engine's view (``truco.views.view``) of the partida stored in the table's row, plus the
table's ``status`` and ``partida_n``; nothing else decides what a seat sees. A process keeps the partidas it
took up lately by table and ``seq`` (a table's row changes only with a new ``seq``), so four seats and the
spectators of one table load its JSON once per change.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Any, Final

from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _

from truco.actions import Event
from truco.state import SEATS, Partida
from truco.store import partida_load
from truco.views import event_view, view

from ..models import OnlineProfile, OnlineTable, PartidaLog, Sala, TableEvent, TableSeat
from .services import event_from_log

EVENTS_MAX: Final = 200  # a connection that missed more gets a new state instead
PARTIDAS_KEPT: Final = 2048


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    avatar: str
    robot: str  # the robot's level, "" for a person
    present: bool
    host: bool
    profile_id: int | None
    guest: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "avatar": self.avatar,
            "robot": self.robot or None,
            "present": self.present,
            "host": self.host,
            "guest": self.guest,
        }


@dataclass(frozen=True, slots=True)
class SalaRow:
    slug: str
    name: str
    number: int
    tables: int  # live tables (open, playing, finished)
    free_seats: int  # at open tables


# Partidas taken up from their rows, by (table, seq) ------------------------------------------------------------

_partidas: OrderedDict[tuple[int, int], Partida] = OrderedDict()
_partidas_lock = Lock()


def partida_of(table: OnlineTable) -> Partida | None:
    """The partida stored in ``table``'s row (None before the first), kept by the process per (table, seq)."""
    return partida_from(table_id=table.pk, seq=table.seq, state=table.state)


def partida_from(*, table_id: int, seq: int, state: dict[str, Any] | None) -> Partida | None:
    if state is None:
        return None
    key = (table_id, seq)
    with _partidas_lock:
        found = _partidas.get(key)
        if found is not None:
            _partidas.move_to_end(key)
            return found
    partida = partida_load(state)
    with _partidas_lock:
        _partidas[key] = partida
        while len(_partidas) > PARTIDAS_KEPT:
            _partidas.popitem(last=False)
    return partida


# Salas and tables ----------------------------------------------------------------------------------------------


def lobby() -> list[SalaRow]:
    """Every sala with its live tables and the free seats at its open ones."""
    live = Q(tables__status__in=OnlineTable.LIVE_STATUSES)
    salas = Sala.objects.annotate(n=Count("tables", filter=live, distinct=True)).order_by("number")
    taken = dict(
        TableSeat.objects.filter(table__status=OnlineTable.OPEN, table__sala__isnull=False)
        .values_list("table__sala")
        .annotate(n=Count("id"))
        .values_list("table__sala", "n")
    )
    open_tables = dict(
        OnlineTable.objects.filter(status=OnlineTable.OPEN, sala__isnull=False)
        .values_list("sala")
        .annotate(n=Count("id"))
        .values_list("sala", "n")
    )
    return [
        SalaRow(
            slug=s.slug,
            name=s.name,
            number=s.number,
            tables=s.n,
            free_seats=open_tables.get(s.pk, 0) * SEATS - taken.get(s.pk, 0),
        )
        for s in salas
    ]


def sala_get(*, slug: str) -> Sala | None:
    return Sala.objects.filter(slug=slug).first()


def _seat_info(row: TableSeat, host_id: int | None) -> SeatInfo:
    profile = row.profile
    if profile is None:
        return SeatInfo(
            seat=row.seat,
            name=_("Robô %(n)d") % {"n": row.seat + 1},
            avatar="robo",
            robot=row.robot,
            present=True,
            host=False,
            profile_id=None,
            guest=False,
        )
    return SeatInfo(
        seat=row.seat,
        name=profile.display_name,
        avatar=profile.avatar,
        robot="",
        present=row.present,
        host=profile.pk == host_id,
        profile_id=profile.pk,
        guest=profile.user_id is None,
    )


def sala_tables(*, sala: Sala) -> list[OnlineTable]:
    """The sala's live tables (not the drafts: a table is hidden until confirmed), by number, their seats and
    players read with them (``table_seats`` then reads nothing more): three queries."""
    seats = Prefetch("seats", queryset=TableSeat.objects.select_related("profile").order_by("seat"))
    return list(
        OnlineTable.objects.filter(sala=sala, status__in=OnlineTable.LIVE_STATUSES)
        .select_related("host")
        .prefetch_related(seats)
        .order_by("number")
        .defer("state")
    )


def table_get(*, table_id: int) -> OnlineTable | None:
    """The table, whatever its status (a closed or draft table is the caller's to hide), or None."""
    return OnlineTable.objects.filter(pk=table_id).select_related("sala").first()


def table_seats(*, table: OnlineTable) -> list[TableSeat]:
    """The table's taken seats, by seat, with their profiles (from ``sala_tables``' prefetch when it has it)."""
    return (
        list(table.seats.select_related("profile").order_by("seat"))
        if not _prefetched(table)
        else list(table.seats.all())
    )


def _prefetched(table: OnlineTable) -> bool:
    cache: dict[str, Any] = getattr(table, "_prefetched_objects_cache", None) or {}
    return "seats" in cache


def seats_info(*, table: OnlineTable) -> list[SeatInfo | None]:
    """Who sits where, by seat (None: free), as the live connection sends it."""
    out: list[SeatInfo | None] = [None] * SEATS
    for row in table_seats(table=table):
        if 0 <= row.seat < SEATS:
            out[row.seat] = _seat_info(row, table.host_id)
    return out


def seat_of(*, table: OnlineTable, profile: OnlineProfile | None) -> int | None:
    if profile is None:
        return None
    return TableSeat.objects.filter(table=table, profile=profile).values_list("seat", flat=True).first()


# What a seat sees ----------------------------------------------------------------------------------------------


def _waiting_state(seat: int | None) -> dict[str, Any]:
    """The state before a table's first partida: nothing dealt."""
    return {
        "seat": seat,
        "phase": "waiting",
        "score": [0, 0],
        "mao": None,
        "hand": None,
        "partner_hand": None,
        "hands": [0] * SEATS,
        "vira": None,
        "played": [None] * SEATS,
        "rodadas": [],
        "value": 1,
        "bet": None,
        "turn": None,
        "may": [],
        "options": {"bet": None, "raise": None, "closed": False},
        "deadline": None,
        "vote": None,
        "present": [False] * SEATS,
        "last_mao": None,
        "suspended": None,
        "ended": None,
    }


def state_for(
    *, table_id: int, seq: int, state: dict[str, Any] | None, status: str, partida_n: int, seat: int | None
) -> dict[str, Any]:
    """The INTERCHANGE "state" object of ``seat`` (None: a spectator) for a stored partida."""
    partida = partida_from(table_id=table_id, seq=seq, state=state)
    if partida is None:
        out = _waiting_state(seat)
    else:
        out = view(partida, seat)
    out["status"] = status
    out["partida_n"] = partida_n
    out["table"] = table_id
    return out


def seat_state(*, table: OnlineTable, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see of the table now: the engine's view plus the table's status."""
    out = state_for(
        table_id=table.pk,
        seq=table.seq,
        state=table.state,
        status=table.status,
        partida_n=table.partida_n,
        seat=seat,
    )
    if table.state is None:
        out["present"] = [s is not None and s.present for s in seats_info(table=table)]
    return out


def event_for(data: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A stored event (as the log writes it) less what ``seat`` may not see (``truco.views.event_view``)."""
    event: Event = event_from_log(data)
    return event_view(event, seat)


def events_since(*, table: OnlineTable, seq: int, seat: int | None) -> list[dict[str, Any]] | None:
    """The events after ``seq`` as ``seat`` may see them, in order; None when a new state serves better (too many,
    or a ``seq`` the table never had)."""
    if seq < 0 or seq > table.seq or table.seq - seq > EVENTS_MAX:
        return None
    if seq == table.seq:
        return []
    rows = TableEvent.objects.filter(table=table, seq__gt=seq).order_by("seq").values_list("data", flat=True)
    return [event_for(data, seat) for data in rows]


def partida_log(*, table_id: int, n: int) -> dict[str, Any] | None:
    """The game log of a finished partida (registro.json), or None."""
    return PartidaLog.objects.filter(table_id=table_id, n=n).values_list("data", flat=True).first()
