"""The login page, the password-reset request (throttled per address and per e-mail, silently), the
organizers' open sign-up (when the site has one) and the invitation link."""

from __future__ import annotations

import hashlib

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.web import client_ip

from ..models.fields import NameFormField
from ..permissions import may_accept_invitation, organizer_signup_open
from ..roles import role_label
from ..staff.services import (
    INVITATION_PROBLEMS,
    UNKNOWN,
    VALID,
    invitation_accept,
    invitation_by_token,
    invitation_claim,
    invitation_state,
)

HOUR = 3600


def _over_limit(key: str, limit: int) -> bool:
    """Count one request under ``key`` for an hour; True once the hour's count passes ``limit``."""
    try:
        if cache.add(key, 1, HOUR):
            count = 1
        else:
            count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, HOUR)
        count = 1
    except Exception:  # the cache is down: let the request through (the per-account mail is still one link)
        return False
    return count > limit


def reset_throttled(*, address: str | None, email: str) -> bool:
    """Count a reset request from ``address`` for ``email``; True when either is over its hourly limit."""
    mail_key = hashlib.sha256(email.strip().casefold().encode()).hexdigest()[:32]
    limit = settings.ZAP_PASSWORD_RESETS_PER_HOUR
    by_address = _over_limit(f"zap:reset:ip:{address or '-'}", limit)
    by_email = _over_limit(f"zap:reset:email:{mail_key}", limit)
    return by_address or by_email


class LoginView(auth_views.LoginView):
    """Django's login; it links the organizers' sign-up when the site has one."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"signup_open": organizer_signup_open()}


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's reset request; beyond ZAP_PASSWORD_RESETS_PER_HOUR (per address, per e-mail) the same
    "se houver uma conta…" page answers and no mail goes out."""

    def form_valid(self, form):
        if reset_throttled(address=client_ip(self.request), email=form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


# --- /conta/nova/: the organizers' open sign-up (ZAP_EVENT_CREATORS=anyone) -------------------------------


class OrganizerSignupForm(UserCreationForm):
    """An account to organize events: username, e-mail (for the password reset) and password."""

    email = forms.EmailField(
        label=_("E-mail"), max_length=254, help_text=_("Para recuperar a senha. Não aparece em nenhuma página pública.")
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


@require_http_methods(["GET", "HEAD", "POST"])
def organizer_signup(request):
    """GET: the form. POST: a new account, signed in, sent to create its first event. Only while the site's
    sign-up is open (else 404), at most ZAP_SIGNUPS_PER_HOUR accounts an hour from one address (else 429)."""
    if not organizer_signup_open():
        raise Http404("cadastro fechado")
    if request.user.is_authenticated:
        return redirect("desk:new")
    form = OrganizerSignupForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST" and form.is_valid():
        if _over_limit(f"zap:signup:ip:{client_ip(request) or '-'}", settings.ZAP_SIGNUPS_PER_HOUR):
            form.add_error(
                None, _("Muitas contas criadas a partir deste endereço na última hora. Tente de novo mais tarde.")
            )
            status = 429
        else:
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Conta criada. Agora crie o seu torneio."))
            return redirect("desk:new")
    return render(
        request, "accounts/form.html", {"form": form, "title": _("Criar uma conta de organizador")}, status=status
    )


# --- /convites/<token>/: accept an invitation to a tournament's staff -------------------------------------


NAME_MAX = 150  # the account's ``first_name`` (Django's limit)


def _name_field() -> forms.CharField:
    return NameFormField(
        label=_("Seu nome"),
        max_length=NAME_MAX,
        help_text=_("Como você aparece para a equipe: na programação, nas mesas e na súmula impressa."),
    )


class DisplayNameForm(forms.Form):
    """The name a staff person is shown by. Kept whole in the account's ``first_name`` (``last_name`` left
    empty): a name is not always a first and a last name, and ``get_full_name`` then gives it back as typed."""

    name = _name_field()

    def save(self, user) -> None:
        name = self.cleaned_data["name"]
        if name != (user.get_full_name() or "").strip():
            user.first_name, user.last_name = name, ""
            user.save(update_fields=["first_name", "last_name"])


class InvitationSignupForm(UserCreationForm):
    """A new account for someone invited: the name shown to the staff, username and password (Django's
    validators)."""

    name = _name_field()
    field_order = ("name", "username")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


def _invitation_page(request, *, invitation, form=None, problem: str = "", status: int = 200):
    user = request.user
    return render(
        request,
        "accounts/invitation.html",
        {
            "invitation": invitation,
            "problem": problem,
            "form": form,
            "title": _("Convite para a equipe"),
            "role": role_label(invitation.role) if invitation is not None else "",
            "login_url": f"{reverse('accounts:login')}?next={request.path}",
            # a signed-in account accepts only with the invited address; any other may ask the comissão
            "matches": invitation is not None and may_accept_invitation(user=user, email=invitation.email),
            "claimed": invitation is not None and user.is_authenticated and invitation.claimed_by_id == user.pk,
        },
        status=status,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def invitation(request, token: str):
    """GET: what the invitation is, the address it was sent to (or why it no longer works). POST: accept it,
    signed in with that address or with a new account (given that address); signed in with another address, ask
    the comissão to confirm (``invitation_claim``)."""
    found = invitation_by_token(token=token)
    state = invitation_state(found)
    if state != VALID:
        return _invitation_page(
            request, invitation=None, problem=INVITATION_PROBLEMS[state](), status=404 if state == UNKNOWN else 410
        )
    signed_in = request.user.is_authenticated
    form: forms.Form = (
        DisplayNameForm(initial={"name": (request.user.get_full_name() or "").strip()})
        if signed_in
        else InvitationSignupForm()
    )
    if request.method == "POST":
        form = DisplayNameForm(request.POST) if signed_in else InvitationSignupForm(request.POST)
        if not form.is_valid():
            return _invitation_page(request, invitation=found, form=form)
        user = request.user if signed_in else None
        if signed_in and not may_accept_invitation(user=user, email=found.email):
            assert isinstance(form, DisplayNameForm)
            try:
                with transaction.atomic():
                    form.save(user)
                    invitation_claim(token=token, user=user)
            except ValidationError as exc:
                return _invitation_page(request, invitation=None, problem=" ".join(exc.messages), status=410)
            return redirect(request.path)  # the page then says the request is with the comissão
        try:
            with transaction.atomic():
                if user is None:
                    assert isinstance(form, InvitationSignupForm)
                    user = form.save(commit=False)
                    user.email = found.email  # the address the invitation reached
                    user.first_name, user.last_name = form.cleaned_data["name"], ""
                    user.save()
                else:
                    assert isinstance(form, DisplayNameForm)
                    form.save(user)
                accepted = invitation_accept(token=token, user=user)
        except ValidationError as exc:
            return _invitation_page(request, invitation=None, problem=" ".join(exc.messages), status=410)
        if not signed_in:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Convite aceito: agora você faz parte da equipe de %(name)s (%(role)s).")
            % {"name": accepted.tournament.name, "role": role_label(accepted.role)},
        )
        return redirect("desk:home")
    return _invitation_page(request, invitation=found, form=form)


# --- /conta/: the account's own page (the name shown to the staff) ------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account(request):
    """The signed-in person's name as the staff sees it (programação, mesas, súmula), and the password link."""
    form = DisplayNameForm(
        request.POST if request.method == "POST" else None,
        initial={"name": (request.user.get_full_name() or "").strip()},
    )
    if request.method == "POST" and form.is_valid():
        form.save(request.user)
        messages.success(request, _("Nome salvo."))
        return redirect("accounts:account")
    return render(request, "accounts/account.html", {"form": form, "title": _("Sua conta")})
