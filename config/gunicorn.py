"""gunicorn's settings for ``make serve`` (production: DEBUG off); every value can come from the environment.

Threads share one process's memory, so the derived states (``tournaments.caching``)
are built once per process: a process per CPU with a couple of threads each suits
Zap, whose requests are a few ms of Python between short PostgreSQL and Redis
round trips.
"""

import os
import sys
from typing import Any

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"


def _control_socket(port: str) -> str:
    """The control socket of this server (``gunicornc -s PATH``): gunicorn's own folder ($XDG_RUNTIME_DIR, else
    ~/.gunicorn), one socket per port. gunicorn's default is one path for every server of the host: a second
    ``make serve`` (on another PORT) took the first one's socket, and removed it on leaving. GUNICORN_CONTROL_SOCKET
    names another path."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = runtime if runtime and os.path.isdir(runtime) else os.path.join(os.path.expanduser("~"), ".gunicorn")
    return os.environ.get("GUNICORN_CONTROL_SOCKET") or os.path.join(folder, f"gunicorn-{port}.ctl")


control_socket = _control_socket(os.environ.get("PORT", "8000"))
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
# gunicorn's gthread worker, whose threads take a waiting write (a mão, a confirmation) before the waiting reads
# (config/workers.py): on event day the referees are not queued behind the spectators' polling
worker_class = "config.workers.WritesFirstWorker"
# 2 threads a process: measured on 2 CPUs (make bench-engine, make load), more threads only made each request wait
# longer for the interpreter, with fewer requests served (50 writers: 1,664 mãos in 5 s with 2, 1,429 with 4)
threads = int(os.environ.get("GUNICORN_THREADS") or 2)
# A round of several hundred súmulas is one long PDF request (about 7 ms a page).
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 120)
graceful_timeout = 30
keepalive = 5
# The request line may be as long as gunicorn allows, so that Django answers an address that is too long
# (414, JSON under /api/v1/: config/errors.py, URL_MAX_CHARS = 2048); only a line over 8190 bytes gets
# gunicorn's own 414 (plain HTML; a proxy in front usually refuses such lines before).
limit_request_line = 8190
# Recycle a worker now and then, at different moments, so memory never creeps.
max_requests = 5000
max_requests_jitter = 500
preload_app = True  # a missing SECRET_KEY stops the server at once, with the message, before any worker starts
accesslog = None  # the application logs each request itself (zap.requests: request id, user, tournament, time)
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")

# How long a thread keeps the interpreter before another may run (Python's default: 5 ms). A request here is
# a few ms of Python between short database and Redis round trips; after each one it waits for the interpreter
# again, behind a thread that may hold it for a whole interval: with several threads that wait, ten times per
# request, was most of a mão's time under load. 0 leaves Python's default.
SWITCH_INTERVAL = float(os.environ.get("PYTHON_SWITCH_INTERVAL") or 0.001)


def post_fork(server: Any, worker: Any) -> None:
    if SWITCH_INTERVAL > 0:
        sys.setswitchinterval(SWITCH_INTERVAL)
    from config.warmup import worker_warm

    worker_warm()  # before the worker takes its first request: the states of the events under way, its own


def worker_exit(server: Any, worker: Any) -> None:
    """A worker leaving (recycled after ``max_requests``, a deploy, a stop) first finishes what its requests left
    running in the background once their responses had gone: the atletas' Nível, a call's e-mail, a state being
    shared or stored (``tournaments.caching.background_run``); a daemon thread would otherwise die with it."""
    from tournaments.caching import shares_wait

    shares_wait()
