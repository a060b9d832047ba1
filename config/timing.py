"""``Server-Timing: app;dur=<ms>`` on every response: the time the application spent on the request; under
gunicorn also ``queue;dur=<ms>``, how long the request waited in its worker for a thread (config/workers.py).

Browsers show it in their developer tools (Network, Timing), and the engine benchmark (load/engine_bench) reads
it to tell the server's time from the round trip. First in ``settings.MIDDLEWARE``, so it covers every
other middleware too (the health URL included); a streamed response's body is not counted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from time import perf_counter

from django.http import HttpRequest, HttpResponseBase

HEADER = "Server-Timing"
_queue = threading.local()  # per thread: how long the request it now runs waited for it (seconds), or None


def queue_wait_set(seconds: float | None) -> None:
    """The app server's worker, before and after a thread runs a request: how long that request waited for it."""
    _queue.seconds = seconds


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        start = perf_counter()
        response = self.get_response(request)
        metric = f"app;dur={(perf_counter() - start) * 1000:.1f}"
        waited = getattr(_queue, "seconds", None)
        if waited is not None:
            metric += f", queue;dur={waited * 1000:.1f}"
        given = response.get(HEADER)
        response[HEADER] = f"{metric}, {given}" if given else metric
        return response
