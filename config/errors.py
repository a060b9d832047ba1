"""Error answers: ``{"errors": [...]}`` in JSON under ``/api/v1/`` (never an HTML page), pages elsewhere.

- 400, 403, 404 and 500 handlers (``config.urls``) and the CSRF failure view
  (``CSRF_FAILURE_VIEW``) answer JSON for the API and Django's pages otherwise;
- a database that does not answer (``OperationalError``, ``InterfaceError``,
  wherever raised: a view, a middleware reading the session) is a 503, not a 500:
  JSON under the API, a page saying the site is briefly unavailable elsewhere;
- ``NullCharacterMiddleware`` answers 400 to a query string or form field holding a NUL character (``%00``):
  no column takes one (PostgreSQL refuses it in any query: a search box or a form field read as it came
  would answer 500), so no view sees it;
- ``ErrorsMiddleware`` answers 414 to an address longer than ``URL_MAX_CHARS``
  (gunicorn's ``limit_request_line``, in ``config/gunicorn.py``, lets such lines
  reach Django; only lines beyond gunicorn's own maximum get gunicorn's answer).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, QueryDict
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.csrf import csrf_failure as django_csrf_failure

API_PREFIX = "/api/"
URL_MAX_CHARS = 2048  # path and query string, percent-encoded; the site's longest addresses are about 200
DATABASE_ERRORS = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30
logger = logging.getLogger("zap.errors")


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_errors(status: int, *messages: str) -> JsonResponse:
    response = JsonResponse({"errors": list(messages)}, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def _standalone_page(status: int, title: str, message: str) -> HttpResponse:
    """A page that renders without the database, the session or the site's base template."""
    html = loader.get_template("error_standalone.html").render({"title": title, "message": message})
    response = HttpResponse(html, status=status)
    response["Cache-Control"] = "no-store"
    return response


def database_unavailable(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if is_api(request):
        response = api_errors(503, _("banco de dados indisponível; tente de novo em instantes"))
    else:
        response = _standalone_page(
            503,
            _("Site indisponível no momento"),
            _("O site está temporariamente fora do ar (o banco de dados não respondeu). Tente de novo em instantes."),
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_errors(400, _("pedido inválido"))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_errors(403, _("acesso negado"))
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return api_errors(404, _("endereço não encontrado na API: veja os endereços em /api/v1/torneios/<slug>/jogos/"))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 handler; a database that does not answer is a 503 (the handler runs inside the ``except``)."""
    if isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        return database_unavailable(request)
    if is_api(request):
        return api_errors(500, _("erro interno no servidor; a organização foi avisada. Tente de novo em instantes"))
    return defaults.server_error(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api(request):
        return api_errors(403, _("token CSRF ausente ou inválido: envie-o no cabeçalho X-CSRFToken"))
    return django_csrf_failure(request, reason)


class ErrorsMiddleware:
    """414 for an address longer than any the site makes, before anything else reads it; 503 for a view
    whose database does not answer (logged as a warning, not as a crash: ``server_error`` covers the rest)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        length = len(request.get_full_path())
        if length > URL_MAX_CHARS:
            if is_api(request):
                return api_errors(
                    414,
                    _("endereço longo demais: %(n)d caracteres (o máximo é %(max)d)")
                    % {"n": length, "max": URL_MAX_CHARS},
                )
            return _standalone_page(
                414,
                _("Endereço longo demais"),
                _("Esse endereço tem %(n)d caracteres; o máximo é %(max)d. Confira o link.")
                % {"n": length, "max": URL_MAX_CHARS},
            )
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        logger.warning(
            "banco de dados indisponível: %s: %s", type(exception).__name__, exception, extra={"path": request.path}
        )
        return database_unavailable(request)


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _nul_field(data: QueryDict) -> str | None:
    """The first field of a QueryDict whose name or a value holds a NUL character."""
    for key, values in data.lists():
        if "\x00" in key or any("\x00" in v for v in values if isinstance(v, str)):
            return key.replace("\x00", "\\0")[:40]
    return None


class NullCharacterMiddleware:
    """400, naming the field, for a NUL character in the query string or a form's fields (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        field = _nul_field(request.GET)
        if field is None and request.method == "POST" and request.content_type in FORM_TYPES:
            field = _nul_field(request.POST)
        if field is None:
            return self.get_response(request)
        message = _("o campo '%(field)s' tem um caractere nulo (%%00), que nenhum texto aceita") % {"field": field}
        if is_api(request):
            return api_errors(400, message)
        return _standalone_page(400, _("Pedido inválido"), message[:1].upper() + message[1:] + ".")
