"""Login throttling glue for django-axes: the client's address, the backend, the lockout page."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.utils.translation import gettext as _

from axes.backends import AxesStandaloneBackend

LOCKOUT_TEMPLATE = """{% extends "base.html" %}
{% block title %}{{ title }}{% endblock %}
{% block content %}
<section class="card error-page">
  <p class="error-suit" aria-hidden="true">♠</p>
  <h1>{{ title }}</h1>
  <p>{{ message }}</p>
</section>
{% endblock %}"""


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or the one TRUSTED_PROXY_COUNT proxies recorded in X-Forwarded-For."""
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if count and forwarded:
        # each trusted proxy appended the address it saw; anything before them may be forged by the client
        return forwarded[-count] if len(forwarded) >= count else forwarded[0]
    return request.META.get("REMOTE_ADDR")


class LoginThrottleBackend(AxesStandaloneBackend):
    """Refuses a login while its username and address are locked out (axes); authenticates nobody itself.

    A web login (Django's auth form: the admin's, ``/entrar/``) always passes the
    request. Without one (the test client's ``login()``, a shell) there is no
    address to throttle by, so the check is skipped instead of raising.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def login_lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """429 with a page in Portuguese saying why and for how long."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    title = _("Acesso bloqueado temporariamente")
    message = _(
        "Houve %(limit)d tentativas de entrar com senha errada para este usuário a partir deste endereço. "
        "Por segurança, novas tentativas estão bloqueadas por %(minutes)d minutos, mesmo com a senha certa. "
        "Espere e tente de novo."
    ) % {"limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    body = engines["django"].from_string(LOCKOUT_TEMPLATE).render({"title": title, "message": message}, request)
    return HttpResponse(body, status=429)
