"""Dupla PINs: 6 digits made with ``secrets``, stored only as a password hash, shown once when made.

A PIN lets a dupla confirm or contest its own súmulas (DOMAIN.md §8). Only
``Dupla.pin_hash`` is kept, so a PIN can be shown only in the response that
made it (the desk's cards page, ``dupla_pins --reset``); a lost PIN is
replaced by making new ones.

The hash is Django's PBKDF2 (``make_password``), with fewer iterations than
an account password: a 6-digit PIN has 10⁶ values, so no iteration count
makes a stolen hash safe, while the default cost (≈0.3 s each) would make
printing the cards of a 64-dupla event take 20 s, and every confirmation at
the table pays one check (20,000 rounds: about 10 ms). The guard of a PIN is the
limit on guesses where it is checked; ``check_password`` reads the iteration
count from the hash, so these hashes verify with the stock hasher.
"""

from __future__ import annotations

import re

from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, make_password
from django.db import transaction
from django.utils.translation import gettext as _

from ..audit import audit_record
from ..models import Dupla, Tournament, new_pin

PIN_RE = re.compile(r"[0-9]{6}")


class PinHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 (the same algorithm name, so ``check_password`` needs no setting) at a PIN's cost."""

    iterations = 20_000


def pin_hash_make(pin: str) -> str:
    return make_password(pin, hasher=PinHasher())


def pins_reset(*, tournament: Tournament, by=None) -> dict[str, str]:
    """Give every dupla of ``tournament`` a new PIN; the old ones stop working.

    Returns ``{dupla_key: pin}`` in the duplas' order. Only the hashes are
    stored, and the audit entry does not carry the PINs.
    """
    with transaction.atomic():
        duplas = list(Dupla.objects.select_for_update().filter(tournament=tournament).order_by("order", "id"))
        pins: dict[str, str] = {}
        for dupla in duplas:
            pins[dupla.key] = new_pin()
            dupla.pin_hash = pin_hash_make(pins[dupla.key])
        Dupla.objects.bulk_update(duplas, ["pin_hash"], batch_size=500)
        audit_record(tournament=tournament, user=by, action="pins_reset", summary=_("PINs das duplas refeitos"),
                     after={"duplas": len(duplas)})
    return pins


def pin_check(dupla: Dupla, pin: str) -> bool:
    """Whether ``pin`` is the dupla's current PIN (constant-time comparison of the hashes)."""
    pin = (pin or "").strip()
    if not dupla.pin_hash or not PIN_RE.fullmatch(pin):
        return False
    return check_password(pin, dupla.pin_hash)
