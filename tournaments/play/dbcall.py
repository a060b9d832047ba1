"""Database calls from the live connection's consumers (async) in worker threads.

Channels' ``database_sync_to_async`` runs every call in one thread per process (``thread_sensitive=True``): the
actions of all the process's tables wait in one line behind each other's PostgreSQL round trips. Here, on a
database that takes several writers at once (PostgreSQL), each call runs in the event loop's thread pool
(``thread_sensitive=False``; a few threads, each with its own connection kept for the thread's life,
``CONN_MAX_AGE`` None); SQLite (``make run``, the tests) keeps the one thread, its single writer.

As around a page's request (config/dbconn.py), old or broken connections are closed before and after each call
(``close_old_connections``, as Channels does), and Django's health check (a ``SELECT 1`` round trip) is skipped
for a connection that served a call less than ``IDLE_CHECK`` seconds ago: one a table's action uses every
second or two never pays it; one that sat idle (a restart of the database may have dropped it) is checked.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import close_old_connections, connections

from config.dbconn import connections_used, fresh_unchecked


class _DatabaseCall(SyncToAsync):
    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        fresh_unchecked()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()
            connections_used()


@cache
def _thread_sensitive() -> bool:
    return bool(connections["default"].vendor == "sqlite")


def db(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (sync, reading or writing the database) as an awaitable call in a worker thread."""
    return _DatabaseCall(function, thread_sensitive=_thread_sensitive())
