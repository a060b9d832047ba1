"""/organizar/<slug>/equipe/: who organizes and referees this tournament; invite by e-mail, change a role, remove."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.mail import mail_configured

from ..permissions import desk_view, may_see_desk
from ..refusals import Refused
from ..staff.selectors import invitations_pending, staff_list
from ..staff.services import (
    Invited,
    invitation_claim_confirm,
    invitation_claim_refuse,
    invitation_create,
    invitation_resend,
    invitation_revoke,
    person_label,
    role_grant,
    role_label,
    role_revoke,
)
from ..web import refusal_messages, refusal_status, refusal_to_form
from .staff_forms import InvitationActionForm, InvitationClaimForm, StaffAddForm, StaffRemoveForm, StaffRoleForm

# While the site sends no mail (config.mail.mail_configured), the links of the invitations an organizer made are
# kept in that organizer's session, {tournament id: {invitation id: link}}, and shown on this page only, beside
# their pending invitation, for the organizer to pass on by hand; forgotten once the invitation is no longer
# pending (accepted, cancelled, replaced) or the session ends.
LINKS = "zap:invitation_links"


def _link_keep(request, tournament, invited: Invited) -> None:
    if invited.mailed:
        return
    kept = request.session.get(LINKS, {})
    kept.setdefault(str(tournament.pk), {})[str(invited.invitation.pk)] = invited.link
    request.session[LINKS] = kept


def _with_links(request, tournament, pending: list[dict]) -> list[dict]:
    """The pending invitations, each with the link this session keeps for it ("" if none); the links of
    invitations no longer pending are dropped from the session."""
    kept = request.session.get(LINKS, {})
    mine = kept.get(str(tournament.pk), {})
    live = {str(i["id"]) for i in pending}
    still = {key: link for key, link in mine.items() if key in live}
    if still != mine:
        if still:
            kept[str(tournament.pk)] = still
        else:
            kept.pop(str(tournament.pk), None)
        request.session[LINKS] = kept
    return [i | {"link": still.get(str(i["id"]), "")} for i in pending]


def _page(request, tournament, form, status=200):
    return render(
        request,
        "desk/staff/staff.html",
        {
            "desk_tab": "staff",
            "form": form,
            "people": staff_list(tournament=tournament),
            "invitations": _with_links(request, tournament, invitations_pending(tournament=tournament)),
            "mail_configured": mail_configured(),
        },
        status=status,
    )


def _to_invitation(tournament, invited: Invited):
    """Back to the staff page; to the invitation's link when it is shown there."""
    url = reverse("desk:staff", args=[tournament.slug])
    return redirect(url if invited.mailed else f"{url}#convite-{invited.invitation.pk}")


def _member(request, tournament, form):
    """The member of the staff a list button names (its form's ``user``), or None after saying so."""
    role = (
        tournament.staff.filter(user_id=form.cleaned_data["user"]).select_related("user").first()
        if form.is_valid()
        else None
    )
    if role is None:
        messages.error(request, _("Essa pessoa não faz parte da equipe deste torneio (talvez já tenha sido removida)."))
        return None
    return role.user


@never_cache  # the pending invitations' addresses, and their links when the site sends no mail: this browser only
@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def staff(request, tournament):
    """GET: the people, the pending invitations and the invitation form. POST: invite an e-mail, or (a button
    of the list) give a member of the staff the other role."""
    if request.method != "POST":
        return _page(request, tournament, StaffAddForm())
    if request.POST.get("change"):
        change = StaffRoleForm(request.POST)
        user = _member(request, tournament, change)
        if user is None:
            return redirect("desk:staff", tournament.slug)
        role = change.cleaned_data["role"]
        try:
            role_grant(tournament=tournament, user=user, role=role, by=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                _("%(name)s agora tem o papel de %(role)s.") % {"name": person_label(user), "role": role_label(role)},
            )
        return redirect("desk:staff", tournament.slug)
    form = StaffAddForm(request.POST)
    if form.is_valid():
        email, role = form.cleaned_data["email"], form.cleaned_data["role"]
        try:
            invited = invitation_create(tournament=tournament, email=email, role=role, by=request.user)
        except ValidationError as exc:
            form.add_error("email", exc)
        except Refused as exc:  # over the hour's limit of invitations: how many, until when
            refusal_to_form(form, exc)
            return _page(request, tournament, form, status=refusal_status(exc))
        else:
            # the same answer whether or not an account has that address
            values = {"email": email, "role": role_label(role)}
            if invited.mailed:
                text = _("Convite enviado para %(email)s (%(role)s). A pessoa entra na equipe quando aceitar.")
            else:
                text = _(
                    "Convite criado para %(email)s (%(role)s), mas nenhum e-mail foi enviado: este site não tem "
                    "servidor de e-mail configurado. Copie o link do convite, abaixo, e mande à pessoa. Ela entra "
                    "na equipe quando aceitar."
                )
            messages.success(request, text % values)
            _link_keep(request, tournament, invited)
            return _to_invitation(tournament, invited)
    return _page(request, tournament, form)


@desk_view()
@require_POST
def invitation_action(request, tournament, action: str):
    """Resend (a new link, the old one stops working) or cancel a pending invitation."""
    form = InvitationActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Convite não encontrado."))
        return redirect("desk:staff", tournament.slug)
    invitation_id = form.cleaned_data["invitation"]
    try:
        if action != "reenviar":
            revoked = invitation_revoke(tournament=tournament, invitation_id=invitation_id, by=request.user)
            messages.success(
                request, _("Convite para %(email)s cancelado: o link deixou de valer.") % {"email": revoked.email}
            )
            return redirect("desk:staff", tournament.slug)
        invited = invitation_resend(tournament=tournament, invitation_id=invitation_id, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("desk:staff", tournament.slug)
    except Refused as exc:  # over the hour's limit of invitations
        refusal_messages(request, exc)
        return redirect("desk:staff", tournament.slug)
    text = (
        _("Convite enviado de novo para %(email)s, com um link novo.")
        if invited.mailed
        else _(
            "Link novo do convite para %(email)s (o anterior deixou de valer). Nenhum e-mail foi enviado: "
            "copie o link abaixo e mande à pessoa."
        )
    )
    messages.success(request, text % {"email": invited.invitation.email})
    _link_keep(request, tournament, invited)
    return _to_invitation(tournament, invited)


@desk_view()
@require_POST
def invitation_claim_answer(request, tournament, action: str):
    """Confirm (the role goes to the account that asked, with another address) or refuse an account's request to
    accept a pending invitation."""
    form = InvitationClaimForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Convite não encontrado."))
        return redirect("desk:staff", tournament.slug)
    do = invitation_claim_confirm if action == "confirmar" else invitation_claim_refuse
    claimant = get_user_model().objects.filter(pk=form.cleaned_data["user"]).first()
    try:
        invitation = do(
            tournament=tournament,
            invitation_id=form.cleaned_data["invitation"],
            user_id=form.cleaned_data["user"],
            by=request.user,
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("desk:staff", tournament.slug)
    assert claimant is not None  # the request was this account's
    values = {"name": person_label(claimant), "role": role_label(invitation.role), "email": invitation.email}
    if action == "confirmar":
        messages.success(request, _("%(name)s entrou na equipe (%(role)s) com o convite enviado a %(email)s.") % values)
    else:
        messages.success(request, _("Pedido de %(name)s recusado: o convite continua esperando %(email)s.") % values)
    return redirect("desk:staff", tournament.slug)


@desk_view()
@require_POST
def staff_remove(request, tournament):
    """Take a person off the staff (never the last organizer)."""
    user = _member(request, tournament, StaffRemoveForm(request.POST))
    if user is None:
        return redirect("desk:staff", tournament.slug)
    try:
        removal = role_revoke(tournament=tournament, user=user, by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("desk:staff", tournament.slug)
    text = _("%(name)s saiu da equipe.") % {"name": person_label(user)}
    if removal.mesas:
        text += " " + _("Ficaram sem árbitro as mesas %(mesas)s.") % {"mesas": ", ".join(map(str, removal.mesas))}
    if removal.jogos:
        text += " " + _("Jogos que essa pessoa apitava ficaram com o árbitro da mesa: %(n)s.") % {"n": removal.jogos}
    messages.success(request, text)
    if not may_see_desk(user=request.user, tournament=tournament):  # removed oneself
        return redirect("desk:home")
    return redirect("desk:staff", tournament.slug)
