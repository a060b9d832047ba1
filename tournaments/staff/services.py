"""Who works on a tournament: roles (organizer, referee), invitations by username or e-mail.

Every write is one transaction with its audit entry. A tournament always keeps
at least one organizer (an active account with the role): removing or
demoting the last one is refused. Decisions about what a role may *do* live in
``tournaments.permissions``; this module only changes who has which role.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from ..audit import audit_record
from ..models import Jogo, Mesa, StaffRole, Tournament
from ..roles import (ORGANIZER, REFEREE, ROLES, _forget_cached_roles, _keep_an_organizer, _lock, _role_check,  # noqa: F401
                    person_label, role_grant, role_label)


@dataclass(frozen=True)
class Removal:
    """What a removal undid besides the role: the mesas and jogos this person referees no more."""

    mesas: tuple[int, ...]
    jogos: int


def role_revoke(*, tournament: Tournament, user, by=None) -> Removal:
    """Take ``user`` off the tournament's staff (refused for the last organizer).

    The mesas and jogos assigned to that person as referee are left without one.
    """
    with transaction.atomic():
        _lock(tournament)
        current = StaffRole.objects.filter(tournament=tournament, user=user).first()
        name = person_label(user)
        if current is None:
            raise ValidationError(_("%(name)s não faz parte da equipe deste torneio.") % {"name": name},
                                  code="not_staff")
        if current.role == ORGANIZER:
            _keep_an_organizer(tournament=tournament, user=user)
        mesas = tuple(Mesa.objects.filter(tournament=tournament, referee=user).order_by("number")
                      .values_list("number", flat=True))
        if mesas:
            Mesa.objects.filter(tournament=tournament, referee=user).update(referee=None)
        jogos = Jogo.objects.filter(tournament=tournament, referee=user).update(referee=None)
        current.delete()
        audit_record(tournament=tournament, user=by, action="staff_remove",
                     summary=_("%(name)s saiu da equipe (%(role)s)") % {"name": name,
                                                                       "role": role_label(current.role)},
                     before={"user": user.get_username(), "role": current.role, "mesas": list(mesas),
                             "jogos": jogos})
        if jogos:
            from ..services import tournament_refresh  # the tournament file names each jogo's referee
            tournament_refresh(tournament=tournament)
    _forget_cached_roles(user, by)
    return Removal(mesas=mesas, jogos=jogos)


# --- invitations -----------------------------------------------------------------------

@dataclass(frozen=True)
class Invitation:
    user: object
    created: bool  # a new account was made for an unknown e-mail
    mailed: bool  # an e-mail with the link to set a password was sent


def _user_by_username(text: str):
    User = get_user_model()
    user = User.objects.filter(**{User.USERNAME_FIELD: text}).first()
    if user is None:
        matches = list(User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": text})[:2])
        user = matches[0] if len(matches) == 1 else None
    return user


def _username_from_email(email: str) -> str:
    """A free username made from the e-mail's local part (letters, digits and . + - _ only)."""
    User = get_user_model()
    base = re.sub(r"[^\w.+-]", "", email.split("@")[0].lower(), flags=re.ASCII)[:140] or "usuario"
    candidate, n = base, 2
    while User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": candidate}).exists():
        candidate, n = f"{base}{n}", n + 1
    return candidate


def _account_create(*, email: str):
    """An active account with no usable password yet: its owner sets one through the e-mailed link."""
    User = get_user_model()
    for _attempt in range(5):
        try:
            with transaction.atomic():
                user = User(**{User.USERNAME_FIELD: _username_from_email(email)}, email=email)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:  # someone took that username a moment ago: pick another
            continue
    raise ValidationError(_("não foi possível criar a conta para %(email)s agora; tente de novo.") % {"email": email})


def password_set_link(*, user) -> str:
    """Absolute link (``SITE_URL``) to the page where ``user`` chooses a password (Django's reset token)."""
    path = reverse("accounts:password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)})
    return settings.SITE_URL + path


def _invitation_send(*, user, tournament: Tournament, role: str, by) -> None:
    context = {"user": user, "username": user.get_username(), "tournament": tournament, "role": role_label(role),
               "by": person_label(by) if by is not None and by.is_authenticated else "",
               "link": password_set_link(user=user), "login_url": settings.SITE_URL + reverse("accounts:login"),
               "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400)}
    subject = " ".join(render_to_string("desk/staff/invite_subject.txt", context).split())
    body = render_to_string("desk/staff/invite_email.txt", context)
    try:
        send_mail(subject, body, None, [user.email])
    except Exception as exc:  # SMTP down, refused address: nothing is kept (the transaction rolls back)
        raise ValidationError(_("o convite para %(email)s não pôde ser enviado (%(error)s); nada foi alterado.")
                              % {"email": user.email, "error": exc.__class__.__name__}) from exc


def staff_invite(*, tournament: Tournament, who: str, role: str, by=None) -> Invitation:
    """Add a person to the staff by username or e-mail.

    - a username or the e-mail of an account → that account gets ``role``;
    - an unknown e-mail → a new account (username made from the e-mail, no
      password yet) gets ``role`` and an e-mail with a link to set its password;
      an account that never set its password gets that e-mail again;
    - an unknown username → ``ValidationError`` ("nenhuma conta com esse nome de usuário").
    """
    _role_check(role)
    text = (who or "").strip()
    if not text:
        raise ValidationError(_("informe o nome de usuário ou o e-mail da pessoa."), code="required")
    with transaction.atomic():
        user = _user_by_username(text)
        created = False
        if user is None and "@" in text:
            try:
                validate_email(text)
            except ValidationError:
                raise ValidationError(_("e-mail inválido: %(value)s") % {"value": text}, code="email") from None
            User = get_user_model()
            user = (User.objects.filter(email__iexact=text, is_active=True).order_by("id").first()
                    or User.objects.filter(email__iexact=text).order_by("id").first())
            if user is None:
                user, created = _account_create(email=text), True
        if user is None:
            raise ValidationError(_("nenhuma conta com esse nome de usuário: %(value)s (para convidar alguém novo, "
                                    "use o e-mail da pessoa)") % {"value": text}, code="unknown_username")
        if not user.is_active:
            raise ValidationError(_("a conta %(name)s está desativada.") % {"name": user.get_username()},
                                  code="inactive")
        role_grant(tournament=tournament, user=user, role=role, by=by)
        mailed = False
        if user.email and not user.has_usable_password():  # new, or invited before and never came
            _invitation_send(user=user, tournament=tournament, role=role, by=by)
            mailed = True
            audit_record(tournament=tournament, user=by, action="staff_invite",
                         summary=_("Convite para criar a senha enviado a %(email)s (conta %(username)s%(new)s)") % {
                             "email": user.email, "username": user.get_username(),
                             "new": _(", nova") if created else ""},
                         after={"user": user.get_username(), "email": user.email, "created": created})
    return Invitation(user=user, created=created, mailed=mailed)
