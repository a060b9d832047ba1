"""When a tournament takes registrations (docs/regras.md §2 step 2)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.utils import timezone

if TYPE_CHECKING:
    from ..models import Tournament


def registration_is_open(*, tournament: Tournament, now: datetime | None = None) -> bool:
    """Open unless the organizer closed it, before it opens or after it closes; no draw of duplas yet."""
    if tournament.registration_closed:
        return False
    now = now or timezone.now()
    if tournament.registration_opens and now < tournament.registration_opens:
        return False
    if tournament.registration_closes and now >= tournament.registration_closes:
        return False
    return True


def public_signup_is_open(*, tournament: Tournament, now: datetime | None = None) -> bool:
    """The public sign-up form takes entries: a published event (a draft takes none), public sign-up on and
    registration open."""
    return tournament.published and tournament.public_signup and registration_is_open(tournament=tournament, now=now)
