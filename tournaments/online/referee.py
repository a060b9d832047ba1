"""The referee's side of an event's online tables (docs/regras.md §9.7): what the desk lists of each table (who is
seated, who is absent, a vote running, a suspension) and a table suspended for a technical problem, then resumed,
by a referee or organizer of that event, each audited in the event's history.

The clocks are the engine's: a suspension keeps the time each clock had left (``truco.rules.suspend``); resuming
gives it back. The writes go through ``services.table_suspend`` / ``table_resume`` as the site itself (``by``
None), then the audit entry in the event's write (``writes.tournament_write``, ``PRIVATE``: no page's version
changes), both in one transaction: they land together or not at all. The table's row is locked first, as every
write of a tournament table does (``online.tournament``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from truco.state import SEATS
from truco.state import SUSPENDED as PHASE_SUSPENDED

from ..audit import audit_record
from ..models import OnlineTable, PartidaLog, TableSeat, Tournament
from ..permissions import may_referee
from ..refusals import Refused
from ..writes import PRIVATE, tournament_write
from . import services
from .selectors import partida_of

REASON_MAX: Final = 200

# what a table is doing, as the desk groups and words it
WAITING, PLAYING, VOTE, SUSPENDED, BETWEEN, CLOSED = "waiting", "playing", "vote", "suspended", "between", "closed"
PHASE_LABELS: Final = {
    WAITING: gettext_lazy("aguardando jogadores"),
    PLAYING: gettext_lazy("em jogo"),
    VOTE: gettext_lazy("votação"),
    SUSPENDED: gettext_lazy("suspensa"),
    BETWEEN: gettext_lazy("entre partidas"),
    CLOSED: gettext_lazy("encerrada"),
}


@dataclass(frozen=True, slots=True)
class DeskSeat:
    """A seat as the desk shows it: who sits (a player of the dupla, a robot), present or absent."""

    seat: int
    side: int  # 0: the jogo's dupla A (seats 0 and 2), 1: dupla B (seats 1 and 3)
    name: str
    present: bool
    robot: bool


@dataclass(frozen=True, slots=True)
class DeskTable:
    """An online table of the event, as the desk lists it."""

    id: int
    jogo_id: int
    status: str  # ``OnlineTable.status``
    phase: str  # WAITING, PLAYING, VOTE, SUSPENDED, BETWEEN, CLOSED
    phase_label: str
    reason: str  # a suspension's reason
    seats: tuple[DeskSeat | None, ...]  # by seat; None: empty
    seated: int
    absent: tuple[str, ...]  # the names of the people seated and not connected
    vote_on: str  # a vote running: the name of the player whose turn ran out
    vote_yes: int
    vote_no: int
    partida_n: int  # the partida in play (or the last one)
    score: tuple[int, int] | None  # its points, dupla A first; None before the first
    opens_at: datetime | None

    @property
    def may_suspend(self) -> bool:
        return self.phase in (PLAYING, VOTE)

    @property
    def may_resume(self) -> bool:
        return self.phase == SUSPENDED

    def sides(self) -> tuple[tuple[DeskSeat | None, ...], tuple[DeskSeat | None, ...]]:
        """The seats of dupla A (0, 2) and of dupla B (1, 3)."""
        return (self.seats[0], self.seats[2]), (self.seats[1], self.seats[3])


def _seat_name(row: TableSeat) -> str:
    if row.player is not None:
        return row.player.name
    if row.profile is not None:
        return row.profile.display_name
    return _("Robô %(n)d") % {"n": row.seat + 1}


def _desk_table(table: OnlineTable, rows: list[TableSeat]) -> DeskTable:
    seats: list[DeskSeat | None] = [None] * SEATS
    for row in rows:
        if 0 <= row.seat < SEATS:
            seats[row.seat] = DeskSeat(
                seat=row.seat, side=row.seat % 2, name=_seat_name(row), present=row.present, robot=bool(row.robot)
            )
    partida = partida_of(table) if table.state is not None else None
    reason, vote_on, yes, no = "", "", 0, 0
    if table.status == OnlineTable.CLOSED:
        phase = CLOSED
    elif table.status == OnlineTable.PLAYING and partida is not None and not partida.ended:
        phase = PLAYING
        if partida.phase == PHASE_SUSPENDED and partida.suspension is not None:
            phase, reason = SUSPENDED, partida.suspension.reason
        elif partida.vote is not None:
            absent = seats[partida.vote.absent]
            phase, vote_on = VOTE, absent.name if absent is not None else ""
            yes = sum(1 for v in partida.vote.votes if v is True)
            no = sum(1 for v in partida.vote.votes if v is False)
    elif table.status == OnlineTable.FINISHED or (table.partida_n > 0 and table.status != OnlineTable.PLAYING):
        phase = BETWEEN
    else:
        phase = WAITING
    absent_names = tuple(s.name for s in seats if s is not None and not s.robot and not s.present)
    score = tuple(partida.score) if partida is not None else None
    return DeskTable(
        id=table.pk,
        jogo_id=table.jogo_id or 0,
        status=table.status,
        phase=phase,
        phase_label=str(PHASE_LABELS[phase]),
        reason=reason,
        seats=tuple(seats),
        seated=sum(1 for s in seats if s is not None),
        absent=absent_names,
        vote_on=vote_on,
        vote_yes=yes,
        vote_no=no,
        partida_n=table.partida_n,
        score=(score[0], score[1]) if score is not None else None,
        opens_at=table.opens_at,
    )


def event_tables(*, tournament: Tournament) -> dict[int, DeskTable]:
    """The event's online tables by jogo id (two queries)."""
    tables = list(OnlineTable.objects.filter(jogo__tournament=tournament).order_by("pk"))
    rows: dict[int, list[TableSeat]] = {t.pk: [] for t in tables}
    for row in TableSeat.objects.filter(table__in=tables).select_related("profile", "player").order_by("seat"):
        rows[row.table_id].append(row)
    return {t.jogo_id: _desk_table(t, rows[t.pk]) for t in tables if t.jogo_id is not None}


def event_tables_count(*, tournament: Tournament) -> int:
    """How many online tables the event has (one query): the referee's list links the desk of tables."""
    return OnlineTable.objects.filter(jogo__tournament=tournament).count()


def _event_table(*, tournament: Tournament, table_id: int, user: Any) -> OnlineTable:
    if not may_referee(user=user, tournament=tournament):
        raise Refused.forbidden(_("Só a arbitragem e a comissão do evento suspendem ou retomam uma mesa online."))
    table = OnlineTable.objects.select_related("jogo").filter(pk=table_id, jogo__tournament=tournament).first()
    if table is None or table.jogo is None:
        raise Refused.not_found(_("Esta mesa online não é deste evento."))
    return table


def _audit(*, tournament: Tournament, user: Any, action: str, summary: str, after: dict[str, Any]) -> None:
    with tournament_write(tournament=tournament, action=action, user=user, kind=PRIVATE):
        audit_record(tournament=tournament, user=user, action=action, summary=summary, after=after)


def table_suspend_by_referee(
    *, tournament: Tournament, table_id: int, user: Any, reason: str, now: datetime
) -> OnlineTable:
    """A referee (or organizer) of ``tournament`` stops one of its online tables for a technical problem: the
    clocks stand still with the time they had left; the reason goes to the table's log and the event's
    history."""
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise Refused.invalid(_("Diga o motivo da suspensão (um problema técnico, por exemplo)."))
    if len(reason) > REASON_MAX:
        raise Refused.invalid(_("O motivo tem no máximo %(n)d caracteres.") % {"n": REASON_MAX})
    table = _event_table(tournament=tournament, table_id=table_id, user=user)
    jogo_key = table.jogo.key if table.jogo is not None else ""
    with transaction.atomic():  # the table's row first, then the event's write (tournament.py's lock order)
        services.table_suspend(table=table, by=None, reason=reason, now=now)
        _audit(
            tournament=tournament,
            user=user,
            action="online.table_suspend",
            summary=_("Mesa online do jogo %(jogo)s suspensa: %(reason)s") % {"jogo": jogo_key, "reason": reason},
            after={"jogo": jogo_key, "table": table.pk, "reason": reason},
        )
    return table


def table_resume_by_referee(*, tournament: Tournament, table_id: int, user: Any, now: datetime) -> OnlineTable:
    """A referee (or organizer) of ``tournament`` takes a suspended table up again, each clock with the time it
    had left."""
    table = _event_table(tournament=tournament, table_id=table_id, user=user)
    jogo_key = table.jogo.key if table.jogo is not None else ""
    with transaction.atomic():
        services.table_resume(table=table, by=None, now=now)
        _audit(
            tournament=tournament,
            user=user,
            action="online.table_resume",
            summary=_("Mesa online do jogo %(jogo)s retomada") % {"jogo": jogo_key},
            after={"jogo": jogo_key, "table": table.pk},
        )
    return table


@dataclass(frozen=True, slots=True)
class LoggedPartida:
    """A finished partida of a jogo's online table (its game log kept): what the referee's screen lists beside
    the súmula."""

    n: int
    winner: int | None  # the dupla (0: the jogo's dupla A)
    abandonment: bool


def jogo_partidas(*, jogo_id: int) -> tuple[int, list[LoggedPartida]] | None:
    """The jogo's online table and its finished partidas, in order (one query each); None: no online table."""
    table_id = OnlineTable.objects.filter(jogo_id=jogo_id).values_list("pk", flat=True).first()
    if table_id is None:
        return None
    rows = PartidaLog.objects.filter(table_id=table_id).order_by("n").values_list("n", "winner", "ended_by")
    return table_id, [LoggedPartida(n=n, winner=w, abandonment=e == "abandonment") for n, w, e in rows]
