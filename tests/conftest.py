import json
import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# No per-example deadline: a loaded 2-core machine must not turn a slow example into a failure.
# Under CI the examples are derandomized, so a run is reproducible; locally each run explores anew.
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def load_file():
    """Import a tournament file (dict) and return the tournament."""
    from tournaments.services import tournament_import

    def _load(data):
        return tournament_import(data=json.loads(json.dumps(data)))

    return _load


@pytest.fixture(autouse=True)
def _live_pages_at_once(settings):
    """A test reads a page right after a mão: no coalescing of the live scores (tests/engine/test_engine.py checks it)."""
    settings.ZAP_LIVE_COALESCE_SECONDS = 0


@pytest.fixture(autouse=True)
def _no_stored_states(settings):
    """No derived state stored in the database from a background thread (it would write outside the test's
    transaction); tests/engine/test_snapshots.py stores them itself."""
    settings.ZAP_STORE_STATES = False


@pytest.fixture(autouse=True)
def _nivel_at_once(settings):
    """The atletas' Nível is recomputed as the write commits, not in a background thread after the response (it
    would write outside the test's transaction); tests/atletas test both."""
    settings.ZAP_NIVEL_BACKGROUND = False


@pytest.fixture(autouse=True)
def _one_write_path():
    """Every test runs under the write guard: site code that writes a tournament's table outside
    ``writes.tournament_write`` fails the test (``UnguardedWrite``); a test's own setup may write directly."""
    from django.db import connection

    from tournaments.writes import write_guard

    with connection.execute_wrapper(write_guard):
        yield


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Each test starts with no derived view cached in the process."""
    from tournaments.selectors import tournament_state_cache_clear

    tournament_state_cache_clear()
    yield
    tournament_state_cache_clear()


@pytest.fixture(autouse=True)
def _no_kept_records():
    """Each test starts with no súmula record kept in the process (tournaments/sumula/records.py): a rolled-back
    test's jogos may be made again with the same ids on SQLite."""
    from tournaments.sumula.records import jogo_records_forget

    jogo_records_forget()
    yield
    jogo_records_forget()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A real Redis for the tests that need one: ZAP_TEST_REDIS_URL, else a redis-server started here on loopback.

    Without either, the tests that need it are skipped with the reason, unless ZAP_REQUIRE_REDIS=1
    (CI sets it: .ci/run), where a missing Redis fails them instead.
    """
    import shutil
    import socket
    import subprocess
    import time

    given = os.environ.get("ZAP_TEST_REDIS_URL", "").strip()
    if given:
        yield given
        return
    server = shutil.which("redis-server")
    if server is None:
        message = "redis-server não instalado (apt-get install redis-server) e ZAP_TEST_REDIS_URL não definida"
        if os.environ.get("ZAP_REQUIRE_REDIS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        client = redis.Redis.from_url(url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        else:
            pytest.fail(f"redis-server não respondeu em {url}")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


# --- a database other processes reach (tests/support/processes.py) ---------------------------------------------


@pytest.fixture(scope="session")
def sqlite_file_url(tmp_path_factory):
    """A migrated SQLite file shared by every process of the run (made once, emptied by ``shared_db_url``)."""
    from tests.support.processes import manage

    url = f"sqlite:///{tmp_path_factory.mktemp('concorrencia') / 'zap.sqlite3'}"
    manage(url, "migrate", "--noinput", "-v0")
    return url


@pytest.fixture
def shared_db_url(request):
    """A database URL other processes can reach, empty at the start of the test: on PostgreSQL the test database
    (with ``django_db(transaction=True)``: migrated, other connections' commits visible, emptied after the test),
    on SQLite a migrated file (the in-memory test database is private to this process)."""
    from django.db import connection

    from tests.support.processes import database_url_of, manage

    if connection.vendor == "sqlite":
        url = request.getfixturevalue("sqlite_file_url")
        manage(url, "flush", "--noinput", "-v0", timeout=120)
        return url
    return database_url_of(connection.settings_dict)


# --- the súmula tests' small cup (tests/support/sumula.py) -----------------------------------------------------


@pytest.fixture
def cup(load_file):
    """The cup with PINs, nothing played."""
    from tests.support.sumula import cup_setup

    return cup_setup(load_file)


@pytest.fixture
def ref(cup, client):
    """A client signed in as the tournament's referee."""
    from tests.support.sumula import staff_user
    from tournaments.models import StaffRole

    client.force_login(staff_user(cup, "arbitro", StaffRole.REFEREE))
    return client


@pytest.fixture
def j1(cup):
    """The first group jogo: d1 x d4, in that order."""
    from tests.support.sumula import jogo_between, jogo_duplas

    key = jogo_between(cup, "d1", "d4")
    assert jogo_duplas(cup, key) == ("d1", "d4")
    return key


# --- events in the states a visitor meets them (tests/support/event_states.py) -----------------------------------


@pytest.fixture
def event_before(db):
    from tests.support.event_states import event_before_make

    return event_before_make()


@pytest.fixture
def event_drawn(db):
    from tests.support.event_states import event_drawn_make

    return event_drawn_make()


@pytest.fixture
def event_during(db):
    from tests.support.event_states import event_during_make

    return event_during_make()


@pytest.fixture
def event_after(db):
    from tests.support.event_states import event_after_make

    return event_after_make()


# --- the browser tests: Debian's Chromium driven by Playwright (tests/support/browser.py) ------------------------


@pytest.fixture(scope="module")
def browser():
    from tests.support.browser import ARGS, CHROMIUM

    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium não instalado (make browser-deps)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
