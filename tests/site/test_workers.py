"""The app server's worker (config/workers.py): a waiting write is taken before the reads that came less than
``READ_SLACK`` before it, a read never waits longer than that for writes, each request knows how long it waited,
and telling a write from a read reads nothing from the connection."""

import socket
import threading
from io import BytesIO
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from config import timing
from config.workers import READ_SLACK, WritesFirstPool, starts_a_write, waiting_request_start


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _held_pool(clock: Clock, slack: float = READ_SLACK):
    """A one-thread pool kept busy until ``gate`` is set, and the list its work appends to, in the order run."""
    pool = WritesFirstPool(1, slack=slack, clock=clock)
    gate, started = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        gate.wait(10)

    pool.submit(hold)
    assert started.wait(10)
    return pool, gate


def _run_order(submissions):
    """What a one-thread pool runs, in order, of ``(seconds after the start, item, urgent)`` submitted while its
    thread is busy (time moving forward as given)."""
    clock = Clock()
    pool, gate = _held_pool(clock)
    ran = []
    futures = []
    for at, item, urgent in submissions:
        clock.now = 1000.0 + at
        futures.append(pool.submit(ran.append, item, urgent=urgent))
    gate.set()
    for future in futures:
        future.result(10)
    pool.shutdown()
    return ran


def test_a_write_goes_ahead_of_the_reads_that_came_shortly_before_it():
    ran = _run_order([(0.0, "read 1", False), (0.1, "write 1", True), (0.2, "read 2", False), (0.3, "write 2", True)])
    # turns: read 1 at 0.25, write 1 at 0.1, read 2 at 0.45, write 2 at 0.3
    assert ran == ["write 1", "read 1", "write 2", "read 2"]


def test_a_read_that_waited_longer_than_the_slack_goes_before_a_new_write():
    assert _run_order([(0.0, "read", False), (READ_SLACK + 0.01, "write", True)]) == ["read", "write"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 2), st.booleans()), min_size=1, max_size=12))
def test_work_runs_in_order_of_its_turn_and_no_read_waits_more_than_the_slack_for_writes(submissions):
    """Whatever comes, the pool runs it by turn (arrival, plus the slack for a read; ties in arrival order): each
    kind in its own arrival order, and no write that came more than the slack after a read runs before it."""
    submissions = sorted(submissions, key=lambda s: s[0])  # time moves forward
    ran = _run_order([(at, n, urgent) for n, (at, urgent) in enumerate(submissions)])
    turn = {n: (at + (0 if urgent else READ_SLACK), n) for n, (at, urgent) in enumerate(submissions)}
    assert ran == sorted(ran, key=turn.__getitem__)
    for kind in (True, False):
        mine = [n for n in ran if submissions[n][1] is kind]
        assert mine == sorted(mine)
    for i, n in enumerate(ran):
        for later in ran[i + 1 :]:
            if not submissions[later][1] and submissions[n][1]:  # a read ran after this write
                assert submissions[n][0] <= submissions[later][0] + READ_SLACK


def test_the_request_knows_how_long_it_waited_for_a_thread():
    """The pool tells the request's thread how long the request queued (Server-Timing's ``queue``)."""
    clock = Clock()
    pool, gate = _held_pool(clock)
    clock.now += 0.125
    seen = pool.submit(lambda: timing._queue.seconds)
    clock.now += 0.25
    gate.set()
    assert seen.result(10) == pytest.approx(0.25)
    assert pool.submit(lambda: timing._queue.seconds).result(10) == 0  # a free thread took it at once
    pool.shutdown()


def test_an_error_reaches_the_future_and_the_thread_goes_on():
    pool = WritesFirstPool(1)

    def fail() -> None:
        raise ValueError("falhou")

    failed = pool.submit(fail, urgent=True)
    after = pool.submit(lambda: "ok")
    with pytest.raises(ValueError, match="falhou"):
        failed.result(10)
    assert after.result(10) == "ok"
    pool.shutdown()


def test_shutdown_runs_what_was_queued_then_stops_the_threads():
    clock = Clock()
    pool, gate = _held_pool(clock)
    ran: list[str] = []
    queued = [pool.submit(ran.append, str(n)) for n in range(3)]
    gate.set()
    pool.shutdown(wait=True)
    assert ran == ["0", "1", "2"] and all(f.done() for f in queued)
    assert not any(t.is_alive() for t in pool._threads)


def test_shutdown_may_cancel_what_waits():
    clock = Clock()
    pool, gate = _held_pool(clock)
    queued = pool.submit(lambda: "never")
    threading.Timer(0.05, gate.set).start()
    pool.shutdown(wait=True, cancel_futures=True)
    assert queued.cancelled()


@pytest.mark.parametrize(
    ("start", "write"),
    [
        (b"POST /api/v1/torneios/x/jogos/j1/maos/ HTTP/1.1\r\n", True),
        (b"DELETE /api/v1/x HTTP/1.1\r\n", True),
        (b"PUT /x HTTP/1.1\r\n", True),
        (b"PATCH /x HTTP/1.1\r\n", True),
        (b"GET /torneios/x/classificacao/ HTTP/1.1\r\n", False),
        (b"HEAD / HTTP/1.1\r\n", False),
        (b"OPTIONS * HTTP/1.1\r\n", False),
        (b"POS", False),  # not yet a whole method: a read's turn, the request's own handling reads the rest
        (b"POSTX / HTTP/1.1\r\n", False),
        (b"", False),
    ],
)
def test_the_method_tells_a_write(start, write):
    assert starts_a_write(start) is write


def test_the_peek_leaves_the_request_on_the_socket():
    ours, theirs = socket.socketpair()
    try:
        conn = SimpleNamespace(sock=ours, parser=None)
        ours.setblocking(False)
        assert waiting_request_start(conn) is None  # nothing has arrived yet: the worker's poller waits for it
        assert starts_a_write(waiting_request_start(conn)) is False
        request = b"POST /api/v1/torneios/x/jogos/j1/maos/ HTTP/1.1\r\nHost: x\r\n\r\n"
        theirs.sendall(request)
        assert waiting_request_start(conn) == b"POST /a"  # as many bytes as the longest method
        assert starts_a_write(waiting_request_start(conn)) is True
        assert starts_a_write(waiting_request_start(conn)) is True
        ours.setblocking(True)
        assert ours.recv(len(request)) == request  # all of it still there for gunicorn's parser
        theirs.close()
        ours.setblocking(False)
        assert waiting_request_start(conn) is None  # closed: the request's handling meets it
        assert starts_a_write(waiting_request_start(conn)) is False
    finally:
        ours.close()


def test_bytes_read_ahead_by_the_parser_tell_the_next_request():
    """A kept-alive connection whose next request the parser already read (gunicorn queues it at once)."""
    ours, theirs = socket.socketpair()
    try:
        ahead = SimpleNamespace(unreader=SimpleNamespace(buf=BytesIO(b"DELETE /api/v1/x HTTP/1.1\r\n")))
        assert starts_a_write(waiting_request_start(SimpleNamespace(sock=ours, parser=ahead))) is True
        empty = SimpleNamespace(unreader=SimpleNamespace(buf=BytesIO()))
        theirs.sendall(b"GET / HTTP/1.1\r\n")
        assert starts_a_write(waiting_request_start(SimpleNamespace(sock=ours, parser=empty))) is False
    finally:
        ours.close(), theirs.close()
