"""Database connections kept for the life of their thread, checked before reuse only after they sat idle.

A new PostgreSQL connection cost its request 5–16 ms here (measured: connect and a first statement), and more
on its first statements (a new server process fills its catalogue caches, and the statements the old one had
prepared are gone). With ``CONN_MAX_AGE`` at 60 s every request thread paid that once a minute, and the first
request of every thread always paid it: on a fresh server, the first confirmation or the first page.

Now ``CONN_MAX_AGE`` is None (settings): a connection lives as long as its thread. gunicorn's request threads
open theirs when they start (``config.warmup.thread_warm``). Django's health check (``CONN_HEALTH_CHECKS``: a
``SELECT 1`` before a request's first statement) is on, so a connection the database dropped meanwhile (a
restart, an idle timeout, a failover) is replaced before it can fail a request; it is skipped, here, for a
connection that served a request less than ``IDLE_CHECK`` seconds ago. A connection that fails in the middle of
a request is closed at its end, as before (Django's ``close_if_unusable_or_obsolete``).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import connections

IDLE_CHECK = 10.0  # seconds a connection may sit unused and still be reused without a health check
_USED = "_zap_used_at"  # on each connection wrapper: when it last served a request (time.monotonic)


def connections_used() -> None:
    """Mark this thread's open connections as just used (a request ended, or the thread opened them)."""
    now = time.monotonic()
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None:
            setattr(connection, _USED, now)


def _fresh_unchecked(**kwargs: Any) -> None:
    """At a request's start, after Django's own receiver has asked for a health check: none for a connection
    used a moment ago."""
    fresh_unchecked()


def fresh_unchecked() -> None:
    """After ``close_old_connections`` asked for a health check: none for this thread's connections used less
    than ``IDLE_CHECK`` seconds ago (the live connection's database calls, tournaments/play/dbcall.py)."""
    now = time.monotonic()
    for connection in connections.all(initialized_only=True):
        used = getattr(connection, _USED, None)
        if connection.connection is not None and used is not None and now - used < IDLE_CHECK:
            connection.health_check_done = True  # type: ignore[attr-defined]  # Django 4.1+, not in django-stubs


def _used(**kwargs: Any) -> None:
    connections_used()


def connections_policy_install() -> None:
    """Connect the receivers (once; after Django's ``close_old_connections``, which runs first on both signals)."""
    request_started.connect(_fresh_unchecked, dispatch_uid="zap-db-fresh-unchecked")
    request_finished.connect(_used, dispatch_uid="zap-db-used")
