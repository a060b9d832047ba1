"""The probe's plumbing: one request at a time, each in a transaction rolled back after it, with the rows it wrote
and the exception behind a 500 recorded.

Every request runs inside ``transaction.atomic()`` and is rolled back, so the world stays the same for the next
one (an organizer's "undo the draw" does not take the jogos away from the requests after it), and the caches are
emptied after it. The rows a request wrote are seen through ``connection.execute_wrapper``: every INSERT, UPDATE
or DELETE that touched a row of a table that holds the site's data. Tables of bookkeeping that any visitor may
write (sessions, failed logins and PINs, throttles) are not data.
"""

from __future__ import annotations

import re
import traceback
from collections import Counter
from dataclasses import dataclass, field

from django.core.cache import caches
from django.core.signals import got_request_exception
from django.db import connection, transaction

WRITE = re.compile(r'^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+[`"]?(\w+)', re.I)
# bookkeeping, not data: anyone may cause these writes (a session, a failed login or PIN, a throttle's count)
NOT_DATA = ("django_session", "axes_", "tournaments_pinfailure", "django_cache")
NOT_DATA_WORDS = ("failure", "attempt", "throttle", "ratelimit", "lockout")


def is_data(table: str) -> bool:
    table = table.lower()
    return not (table.startswith(NOT_DATA) or any(word in table for word in NOT_DATA_WORDS))


@dataclass
class Outcome:
    status: int
    wrote: set  # data tables with a row written
    error: str | None  # the cause of a 500: exception type, message, innermost frame of the project
    response: object = None


@dataclass
class Tally:
    """Counts of one part of the probe, and samples of what went wrong."""

    name: str
    requests: int = 0
    server_errors: int = 0
    escapes: int = 0
    csrf_accepted: int = 0
    causes: Counter = field(default_factory=Counter)  # cause of a 500 -> count
    samples: dict = field(default_factory=dict)  # cause -> one request that shows it
    escape_samples: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def server_error(self, cause: str, sample: str) -> None:
        self.server_errors += 1
        self.causes[cause] += 1
        self.samples.setdefault(cause, sample)

    def escape(self, sample: str) -> None:
        self.escapes += 1
        if len(self.escape_samples) < 20:
            self.escape_samples.append(sample)


def _project_frame(tb) -> str:
    """The innermost frame of the project's own code (not Django's, not the standard library)."""
    frames = traceback.extract_tb(tb)
    own = [f for f in frames if any(root in f.filename for root in ("/tournaments/", "/config/", "/scoring/"))]
    frame = (own or frames)[-1] if frames else None
    if frame is None:
        return "?"
    return f"{_short(frame.filename)}:{frame.lineno}"


def _short(filename: str) -> str:
    for root in ("tournaments/", "config/", "scoring/", "probe/", "django/"):
        at = filename.rfind("/" + root)
        if at >= 0:
            return filename[at + 1 :]
    return filename.rsplit("/", 1)[-1]


def _has_nul(params) -> bool:
    if params is None:
        return False
    values = params.values() if isinstance(params, dict) else params
    for value in values:
        if isinstance(value, str) and "\x00" in value:
            return True
        if isinstance(value, (list, tuple)) and _has_nul(value):
            return True
    return False


class Recorder:
    """Runs requests one by one; each: rolled back, its data writes and its 500's cause recorded."""

    def __init__(self):
        self._wrote: set = set()
        self._error: str | None = None
        self._any_write = False
        self._nul: str | None = None
        self._count = 0
        got_request_exception.connect(self._on_exception, weak=False)

    def close(self) -> None:
        got_request_exception.disconnect(self._on_exception)

    def _on_exception(self, sender, request=None, **kwargs):
        import sys

        exc_type, exc, tb = sys.exc_info()
        if exc is None:
            self._error = "unknown exception"
            return
        message = str(exc).splitlines()[0][:90] if str(exc) else ""
        message = re.sub(r"\d+", "N", message)  # one cause, whatever the numbers in it
        self._error = f"{exc_type.__name__}: {message} @ {_project_frame(tb)}"

    def _track(self, execute, sql, params, many, context):
        if self._nul is None and connection.vendor == "sqlite" and _has_nul(params):
            # SQLite stores a NUL; PostgreSQL (production) refuses it with an error: a 500 there
            frame = next(
                (
                    f
                    for f in reversed(traceback.extract_stack()[:-1])
                    if any(root in f.filename for root in ("/tournaments/", "/config/", "/scoring/"))
                ),
                None,
            )
            where = f"{_short(frame.filename)}:{frame.lineno}" if frame else "?"
            self._nul = f"NUL character sent to the database (SQLite keeps it; PostgreSQL answers 500) @ {where}"
        result = execute(sql, params, many, context)
        match = WRITE.match(sql)
        if match:
            self._any_write = True
        if match and is_data(match.group(1)):
            rowcount = getattr(context.get("cursor"), "rowcount", -1)
            if rowcount != 0:
                self._wrote.add(match.group(1))
        return result

    def run(self, send) -> Outcome:
        """``send()`` makes one request (a test client's call); rolled back after."""
        self._wrote, self._error, self._any_write, self._nul = set(), None, False, None
        response = None
        try:
            with connection.execute_wrapper(self._track):
                with transaction.atomic():
                    try:
                        response = send()
                    finally:
                        transaction.set_rollback(True)
        finally:
            self._count += 1
            # rolled back: the caches may hold what the request wrote (versions, pages, states); empty them
            if self._any_write or self._count % 50 == 0:
                self._caches_clear()
        status = getattr(response, "status_code", 500) if response is not None else 500
        error = self._error
        if status >= 500 and error is None:
            error = f"answered {status} without an exception"
        if status < 500:
            error = self._nul
        return Outcome(status=status, wrote=set(self._wrote), error=error, response=response)

    @staticmethod
    def _caches_clear() -> None:
        for cache in caches.all():
            try:
                cache.clear()
            except Exception:
                pass
