"""What operators see: one structured log line per request, a request id, and the health URL.

Every request gets an id (the proxy's ``X-Request-ID`` when it is a sane
token, else a new one), sent back in ``X-Request-ID`` and attached to every
log line written while the request runs. ``zap.requests`` logs one line per
request: method, path, status, duration, user id (when the request looked at
who is signed in), tournament slug.

``/saude/`` answers the load balancer before anything else runs (no host
check, no HTTPS redirect, no session): 200 when the database and the cache
answer, 503 naming what does not.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from collections.abc import Callable

from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.functional import empty

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
requests_logger = logging.getLogger("zap.requests")

HEALTH_PATH = "/saude/"
REQUEST_ID_HEADER = "X-Request-ID"
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")  # whole value only (fullmatch): no trailing newline
_TOURNAMENT_PATH = re.compile(r"^/(?:torneios|organizar|api/v1/torneios)/([-\w]+)/")


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and any ``extra`` fields given."""

    STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        out.update({k: v for k, v in vars(record).items() if k not in self.STANDARD and not k.startswith("_")})
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def health(request: HttpRequest) -> JsonResponse:
    checks = {"database": "ok", "cache": "ok"}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure of the database is what this URL reports
        checks["database"] = f"erro: {type(exc).__name__}"
    try:
        cache = caches["default"]
        cache.set("saude", "ok", 30)
        if cache.get("saude") != "ok":
            checks["cache"] = "erro: o valor gravado não voltou"
    except Exception as exc:  # any failure of the cache server, likewise
        checks["cache"] = f"erro: {type(exc).__name__}"
    ok = all(v == "ok" for v in checks.values())
    response = JsonResponse({"status": "ok" if ok else "erro", **checks}, status=200 if ok else 503)
    response["Cache-Control"] = "no-store"
    return response


class RequestMiddleware:
    """First in the chain after the Server-Timing header (config/timing.py): the health URL, the request id,
    and the request's log line."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path == HEALTH_PATH:
            return health(request)
        given = request.headers.get(REQUEST_ID_HEADER, "")
        rid = given if _SANE_ID.fullmatch(given) else uuid.uuid4().hex
        request.request_id = rid  # type: ignore[attr-defined]  # the request carries its id (views, error pages)
        token = request_id_var.set(rid)
        start = time.perf_counter()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = rid
            self._log(request, response.status_code, start)
            return response
        finally:
            request_id_var.reset(token)

    @staticmethod
    def _log(request: HttpRequest, status: int, start: float) -> None:
        if not requests_logger.isEnabledFor(logging.INFO):
            return
        user = getattr(request, "user", None)
        if getattr(user, "_wrapped", None) is empty:  # never looked at (a public page): not worth a session query
            user = None
        match = _TOURNAMENT_PATH.match(request.path)
        requests_logger.info(
            "%s %s %s",
            request.method,
            request.path,
            status,
            extra={
                "method": request.method,
                "path": request.path,
                "status": status,
                "duration_ms": round((time.perf_counter() - start) * 1000, 1),
                "user": user.pk if user is not None and user.is_authenticated else None,
                "tournament": match.group(1) if match else None,
            },
        )
