"""gunicorn's threaded worker, with writes served before the reads that wait (``config/gunicorn.py`` names it).

On event day a few referees and duplas write (a mão, a confirmation: someone at a table waits for the answer)
while many spectators poll the pages. gunicorn's gthread worker hands every request that arrives to its threads
in arrival order, so under a crowd a mão waited behind every page asked before it (``make load``, "dia de
evento": 10 referees behind 90 spectators, p95 over half a second). Here the worker looks at the first bytes of
a request before queuing it (a peek: nothing is read from the socket), and its threads take the waiting request
whose turn comes first, a write's turn being when it arrived and a read's ``READ_SLACK`` later: a write (POST,
PUT, PATCH, DELETE) goes ahead of the reads that came less than that before it, and a read never waits more than
that for writes, however many (strict priority starved the spectators: 16 pages a second instead of 765 while
10 referees wrote without pause). Each request's ``Server-Timing`` says how long it waited here for a thread
(``queue;dur=``, config/timing.py), beside the application's own time.
"""

from __future__ import annotations

import itertools
import logging
import math
import queue
import selectors
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from config.timing import queue_wait_set

logger = logging.getLogger(__name__)

WRITE_METHODS = (b"POST ", b"PUT ", b"PATCH ", b"DELETE ")
_PEEK = max(len(m) for m in WRITE_METHODS)
# How much later than a write's a read's turn is (seconds): a spectator's poll does not miss a quarter of a
# second, a referee waiting for the phone's answer does. Measured with make load (10 referees writing without
# pause among 90 spectators, when its mãos were still retries, answered without a write): 0.1 s left the
# referees' p95 at 181 ms, 0.25 s brought it to 125 ms.
READ_SLACK = 0.25


def starts_a_write(data: bytes | None) -> bool:
    """Whether an HTTP/1 request beginning with ``data`` is a write (its method); None (nothing has arrived) and
    TLS or HTTP/2 bytes are not."""
    return data is not None and data.startswith(WRITE_METHODS)


def waiting_request_start(conn: Any) -> bytes | None:
    """The first bytes of the request waiting on gunicorn's connection ``conn``: those its parser read ahead (a
    kept-alive connection's next request), else a peek at its socket (nothing is read). None when nothing has
    arrived yet or the socket cannot be peeked at (closed, or TLS once wrapped: no flags allowed), which the
    request's own handling then meets."""
    unreader = getattr(getattr(conn, "parser", None), "unreader", None)  # HTTP/1's parser (HTTP/2's has none)
    if unreader is not None:
        ahead = unreader.buf.getvalue()
        if ahead:
            return ahead[:_PEEK]
    try:
        return conn.sock.recv(_PEEK, socket.MSG_PEEK | socket.MSG_DONTWAIT) or None
    except (OSError, ValueError):  # nothing yet (EAGAIN), reset, or a TLS socket
        return None


class WritesFirstPool:
    """A fixed set of threads taking work from one priority queue, earliest turn first: ``urgent`` work's turn is
    when it is submitted, other work's ``slack`` seconds later (ties: in the order submitted). What gunicorn asks
    of its ``ThreadPoolExecutor``: ``submit`` and ``shutdown``."""

    def __init__(
        self,
        threads: int,
        *,
        slack: float = READ_SLACK,
        clock: Callable[[], float] = time.monotonic,
        name: str = "zap-request",
        on_start: Callable[[], None] | None = None,
    ) -> None:
        # (turn, order, when submitted, future, work, its arguments), earliest turn first
        self._queue: queue.PriorityQueue[
            tuple[float, int, float, Future[Any] | None, Callable[..., Any] | None, tuple]
        ] = queue.PriorityQueue()
        self._slack, self._clock = slack, clock
        self._order = itertools.count()
        self._on_start = on_start  # what each thread does before it takes work (open its connections)
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{n}") for n in range(threads)]
        for thread in self._threads:
            thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, urgent: bool = False) -> Future[Any]:
        future: Future[Any] = Future()
        now = self._clock()
        self._queue.put((now + (0 if urgent else self._slack), next(self._order), now, future, fn, args))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The threads end once the work queued before has run (unless ``cancel_futures``); ``wait``: here and now."""
        if cancel_futures:
            while True:
                try:
                    _turn, _order, _submitted, future, _fn, _args = self._queue.get_nowait()
                except queue.Empty:
                    break
                if future is not None:
                    future.cancel()
        for _thread in self._threads:
            self._queue.put((math.inf, next(self._order), math.inf, None, None, ()))
        if wait:
            for thread in self._threads:
                thread.join()

    def _work(self) -> None:
        if self._on_start is not None:
            try:
                self._on_start()
            except Exception:  # the thread still serves: its first request opens what is missing
                logger.exception("request thread's start-up failed")
        while True:
            _turn, _order, submitted, future, fn, args = self._queue.get()
            if future is None or fn is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            queue_wait_set(self._clock() - submitted)  # the request's Server-Timing tells it (config/timing.py)
            try:
                result = fn(*args)
            except BaseException as exc:  # the caller's future carries it, as the executor's does
                future.set_exception(exc)
            else:
                future.set_result(result)
            finally:
                queue_wait_set(None)


def _thread_warm() -> None:
    """Each request thread opens its database and cache connections as it starts (config/warmup.py), so that no
    first request of a fresh worker pays for them (imported here: gunicorn loads this module before Django)."""
    from config.warmup import thread_warm

    thread_warm()


class WritesFirstWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker whose threads take a waiting write before the waiting reads.

    A new connection on which nothing has arrived yet waits on the worker's poller, not in a thread: its request
    is queued, with its turn, once its first bytes are there (gunicorn would give it a thread that waits up to
    5 s, and its turn would be guessed before its method could be seen). Behind a proxy that opens a connection
    per request, that is every request."""

    def get_thread_pool(self) -> WritesFirstPool:
        return WritesFirstPool(self.cfg.threads, on_start=_thread_warm)

    def enqueue_req(self, conn: Any) -> None:
        start = waiting_request_start(conn)
        if start is None and not conn.initialized and not conn.data_ready:
            self._readable_wait(conn)
            return
        future = self.tpool.submit(self.handle, conn, urgent=starts_a_write(start))
        future.add_done_callback(lambda done: self.method_queue.defer(self.finish_request, conn, done))

    def _readable_wait(self, conn: Any) -> None:
        """What gunicorn does with a connection whose thread waited for data in vain: on the poller, among the
        pending connections (closed after ``keepalive`` seconds without a byte), queued once readable."""
        conn.sock.setblocking(False)
        conn.timeout = time.monotonic() + self.cfg.keepalive
        self.pending_conns.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn))
