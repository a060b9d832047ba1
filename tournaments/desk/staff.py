"""/organizar/<slug>/equipe/: who organizes and referees this tournament; invite by e-mail, change a role, remove."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..permissions import desk_view, may_see_desk
from ..staff.selectors import invitations_pending, staff_list
from ..staff.services import (
    invitation_create,
    invitation_resend,
    invitation_revoke,
    person_label,
    role_grant,
    role_label,
    role_revoke,
)
from .staff_forms import InvitationActionForm, StaffAddForm, StaffRemoveForm, StaffRoleForm


def _page(request, tournament, form, status=200):
    return render(
        request,
        "desk/staff/staff.html",
        {
            "desk_tab": "staff",
            "form": form,
            "people": staff_list(tournament=tournament),
            "invitations": invitations_pending(tournament=tournament),
        },
        status=status,
    )


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


@require_http_methods(["GET", "HEAD", "POST"])
@desk_view()
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
            invitation_create(tournament=tournament, email=email, role=role, by=request.user)
        except ValidationError as exc:
            form.add_error("email", exc)
        else:
            # the same answer whether or not an account has that address
            messages.success(
                request,
                _("Convite enviado para %(email)s (%(role)s). A pessoa entra na equipe quando aceitar.")
                % {"email": email, "role": role_label(role)},
            )
            return redirect("desk:staff", tournament.slug)
    return _page(request, tournament, form)


@require_POST
@desk_view()
def invitation_action(request, tournament, action: str):
    """Resend (a new link, the old one stops working) or cancel a pending invitation."""
    form = InvitationActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Convite não encontrado."))
        return redirect("desk:staff", tournament.slug)
    do = invitation_resend if action == "reenviar" else invitation_revoke
    try:
        invitation = do(tournament=tournament, invitation_id=form.cleaned_data["invitation"], by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        text = (
            _("Convite enviado de novo para %(email)s, com um link novo.")
            if action == "reenviar"
            else _("Convite para %(email)s cancelado: o link deixou de valer.")
        )
        messages.success(request, text % {"email": invitation.email})
    return redirect("desk:staff", tournament.slug)


@require_POST
@desk_view()
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
