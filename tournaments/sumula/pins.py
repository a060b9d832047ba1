"""A dupla's PIN at the súmula: checked in constant time, guesses limited per dupla, per address, per tournament.

Every wrong PIN is kept (``PinFailure``) with its source: the client's address
and whether it was typed on the referee's screen (a session of this
tournament's referee or organizer). What a check from each source is judged by:

- **Public** (the API's ``confirmacao/``): refused as locked while
  - its address made ``ADDRESS_TRIES`` wrong PINs within ``WINDOW``, on any dupla of any tournament
    (the address is then refused for ``ADDRESS_LOCK``);
  - the tournament had more wrong PINs within ``WINDOW`` than its ceiling (``TOURNAMENT_BASE`` +
    ``TOURNAMENT_PER_DUPLA`` × its duplas): public checks wait until the window has room again;
  - the dupla is locked: ``TRIES`` wrong PINs within ``WINDOW`` lock it for ``LOCK``, each later lock
    within a day twice as long as the one before; and ``DAY_TRIES`` wrong PINs within a day lock it until
    the referee unlocks it (or they are a day old), so slow guessing also ends in a lock.
  All the dupla's failures count (the referee's screen's too).
- **Referee's screen**: judged only by the failures typed on referee screens (a stranger's guesses do not
  lock the dupla out at the table), with the same per-dupla rules, and ``ADDRESS_TRIES`` per staff account
  (so a referee's phone cannot be used to try PINs across duplas).

Tries while refused are not checked nor recorded. The referee (or an organizer) unlocks a dupla with
``pin_unlock``: its failures are marked cleared (kept as history) and stop counting for the dupla; they
still count for their address and tournament.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connections, router
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import plainsql
from ..audit import audit_record
from ..models import Dupla, PinFailure, Tournament
from ..permissions import may_pin_unlock, may_try_pin, pin_rules
from ..refusals import Refused
from ..staff.pins import PinHasher, pin_check
from ..writes import PRIVATE, tournament_write

WINDOW = dt.timedelta(minutes=10)
LOCK = dt.timedelta(minutes=10)  # the first lock of a dupla in a day; each next one doubles
LOCK_MAX = dt.timedelta(hours=8)
TRIES = 6
DAY = dt.timedelta(days=1)
DAY_TRIES = 20  # wrong PINs per dupla within a day: locked until the referee unlocks
ADDRESS_TRIES = 20  # wrong PINs per address (or per staff account) within WINDOW, across duplas
ADDRESS_LOCK = dt.timedelta(minutes=30)
TOURNAMENT_BASE = 20  # a tournament's ceiling of public wrong PINs within WINDOW: BASE + PER_DUPLA × duplas
TOURNAMENT_PER_DUPLA = 1

UNTIL_UNLOCKED = "until_unlocked"


def _bursts(times: list[dt.datetime], tries: int) -> list[int]:
    """Where in ``times`` (in order) a lock began: ``tries`` failures within ``WINDOW``, counted after the
    previous lock."""
    start, locks = 0, []
    for i, at in enumerate(times):
        if i - start + 1 >= tries and at - times[i - tries + 1] <= WINDOW:
            locks.append(i)
            start = i + 1
    return locks


def _lock_length(lock: dt.timedelta, before: int, grow: bool) -> dt.timedelta:
    """How long a lock lasts after ``before`` earlier ones: ``lock``, doubling each time with ``grow``."""
    return min(lock * 2**before, LOCK_MAX) if grow else lock


def _burst_lock(times: list[dt.datetime], tries: int, lock: dt.timedelta, grow: bool) -> dt.datetime | None:
    """When the last lock ends: ``tries`` failures within ``WINDOW`` (counted after the previous lock) lock
    for ``lock`` (doubling each time with ``grow``). ``times`` in order."""
    locks = _bursts(times, tries)
    if not locks:
        return None
    return times[locks[-1]] + _lock_length(lock, len(locks) - 1, grow)


def _dupla_times(dupla: Dupla, now: dt.datetime, *, referee_screen: bool) -> list[dt.datetime]:
    """The times of the dupla's wrong PINs that count for checks from that source, in order."""
    failures = PinFailure.objects.filter(dupla=dupla, cleared_at__isnull=True, at__gte=now - DAY, at__lte=now)
    if not pin_rules(referee_screen=referee_screen).dupla_counts_public:
        failures = failures.filter(staff=True)
    return list(failures.order_by("at").values_list("at", flat=True))


def _lock_of(times: list[dt.datetime], now: dt.datetime) -> dt.datetime | str | None:
    """The dupla's lock over its counted wrong PINs ``times`` (in order, within the day before ``now``)."""
    if len(times) >= DAY_TRIES:
        return UNTIL_UNLOCKED
    until = _burst_lock(times, TRIES, LOCK, grow=True)
    return until if until is not None and now < until else None


def _dupla_lock(dupla: Dupla, now: dt.datetime, *, referee_screen: bool) -> dt.datetime | str | None:
    """``UNTIL_UNLOCKED``, the end of the dupla's lock, or None (not locked) for checks from that source."""
    return _lock_of(_dupla_times(dupla, now, referee_screen=referee_screen), now)


@dataclass(frozen=True)
class TriesLeft:
    """How many wrong PINs a dupla may still make before its lock, and that lock's length (None: until the
    referee unlocks it)."""

    tries: int
    lock: dt.timedelta | None


def _tries_left(times: list[dt.datetime], now: dt.datetime) -> TriesLeft:
    """The same rules as ``_lock_of``: the burst of ``TRIES`` within ``WINDOW`` counted after the last lock
    (each lock of the day twice as long), and ``DAY_TRIES`` in a day."""
    locks = _bursts(times, TRIES)
    start = locks[-1] + 1 if locks else 0
    recent = sum(1 for at in times[start:] if now - at <= WINDOW)
    burst, day = TRIES - recent, DAY_TRIES - len(times)
    if day <= burst:
        return TriesLeft(tries=max(0, day), lock=None)
    return TriesLeft(tries=max(0, burst), lock=_lock_length(LOCK, len(locks), grow=True))


def pin_tries_left(*, dupla: Dupla, referee_screen: bool) -> TriesLeft:
    """How many more wrong PINs the dupla may type from that source (the referee's screen or in public)
    before it is locked, and for how long it would be."""
    now = timezone.now()
    return _tries_left(_dupla_times(dupla, now, referee_screen=referee_screen), now)


def pin_tries_text(*, dupla: Dupla, referee_screen: bool) -> str:
    """The sentence a wrong PIN's refusal ends with: the tries left before the lock (pt-BR, translated)."""
    left = pin_tries_left(dupla=dupla, referee_screen=referee_screen)
    if left.lock is None:
        return ngettext(
            "Mais %(n)s tentativa antes do bloqueio até o árbitro desbloquear.",
            "Mais %(n)s tentativas antes do bloqueio até o árbitro desbloquear.",
            left.tries,
        ) % {"n": left.tries}
    minutes = int(left.lock.total_seconds()) // 60
    return ngettext(
        "Mais %(n)s tentativa antes do bloqueio de %(m)s minutos.",
        "Mais %(n)s tentativas antes do bloqueio de %(m)s minutos.",
        left.tries,
    ) % {"n": left.tries, "m": minutes}


def _source_lock(failures: QuerySet[PinFailure], now: dt.datetime) -> dt.datetime | None:
    """The end of the lock of an address (or a staff account) over ``failures``, if it is locked now."""
    times = list(
        failures.filter(at__gte=now - WINDOW - ADDRESS_LOCK, at__lte=now).order_by("at").values_list("at", flat=True)
    )
    until = _burst_lock(times, ADDRESS_TRIES, ADDRESS_LOCK, grow=False)
    return until if until is not None and now < until else None


def tournament_pin_ceiling(tournament_id: int) -> int:
    return TOURNAMENT_BASE + TOURNAMENT_PER_DUPLA * Dupla.objects.filter(tournament_id=tournament_id).count()


def _tournament_wait(dupla: Dupla, now: dt.datetime) -> dt.datetime | None:
    """While the tournament is over its ceiling of public wrong PINs in the window: when it has room again."""
    ceiling = tournament_pin_ceiling(dupla.tournament_id)
    nth = list(
        PinFailure.objects.filter(
            dupla__tournament_id=dupla.tournament_id, staff=False, at__gte=now - WINDOW, at__lte=now
        )
        .order_by("-at")
        .values_list("at", flat=True)[ceiling - 1 : ceiling]
    )
    if not nth:
        return None
    return nth[0] + WINDOW  # the ceiling-th latest failure leaves the window


def pin_verify(*, dupla: Dupla, pin: object, address: str = "", staff: bool = False, user: User | None = None) -> None:
    """Pass if ``pin`` is the dupla's PIN; else ``Refused`` forbidden (wrong) or locked (locked, throttled).

    ``address``, ``staff`` and ``user`` say where the check comes from (the web edge's ``pin_source``).
    """
    # One check at a time per dupla (its row locked), per address or staff account and per tournament
    # (``_counters_lock``), so guesses sent in parallel cannot all pass the lock test before any failure is
    # recorded. The failure is committed with this block, before the refusal.
    # FOR NO KEY UPDATE, not FOR UPDATE: it does not conflict with the key-share locks taken by rows written
    # that point to the dupla (a jogo, a súmula event), so the súmula's writes never queue behind a PIN check.
    with tournament_write(tournament=dupla.tournament, action="pin.verify", user=user, kind=PRIVATE):
        connection = connections[router.db_for_write(Dupla)]
        _counters_lock(dupla, address=address or "", staff=staff, user=user, connection=connection)
        plainsql.row_lock(Dupla, dupla.pk, connection=connection, no_key=True)
        now = timezone.now()
        refusal = _refusal(dupla, pin, now, address=address or "", staff=staff, user=user)
    if refusal is not None:
        raise refusal


def _counters_lock(dupla: Dupla, *, address: str, staff: bool, user: User | None, connection: Any) -> None:
    """Lock the counters this check reads and may grow, besides the dupla's own (its row): the staff account's or
    the address's wrong PINs, then the tournament's; always in that order, then the dupla's row, so two checks
    never wait on each other in a cycle. Guesses sent together from one address across duplas, or from many
    addresses to one event, are then checked one at a time: none passes the limit before the others are counted."""
    rules = pin_rules(referee_screen=staff)
    if rules.per_account and user is not None:
        plainsql.key_lock("pin.account", user.pk, connection=connection)
    if rules.per_address and address:
        plainsql.key_lock("pin.address", address, connection=connection)
    if rules.per_tournament:
        plainsql.key_lock("pin.tournament", dupla.tournament_id, connection=connection)


def _failures_near(dupla: Dupla, now: dt.datetime, *, address: str, user: User | None) -> bool:
    """Whether any wrong PIN lies in the windows ``_lock_now`` reads: the dupla's day, the address's and the
    account's windows and the tournament's. One statement, each part down its own index: without any, no check
    can find a lock, and a PIN typed right (nearly every one) costs one query instead of four."""
    connection = connections[router.db_for_read(PinFailure)]
    q = connection.ops.quote_name
    failure, dupla_table = q(PinFailure._meta.db_table), q(Dupla._meta.db_table)
    at, day, source = q("at"), now - DAY, now - WINDOW - ADDRESS_LOCK
    sql = (
        f"SELECT 1 WHERE EXISTS (SELECT 1 FROM {failure} WHERE {q('dupla_id')} = %s AND {at} >= %s AND {at} <= %s) "
        f"OR EXISTS (SELECT 1 FROM {failure} WHERE {q('address')} = %s AND {q('staff')} = %s AND {at} >= %s "
        f"AND {at} <= %s) "
        f"OR EXISTS (SELECT 1 FROM {failure} WHERE {q('user_id')} = %s AND {q('staff')} = %s AND {at} >= %s "
        f"AND {at} <= %s) "
        f"OR EXISTS (SELECT 1 FROM {failure} f JOIN {dupla_table} d ON d.{q('id')} = f.{q('dupla_id')} "
        f"WHERE d.{q('tournament_id')} = %s AND f.{q('staff')} = %s AND f.{at} >= %s AND f.{at} <= %s)"
    )
    stamp = connection.ops.adapt_datetimefield_value
    params = [
        dupla.pk, stamp(day), stamp(now),
        address, False, stamp(source), stamp(now),
        user.pk if user is not None else None, True, stamp(source), stamp(now),
        dupla.tournament_id, False, stamp(now - WINDOW), stamp(now),
    ]  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def _lock_now(dupla: Dupla, now: dt.datetime, *, address: str, staff: bool, user: User | None) -> Refused | None:
    rules = pin_rules(referee_screen=staff)
    if not _failures_near(dupla, now, address=address if rules.per_address else "", user=user):
        return None  # no wrong PIN anywhere near: nothing can lock this check
    if rules.per_account and user is not None:
        until = _source_lock(PinFailure.objects.filter(user=user, staff=True), now)
        if until is not None and not may_try_pin(lock=until, now=now):
            return _locked(until, now, _("Muitos PINs errados digitados nesta sessão"))
    if rules.per_address and address:
        until = _source_lock(PinFailure.objects.filter(address=address, staff=False), now)
        if until is not None and not may_try_pin(lock=until, now=now):
            return _locked(until, now, _("Muitos PINs errados a partir deste endereço"))
    if rules.per_tournament:
        until = _tournament_wait(dupla, now)
        if until is not None and not may_try_pin(lock=until, now=now):
            return _locked(
                until,
                now,
                _("Muitos PINs errados neste torneio: as confirmações por PIN estão suspensas por alguns minutos"),
            )
    lock = _dupla_lock(dupla, now, referee_screen=staff)
    if may_try_pin(lock=lock, now=now):
        return None
    if lock == UNTIL_UNLOCKED:
        return Refused.locked(
            _(
                "PIN da dupla %(dupla)s bloqueado por excesso de tentativas erradas: "
                "procure o árbitro da mesa para desbloquear"
            )
            % {"dupla": dupla.key},
        )
    assert isinstance(lock, dt.datetime)  # locked until then (may_try_pin: a lock holds)
    return _locked(lock, now, _("PIN bloqueado por excesso de tentativas erradas"))


def _refusal(
    dupla: Dupla, pin: object, now: dt.datetime, *, address: str, staff: bool, user: User | None
) -> Refused | None:
    refusal = _lock_now(dupla, now, address=address, staff=staff, user=user)
    if refusal is not None:
        return refusal
    if not isinstance(pin, str) or not pin_check(dupla, pin):
        if not dupla.pin_hash:
            make_password("000000", hasher=PinHasher())  # the same work as a real check: no timing hint
        # outside the write's transaction: it must stay
        PinFailure.objects.create(dupla=dupla, at=now, address=address[:64], staff=staff, user=user)
        refusal = _lock_now(dupla, now, address=address, staff=staff, user=user)
        if refusal is not None:
            return refusal
        wrong = _("PIN incorreto para a dupla %(dupla)s") % {"dupla": dupla.key}
        return Refused.forbidden(f"{wrong}. {pin_tries_text(dupla=dupla, referee_screen=staff)}")
    return None


def _locked(until: dt.datetime, now: dt.datetime, why: str) -> Refused:
    minutes = max(1, int((until - now).total_seconds() + 59) // 60)
    return Refused.locked(
        ngettext(
            "%(why)s: tente de novo em %(n)s minuto ou procure o árbitro da mesa",
            "%(why)s: tente de novo em %(n)s minutos ou procure o árbitro da mesa",
            minutes,
        )
        % {"why": why, "n": minutes}
    )


# --- the referee unlocks ---------------------------------------------------------------------------------


def pin_locked(*, dupla: Dupla) -> bool:
    """Whether the dupla's PIN is locked now, for public checks or on the referee's screen."""
    now = timezone.now()
    return any(
        not may_try_pin(lock=_dupla_lock(dupla, now, referee_screen=screen), now=now) for screen in (False, True)
    )


def pin_unlock(*, tournament: Tournament, dupla: Dupla, by: User | None) -> int:
    """Clear the dupla's PIN lock (its wrong PINs stop counting for it; the history stays); audited.

    Returns how many failures were cleared. Only the tournament's referee or organizer (``may_pin_unlock``).
    """
    if dupla.tournament_id != tournament.pk:
        raise ValueError("the dupla is not of this tournament")
    if not may_pin_unlock(user=by, tournament=tournament):
        raise PermissionDenied(_("só o árbitro ou a organização do torneio desbloqueiam o PIN de uma dupla"))
    with tournament_write(tournament=tournament, action="pin.unlock", user=by, kind=PRIVATE):
        plainsql.row_lock(Dupla, dupla.pk, connection=connections[router.db_for_write(Dupla)], no_key=True)
        cleared = PinFailure.objects.filter(dupla=dupla, cleared_at__isnull=True).update(cleared_at=timezone.now())
        audit_record(
            tournament=tournament,
            user=by,
            action="pin_unlock",
            summary=_("PIN da dupla %(dupla)s desbloqueado") % {"dupla": dupla.display_name},
            after={"dupla": dupla.key, "failures_cleared": cleared},
        )
    return cleared


def pin_locked_duplas(*, tournament: Tournament) -> list[Dupla]:
    """The tournament's duplas whose PIN is locked now (for the desk's PINs page), in the duplas' order."""
    since = timezone.now() - DAY
    ids = (
        PinFailure.objects.filter(dupla__tournament=tournament, cleared_at__isnull=True, at__gte=since)
        .values_list("dupla_id", flat=True)
        .distinct()
    )
    duplas = (
        Dupla.objects.filter(pk__in=list(ids))
        .select_related("tournament", "player1", "player2")
        .order_by("order", "id")
    )
    return [d for d in duplas if pin_locked(dupla=d)]


def pin_locked_count(*, tournament: Tournament) -> int:
    """How many of the tournament's duplas have their PIN locked now (as ``pin_locked``), in one query."""
    now = timezone.now()
    times: dict[int, list[tuple[dt.datetime, bool]]] = {}
    for dupla_id, at, staff in (
        PinFailure.objects.filter(dupla__tournament=tournament, cleared_at__isnull=True, at__gte=now - DAY, at__lte=now)
        .order_by("at")
        .values_list("dupla_id", "at", "staff")
    ):
        times.setdefault(dupla_id, []).append((at, staff))
    locked = 0
    for failures in times.values():
        for screen in (False, True):
            counts_public = pin_rules(referee_screen=screen).dupla_counts_public
            counted = [at for at, staff in failures if staff or counts_public]
            if not may_try_pin(lock=_lock_of(counted, now), now=now):
                locked += 1
                break
    return locked
