"""/organizar/<slug>/equipe/: who organizes and referees this tournament; invite, change a role, remove."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..permissions import desk_view, may_see_desk
from ..staff.selectors import staff_list
from ..staff.services import person_label, role_label, role_revoke, staff_invite
from .staff_forms import StaffAddForm, StaffRemoveForm


def _page(request, tournament, form, status=200):
    return render(request, "desk/staff/staff.html", {
        "desk_tab": "staff", "form": form, "people": staff_list(tournament=tournament),
    }, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@desk_view()
def staff(request, tournament):
    """GET: the people and the invitation form. POST: add a person, or change the role of one already there."""
    if request.method != "POST":
        return _page(request, tournament, StaffAddForm())
    form = StaffAddForm(request.POST)
    if form.is_valid():
        role = form.cleaned_data["role"]
        try:
            invitation = staff_invite(tournament=tournament, who=form.cleaned_data["who"], role=role,
                                      by=request.user)
        except ValidationError as exc:
            if request.POST.get("change"):  # a button of the list: the message goes on top, not in the form
                messages.error(request, " ".join(exc.messages))
                return redirect("desk:staff", tournament.slug)
            form.add_error("who", exc)
        else:
            name = person_label(invitation.user)
            if invitation.created:
                messages.success(request, _("Conta criada para %(email)s (usuário %(username)s), com o papel de "
                                            "%(role)s. Enviamos um e-mail com o link para criar a senha.") % {
                    "email": invitation.user.email, "username": invitation.user.get_username(),
                    "role": role_label(role)})
            elif invitation.mailed:
                messages.success(request, _("%(name)s agora tem o papel de %(role)s. Enviamos de novo o link para "
                                            "criar a senha (a pessoa ainda não criou a dela).") % {
                    "name": name, "role": role_label(role)})
            else:
                messages.success(request, _("%(name)s agora tem o papel de %(role)s.") % {
                    "name": name, "role": role_label(role)})
            return redirect("desk:staff", tournament.slug)
    return _page(request, tournament, form)


@require_POST
@desk_view()
def staff_remove(request, tournament):
    """Take a person off the staff (never the last organizer)."""
    form = StaffRemoveForm(request.POST)
    user = None
    if form.is_valid():
        user = tournament.staff.filter(user_id=form.cleaned_data["user"]).select_related("user").first()
        user = user.user if user is not None else None
    if user is None:
        messages.error(request, _("Essa pessoa não faz parte da equipe deste torneio (talvez já tenha sido "
                                  "removida)."))
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
