"""Database connections kept for their thread's life (config/dbconn.py): opened when a request thread starts,
checked before reuse only after they sat idle, replaced when the database dropped them meanwhile."""

import json
import logging
import threading
import time

import pytest
from django.db import connection, connections

from config import dbconn
from config.warmup import thread_warm
from config.workers import WritesFirstPool
from tests.support.production import settings_run

READ = (
    "import json, config.settings as s; d = s.DATABASES['default']; "
    "print(json.dumps([d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS']]))"
)


@pytest.mark.parametrize("url", ["postgres://postgres@127.0.0.1:5432/zap_settings_only", "sqlite:///zap.sqlite3"])
def test_connections_live_as_long_as_their_thread_and_are_health_checked(url):
    run = settings_run(READ, ZAP_DEV="1", DATABASE_URL=url)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [None, True]


def _request_starts() -> None:
    """What a request's start does to the connection with health checks on (Django's ``close_old_connections``
    asks for a check, the test's transaction forbids calling it here), then config/dbconn.py's receiver."""
    connection.health_check_done = False
    dbconn._fresh_unchecked()


@pytest.mark.django_db
def test_a_connection_used_a_moment_ago_is_reused_without_a_check():
    connection.ensure_connection()
    dbconn.connections_used()
    _request_starts()
    assert connection.health_check_done  # no SELECT 1 before the request's first statement


@pytest.mark.django_db
def test_a_connection_idle_for_a_while_is_checked_before_reuse():
    connection.ensure_connection()
    dbconn.connections_used()
    setattr(connection, dbconn._USED, time.monotonic() - dbconn.IDLE_CHECK - 1)
    _request_starts()
    assert not connection.health_check_done


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_database_dropped_while_idle_is_replaced_before_it_fails_a_request():
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL drops a client's connection (a restart, an idle timeout)")
    connection.ensure_connection()
    before = connection.connection.info.backend_pid
    other = connections["default"].copy()  # another session ends this one, as a restart would
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [before])
    finally:
        other.close()
    setattr(connection, dbconn._USED, time.monotonic() - dbconn.IDLE_CHECK - 1)
    _request_starts()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != before


@pytest.mark.django_db(transaction=True)
def test_a_request_thread_opens_its_connection_when_it_starts():
    seen = {}

    def thread() -> None:
        thread_warm()
        seen["open"] = connection.connection is not None
        seen["marked"] = getattr(connection, dbconn._USED, None) is not None
        connection.close()

    t = threading.Thread(target=thread)
    t.start()
    t.join(30)
    assert seen == {"open": True, "marked": True}


def test_each_pool_thread_runs_its_start_before_taking_work():
    started: list[str] = []
    pool = WritesFirstPool(2, on_start=lambda: started.append(threading.current_thread().name))
    assert pool.submit(lambda: "ok").result(10) == "ok"
    pool.shutdown()
    assert sorted(started) == ["zap-request-0", "zap-request-1"]


def test_a_failed_start_is_logged_and_the_thread_still_serves(caplog):
    def fail() -> None:
        raise RuntimeError("sem banco")

    with caplog.at_level(logging.ERROR, logger="config.workers"):
        pool = WritesFirstPool(1, on_start=fail)
        assert pool.submit(lambda: "ok").result(10) == "ok"
        pool.shutdown()
    assert "sem banco" in caplog.text
