"""Tournament jogos played online (docs/regras.md §9.7, DOMAIN §9.7): one table per online jogo, its seats
taken through the duplas' private links, and the súmula filled by the table itself.

- **Which jogos**: ``Tournament.online`` (``"none"``/empty, ``"all"`` or a list of stage keys) and, in a hybrid
  event, ``Jogo.online`` (``jogo_is_online``). ``tables_open`` gives each scheduled online jogo its table (kind
  ``"torneio"``, no sala, no host) with the jogo's time (``opens_at``); it follows every structural or results
  write of an online event (``tables_after_write``), so a knockout's next round gets its tables as it is made.
- **Seats**: dupla A sits at seats 0 and 2, dupla B at 1 and 3 (partners opposite); a dupla's first player at
  its first seat. ``seat_take_by_link`` seats the browser that opened the dupla's private link as the player it
  names; the same player from another browser takes the seat back (a lost phone); one browser holds one seat.
  The partida starts when four are seated; between partidas the next one is dealt after a short pause, on the
  same table, until the best of N is decided.
- **The súmula**: every finished mão is a súmula entry written through the one write path
  (``sumula.services.sumula_mao_add``) by the user ``mesa-online`` (``table_saved``, called by the table's
  ``_save`` under its lock); an abandonment (DOMAIN §9.2) is a *perda da partida* with the reason "abandono".
- **The end**: each dupla confirms or contests at the table (``table_answer``); ten minutes without an answer
  confirm (the log is the record: ``table_due``). The referee signs as for any súmula.
- **WO by tolerance**: a dupla not seated ``Tournament.wo_tolerance_minutes`` after the jogo's time loses by WO
  (``sumula_result_set`` with the reason), which the referee sees and may correct (a new via, with a reason).

Lock order: the table's row, then the tournament's and the jogo's (the súmula's writes, nested in the table's
transaction). Nothing here locks a table inside a tournament write.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.rules import RuleSettings
from scoring.sumula import AWAITING, CONTESTED, IN_PROGRESS, SCHEDULED
from truco.state import SEATS, Partida, dupla_of

from ..audit import audit_record
from ..models import Dupla, Jogo, OnlineProfile, OnlineTable, Player, Tournament
from ..models import TableSeat as SeatRow
from ..refusals import Refused
from ..state import tournament_settings
from ..sumula.commands import MaoAdd, Penalty, ResultBody, ResultSet
from ..sumula.locked import Actor
from ..sumula.services import sumula_answer, sumula_mao_add, sumula_penalty, sumula_result_set
from ..writes import RESULTS, STRUCTURE, Write, tournament_write
from . import broadcast
from .event import ALL, NONE, event_online, jogo_is_online, jogo_time, stage_online  # noqa: F401 (named here too)

logger = logging.getLogger(__name__)

MESA_ONLINE: Final = "mesa-online"  # the user that writes the tables' mãos (DOMAIN §9.7: "mesa online")
METHOD: Final = "online"  # the súmula log's "how" for what the table writes or a dupla answers at the table
CONFIRM_MINUTES: Final = 10  # no answer in this long after the jogo ends = confirmed
NEXT_PARTIDA_MS: Final = 10_000  # the next partida of the jogo is dealt this long after one ends
ABANDONO: Final = "abandono"
SIDES: Final = ("a", "b")


def mesa_online_user() -> Any:
    """The account that signs the tables' entries in the súmulas' logs (made on first use; it cannot log in)."""
    users = get_user_model()
    found = users.objects.filter(username=MESA_ONLINE).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            user = users(username=MESA_ONLINE, first_name=_("Mesa online"), is_active=True)
            user.set_unusable_password()
            user.save()
            return user
    except IntegrityError:  # made meanwhile by another process
        return users.objects.get(username=MESA_ONLINE)


def _mesa_actor() -> Actor:
    return Actor(user=mesa_online_user(), method=METHOD, device=_("mesa online"))


# --- the tables ------------------------------------------------------------------------------------------------


def table_of(*, jogo: Jogo) -> OnlineTable | None:
    return OnlineTable.objects.filter(jogo=jogo).first()


def _table_new(jogo: Jogo, tournament: Tournament, now: datetime) -> OnlineTable:
    """A jogo's table opens at the jogo's time, or now when that has passed (the next round of a knockout made
    later than its time): the WO tolerance counts from then. No time known: no WO by the clock."""
    called = jogo_time(jogo=jogo, tournament=tournament)
    opens = max(called, now) if called is not None else None
    deadline = opens + timedelta(minutes=tournament.wo_tolerance_minutes) if opens is not None else None
    return OnlineTable(
        kind=OnlineTable.TORNEIO,
        jogo=jogo,
        status=OnlineTable.OPEN,
        preset=tournament.preset,
        opens_at=opens,
        deadline=deadline,
    )


def tables_open(*, tournament: Tournament, now: datetime | None = None) -> list[OnlineTable]:
    """Give every scheduled online jogo of ``tournament`` its table (once); the new ones."""
    now = now or timezone.now()
    jogos = (
        Jogo.objects.filter(tournament=tournament, status=SCHEDULED, online_table__isnull=True)
        .select_related("stage")
        .order_by("pk")
    )
    new = [_table_new(j, tournament, now) for j in jogos if jogo_is_online(jogo=j, tournament=tournament)]
    if not new:
        return []
    with transaction.atomic():
        made = []
        for table in new:
            try:
                with transaction.atomic():
                    table.save()
                    made.append(table)
            except IntegrityError:  # another write opened it meanwhile
                continue
    return made


def table_for_jogo(*, jogo: Jogo) -> OnlineTable | None:
    """The jogo's table, opened now if it is an online jogo still to be played and has none yet."""
    found = table_of(jogo=jogo)
    if found is not None:
        return found
    tournament = jogo.tournament
    if jogo.status != SCHEDULED or not jogo_is_online(jogo=jogo, tournament=tournament):
        return None
    tables_open(tournament=tournament)
    return table_of(jogo=jogo)


def tables_times_refresh(*, tournament: Tournament) -> int:
    """The event's date, start, round times or WO tolerance changed: each table still waiting for its first partida
    opens at its jogo's new time (never before the table was made) and its WO deadline follows. How many moved."""
    moved = 0
    waiting = OnlineTable.objects.filter(jogo__tournament=tournament, status=OnlineTable.OPEN, partida_n=0)
    for table in waiting.select_related("jogo", "jogo__stage"):
        assert table.jogo is not None
        called = jogo_time(jogo=table.jogo, tournament=tournament)
        opens = max(called, table.created_at) if called is not None else None
        deadline = opens + timedelta(minutes=tournament.wo_tolerance_minutes) if opens is not None else None
        if (opens, deadline) != (table.opens_at, table.deadline):
            OnlineTable.objects.filter(pk=table.pk, status=OnlineTable.OPEN, partida_n=0).update(
                opens_at=opens, deadline=deadline
            )
            moved += 1
    return moved


def tables_after_write(write: Write) -> None:
    """A write follower (``writes.write_followers_add``): after a draw, an import or a result that made the next
    knockout jogos of an online event or stage, those jogos get their tables. Nothing (not one query) for an
    event without online stages: a hybrid event's mesas online are opened by what marks them (``jogo_online_set``,
    the import)."""
    tournament = write.tournament
    if tournament is None or write.kind not in (RESULTS, STRUCTURE) or event_online(tournament) == NONE:
        return
    tables_open(tournament=tournament)


def _jogo_id(table: OnlineTable) -> int:
    assert table.jogo_id is not None, "a tournament jogo's table"
    return table.jogo_id


def jogo_online_set(*, tournament: Tournament, jogo_id: int, online: bool, user: Any) -> Jogo:
    """The desk marks one jogo as a mesa online (a hybrid event) or takes the mark off, audited; a marked jogo
    still to be played gets its table now. Refused once the jogo has begun (or ended), and for a jogo its event
    or stage plays online anyway."""
    with tournament_write(tournament=tournament, action="jogo.online", user=user, kind=STRUCTURE):
        jogo = (
            Jogo.objects.select_for_update().select_related("stage").filter(tournament=tournament, pk=jogo_id).first()
        )
        if jogo is None:
            raise Refused.not_found(_("Jogo não encontrado neste torneio."))
        if jogo.online == online:
            return jogo
        if jogo.status != SCHEDULED:
            raise Refused.conflict(_("Este jogo já começou: a mesa dele não muda mais."))
        if not online and stage_online(tournament, jogo.stage.key):
            raise Refused.conflict(
                _("Todos os jogos desta fase são online (dados do torneio): mude lá para ter mesas presenciais.")
            )
        table = table_of(jogo=jogo)
        if not online and table is not None:
            if table.partida_n or SeatRow.objects.filter(table=table).exists():
                raise Refused.conflict(_("Já há jogadores sentados à mesa online deste jogo."))
            table.delete()
        jogo.online = online
        jogo.save(update_fields=["online"])
        audit_record(
            tournament=tournament,
            user=user,
            action="jogo_online",
            summary=(_("Jogo %(key)s: mesa online") if online else _("Jogo %(key)s: mesa presencial"))
            % {"key": jogo.key},
            before={"online": not online},
            after={"online": online},
        )
        if online:
            tables_open(tournament=tournament)
        return jogo


def table_rules(table: OnlineTable) -> RuleSettings:
    """The rules a tournament table plays by: its event's (preset and settings), as its súmula checks them."""
    jogo = Jogo.objects.select_related("tournament").get(pk=_jogo_id(table))
    return tournament_settings(tournament=jogo.tournament)


def seat_of_player(*, jogo: Jogo, player_id: int) -> int | None:
    """The seat of a jogo's player: dupla A's first player 0, its second 2; dupla B's 1 and 3."""
    for side, dupla in enumerate((jogo.dupla_a, jogo.dupla_b)):
        if player_id == dupla.player1_id:
            return side
        if player_id == dupla.player2_id:
            return side + 2
    return None


def _jogo_locked_read(table: OnlineTable) -> Jogo:
    return Jogo.objects.select_related("tournament", "stage", "dupla_a", "dupla_b").get(pk=_jogo_id(table))


def seat_take_by_link(
    *, jogo: Jogo, dupla: Dupla, player: Player | int, profile: OnlineProfile, now: datetime | None = None
) -> SeatRow:
    """``profile`` (the browser that opened the dupla's private link) sits as ``player`` of ``dupla`` at the jogo's
    table. The seat of that player held by another browser is taken back (a lost phone); a browser holds one
    seat. Four seated: the partida starts."""
    from . import services  # the table's writes (services imports this module lazily too)

    now = now or timezone.now()
    player_id = player if isinstance(player, int) else player.pk
    if dupla.pk not in (jogo.dupla_a_id, jogo.dupla_b_id):
        raise Refused.forbidden(_("Esta dupla não joga este jogo."))
    if player_id not in (dupla.player1_id, dupla.player2_id):
        raise Refused.invalid(_("Escolha um dos dois jogadores da dupla."))
    services._may_sit(profile)
    table = table_for_jogo(jogo=jogo)
    if table is None:
        raise Refused.conflict(_("Este jogo não é jogado online, ou já terminou."))
    with transaction.atomic():
        table = services._locked(table)
        jogo = _jogo_locked_read(table)
        seat = seat_of_player(jogo=jogo, player_id=player_id)
        assert seat is not None
        if table.status == OnlineTable.CLOSED or jogo.status not in (SCHEDULED, IN_PROGRESS):
            raise Refused.conflict(_("Este jogo já terminou: não há mais lugar para sentar."))
        seats = services._seats(table)
        mine = next((s for s in seats if s.profile_id == profile.pk), None)
        if mine is not None and mine.seat == seat:
            return mine
        if mine is not None:
            name = mine.player.name if mine.player is not None else _seat_label(mine.seat)
            raise Refused.conflict(
                _("Este aparelho já está sentado como %(name)s nesta mesa: cada jogador senta no próprio aparelho.")
                % {"name": name}
            )
        row = next((s for s in seats if s.seat == seat), None)
        if row is None:
            row = SeatRow.objects.create(table=table, seat=seat, profile=profile, player_id=player_id)
            seats = services._seats(table)
        else:  # the link takes the seat back (another browser, a lost phone; or a robot's)
            row.profile, row.robot, row.player_id, row.present = profile, "", player_id, False
            row.save(update_fields=["profile", "robot", "player", "present"])
        services._seats_changed(table)
        _start_if_ready(table, seats, now)
    return row


def _seat_label(seat: int) -> str:
    return _("lugar %(n)d") % {"n": seat + 1}


def robots_seat(*, jogo: Jogo, level: str = "basico", seats: Iterable[int] = range(SEATS), now: datetime) -> None:
    """Robots of ``level`` in the jogo's empty ``seats`` (for tests, demonstrations and the load benchmark: a
    robot plays for a player); four seated: the partida starts."""
    from . import services

    table = table_for_jogo(jogo=jogo)
    if table is None:
        raise Refused.conflict(_("Este jogo não é jogado online, ou já terminou."))
    with transaction.atomic():
        table = services._locked(table)
        jogo = _jogo_locked_read(table)
        taken = {s.seat for s in services._seats(table)}
        rows = []
        for seat in seats:
            if seat in taken:
                continue
            dupla = (jogo.dupla_a, jogo.dupla_b)[seat % 2]
            player_id = dupla.player1_id if seat < 2 else dupla.player2_id
            rows.append(SeatRow(table=table, seat=seat, robot=level, present=True, player_id=player_id))
        SeatRow.objects.bulk_create(rows)
        if rows:
            table.robot_level = level
            table.save(update_fields=["robot_level", "updated_at"])
            services._seats_changed(table)
        _start_if_ready(table, services._seats(table), now)


def _start_if_ready(table: OnlineTable, seats: list[SeatRow], now: datetime) -> None:
    """Four seated at a table waiting for its first partida (or the next, after a pause that found a seat
    empty): deal it."""
    from . import services

    if len(seats) < SEATS or table.status not in (OnlineTable.OPEN, OnlineTable.FINISHED):
        return
    if table.status == OnlineTable.FINISHED and table.deadline is not None:
        return  # the next partida is dealt at its time
    jogo = Jogo.objects.only("status").get(pk=_jogo_id(table))
    if jogo.status not in (SCHEDULED, IN_PROGRESS):
        return
    services._start(table, now=now)


# --- the súmula fills itself -----------------------------------------------------------------------------------


def mao_id(table: OnlineTable, partida_n: int, mao_n: int) -> str:
    """The súmula's id of a mão written by a table (idempotent: the same mão is never written twice)."""
    return f"mesa-{table.pk}-{partida_n}-{mao_n}"


def table_saved(table: OnlineTable, partida: Partida, *, since: int, now: datetime) -> None:
    """Called by the table's ``_save`` (its row locked) for a tournament table: the mãos that ended in this step
    go to the súmula, an abandonment is a perda da partida, and once a partida ends the table either deals the
    next one soon or, the jogo decided, waits ten minutes for the duplas' answers."""
    new = [record for record in partida.maos if record.seq_to > since]
    ended = partida.ended and table.status == OnlineTable.FINISHED
    if not new and not ended:
        return
    jogo = _jogo_locked_read(table)
    tournament = jogo.tournament
    actor = _mesa_actor()
    for record in new:
        entry = record.result
        mao = MaoAdd(
            id=mao_id(table, table.partida_n, record.n),
            to=entry.to,
            points=entry.points if entry.to is not None else None,
            how=entry.how if entry.to is not None else "played",
        )
        try:
            sumula_mao_add(tournament=tournament, key=jogo.key, mao=mao, actor=actor)
        except Refused as refused:  # the súmula refuses what the table played: the referee is told by the log
            logger.error("table %s: mão %s refused by the súmula of %s: %s", table.pk, mao.id, jogo.key, refused)
    if not ended:
        return
    if partida.ended_by == "abandonment" and partida.abandoned_by is not None:
        side = dupla_of(partida.abandoned_by)
        lost_by = (jogo.dupla_a, jogo.dupla_b)[side].key
        try:
            sumula_penalty(
                tournament=tournament,
                key=jogo.key,
                data=Penalty(
                    id=f"mesa-{table.pk}-{table.partida_n}-abandono", scope="partida", reason=ABANDONO, lost_by=lost_by
                ),
                actor=actor,
            )
        except Refused as refused:
            logger.error("table %s: abandonment refused by the súmula of %s: %s", table.pk, jogo.key, refused)
    status = Jogo.objects.filter(pk=jogo.pk).values_list("status", flat=True).first()
    if status in (SCHEDULED, IN_PROGRESS):
        table.deadline = now + timedelta(milliseconds=NEXT_PARTIDA_MS)  # the next partida of the jogo
    else:
        table.deadline = now + timedelta(minutes=CONFIRM_MINUTES)  # the duplas' answers


def table_due(table: OnlineTable, seats: list[SeatRow], now: datetime) -> bool:
    """The clock found a tournament table (not in play) due, its row locked (``services._tick_one``): the WO by
    tolerance, the next partida, or the end of the ten minutes for the answers. Whether it moved."""
    from . import services

    jogo = _jogo_locked_read(table)
    if table.status == OnlineTable.CLOSED:
        table.deadline = None
        table.save(update_fields=["deadline", "updated_at"])
        return False
    if jogo.status not in (SCHEDULED, IN_PROGRESS):
        if table.partida_n:
            _refusal_logged(table, "answers", lambda: _answers_close(table, jogo, now))
        _close(table)
        return True
    if table.status == OnlineTable.OPEN and table.partida_n == 0:
        if len(seats) == SEATS:
            services._start(table, now=now)
            return True
        _refusal_logged(table, "walkover", lambda: _walkover(table, jogo, seats))
        _close(table)
        return True
    # between two partidas of the jogo
    if len(seats) == SEATS:
        services._start(table, now=now)
    else:
        table.deadline = None  # dealt when the seat is taken again
        table.save(update_fields=["deadline", "updated_at"])
        services._seats_changed(table)
    return True


def _refusal_logged(table: OnlineTable, what: str, write: Any) -> None:
    """A write of the clock the súmula refuses (the referee decided the jogo meanwhile, say) is logged, not raised:
    the clock goes on with the other tables; the referee's decision stands."""
    try:
        with transaction.atomic():
            write()
    except Refused as refused:
        logger.warning("table %s: %s refused by the súmula: %s", table.pk, what, refused)


def _close(table: OnlineTable) -> None:
    """The jogo is over at this table: closed, the seats kept (who played), no clock."""
    table.status, table.deadline = OnlineTable.CLOSED, None
    table.save(update_fields=["status", "deadline", "updated_at"])
    broadcast.seats_changed(table_id=table.pk, seq=table.seq)


def _side_seated(seats: list[SeatRow], side: int) -> bool:
    taken = {s.seat for s in seats if s.profile_id is not None or s.robot}
    return side in taken and side + 2 in taken


def _walkover(table: OnlineTable, jogo: Jogo, seats: list[SeatRow]) -> None:
    tournament = jogo.tournament
    absent = [side for side in (0, 1) if not _side_seated(seats, side)]
    duplas = (jogo.dupla_a, jogo.dupla_b)
    minutes = tournament.wo_tolerance_minutes
    at = timezone.localtime(table.opens_at).strftime("%H:%M") if table.opens_at else ""
    if len(absent) == 2:
        walkover = "both"
        reason = _("WO pela mesa online: nenhuma das duplas se sentou à mesa até %(m)d minutos depois das %(at)s") % {
            "m": minutes,
            "at": at,
        }
    else:
        walkover = duplas[absent[0]].key
        reason = _(
            "WO pela mesa online: a dupla %(dupla)s não se sentou à mesa até %(m)d minutos depois das %(at)s"
        ) % {
            "dupla": duplas[absent[0]].display_name,
            "m": minutes,
            "at": at,
        }
    sumula_result_set(
        tournament=tournament,
        key=jogo.key,
        data=ResultSet(id=f"mesa-{table.pk}-wo", result=ResultBody(walkover=walkover, walkover_reason=reason[:300])),
        actor=_mesa_actor(),
    )


def _answers_close(table: OnlineTable, jogo: Jogo, now: datetime) -> None:
    """Ten minutes after the jogo ended, the duplas that did not answer confirm: the log is the record."""
    if jogo.status not in (AWAITING, CONTESTED):
        return
    for side, dupla in zip(SIDES, (jogo.dupla_a, jogo.dupla_b), strict=True):
        if (jogo.confirmations.get(side) or {}).get("answer"):
            continue
        sumula_answer(
            tournament=jogo.tournament,
            key=jogo.key,
            dupla=dupla,
            via=jogo.via,
            accept=True,
            reason=_("sem resposta em %(m)d minutos: vale o registro da mesa online") % {"m": CONFIRM_MINUTES},
            actor=Actor(user=mesa_online_user(), dupla=dupla, method=METHOD, device=_("mesa online")),
        )
        jogo.refresh_from_db()


def table_answer(*, jogo: Jogo, profile: OnlineProfile, accept: bool, reason: str, via: int) -> Dupla:
    """A player seated at the jogo's table confirms or contests its súmula for the dupla (the jogo decided);
    the dupla answered."""
    table = table_of(jogo=jogo)
    row = (
        SeatRow.objects.filter(table=table, profile=profile).select_related("player").first()
        if table is not None
        else None
    )
    if table is None or row is None:
        raise Refused.forbidden(_("Só quem jogou sentado a esta mesa responde pela dupla aqui."))
    dupla = (jogo.dupla_a, jogo.dupla_b)[row.seat % 2]
    sumula_answer(
        tournament=jogo.tournament,
        key=jogo.key,
        dupla=dupla,
        via=via,
        accept=accept,
        reason=reason,
        actor=Actor(dupla=dupla, method=METHOD, device=_("mesa online")),
    )
    return dupla
