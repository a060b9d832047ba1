"""A dupla's PIN at the súmula: checked in constant time, locked after six wrong tries in ten minutes.

The lock is per dupla, whatever the address of the guesses: the sixth wrong
PIN within ten minutes, and every try in the ten minutes after it (even with
the right PIN), answer 429. Tries during the lock are not checked at all.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Dupla, PinFailure
from ..staff.pins import PinHasher, pin_check
from .services import SumulaRefused

WINDOW = dt.timedelta(minutes=10)
LOCK = dt.timedelta(minutes=10)
TRIES = 6


def _locked_until(dupla: Dupla, now: dt.datetime) -> dt.datetime | None:
    """When the lock of the dupla's PIN ends, if it is locked now."""
    times = list(PinFailure.objects.filter(dupla=dupla, at__gte=now - WINDOW - LOCK).order_by("at")
                 .values_list("at", flat=True))
    for i in range(TRIES - 1, len(times)):
        sixth = times[i]
        if sixth - times[i - TRIES + 1] <= WINDOW and now < sixth + LOCK:
            return sixth + LOCK
    return None


def pin_verify(*, dupla: Dupla, pin) -> None:
    """Pass if ``pin`` is the dupla's PIN; else ``SumulaRefused`` 403 (wrong) or 429 (locked)."""
    # One check at a time per dupla (its row locked), so guesses sent in parallel cannot all pass the lock
    # test before any failure is recorded. The failure is committed with this block, before the refusal.
    # FOR NO KEY UPDATE, not FOR UPDATE: it does not conflict with the key-share locks taken by rows written
    # that point to the dupla (a jogo, a súmula event), so the súmula's writes never queue behind a PIN check.
    with transaction.atomic():
        list(Dupla.objects.select_for_update(no_key=True).filter(pk=dupla.pk).values_list("pk", flat=True))
        now = timezone.now()
        refusal = _refusal(dupla, pin, now)
    if refusal is not None:
        raise refusal


def _refusal(dupla: Dupla, pin, now: dt.datetime) -> SumulaRefused | None:
    until = _locked_until(dupla, now)
    if until is not None:
        return _locked(until, now)
    if not isinstance(pin, str) or not pin_check(dupla, pin):
        if not dupla.pin_hash:
            make_password("000000", hasher=PinHasher())  # the same work as a real check: no timing hint
        PinFailure.objects.create(dupla=dupla, at=now)  # outside the write's transaction: it must stay
        until = _locked_until(dupla, now)
        if until is not None:
            return _locked(until, now)
        return SumulaRefused(403, _("PIN incorreto para a dupla %(dupla)s") % {"dupla": dupla.key})
    return None


def _locked(until: dt.datetime, now: dt.datetime) -> SumulaRefused:
    minutes = max(1, int((until - now).total_seconds() + 59) // 60)
    return SumulaRefused(429, _("PIN bloqueado por excesso de tentativas erradas: tente de novo em %(n)s minuto(s) "
                                "ou procure o árbitro") % {"n": minutes})
