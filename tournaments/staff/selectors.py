"""Reads for the staff page, the dupla cards and a dupla's private page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from scoring.atleta import name_sort_key

from ..models import Dupla, ReplacedLink, StaffInvitation, StaffRole, Tournament
from ..permissions import is_organizer_role
from .services import ORGANIZER, REFEREE, person_label, role_label


def staff_list(*, tournament: Tournament) -> list[dict]:
    """The tournament's people: organizers first, then referees, each by username (one query)."""
    rows = StaffRole.objects.filter(tournament=tournament).select_related("user", "added_by").order_by("user__username")
    out: list[dict[str, Any]] = []
    for r in rows:
        user = r.user
        organizes = is_organizer_role(role=r.role)
        out.append(
            {
                "id": user.pk,
                "name": person_label(user),
                "username": user.get_username(),
                "role": r.role,
                "role_label": role_label(r.role),
                "organizes": organizes,
                "other_role": REFEREE if organizes else ORGANIZER,
                "other_role_label": role_label(REFEREE if organizes else ORGANIZER),
                "active": user.is_active,
                "password_set": user.has_usable_password(),
                "added_by": person_label(r.added_by) if r.added_by else "",
                "since": r.created_at,
            }
        )
    out.sort(key=lambda row: (not row["organizes"], name_sort_key(row["username"])))
    return out


def invitations_pending(*, tournament: Tournament) -> list[dict]:
    """The invitations not yet accepted nor cancelled, newest first, by the e-mail the organizer typed
    (never the name of an account: none is looked up before the person accepts). ``claim``: the account with
    another address that asked to accept it (its name, username and address, which the person agreed to show
    the comissão when asking), for an organizer to confirm or refuse; None when nobody asked."""
    now = timezone.now()
    rows = (
        StaffInvitation.objects.filter(tournament=tournament, accepted_at__isnull=True, revoked_at__isnull=True)
        .select_related("invited_by", "claimed_by")
        .order_by("-created_at")
    )
    return [
        {
            "id": i.pk,
            "email": i.email,
            "role": i.role,
            "role_label": role_label(i.role),
            "invited_by": person_label(i.invited_by) if i.invited_by else "",
            "since": i.created_at,
            "expires_at": i.expires_at,
            "expired": i.expires_at <= now,
            "claim": (
                {
                    "user_id": i.claimed_by.pk,
                    "name": person_label(i.claimed_by),
                    "email": i.claimed_by.email,
                    "at": i.claimed_at,
                }
                if i.claimed_by is not None
                else None
            ),
        }
        for i in rows
    ]


def private_link(*, dupla: Dupla) -> str:
    """The dupla's private page as an absolute link (``SITE_URL``), for cards and QR codes."""
    return settings.SITE_URL + reverse("privatelink:dupla", kwargs={"token": dupla.token})


def dupla_cards(*, tournament: Tournament, pins: dict[str, str]) -> list[dict]:
    """One card per dupla that has a PIN in ``pins``, in the duplas' order: names, PIN, private link."""
    duplas = (
        Dupla.objects.filter(tournament=tournament, key__in=list(pins))
        .select_related("player1", "player2")
        .order_by("order", "id")
    )
    return [
        {
            "key": d.key,
            "name": d.display_name,
            "players": (d.player1.name, d.player2.name),
            "has_name": bool(d.name),
            "pin": pins[d.key],
            "pin_spaced": f"{pins[d.key][:3]} {pins[d.key][3:]}",
            "link": private_link(dupla=d),
        }
        for d in duplas
    ]


def dupla_by_token(*, token: str) -> Dupla | None:
    return (
        Dupla.objects.filter(token=token).select_related("tournament", "player1", "player2").first() if token else None
    )


def link_replaced(*, token: str) -> bool:
    """Whether ``token`` was a dupla's private link, replaced by a new card (``pins_reset`` / ``pin_reset``)."""
    from .pins import token_hash

    return bool(token) and ReplacedLink.objects.filter(token_hash=token_hash(token)).exists()
