"""Login throttling glue for django-axes: the backend, the lockout page (the client's address: ``tournaments.web.client_ip``)."""

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import reverse
from django.utils.translation import gettext as _

LOCKOUT_TEMPLATE = """{% extends "base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block content %}
<section class="card error-page">
  <p class="error-suit" aria-hidden="true">♠</p>
  <h1>{{ title }}</h1>
  <p>{{ message }}</p>
  <p><a href="{{ reset_url }}">{{ reset_label }}</a></p>
</section>
{% endblock %}"""


class LoginAttemptsHandler(AxesDatabaseHandler):
    """Two limits: AXES_FAILURE_LIMIT per username and address, AXES_ACCOUNT_FAILURE_LIMIT per username.

    ``AXES_LOCKOUT_PARAMETERS`` is ``[["username", "ip_address"], "username"]``; axes compares the larger
    count with one limit, so the account's count is scaled here: it reaches AXES_FAILURE_LIMIT exactly when
    the account's own count reaches AXES_ACCOUNT_FAILURE_LIMIT. ``request.zap_lockout`` says which one
    locked (``"address"`` or ``"account"``), for the lockout page.
    """

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        counts = [
            qs.aggregate(n=Sum("failures_since_start"))["n"] or 0 for qs in self.get_user_attempts(request, credentials)
        ]
        pair = counts[0] if counts else 0
        account = counts[1] if len(counts) > 1 else 0
        limit, account_limit = settings.AXES_FAILURE_LIMIT, max(1, settings.AXES_ACCOUNT_FAILURE_LIMIT)
        if pair >= limit:
            request.zap_lockout = "address"  # type: ignore[attr-defined]  # for the lockout page
            return pair
        if account >= account_limit:
            request.zap_lockout = "account"  # type: ignore[attr-defined]  # for the lockout page
            return max(pair, limit)
        return pair


class LoginThrottleBackend(AxesStandaloneBackend):
    """Refuses a login while its username and address are locked out (axes); authenticates nobody itself.

    A web login (Django's auth form: the admin's, ``/entrar/``) always passes the
    request. Without one (the test client's ``login()``, a shell) there is no
    address to throttle by, so the check is skipped instead of raising.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def login_lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """429 with a page in Portuguese saying why and for how long."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    title = _("Acesso bloqueado temporariamente")
    if getattr(request, "zap_lockout", "") == "account":
        message = _(
            "Houve muitas tentativas de entrar com senha errada nesta conta. Por segurança, ela está bloqueada "
            "por %(minutes)d minutos, mesmo com a senha certa. Espere e tente de novo, ou crie uma senha nova "
            "pelo link abaixo."
        ) % {"minutes": minutes}
    else:
        message = _(
            "Houve %(limit)d tentativas de entrar com senha errada para este usuário a partir deste endereço. "
            "Por segurança, novas tentativas estão bloqueadas por %(minutes)d minutos, mesmo com a senha certa. "
            "Espere e tente de novo, ou crie uma senha nova pelo link abaixo."
        ) % {"limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    body = (
        engines["django"]
        .from_string(LOCKOUT_TEMPLATE)
        .render(
            {
                "title": title,
                "message": message,
                "reset_url": reverse("accounts:password_reset"),
                "reset_label": _("Esqueci a senha"),
            },
            request,
        )
    )
    return HttpResponse(body, status=429)
