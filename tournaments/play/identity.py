"""Who is asking, online: an account's profile, or a guest's found by the key its session keeps.

Used by the pages (``tournaments.play.views``) and the live connection (``tournaments.play.consumers``), which
reads the same session cookie (Channels' ``AuthMiddlewareStack``). A guest's profile is made by the pages
(``people.profile_for_guest``), which keep its key in the session under ``GUEST_SESSION_KEY``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..models import OnlineProfile
from ..online import people

GUEST_SESSION_KEY = "online_guest"


def profile_from_session(session: Mapping[str, Any] | Any, user: Any) -> OnlineProfile | None:
    """The profile of whoever holds ``session`` and ``user``: the account's (made on its first visit), else the
    guest's kept under the session's key, else None (a visitor who has not picked a name yet)."""
    if user is not None and getattr(user, "is_authenticated", False):
        return people.profile_for_user(user=user)
    key = session.get(GUEST_SESSION_KEY) if session is not None else None
    if not isinstance(key, str) or not key:
        return None
    return OnlineProfile.objects.filter(guest_key=key[:64], user__isnull=True).first()
