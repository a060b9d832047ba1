"""Who works on a tournament: roles (organizer, referee), invitations by e-mail that the invited person accepts.

Every write is one transaction with its audit entry. A tournament always keeps
at least one organizer (an active account with the role): removing or
demoting the last one is refused. Decisions about what a role may *do* live in
``tournaments.permissions``; this module only changes who has which role.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.mail import mail_configured

from ..audit import audit_record
from ..mailquota import ACCOUNT, budgets_load, budgets_take, room_text
from ..models import Jogo, Mesa, StaffInvitation, StaffRole, Tournament
from ..permissions import invitation_grants_role, is_organizer_role, may_accept_invitation
from ..refusals import Refused
from ..roles import (  # noqa: F401
    ORGANIZER,
    REFEREE,
    ROLES,
    _forget_cached_roles,
    _keep_an_organizer,
    _lock,
    _role_check,
    person_label,
    role_grant,
    role_label,
)
from ..writes import PRIVATE, tournament_write


@dataclass(frozen=True)
class Removal:
    """What a removal undid besides the role: the mesas and jogos this person referees no more."""

    mesas: tuple[int, ...]
    jogos: int


def role_revoke(*, tournament: Tournament, user: User, by: User | None = None) -> Removal:
    """Take ``user`` off the tournament's staff (refused for the last organizer).

    The mesas and jogos assigned to that person as referee are left without one.
    """
    with tournament_write(tournament=tournament, action="staff.remove", user=by, kind=PRIVATE) as write:
        _lock(tournament)
        current = StaffRole.objects.filter(tournament=tournament, user=user).first()
        name = person_label(user)
        if current is None:
            raise ValidationError(
                _("%(name)s não faz parte da equipe deste torneio.") % {"name": name}, code="not_staff"
            )
        if is_organizer_role(role=current.role):
            _keep_an_organizer(tournament=tournament, user=user)
        mesas = tuple(
            Mesa.objects.filter(tournament=tournament, referee=user).order_by("number").values_list("number", flat=True)
        )
        if mesas:
            Mesa.objects.filter(tournament=tournament, referee=user).update(referee=None)
        jogos = Jogo.objects.filter(tournament=tournament, referee=user).update(referee=None)
        current.delete()
        audit_record(
            tournament=tournament,
            user=by,
            action="staff_remove",
            summary=_("%(name)s saiu da equipe (%(role)s)") % {"name": name, "role": role_label(current.role)},
            before={"user": user.get_username(), "role": current.role, "mesas": list(mesas), "jogos": jogos},
        )
        if jogos:  # the tournament file names each jogo's referee
            write.structure_changed()
    _forget_cached_roles(user, by)
    return Removal(mesas=mesas, jogos=jogos)


# --- invitations -----------------------------------------------------------------------
#
# A person joins the staff by accepting an invitation sent to an e-mail address: nobody is looked up by
# username or e-mail, and the organizer's page answers the same whether an account exists or not. The link
# carries a random token; only its SHA-256 is stored.


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def invitation_link(*, token: str) -> str:
    """The absolute link (``SITE_URL``) an invitation's e-mail carries."""
    return settings.SITE_URL + reverse("accounts:invitation", kwargs={"token": token})


@dataclass(frozen=True)
class Invited:
    """An invitation just made, its link, and whether its e-mail left (``config.mail.mail_configured``): when it did
    not, the staff page shows the link to the organizer who made it, to pass on by hand."""

    invitation: StaffInvitation
    link: str
    mailed: bool


def _invitation_send(*, invitation: StaffInvitation, link: str, by: User | None) -> None:
    context = {
        "tournament": invitation.tournament,
        "role": role_label(invitation.role),
        "by": person_label(by) if by is not None and by.is_authenticated else "",
        "link": link,
        "days": settings.ZAP_INVITATION_DAYS,
    }
    subject = " ".join(render_to_string("desk/staff/invite_subject.txt", context).split())
    body = render_to_string("desk/staff/invite_email.txt", context)
    try:
        send_mail(subject, body, None, [invitation.email])
    except Exception as exc:  # SMTP down, refused address: nothing is kept (the transaction rolls back)
        raise ValidationError(
            _("o convite para %(email)s não pôde ser enviado (%(error)s); nada foi alterado.")
            % {"email": invitation.email, "error": exc.__class__.__name__}
        ) from exc


def _fresh_token(invitation: StaffInvitation) -> str:
    token = secrets.token_urlsafe(32)
    invitation.token_hash = _token_hash(token)
    invitation.expires_at = timezone.now() + timedelta(days=settings.ZAP_INVITATION_DAYS)
    return token


def _invitations_quota(*, tournament: Tournament, by: User | None) -> None:
    """Refuse (``Refused.locked``: how many, until when) an invitation past the hour's limits of the account
    and of the event. Counted under the tournament's row (locked by the caller) and the account's."""
    budgets = budgets_load(
        sends=StaffInvitation.objects.all(),
        at="created_at",
        tournament=tournament,
        event_limit=settings.ZAP_INVITATIONS_PER_EVENT_HOUR,
        account=by if by is not None and by.is_authenticated else None,
        account_field="invited_by",
        account_limit=settings.ZAP_INVITATIONS_PER_ACCOUNT_HOUR,
    )
    over = budgets_take(budgets, 1)
    if over is None:
        return
    values = {"n": over.used, "limit": over.limit, "when": room_text(over)}
    if over.scope == ACCOUNT:
        text = ngettext(
            "Limite de convites atingido: esta conta enviou %(n)d convite na última hora (o limite é %(limit)d "
            "por hora). O próximo pode sair %(when)s.",
            "Limite de convites atingido: esta conta enviou %(n)d convites na última hora (o limite é %(limit)d "
            "por hora). O próximo pode sair %(when)s.",
            over.used,
        )
    else:
        text = ngettext(
            "Limite de convites deste torneio atingido: %(n)d convite enviado na última hora (o limite é "
            "%(limit)d por hora). O próximo pode sair %(when)s.",
            "Limite de convites deste torneio atingido: %(n)d convites enviados na última hora (o limite é "
            "%(limit)d por hora). O próximo pode sair %(when)s.",
            over.used,
        )
    raise Refused.locked(text % values)


def invitation_create(*, tournament: Tournament, email: str, role: str, by: User | None = None) -> Invited:
    """Invite ``email`` to the staff with ``role`` and mail the link; a pending invitation of the same
    address to this tournament is replaced (its link stops working). Nothing tells whether an account
    has that address. The link is returned (never stored: only its token's hash), for the organizer's page to
    show when the site's mail goes nowhere."""
    _role_check(role)
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationError(_("e-mail inválido: %(value)s") % {"value": email}, code="email") from None
    with tournament_write(tournament=tournament, action="staff.invite", user=by, kind=PRIVATE):
        _lock(tournament)
        _invitations_quota(tournament=tournament, by=by)
        now = timezone.now()
        StaffInvitation.objects.filter(
            tournament=tournament, email__iexact=email, accepted_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=now)
        invitation = StaffInvitation(
            tournament=tournament,
            role=role,
            email=email,
            invited_by=by if by is not None and by.is_authenticated else None,
        )
        link = invitation_link(token=_fresh_token(invitation))
        invitation.save()
        audit_record(
            tournament=tournament,
            user=by,
            action="staff_invite",
            summary=_("Convite para a equipe (%(role)s) enviado a %(email)s")
            % {"role": role_label(role), "email": email},
            after={"email": email, "role": role, "invitation": invitation.pk},
        )
        _invitation_send(invitation=invitation, link=link, by=by)
    return Invited(invitation=invitation, link=link, mailed=mail_configured())


def _pending_get(*, tournament: Tournament, invitation_id: int) -> StaffInvitation:
    invitation = StaffInvitation.objects.select_for_update().filter(tournament=tournament, pk=invitation_id).first()
    if invitation is None or invitation.accepted_at or invitation.revoked_at:
        raise ValidationError(
            _("Esse convite não está mais pendente (já foi aceito ou cancelado)."), code="not_pending"
        )
    return invitation


def invitation_resend(*, tournament: Tournament, invitation_id: int, by: User | None = None) -> Invited:
    """Mail a pending invitation again as a new one (new link, new deadline); the old link answers that it
    was replaced."""
    with tournament_write(tournament=tournament, action="staff.invite_resend", user=by, kind=PRIVATE):
        old = _pending_get(tournament=tournament, invitation_id=invitation_id)
        return invitation_create(tournament=tournament, email=old.email, role=old.role, by=by)


def invitation_revoke(*, tournament: Tournament, invitation_id: int, by: User | None = None) -> StaffInvitation:
    """Cancel a pending invitation: its link answers that it was cancelled."""
    with tournament_write(tournament=tournament, action="staff.invite_revoke", user=by, kind=PRIVATE):
        invitation = _pending_get(tournament=tournament, invitation_id=invitation_id)
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        audit_record(
            tournament=tournament,
            user=by,
            action="staff_invite_revoke",
            summary=_("Convite para %(email)s cancelado") % {"email": invitation.email},
            before={"email": invitation.email, "role": invitation.role, "invitation": invitation.pk},
        )
    return invitation


# What an invitation's link finds: usable, or why not.
VALID, UNKNOWN, EXPIRED, USED, REVOKED = "valid", "unknown", "expired", "used", "revoked"


def invitation_state(invitation: StaffInvitation | None) -> str:
    if invitation is None:
        return UNKNOWN
    if invitation.accepted_at is not None:
        return USED
    if invitation.revoked_at is not None:
        return REVOKED
    if invitation.expires_at <= timezone.now():
        return EXPIRED
    return VALID


def invitation_by_token(*, token: str, lock: bool = False) -> StaffInvitation | None:
    if not token or len(token) > 200:
        return None
    qs = StaffInvitation.objects.select_related("tournament", "invited_by")
    if lock:  # the invitation's row only: PostgreSQL locks no nullable side of an outer join (invited_by)
        qs = qs.select_for_update(of=("self",))
    return qs.filter(token_hash=_token_hash(token)).first()


def _grant(*, invitation: StaffInvitation, user: User, by: User | None, action: str, summary: str) -> None:
    """Give ``user`` the invitation's role (someone already on the staff keeps a higher one: an organizer invited
    as referee) and use the invitation up; audited as ``action``. Inside the caller's write, its row locked."""
    tournament = invitation.tournament
    current = StaffRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True).first()
    if invitation_grants_role(current=current, invited=invitation.role):
        role_grant(tournament=tournament, user=user, role=invitation.role, by=invitation.invited_by)
    invitation.accepted_at, invitation.accepted_by = timezone.now(), user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    audit_record(
        tournament=tournament,
        user=by,
        action=action,
        summary=summary,
        after={"user": user.get_username(), "role": invitation.role, "invitation": invitation.pk},
    )
    _forget_cached_roles(user, by)


def _valid_by_token(token: str) -> StaffInvitation:
    """The usable invitation behind ``token``, its row locked; refused (``ValidationError``) saying why not."""
    invitation = invitation_by_token(token=token, lock=True)
    state = invitation_state(invitation)
    if state != VALID:
        raise ValidationError(INVITATION_PROBLEMS[state](), code=state)
    assert invitation is not None  # a valid invitation exists
    return invitation


def invitation_accept(*, token: str, user: User) -> StaffInvitation:
    """``user`` accepts the invitation behind ``token``: the role is granted (``role_grant``, audited) and the
    link is used up. Only an account with the invited address (``may_accept_invitation``); any other asks
    (``invitation_claim``)."""
    with tournament_write(tournament=None, action="staff.invite_accept", user=user, kind=PRIVATE):
        invitation = _valid_by_token(token)
        if not may_accept_invitation(user=user, email=invitation.email):
            raise ValidationError(
                _(
                    "Este convite foi enviado para %(email)s, e a sua conta tem outro e-mail: ela não pode aceitá-lo "
                    "sozinha. Entre com a conta desse e-mail, ou peça à comissão organizadora que confirme."
                )
                % {"email": invitation.email},
                code="other_email",
            )
        _grant(
            invitation=invitation,
            user=user,
            by=user,
            action="staff_invite_accept",
            summary=_("%(name)s aceitou o convite enviado a %(email)s (%(role)s)")
            % {"name": person_label(user), "email": invitation.email, "role": role_label(invitation.role)},
        )
    return invitation


def invitation_claim(*, token: str, user: User) -> StaffInvitation:
    """``user``, whose account has another address than the invitation's, asks to accept it: the organizers see the
    request on the staff page and confirm or refuse it (``invitation_claim_confirm``, ``invitation_claim_refuse``).
    A later request of another account replaces it (the confirmation names whose it confirms). Nothing is granted."""
    with tournament_write(tournament=None, action="staff.invite_claim", user=user, kind=PRIVATE):
        invitation = _valid_by_token(token)
        if invitation.claimed_by_id == user.pk:
            return invitation
        invitation.claimed_by, invitation.claimed_at = user, timezone.now()
        invitation.save(update_fields=["claimed_by", "claimed_at"])
        audit_record(
            tournament=invitation.tournament,
            user=user,
            action="staff_invite_claim",
            summary=_(
                "%(name)s pediu para aceitar o convite enviado a %(email)s (%(role)s), com uma conta de outro e-mail"
            )
            % {"name": person_label(user), "email": invitation.email, "role": role_label(invitation.role)},
            after={"user": user.get_username(), "invitation": invitation.pk},
        )
    return invitation


def _claim_get(*, tournament: Tournament, invitation_id: int, user_id: int) -> StaffInvitation:
    """The pending invitation whose request is ``user_id``'s, its row locked; refused when the request changed."""
    invitation = _pending_get(tournament=tournament, invitation_id=invitation_id)
    if invitation.claimed_by_id is None or invitation.claimed_by_id != user_id:
        raise ValidationError(
            _("O pedido deste convite mudou (outra conta pediu, ou ele foi retirado): confira a lista de novo."),
            code="claim_changed",
        )
    return invitation


def invitation_claim_confirm(
    *, tournament: Tournament, invitation_id: int, user_id: int, by: User | None = None
) -> StaffInvitation:
    """An organizer confirms the request of ``user_id`` (the account the staff page showed) to accept the
    invitation: the role is granted to that account and the link is used up. Refused when the request changed
    or the invitation expired."""
    with tournament_write(tournament=tournament, action="staff.invite_confirm", user=by, kind=PRIVATE):
        invitation = _claim_get(tournament=tournament, invitation_id=invitation_id, user_id=user_id)
        if invitation_state(invitation) == EXPIRED:
            raise ValidationError(INVITATION_PROBLEMS[EXPIRED](), code=EXPIRED)
        claimant = invitation.claimed_by
        assert claimant is not None  # _claim_get: the request is this account's
        _grant(
            invitation=invitation,
            user=claimant,
            by=by,
            action="staff_invite_confirm",
            summary=_(
                "Convite enviado a %(email)s aceito por %(name)s, com outro e-mail, confirmado pela comissão (%(role)s)"
            )
            % {"name": person_label(claimant), "email": invitation.email, "role": role_label(invitation.role)},
        )
    return invitation


def invitation_claim_refuse(
    *, tournament: Tournament, invitation_id: int, user_id: int, by: User | None = None
) -> StaffInvitation:
    """An organizer refuses the request of ``user_id``: the invitation stays pending, for its address."""
    with tournament_write(tournament=tournament, action="staff.invite_refuse", user=by, kind=PRIVATE):
        invitation = _claim_get(tournament=tournament, invitation_id=invitation_id, user_id=user_id)
        claimant = invitation.claimed_by
        assert claimant is not None
        invitation.claimed_by, invitation.claimed_at = None, None
        invitation.save(update_fields=["claimed_by", "claimed_at"])
        audit_record(
            tournament=tournament,
            user=by,
            action="staff_invite_refuse",
            summary=_("Pedido de %(name)s para aceitar o convite enviado a %(email)s recusado")
            % {"name": person_label(claimant), "email": invitation.email},
            before={"user": claimant.get_username(), "invitation": invitation.pk},
        )
    return invitation


INVITATION_PROBLEMS = {
    UNKNOWN: lambda: _(
        "Este link de convite não existe. Confira se o endereço chegou inteiro, ou peça um convite "
        "novo à comissão organizadora."
    ),
    EXPIRED: lambda: _("Este convite expirou. Peça à comissão organizadora que envie um convite novo."),
    USED: lambda: _(
        "Este convite já foi aceito; o link só vale uma vez. Entre com a sua conta para ver o torneio no painel."
    ),
    REVOKED: lambda: _(
        "Este convite foi cancelado pela comissão organizadora (ou substituído por um mais "
        "recente). Se for o caso, peça um convite novo."
    ),
}
