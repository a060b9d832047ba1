"""Dupla PINs: 6 digits made with ``secrets``, stored only as a password hash, shown once when made.

A PIN lets a dupla confirm or contest its own súmulas (docs/regras.md §8). Only
``Dupla.pin_hash`` is kept, so a PIN can be shown only in the response that
made it (the desk's cards page, ``dupla_pins --reset``); a lost PIN is
replaced by making new ones.

The hash is Django's PBKDF2 (``make_password``), with far fewer iterations
than an account password: a 6-digit PIN has 10⁶ values, so no iteration count
makes a stolen hash safe (all of them tried: about 15 minutes of one CPU at
2,000 rounds, 2 to 3 hours at 20,000, days at the default), while every
confirmation at the table pays one check, which must be quick: the counting
confirmation's budget is 40 ms, and 20,000 rounds took 10 ms of it (2,000:
1 ms). The guard of a PIN is the limit on guesses where it is checked;
``check_password`` reads the iteration count from the hash, so these hashes
verify with the stock hasher, and PINs made before with more rounds still
verify (at their own cost) until they are made again.
"""

from __future__ import annotations

import hashlib
import re

from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, make_password
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from ..audit import audit_record
from ..models import Dupla, PinFailure, ReplacedLink, Tournament, new_pin, new_private_token
from ..writes import PRIVATE, tournament_write

PIN_RE = re.compile(r"[0-9]{6}")


class PinHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 (the same algorithm name, so ``check_password`` needs no setting) at a PIN's cost."""

    iterations = 2_000


def pin_hash_make(pin: str) -> str:
    return make_password(pin, hasher=PinHasher())


def token_hash(token: str) -> str:
    """How a replaced private link is kept (``ReplacedLink``): the SHA-256 of its token, not the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _renew(duplas: list[Dupla]) -> dict[str, str]:
    """New PIN and new private link for each dupla (rows locked by the caller); the old links are kept as
    replaced, the wrong PINs against the old PINs stop locking. Returns ``{dupla_key: pin}``."""
    pins: dict[str, str] = {}
    replaced = []
    for dupla in duplas:
        pins[dupla.key] = new_pin()
        dupla.pin_hash = pin_hash_make(pins[dupla.key])
        replaced.append(ReplacedLink(token_hash=token_hash(dupla.token), dupla=dupla))
        dupla.token = new_private_token()
    ReplacedLink.objects.bulk_create(replaced, batch_size=500, ignore_conflicts=True)
    Dupla.objects.bulk_update(duplas, ["pin_hash", "token"], batch_size=500)
    PinFailure.objects.filter(dupla__in=duplas, cleared_at__isnull=True).update(cleared_at=timezone.now())
    return pins


def pins_reset(*, tournament: Tournament, by: User | None = None) -> dict[str, str]:
    """Give every dupla of ``tournament`` a new PIN and a new private link; the old ones stop working.

    Returns ``{dupla_key: pin}`` in the duplas' order. Only the hashes are
    stored, and the audit entry does not carry the PINs. An old link answers
    that it was replaced (``ReplacedLink``).
    """
    with tournament_write(tournament=tournament, action="pins.reset", user=by, kind=PRIVATE):
        duplas = list(Dupla.objects.select_for_update().filter(tournament=tournament).order_by("order", "id"))
        first = not any(d.pin_hash for d in duplas)  # the first PINs of the event are made, not remade
        pins = _renew(duplas)
        audit_record(
            tournament=tournament,
            user=by,
            action="pins_reset",
            summary=_("PINs das duplas feitos") if first else _("PINs das duplas refeitos"),
            after={"duplas": len(duplas)},
        )
    return pins


def pin_reset(*, tournament: Tournament, dupla: Dupla, by: User | None = None) -> str:
    """A new PIN and a new private link for one dupla (a lost card); the others keep theirs. Returns the PIN."""
    if dupla.tournament_id != tournament.pk:
        raise ValueError("the dupla is not of this tournament")
    with tournament_write(tournament=tournament, action="pin.reset", user=by, kind=PRIVATE):
        duplas = list(Dupla.objects.select_for_update().filter(pk=dupla.pk))
        if not duplas:
            raise Dupla.DoesNotExist
        first = not duplas[0].pin_hash
        pin = _renew(duplas)[dupla.key]
        dupla.pin_hash, dupla.token = duplas[0].pin_hash, duplas[0].token
        made = (
            _("PIN e link privado da dupla %(dupla)s feitos")
            if first
            else _("PIN e link privado da dupla %(dupla)s refeitos")
        )
        audit_record(
            tournament=tournament,
            user=by,
            action="pin_reset",
            summary=made % {"dupla": dupla.display_name},
            after={"dupla": dupla.key},
        )
    return pin


def pin_check(dupla: Dupla, pin: str) -> bool:
    """Whether ``pin`` is the dupla's current PIN (constant-time comparison of the hashes).

    Checked against the PIN's own hasher: against the accounts' (Django's default), a wrong PIN also ran the
    default's whole count of rounds (``harden_runtime``, which evens the time of passwords stored with fewer
    rounds), about 0.7 s of CPU on every wrong guess."""
    pin = (pin or "").strip()
    if not dupla.pin_hash or not PIN_RE.fullmatch(pin):
        return False
    # Django takes a hasher instance as well as a name here (get_hasher); its stubs say only a name
    return check_password(pin, dupla.pin_hash, preferred=PinHasher())  # type: ignore[arg-type]
