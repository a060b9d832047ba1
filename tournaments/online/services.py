"""Writes of online play (DOMAIN §9.2–9.4): salas, tables, seats, the host's powers, the players' actions and the
tables' clock. Every rule is the card engine's (``truco.rules``); this module keeps a table's partida in its row
between actions and orders them.

One writer per table: an action, an expiry or a robot's move locks the table's row (``select_for_update``),
takes the partida up from its JSON, applies the engine, stores the partida, its events and the table's next
``deadline`` (the moment the clock must look at it again: the engine's deadline, or a robot's turn), and, once
the transaction commits, tells the live connections (``broadcast``). The clock claims due tables with ``SKIP
LOCKED``: an expiry fires once however many servers tick. Times come from the caller (``now``).
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, NamedTuple

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from scoring.rules import RuleSettings, settings_build
from truco.actions import ACTION_TYPES, Event, Refusal, action_from_message
from truco.deal import SEED_BYTES
from truco.log import Seat, log_build
from truco.moments import EPOCH, from_datetime, from_iso
from truco.robots import LEVELS as ROBOT_LEVELS
from truco.robots import robot_action
from truco.rules import Step, apply, expire, may, partida_start, presence, resume, suspend
from truco.state import SEATS, Partida
from truco.store import partida_dump, partida_load
from truco.views import view

from ..models import ClientAction, ClockBeat, OnlineProfile, OnlineTable, PartidaLog, Sala, TableEvent
from ..models import TableSeat as SeatRow
from ..permissions import may_moderate_online
from ..refusals import Refused
from . import broadcast, chat, ranking

TABLES_PER_SALA: Final = 60
MAX_STEPS_PER_TICK: Final = 400  # robots with no delay play on within one tick, up to this many steps
NEXT_PARTIDA_MS: Final = 10_000  # a "jogar agora" table deals the next partida this long after one ends
CLIENT_ID_MAX: Final = 64
KEY_PATTERN: Final = re.compile(r"^[a-z0-9-]{0,30}$")
PARTIDA_EVENT: Final = "partida"  # the table's own event when a partida starts (not an engine event)


class ActResult(NamedTuple):
    """What a client's action did: ``refusal`` (None: it acted, or had already acted under that id) and the
    table's ``seq`` after it; ``change``: when it acted now, the change as broadcast to the table's connections
    (``broadcast.table_changed``: the events with the partida after them, hidden cards included; server-side
    only), so the acting connection needs no read to send its own seat's frames."""

    refusal: str | None
    seq: int
    change: dict[str, Any] | None = None


@dataclass
class _Draws:
    """Where the deals' seeds, the first seats and the robots' choices come from: the system's randomness, or
    one seeded generator (``draws_seeded``: play_robots --seed replays the same partidas)."""

    rng: random.Random | None
    robots: random.Random


_DRAWS = _Draws(rng=None, robots=random.Random(secrets.randbits(64)))


def _seed_bytes() -> bytes:
    return _DRAWS.rng.randbytes(SEED_BYTES) if _DRAWS.rng is not None else secrets.token_bytes(SEED_BYTES)


def _first_seat() -> int:
    return _DRAWS.rng.randrange(SEATS) if _DRAWS.rng is not None else secrets.randbelow(SEATS)


@contextmanager
def draws_seeded(seed: int) -> Iterator[None]:
    """Within the block, every seed, first seat and robot choice of this process comes from ``seed``."""
    saved = (_DRAWS.rng, _DRAWS.robots)
    rng = random.Random(seed)
    _DRAWS.rng, _DRAWS.robots = rng, rng
    try:
        yield
    finally:
        _DRAWS.rng, _DRAWS.robots = saved


def _ms(moment: datetime) -> int:
    return from_datetime(moment)


def _moment(ms: int) -> datetime:
    return EPOCH + timedelta(milliseconds=ms)


def _robot_delay_ms() -> int:
    return max(0, int(getattr(settings, "ZAP_ROBOT_DELAY_MS", 900)))


def _is_staff(profile: OnlineProfile | None) -> bool:
    """The site's staff hold every host's powers (DOMAIN §9.6): who they are is ``permissions``' to say."""
    user = getattr(profile, "user", None) if profile is not None else None
    return may_moderate_online(user=user)


def _may_sit(profile: OnlineProfile) -> None:
    """Refused when staff have banned or suspended ``profile`` (``conduct.may_sit``)."""
    try:
        from .conduct import may_sit
    except ImportError:  # pragma: no cover - until conduct.py exists
        return
    refused = may_sit(profile)
    if refused is not None:
        raise refused


def _locked(table: OnlineTable | int) -> OnlineTable:
    table_id = table if isinstance(table, int) else table.pk
    found = OnlineTable.objects.select_for_update().filter(pk=table_id).first()
    if found is None:
        raise Refused.not_found(_("Esta mesa não existe."))
    return found


def _seats(table: OnlineTable) -> list[SeatRow]:
    return list(SeatRow.objects.filter(table=table).select_related("profile", "player").order_by("seat"))


def _key(value: str, what: str) -> str:
    if not isinstance(value, str) or not KEY_PATTERN.match(value):
        raise Refused.invalid(_("Escolha %(what)s da lista.") % {"what": what})
    return value


def _host_only(table: OnlineTable, by: OnlineProfile) -> None:
    if table.host_id != by.pk and not _is_staff(by):
        raise Refused.forbidden(_("Só quem criou a mesa pode fazer isso."))


def _casual_only(table: OnlineTable) -> None:
    """A tournament jogo's table is sat through the duplas' private links (``tournament.seat_take_by_link``)."""
    if table.kind == OnlineTable.TORNEIO:
        raise Refused.forbidden(_("Nos jogos de torneio, cada jogador se senta pelo link privado da sua dupla."))


def _not_playing(table: OnlineTable) -> None:
    if table.status == OnlineTable.PLAYING:
        raise Refused.conflict(_("A partida está em andamento: espere ela terminar."))
    if table.status == OnlineTable.CLOSED:
        raise Refused.conflict(_("Esta mesa foi fechada."))


def _seats_changed(table: OnlineTable) -> None:
    broadcast.seats_changed(table_id=table.pk, seq=table.seq)
    if table.sala is not None and table.status != OnlineTable.DRAFT:
        broadcast.sala_changed(slug=table.sala.slug)


# Salas and tables ------------------------------------------------------------------------------------------------


def sala_for_new_table() -> Sala:
    """The first sala with fewer than 60 live tables; a new one when all are full."""
    live = Count("tables", filter=Q(tables__status__in=(OnlineTable.DRAFT, *OnlineTable.LIVE_STATUSES)))
    for sala in Sala.objects.annotate(live=live).order_by("number"):
        if sala.live < TABLES_PER_SALA:
            return sala
    last = Sala.objects.order_by("-number").values_list("number", flat=True).first() or 0
    number = last + 1
    try:
        with transaction.atomic():
            return Sala.objects.create(slug=f"salao-{number}", name=_("Salão %(n)d") % {"n": number}, number=number)
    except IntegrityError:  # another request opened it meanwhile
        return Sala.objects.get(number=number)


def _free_number(sala: Sala) -> int:
    taken = set(
        OnlineTable.objects.filter(sala=sala).exclude(status=OnlineTable.CLOSED).values_list("number", flat=True)
    )
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def table_create(
    *,
    host: OnlineProfile,
    appearance: str,
    face: str,
    back: str,
    password: str = "",
    sala: Sala | None = None,
    auto_start: bool = False,
) -> OnlineTable:
    """A new table in ``sala`` (the first with room when None), hidden ("draft") until ``table_confirm``; its
    host sits at seat 0."""
    _may_sit(host)
    appearance, face, back = _key(appearance, _("a aparência")), _key(face, _("as cartas")), _key(back, _("o verso"))
    if len(password) > 128:
        raise Refused.invalid(_("A senha tem no máximo 128 caracteres."))
    with transaction.atomic():
        sala = sala or sala_for_new_table()
        Sala.objects.select_for_update().filter(pk=sala.pk).first()  # numbers in a sala are given one at a time
        table = OnlineTable.objects.create(
            sala=sala,
            number=_free_number(sala),
            host=host,
            status=OnlineTable.DRAFT,
            password_hash=make_password(password) if password else "",
            appearance=appearance,
            face=face,
            back=back,
            auto_start=auto_start,
        )
        SeatRow.objects.create(table=table, seat=0, profile=host)
    return table


def robot_table_create(*, level: str = "basico", preset: str = "online") -> OnlineTable:
    """A casual table of four robots of ``level`` under ``preset``'s rules, in no sala (nobody sits there; it is
    watched at its address): ``manage.py play_robots``."""
    if level not in ROBOT_LEVELS:
        raise Refused.invalid(_("Escolha o nível dos robôs: aleatório ou básico."))
    rules, errors = settings_build(preset=preset, overrides=None)
    if rules is None:
        raise Refused.invalid(*(str(e.message) for e in errors))
    with transaction.atomic():
        table = OnlineTable.objects.create(status=OnlineTable.OPEN, preset=preset, robot_level=level)
        SeatRow.objects.bulk_create([SeatRow(table=table, seat=s, robot=level, present=True) for s in range(SEATS)])
    return table


def table_confirm(*, table: OnlineTable, by: OnlineProfile) -> OnlineTable:
    """The host shows the table in its sala ("open")."""
    with transaction.atomic():
        table = _locked(table)
        _host_only(table, by)
        if table.status != OnlineTable.DRAFT:
            raise Refused.conflict(_("Esta mesa já foi confirmada."))
        table.status = OnlineTable.OPEN
        table.save(update_fields=["status", "updated_at"])
        _seats_changed(table)
    return table


def _close(table: OnlineTable) -> None:
    SeatRow.objects.filter(table=table).delete()
    chat.table_chat_clear(table=table)
    table.status = OnlineTable.CLOSED
    table.deadline = None
    table.save(update_fields=["status", "deadline", "updated_at"])


def seat_take(*, table: OnlineTable, profile: OnlineProfile, seat: int | None = None, password: str = "") -> SeatRow:
    """``profile`` sits at ``seat`` (the first free one when None); the seat it already holds if it sits here.
    A "jogar agora" table starts when its fourth seat is taken."""
    _may_sit(profile)
    with transaction.atomic():
        table = _locked(table)
        seats = _seats(table)
        mine = next((s for s in seats if s.profile_id == profile.pk), None)
        if mine is not None:
            return mine
        _casual_only(table)
        if table.status == OnlineTable.DRAFT and table.host_id != profile.pk:
            raise Refused.not_found(_("Esta mesa não existe."))
        _not_playing(table)
        if table.password_hash and table.host_id != profile.pk and not check_password(password, table.password_hash):
            raise Refused.forbidden(_("Senha errada: peça a senha da mesa a quem a criou."))
        taken = {s.seat for s in seats}
        if seat is None:
            free = [s for s in range(SEATS) if s not in taken]
            if not free:
                raise Refused.conflict(_("A mesa está cheia."))
            seat = free[0]
        elif isinstance(seat, bool) or seat not in range(SEATS):
            raise Refused.invalid(_("Escolha um lugar de 1 a 4."))
        elif seat in taken:
            raise Refused.conflict(_("Este lugar já está ocupado."))
        row = SeatRow.objects.create(table=table, seat=seat, profile=profile)
        _seats_changed(table)
        if table.auto_start and len(seats) + 1 == SEATS:
            _start(table, now=_now())
    return row


def _now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def seat_leave(*, table: OnlineTable, profile: OnlineProfile) -> None:
    """``profile`` leaves its seat (not while the partida is played: absence is not leaving). The host leaving
    before the start closes the table; after a partida, the host's powers go to the next person seated."""
    with transaction.atomic():
        table = _locked(table)
        seats = _seats(table)
        mine = next((s for s in seats if s.profile_id == profile.pk), None)
        if mine is None:
            raise Refused.conflict(_("Você não está sentado nesta mesa."))
        _casual_only(table)
        _not_playing(table)
        if table.host_id == profile.pk:
            others = [s for s in seats if s.profile_id is not None and s.profile_id != profile.pk]
            if (table.status in (OnlineTable.DRAFT, OnlineTable.OPEN) and table.partida_n == 0) or not others:
                _close(table)
                _seats_changed(table)
                return
            table.host_id = others[0].profile_id
            table.save(update_fields=["host", "updated_at"])
        mine.delete()
        if table.status == OnlineTable.FINISHED:
            table.deadline = None  # no next partida with an empty seat
            table.save(update_fields=["deadline", "updated_at"])
        _seats_changed(table)


def seat_move(*, table: OnlineTable, by: OnlineProfile, from_seat: int, to_seat: int) -> None:
    """The host moves whoever sits at ``from_seat`` to ``to_seat`` (exchanging them if it is taken)."""
    with transaction.atomic():
        table = _locked(table)
        _host_only(table, by)
        _casual_only(table)
        _not_playing(table)
        if from_seat not in range(SEATS) or to_seat not in range(SEATS) or from_seat == to_seat:
            raise Refused.invalid(_("Escolha dois lugares diferentes, de 1 a 4."))
        seats = {s.seat: s for s in _seats(table)}
        moving = seats.get(from_seat)
        if moving is None:
            raise Refused.conflict(_("Não há ninguém neste lugar."))
        other = seats.get(to_seat)
        # three updates through a seat number no table uses, so the (table, seat) key holds at each step
        SeatRow.objects.filter(pk=moving.pk).update(seat=99)
        if other is not None:
            SeatRow.objects.filter(pk=other.pk).update(seat=from_seat)
        SeatRow.objects.filter(pk=moving.pk).update(seat=to_seat)
        _seats_changed(table)


def seat_remove(*, table: OnlineTable, by: OnlineProfile, seat: int) -> None:
    """The host takes whoever sits at ``seat`` (a person or a robot) out of the table."""
    with transaction.atomic():
        table = _locked(table)
        _host_only(table, by)
        _casual_only(table)
        _not_playing(table)
        row = SeatRow.objects.filter(table=table, seat=seat).first()
        if row is None:
            raise Refused.conflict(_("Não há ninguém neste lugar."))
        if row.profile_id is not None and row.profile_id == table.host_id:
            raise Refused.conflict(_("Para sair da mesa, use “Sair”."))
        row.delete()
        if table.status == OnlineTable.FINISHED and table.deadline is not None:
            table.deadline = None
            table.save(update_fields=["deadline", "updated_at"])
        _seats_changed(table)


def robots_fill(*, table: OnlineTable, by: OnlineProfile, level: str = "basico") -> None:
    """The host's "Completar com robôs": every empty seat gets a robot of ``level``."""
    if level not in ROBOT_LEVELS:
        raise Refused.invalid(_("Escolha o nível dos robôs: aleatório ou básico."))
    with transaction.atomic():
        table = _locked(table)
        _host_only(table, by)
        _casual_only(table)
        _not_playing(table)
        taken = {s.seat for s in _seats(table)}
        SeatRow.objects.bulk_create(
            [SeatRow(table=table, seat=s, robot=level, present=True) for s in range(SEATS) if s not in taken]
        )
        table.robot_level = level
        table.save(update_fields=["robot_level", "updated_at"])
        _seats_changed(table)
        if table.auto_start and len(taken) < SEATS:
            _start(table, now=_now())


def table_start(*, table: OnlineTable, by: OnlineProfile | None, now: datetime | None = None) -> None:
    """The host starts the partida with four seated (``by`` None: the site itself, as "jogar agora" does)."""
    with transaction.atomic():
        table = _locked(table)
        if by is not None:
            _host_only(table, by)
        _casual_only(table)
        if table.status == OnlineTable.DRAFT:
            raise Refused.conflict(_("Confirme a mesa antes de começar."))
        _not_playing(table)
        _start(table, now=now or _now())


def _event_row(table: OnlineTable, event: Event) -> TableEvent:
    return TableEvent(
        table=table,
        seq=event.seq,
        partida_n=table.partida_n,
        kind=event.type,
        data=event.as_log(),
        at=_moment(event.at),
    )


def _start(table: OnlineTable, *, now: datetime) -> None:
    """Deal the next partida at a locked table with four seated (its first player and seeds drawn here)."""
    seats = _seats(table)
    if len(seats) < SEATS:
        raise Refused.conflict(_("A partida começa com quatro jogadores sentados."))
    if table.jogo_id is not None:  # a tournament jogo plays by its event's rules (its súmula checks the same)
        from .tournament import table_rules

        rules: RuleSettings | None = table_rules(table)
    else:
        rules, errors = settings_build(preset=table.preset, overrides=None)
        if rules is None:  # pragma: no cover - a table's preset is one of ours
            raise Refused.invalid(*(e.message for e in errors))
    assert rules is not None
    at = _ms(now)
    table.partida_n += 1
    marker = Event(seq=table.seq + 1, at=at, type=PARTIDA_EVENT, seat=None, detail={"n": table.partida_n})
    partida = partida_start(rules=rules, first=_first_seat(), seed=_seed_bytes(), now=at, seq=marker.seq)
    events = [marker]
    for row in seats:  # the engine starts with everyone present: who is not connected is said as an event
        if not (row.robot or row.present):
            step = presence(partida, row.seat, present=False, now=at)
            if step is not None:
                partida = step.partida
                events.extend(step.events)
    since = table.seq
    table.status = OnlineTable.PLAYING
    _save(table, partida, events, seats=seats, now=now, since=since, seats_changed=True)


def _robot_due(partida: Partida, seats: Iterable[SeatRow], now_ms: int) -> int | None:
    if partida.ended:
        return None
    if any(row.robot and may(partida, row.seat) for row in seats):
        return now_ms + _robot_delay_ms()
    return None


def _save(
    table: OnlineTable,
    partida: Partida,
    events: list[Event],
    *,
    seats: list[SeatRow],
    now: datetime,
    since: int,
    seats_changed: bool = False,
) -> dict[str, Any]:
    """Store the partida after ``events`` at a locked table, its next deadline, the log if it ended; broadcast.
    Returns the change as broadcast (``broadcast.table_changed``)."""
    if events:
        TableEvent.objects.bulk_create([_event_row(table, e) for e in events])
    now_ms = _ms(now)
    table.state = partida_dump(partida)
    table.seq = partida.seq
    due = [d for d in (partida.deadline, _robot_due(partida, seats, now_ms)) if d is not None]
    table.deadline = _moment(min(due)) if due else None
    fields = ["state", "seq", "deadline", "status", "partida_n", "updated_at"]
    if partida.ended:
        _finish(table, partida, seats, now)
        seats_changed = True
    if table.jogo_id is not None:  # a tournament jogo: its súmula fills itself (tournament.py)
        from .tournament import table_saved

        table_saved(table, partida, since=since, now=now)
    table.save(update_fields=fields)
    state = table.state
    change = broadcast.table_changed(
        table_id=table.pk,
        seq=table.seq,
        since=since,
        events=[e.as_log() for e in events],
        state=state,
        status=table.status,
        partida_n=table.partida_n,
        seats=seats_changed,
    )
    if seats_changed and table.sala is not None:
        broadcast.sala_changed(slug=table.sala.slug)
    return change


def event_from_log(data: Mapping[str, Any]) -> Event:
    """The engine's event back from its log form (``Event.as_log``)."""
    detail = {k: v for k, v in data.items() if k not in ("seq", "at", "seat", "type")}
    return Event(seq=data["seq"], at=from_iso(data["at"]), type=data["type"], seat=data["seat"], detail=detail)


def _seat_name(row: SeatRow) -> str:
    if row.player is not None:  # a tournament jogo: the player the seat plays for
        return row.player.name
    if row.profile is not None:
        return row.profile.display_name
    return _("Robô %(n)d") % {"n": row.seat + 1}


def _finish(table: OnlineTable, partida: Partida, seats: list[SeatRow], now: datetime) -> None:
    """A partida ended at a locked table: its log, the table's chat gone (004), the next partida's time."""
    logged = TableEvent.objects.filter(table=table, partida_n=table.partida_n).order_by("seq")
    events = [event_from_log(row.data) for row in logged if row.kind != PARTIDA_EVENT]
    data = log_build(
        partida=partida,
        events=events,
        table=table.pk,
        number=table.partida_n,
        seats=[Seat(seat=row.seat, name=_seat_name(row)) for row in seats],
    )
    log = PartidaLog.objects.create(
        table=table,
        n=table.partida_n,
        data=data,
        winner=partida.winner,
        ended_by=partida.ended_by or "",
        finished_at=now,
    )
    ranking.partida_count(log=log, seats=seats)  # the online ranking walks with the write (DOMAIN §9.5)
    chat.table_chat_clear(table=table)
    table.status = OnlineTable.FINISHED
    table.deadline = now + timedelta(milliseconds=NEXT_PARTIDA_MS) if table.auto_start else None


def quick_seat(*, profile: OnlineProfile) -> OnlineTable:
    """ "Jogar agora": the first open "jogar agora" table with a free seat (the one ``profile`` already waits at,
    if any), else a new one; it starts by itself when its fourth seat is taken."""
    _may_sit(profile)
    waiting = (
        OnlineTable.objects.filter(status=OnlineTable.OPEN, auto_start=True, seats__profile=profile)
        .order_by("pk")
        .first()
    )
    if waiting is not None:
        return waiting
    candidates = (
        OnlineTable.objects.filter(status=OnlineTable.OPEN, auto_start=True, password_hash="")
        .annotate(taken=Count("seats"))
        .filter(taken__lt=SEATS)
        .order_by("pk")[:5]
    )
    for candidate in candidates:
        try:
            seat_take(table=candidate, profile=profile)
        except Refused:
            continue  # filled meanwhile
        return candidate
    table = table_create(host=profile, appearance="", face="", back="", auto_start=True)
    return table_confirm(table=table, by=profile)


# The partida ------------------------------------------------------------------------------------------------------


def _refusal(text: str) -> str:
    return str(text)


def table_act(*, table_id: int, profile: OnlineProfile, message: Mapping[str, Any], now: datetime) -> ActResult:
    """A player's action from the live connection (``play``, ``bet``, ``answer``, ``onze``, ``vote`` with its
    ``id`` and the ``seq`` of the state it acted on): applied by the engine and stored, or refused with why
    (nothing changes). The same ``id`` twice acts once."""
    client_id = message.get("id")
    if not isinstance(client_id, str) or not 0 < len(client_id) <= CLIENT_ID_MAX:
        return ActResult(_("A ação precisa de um 'id' (texto de até 64 caracteres)."), -1)
    seq = message.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        return ActResult(_("A ação precisa do 'seq' do estado em que foi feita."), -1)
    if message.get("type") not in ACTION_TYPES:
        return ActResult(_("Ação desconhecida."), -1)
    action = action_from_message(message)
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return ActResult(_("Esta mesa não existe."), -1)
        done = (
            ClientAction.objects.filter(table=table, profile=profile, client_id=client_id)
            .values_list("seq", flat=True)
            .first()
        )
        if done is not None:
            return ActResult(None, table.seq)
        if isinstance(action, Refusal):
            return ActResult(_refusal(action.message), table.seq)
        if table.status != OnlineTable.PLAYING or table.state is None:
            return ActResult(_("Nenhuma partida está sendo jogada nesta mesa."), table.seq)
        seats = _seats(table)
        mine = next((row.seat for row in seats if row.profile_id == profile.pk), None)
        if mine is None:
            return ActResult(_("Só quem está sentado à mesa joga."), table.seq)
        if seq != table.seq:
            return ActResult(_("A mesa mudou desde a sua jogada: veja o estado novo e jogue de novo."), table.seq)
        partida = partida_load(table.state)
        outcome = apply(partida, mine, action, now=_ms(now), seed=_seed_bytes())
        if isinstance(outcome, Refusal):
            return ActResult(_refusal(outcome.message), table.seq)
        since = table.seq
        change = _save(table, outcome.partida, list(outcome.events), seats=seats, now=now, since=since)
        ClientAction.objects.create(table=table, profile=profile, client_id=client_id, seq=table.seq, at=now)
    return ActResult(None, table.seq, change)


def presence_set(*, table_id: int, profile: OnlineProfile, present: bool, now: datetime) -> None:
    """``profile``'s connection to the table came or went: others see "ausente" (absence is not abandonment;
    the clocks run on). Nothing when it does not sit at the table or nothing changes."""
    with transaction.atomic():
        row = SeatRow.objects.filter(table_id=table_id, profile=profile).first()
        if row is None or row.present == present:
            return
        table = OnlineTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return
        SeatRow.objects.filter(pk=row.pk).update(present=present)
        if table.status == OnlineTable.PLAYING and table.state is not None:
            partida = partida_load(table.state)
            step = presence(partida, row.seat, present=present, now=_ms(now))
            if step is not None:
                seats = _seats(table)
                since = table.seq
                _save(table, step.partida, list(step.events), seats=seats, now=now, since=since, seats_changed=True)
                return
        broadcast.seats_changed(table_id=table.pk, seq=table.seq)
    if profile.last_seen is None or now - profile.last_seen > timedelta(minutes=1):
        OnlineProfile.objects.filter(pk=profile.pk).update(last_seen=now)


def table_suspend(*, table: OnlineTable, by: OnlineProfile | None, reason: str, now: datetime) -> None:
    """Stop a table's partida (staff, a referee): its clock keeps the time it had left."""
    if by is not None and not _is_staff(by):
        raise Refused.forbidden(_("Só a equipe do site pode suspender uma mesa."))
    _engine_step(table, now, lambda p: suspend(p, now=_ms(now), reason=reason[:200]))


def table_resume(*, table: OnlineTable, by: OnlineProfile | None, now: datetime) -> None:
    """Take a suspended table up again, each clock with the time it had left."""
    if by is not None and not _is_staff(by):
        raise Refused.forbidden(_("Só a equipe do site pode retomar uma mesa."))
    _engine_step(table, now, lambda p: resume(p, now=_ms(now)))


def _engine_step(table: OnlineTable, now: datetime, do: Any) -> None:
    with transaction.atomic():
        table = _locked(table)
        if table.status != OnlineTable.PLAYING or table.state is None:
            raise Refused.conflict(_("Nenhuma partida está sendo jogada nesta mesa."))
        outcome = do(partida_load(table.state))
        if isinstance(outcome, Refusal):
            raise Refused.conflict(str(outcome.message))
        _save(table, outcome.partida, list(outcome.events), seats=_seats(table), now=now, since=table.seq)


# The clock --------------------------------------------------------------------------------------------------------


def table_tick(
    *, now: datetime, limit: int = 50, resume_after: timedelta | None = None, table_ids: list[int] | None = None
) -> list[int]:
    """The clock: each table whose ``deadline`` has come (up to ``limit``) gets what it brings, once however many
    servers tick (``SKIP LOCKED``): an expiry (DOMAIN §9.2), robots' moves at casual tables, the next partida of
    a "jogar agora" table. Returns the tables it moved.

    ``resume_after``: when the clock's last beat (any server's) is older than this, no clock ran meanwhile (every
    server was down): each table in play is given back the time its clock had left at that beat. ``table_ids``:
    only these tables (a command's own)."""
    if resume_after is not None:
        _beat(now=now, resume_after=resume_after)
    due = list(OnlineTable.objects.filter(deadline__lte=now).order_by("deadline").values_list("pk", flat=True)[:limit])
    moved: list[int] = []
    for table_id in due:
        if _tick_one(table_id, now):
            moved.append(table_id)
    return moved


def _tick_one(table_id: int, now: datetime) -> bool:
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update(skip_locked=True).filter(pk=table_id, deadline__lte=now).first()
        if table is None:  # another server has it, or it moved on
            return False
        seats = _seats(table)
        if table.jogo_id is not None and table.status != OnlineTable.PLAYING:
            from .tournament import table_due  # a tournament jogo: WO by tolerance, next partida, answers

            return table_due(table, seats, now)
        if table.status == OnlineTable.FINISHED:
            if len(seats) == SEATS:
                _start(table, now=now)
            else:
                table.status, table.deadline = OnlineTable.OPEN, None
                table.save(update_fields=["status", "deadline", "updated_at"])
                _seats_changed(table)
            return True
        if table.status != OnlineTable.PLAYING or table.state is None:
            table.deadline = None
            table.save(update_fields=["deadline", "updated_at"])
            return False
        partida = partida_load(table.state)
        now_ms = _ms(now)
        events: list[Event] = []
        delay = _robot_delay_ms()
        for _step in range(MAX_STEPS_PER_TICK):
            if partida.ended:
                break
            outcome: Step | Refusal | None
            if partida.deadline is not None and now_ms >= partida.deadline:
                outcome = expire(partida, now=now_ms, seed=_seed_bytes())
            else:
                outcome = _robot_step(partida, seats, now_ms)
            if outcome is None or isinstance(outcome, Refusal):
                break
            partida = outcome.partida
            events.extend(outcome.events)
            if delay > 0 and _robot_due(partida, seats, now_ms) is not None:
                break  # the next robot acts after its delay, at a later tick
        since = table.seq
        _save(table, partida, events, seats=seats, now=now, since=since)
        return bool(events)


def _robot_step(partida: Partida, seats: list[SeatRow], now_ms: int) -> Step | Refusal | None:
    for row in seats:
        if row.robot and may(partida, row.seat):
            action = robot_action(view(partida, row.seat), level=row.robot, rng=_DRAWS.robots)
            if action is None:
                continue
            return apply(partida, row.seat, action, now=now_ms, seed=_seed_bytes())
    return None


def _beat(*, now: datetime, resume_after: timedelta) -> None:
    """Record the clock's beat; after a silence longer than ``resume_after``, give every table in play the time
    its clock had left at the last beat (a suspension from that beat to now, in the log: "servidor parado")."""
    with transaction.atomic():
        beat = ClockBeat.objects.select_for_update().filter(pk=1).first()
        if beat is None:
            try:
                with transaction.atomic():
                    ClockBeat.objects.create(pk=1, at=now)
            except IntegrityError:
                pass
            return
        last = beat.at
        if now - last <= resume_after:
            if now > last:
                ClockBeat.objects.filter(pk=1).update(at=now)
            return
        ClockBeat.objects.filter(pk=1).update(at=now)
    playing = OnlineTable.objects.filter(status=OnlineTable.PLAYING).values_list("pk", flat=True)
    for table_id in playing:
        _give_back(table_id, last=last, now=now)


def _give_back(table_id: int, *, last: datetime, now: datetime) -> None:
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().filter(pk=table_id, status=OnlineTable.PLAYING).first()
        if table is None or table.state is None:
            return
        partida = partida_load(table.state)
        if partida.deadline is None:
            return
        last_event = TableEvent.objects.filter(table=table).order_by("-seq").values_list("at", flat=True).first()
        stopped_ms = max(_ms(last), _ms(last_event) if last_event is not None else 0)
        stopped = suspend(partida, now=stopped_ms, reason=_("servidor parado"))
        if isinstance(stopped, Refusal):
            return
        resumed = resume(stopped.partida, now=_ms(now))
        if isinstance(resumed, Refusal):  # pragma: no cover - just suspended
            return
        since = table.seq
        _save(
            table,
            resumed.partida,
            [*stopped.events, *resumed.events],
            seats=_seats(table),
            now=now,
            since=since,
        )
