"""The one place staff roles are written: grant a role (or change it), keeping an organizer.

Beside ``permissions`` (which decides what a role may do) and below ``staff.services`` (invitations,
removals): the core import gives the referees a tournament file names their role through here, with no
import cycle.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring.text import name_clean

from .audit import audit_record
from .models import StaffRole, Tournament
from .permissions import is_organizer_role, tournament_organizers
from .writes import PRIVATE, tournament_write

ORGANIZER, REFEREE = StaffRole.ORGANIZER, StaffRole.REFEREE
ROLES = (ORGANIZER, REFEREE)


def role_label(role: str) -> str:
    """'comissão organizadora' or 'árbitro' (pt-BR)."""
    return str(dict(StaffRole.ROLE_CHOICES).get(role, role))


def person_label(user: User) -> str:
    """How a person is named in messages and the audit trail: full name and username, or the username."""
    full = (user.get_full_name() or "").strip()
    username = user.get_username()
    return f"{full} ({username})" if full and full != username else username


def display_name(user: User | None) -> str:
    """How a staff person is named wherever the site says who it is or who did something (programação, mesas,
    the referee's list, "assinada por …", "feito por …", the calls, the history; ``{{ user|pessoa }}`` in a
    template): the name the person gave (kept whole in the account's ``first_name``: accounts.views.
    DisplayNameForm), else the account's full name, else the username; "" for nobody. Desk pages only: a public
    page names no account (a username may be an e-mail address)."""
    if user is None:
        return ""
    return name_clean(user.get_full_name() or "") or user.get_username()  # whatever wrote it (the admin too)


def staff_choices(users: QuerySet[User]) -> list[tuple[int, str]]:
    """(id, display name) of ``users``, in their order (one query)."""
    return [(u.pk, display_name(u)) for u in users.only("id", "username", "first_name", "last_name")]


def _role_check(role: str) -> None:
    if role not in ROLES:
        raise ValidationError(
            _("papel desconhecido: %(role)s (use organizer ou referee)") % {"role": role}, code="role"
        )


def _forget_cached_roles(*users: object) -> None:
    """``permissions.role_of`` caches roles on the user object for a request: drop it after a change."""
    for user in users:
        if user is not None and hasattr(user, "_zap_roles"):
            del user._zap_roles  # (request.user is a lazy object: delete through it, not in its __dict__)


def _lock(tournament: Tournament) -> None:
    """Serialize staff changes of one tournament (two organizers removing each other at once)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk", flat=True).first()


def _keep_an_organizer(*, tournament: Tournament, user: User) -> None:
    """Refuse when ``user`` is the tournament's last (active) organizer."""
    others = tournament_organizers(tournament=tournament).exclude(user=user).exists()
    if not others:
        raise ValidationError(
            _(
                "%(name)s é a única pessoa da comissão organizadora deste torneio: ponha outra pessoa na comissão "
                "antes de tirá-la."
            )
            % {"name": person_label(user)},
            code="last_organizer",
        )


def role_grant(*, tournament: Tournament, user: User, role: str, by: User | None = None) -> StaffRole:
    """Give ``user`` the ``role`` on ``tournament``; changes the role of someone already on the staff.

    Idempotent: the same role again changes nothing (and records nothing).
    Demoting the last organizer to referee is refused (``ValidationError``).
    """
    _role_check(role)
    with tournament_write(tournament=tournament, action="staff.role", user=by, kind=PRIVATE):
        _lock(tournament)
        current = StaffRole.objects.filter(tournament=tournament, user=user).first()
        if current is not None and current.role == role:
            return current
        name = person_label(user)
        if current is None:
            current = StaffRole.objects.create(
                tournament=tournament,
                user=user,
                role=role,
                added_by=by if by is not None and by.is_authenticated else None,
            )
            audit_record(
                tournament=tournament,
                user=by,
                action="staff_add",
                summary=_("%(name)s entrou na equipe: %(role)s") % {"name": name, "role": role_label(role)},
                after={"user": user.get_username(), "role": role},
            )
        else:
            if is_organizer_role(role=current.role):
                _keep_an_organizer(tournament=tournament, user=user)
            before = current.role
            current.role = role
            current.save(update_fields=["role"])
            audit_record(
                tournament=tournament,
                user=by,
                action="staff_role",
                summary=_("Papel de %(name)s: %(before)s → %(after)s")
                % {"name": name, "before": role_label(before), "after": role_label(role)},
                before={"user": user.get_username(), "role": before},
                after={"user": user.get_username(), "role": role},
            )
    _forget_cached_roles(user, by)
    return current
