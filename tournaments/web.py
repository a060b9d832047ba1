"""The web edge: what every audience's views share on the way in and out.

- ``read_only``: a public page that only reads (GET/HEAD, no CSRF, gzip when accepted); ``staff_only``: this
  answer is for the staff alone (a draft's preview), so it says ``Cache-Control: private`` (``staff_only_headers``);
- ``etag_make`` / ``not_modified``: conditional GETs for what clients poll (ETag, 304);
- ``pdf_filename`` / ``pdf_response`` / ``print_error``: how a sheet leaves the site;
- ``client_ip`` / ``request_device``: who sent a request, behind the documented proxies
  (``TRUSTED_PROXY_COUNT``, ``TRUSTED_PROXIES``); ``pin_source``: where a dupla's PIN was typed, for the
  súmula's PIN check (``sumula/pins.py``, ``pin_verify``);
- ``refusal_status`` / ``refusal_json`` / ``refusal_to_form`` / ``refusal_messages``: how the domain's one
  refusal (``tournaments.refusals.Refused``) leaves the site: its HTTP status (one table), the API's
  ``{"errors": [...]}``, a form's errors, the page's messages, scoring's messages worded in the active language
  (``tournaments.wording``).

Nothing here knows a tournament, and nothing of the domain imports it: the audiences (``public``, ``desk``,
``api``, ``dupla``) read the request here and hand the domain plain values.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from ipaddress import ip_address, ip_network
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages as django_messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from .refusals import Kind, Refused
from .wording import worded

# --- read-only public pages -----------------------------------------------------------------------------------


def _never_called(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the gzip middleware is used for its process_response only")


_GZIP = GZipMiddleware(_never_called)
COMPRESSED_TYPES = ("text/", "application/json")  # PDFs and PNGs are compressed already: gzip would only cost


def read_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A public read-only page: GET and HEAD only, anything else 405 with ``Allow: GET, HEAD``.

    Exempt from the CSRF check, which would otherwise answer a POST or PUT 403 before the method is
    looked at: a page that never changes anything has nothing for a forged request to do.
    Text answers (HTML, JSON) are compressed (gzip) when the browser accepts it: these pages carry no
    secret (no CSRF token, no session data), so compression cannot leak one (BREACH); desk pages are not
    compressed.
    """
    safe = csrf_exempt(require_safe(view))

    @functools.wraps(safe)
    def compressed(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = staff_only_headers(request, safe(request, *args, **kwargs))
        if response.get("Content-Type", "").startswith(COMPRESSED_TYPES):
            response = _gzipped(request, response)
        return response

    return compressed


_STAFF_ONLY = "_zap_staff_only"


def staff_only(request: HttpRequest) -> None:
    """Say that the answer to ``request`` shows what only the staff may see: a draft's public side, previewed
    before it is published (the audiences call it where they let its staff in)."""
    setattr(request, _STAFF_ONLY, True)


def staff_only_headers(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """``response``, kept by no shared cache (a proxy, a CDN) nor stored, when ``staff_only`` was said of its
    request: ``Cache-Control: private, no-store`` (``read_only`` and the API's views call it)."""
    if getattr(request, _STAFF_ONLY, False):
        add_never_cache_headers(response)
        patch_cache_control(response, private=True)
    return response


_GZIPPED: OrderedDict[tuple, tuple[bytes, str]] = OrderedDict()  # (ETag, Vary) -> body and ETag, compressed
_GZIPPED_MAX = 256
_GZIPPED_LOCK = threading.Lock()


def _gzipped(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """``response`` compressed when the browser accepts it; an answer with an ETag is compressed once per process
    (the same page, version and minute: a cached page's hits cost no compression)."""
    tag = response.get("ETag")
    accepts = "gzip" in request.headers.get("Accept-Encoding", "")
    if not tag or not accepts or response.streaming or response.status_code != 200:
        return _GZIP.process_response(request, response)
    assert isinstance(response, HttpResponse)  # not streaming: it has its content
    key = (tag, response.get("Vary", ""))
    with _GZIPPED_LOCK:
        kept = _GZIPPED.get(key)
        if kept is not None:
            _GZIPPED.move_to_end(key)
    if kept is None:
        response = _GZIP.process_response(request, response)  # the same response, compressed in place
        assert isinstance(response, HttpResponse)
        if response.get("Content-Encoding") == "gzip":
            with _GZIPPED_LOCK:
                _GZIPPED[key] = (response.content, response["ETag"])
                while len(_GZIPPED) > _GZIPPED_MAX:
                    _GZIPPED.popitem(last=False)
        return response
    body, etag = kept
    response.content = body
    response["Content-Encoding"], response["ETag"] = "gzip", etag
    response["Content-Length"] = str(len(body))
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


# --- conditional GETs -----------------------------------------------------------------------------------------


def etag_make(*parts: object) -> str:
    """A strong entity tag from what decides an answer's content (the cache key, the minute shown…)."""
    return '"' + hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32] + '"'


def not_modified(request: HttpRequest, *, etag: str) -> HttpResponse | None:
    """A 304 when the client already holds the answer tagged ``etag`` (GET and HEAD); None otherwise."""
    if request.method not in ("GET", "HEAD"):
        return None
    response = get_conditional_response(request, etag=etag)
    if response is not None:
        response["ETag"] = etag
    return response


# --- PDF responses --------------------------------------------------------------------------------------------


def pdf_filename(*parts: str) -> str:
    """``aabb-2024-chave.pdf``: the parts, each made file-name safe, joined by dashes."""
    return "-".join(slugify(p) or "x" for p in parts if p) + ".pdf"


def pdf_response(data: bytes, *, filename: str, attachment: bool = False) -> HttpResponse:
    """The PDF shown in the browser (its reader prints it), saved under ``filename`` when downloaded; with
    ``attachment``, saved at once (what exists only in this response, such as PIN cards, is not lost with a tab)."""
    response = HttpResponse(data, content_type="application/pdf")
    disposition = content_disposition_header(attachment, filename)
    assert disposition is not None  # a file name is given
    response["Content-Disposition"] = disposition
    response["Content-Length"] = str(len(data))
    response["X-Content-Type-Options"] = "nosniff"
    return response


def print_error(request: HttpRequest, message: str, *, back_url: str = "", status: int = 400) -> HttpResponse:
    """A request for a sheet that names nothing printable: what is wrong, in words, and a way back."""
    return render(request, "printing/error.html", {"message": message, "back_url": back_url}, status=status)


# --- the client's address -------------------------------------------------------------------------------------


def _trusted_proxy(address: str | None) -> bool:
    if not address:
        return False
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in ip_network(net, strict=False) for net in settings.TRUSTED_PROXIES)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or the one TRUSTED_PROXY_COUNT proxies recorded in X-Forwarded-For.

    The header is read only when the request comes from one of TRUSTED_PROXIES (the proxy in front): a
    client that reaches the app's port directly sends whatever X-Forwarded-For it likes, so then only
    REMOTE_ADDR counts. Every part of the site that throttles or records by address asks here.
    """
    remote = request.META.get("REMOTE_ADDR")
    count = settings.TRUSTED_PROXY_COUNT
    if not count or not _trusted_proxy(remote):
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if forwarded:
        # each trusted proxy appended the address it saw; anything before them may be forged by the client
        return forwarded[-count] if len(forwarded) >= count else forwarded[0]
    return remote


def request_device(request: HttpRequest) -> str:
    """Where a write came from, for a log (the súmula's events): the browser and the client's address."""
    agent = request.META.get("HTTP_USER_AGENT", "")[:200]
    return f"{agent} · {client_ip(request) or ''}".strip(" ·")


def pin_source(request: HttpRequest, *, referee_screen: bool = False) -> dict[str, object]:
    """Where a PIN check comes from, for ``pin_verify``: the client's address; the staff account on the
    referee's screen (whose view already required ``may_referee`` on the tournament)."""
    user = request.user if referee_screen and request.user.is_authenticated else None
    return {"address": (client_ip(request) or "")[:64], "staff": referee_screen, "user": user}


# --- the domain's refusals ------------------------------------------------------------------------------------

REFUSAL_STATUS: dict[Kind, int] = {
    Kind.BAD_REQUEST: 400,
    Kind.FORBIDDEN: 403,
    Kind.NOT_FOUND: 404,
    Kind.CONFLICT: 409,
    Kind.INVALID: 422,
    Kind.LOCKED: 429,
}


def refusal_status(refused: Refused) -> int:
    """The HTTP status that says why ``refused``: the one table from the domain's kinds."""
    return REFUSAL_STATUS[refused.kind]


def errors_json(status: int, *messages: str) -> JsonResponse:
    """The API's error body: ``{"errors": [...]}``, the texts as they are (no \\u escapes)."""
    return JsonResponse({"errors": list(messages)}, status=status, json_dumps_params={"ensure_ascii": False})


def refusal_json(refused: Refused) -> JsonResponse:
    """A refusal as the API answers it: its status, ``{"errors": [its messages]}`` in the active language."""
    return errors_json(refusal_status(refused), *(worded(m) for m in refused.messages))


def refusal_to_form(form: forms.BaseForm, refused: Refused) -> None:
    """A refusal on the form that was sent: each problem next to its field (``form.refusal_places`` maps a
    problem's place to a field's name; a place the form does not have goes above the form); without
    problems, the messages above the form. Scoring's messages are worded in the active language."""
    places: dict[str, str] = getattr(form, "refusal_places", {})
    for problem in refused.problems:
        name = places.get(problem.place, problem.place)
        form.add_error(name if name in form.fields else None, worded(problem.message))
    if not refused.problems:
        for message in refused.messages:
            form.add_error(None, worded(message))


def refusal_messages(request: HttpRequest, refused: Refused) -> None:
    """A refusal as the page's error messages, one each, in the active language."""
    for message in refused.messages:
        django_messages.error(request, worded(message))
