"""Caches through Django's cache framework: keys carry the versions, states are built once, Redis is shared."""

import logging
import threading
import time
from datetime import UTC
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse

from tests.support.sumula import cup_setup
from tournaments import caching, presenters, selectors
from tournaments.caching import ObjectCache, page_key, pages_clear, shares_wait, tournament_key
from tournaments.selectors import tournament_state_cache_clear, tournament_state_get
from tournaments.writes import tournament_rebuild

# --- the per-process object cache ----------------------------------------------------------------


def _objects(max_entries=3) -> ObjectCache:
    caching._STORES.pop("unit", None)
    return ObjectCache("unit", {"OPTIONS": {"MAX_ENTRIES": max_entries}, "TIMEOUT": None})


def test_object_cache_keeps_values_by_reference_and_drops_the_least_recently_used():
    cache = _objects()
    values = [object() for _ in range(4)]
    for i, v in enumerate(values[:3]):
        cache.set(f"k{i}", v)
    assert cache.get("k0") is values[0]  # not a copy; k0 is now the most recently used
    cache.set("k3", values[3])
    assert cache.get("k1") is None and len(cache) == 3
    assert cache.get("k0") is values[0] and cache.get("k3") is values[3]
    assert cache.add("k3", "other") is False and cache.get("k3") is values[3]
    assert cache.add("k9", "new") is True and cache.has_key("k9")
    assert cache.delete("k9") is True and cache.delete("k9") is False
    cache.clear()
    assert len(cache) == 0 and cache.get("k0", "absent") == "absent"


def test_object_cache_timeouts():
    cache = _objects()
    cache.set("short", 1, timeout=0.05)
    cache.set("forever", 2)
    assert cache.get("short") == 1
    time.sleep(0.08)
    assert cache.get("short") is None and not cache.has_key("short") and cache.get("forever") == 2
    assert cache.touch("forever", timeout=0.05) is True
    time.sleep(0.08)
    assert cache.get("forever") is None and cache.touch("forever") is False


# --- keys ---------------------------------------------------------------------------------------------


def test_page_keys_carry_the_versions_language_and_parameters():
    from datetime import datetime

    t = SimpleNamespace(pk=7, created_at=datetime(2026, 11, 24, tzinfo=UTC), results_version=3)
    base = page_key(tournament=t, name="standings:x.html", language="pt-br", params={"pagina": "2"})
    assert base == page_key(tournament=t, name="standings:x.html", language="pt-br", params={"pagina": "2"})
    others = {
        page_key(tournament=t, name="standings:x.html", language="en", params={"pagina": "2"}),
        page_key(tournament=t, name="standings:x.html", language="pt-br", params={"pagina": "3"}),
        page_key(tournament=t, name="standings:x.html#tabelas", language="pt-br", params={"pagina": "2"}),
        page_key(tournament=t, name="standings:x.html", language="pt-br", params={"pagina": "2"}, live=9),
        page_key(
            tournament=SimpleNamespace(**{**vars(t), "results_version": 4}),
            name="standings:x.html",
            language="pt-br",
            params={"pagina": "2"},
        ),
        page_key(
            tournament=SimpleNamespace(**{**vars(t), "created_at": datetime(2026, 11, 25, tzinfo=UTC)}),
            name="standings:x.html",
            language="pt-br",
            params={"pagina": "2"},
        ),
    }
    assert base not in others and len(others) == 6
    # the live version only matters to live pages
    assert tournament_key(t, live=9) != tournament_key(t, live=10) != tournament_key(t)
    # the release: another deploy never meets this one's entries
    from tournaments import caching

    with override_settings(ZAP_RELEASE="r-next"):
        caching.release.cache_clear()
        try:
            assert tournament_key(t) != base and "r-next" in tournament_key(t)
        finally:
            caching.release.cache_clear()
    assert caching.release() in tournament_key(t)


# --- one build per version in a process ---------------------------------------------------------------


def test_the_threads_of_a_process_share_its_states():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(caches["states"]))
    thread.start()
    thread.join()
    assert seen[0] is not caches["states"]  # Django's one backend object per thread…
    value = object()
    seen[0].set("shared", value)
    assert caches["states"].get("shared") is value  # … over one store


def test_concurrent_requests_build_a_state_once(monkeypatch):
    from datetime import datetime

    tournament = SimpleNamespace(pk=99, created_at=datetime(2026, 1, 1, tzinfo=UTC), results_version=1)
    builds = []

    def slow_load(*, tournament):
        builds.append(threading.get_ident())
        time.sleep(0.2)
        return SimpleNamespace(tournament=tournament, version=tournament.results_version)

    monkeypatch.setattr(selectors, "tournament_state_load", slow_load)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(tournament_state_get(tournament=tournament))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1 and len(results) == 8 and all(r is results[0] for r in results)


def test_work_asked_by_many_threads_at_once_is_done_once():
    """A live page whose second ended is asked by every polling thread at once: one renders, the others wait
    and read it (caching.one_at_a_time, used by the event pages and the state builds)."""
    kept: dict[str, str] = {}
    done = []

    def ask():
        if "page" in kept:
            return
        with caching.one_at_a_time("page:x"):
            if "page" not in kept:
                done.append(1)
                time.sleep(0.1)
                kept["page"] = "<html>"

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert done == [1] and kept == {"page": "<html>"}
    assert caching._FLIGHTS == {}  # nothing left behind once nobody holds or waits
    with caching.one_at_a_time("page:a"), caching.one_at_a_time("page:b"):  # other work is not held up
        pass


# --- Redis: the shared cache of production ------------------------------------------------------------


@pytest.fixture
def on_redis(redis_url):
    config = {
        "default": {
            "BACKEND": "tournaments.caching.SharedRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "zap-test",
            "TIMEOUT": 300,
        },
        "states": {
            "BACKEND": "tournaments.caching.ObjectCache",
            "LOCATION": "states-redis",
            "TIMEOUT": None,
            "OPTIONS": {"MAX_ENTRIES": 16},
        },
    }
    with override_settings(CACHES=config, ZAP_SHARE_STATES=True):
        caches["default"].clear()
        yield caches["default"]
        shares_wait()
        caches["default"].clear()


def test_the_shared_cache_reuses_its_redis_client(on_redis):
    """Django makes a redis.Redis per call (0.16 ms): one per connection pool is kept, and it still works."""
    cache = caches["default"]
    assert isinstance(cache, caching.SharedRedisCache)
    assert cache._cache.get_client("a") is cache._cache.get_client("b")
    cache.set("reused", b"ok")
    assert cache.get("reused") == b"ok"


@pytest.mark.django_db
def test_pages_are_kept_in_redis_and_served_from_it(client, load_file, on_redis, monkeypatch):
    cup = cup_setup(load_file, slug="copa-redis")
    url = reverse("tournaments:standings", kwargs={"slug": cup.slug})
    first = client.get(url)
    assert first.status_code == 200
    raw = on_redis._cache.get_client()
    assert any(b":standings:" in k for k in raw.keys("zap-test:*page:*"))
    calls = []
    monkeypatch.setattr(presenters, "standings_present", lambda *a, **k: calls.append(1))
    tournament_state_cache_clear()
    assert client.get(url).content == first.content and calls == []  # rendered by nobody: read from Redis


@pytest.mark.django_db
def test_a_state_computed_by_one_process_is_read_by_another(load_file, on_redis, monkeypatch):
    cup = cup_setup(load_file, slug="copa-partilhada")
    tournament_rebuild(tournament=cup)  # a write: the writer computes the new version's views and shares them
    shares_wait()
    mine = tournament_state_get(tournament=cup)
    tournament_state_cache_clear()  # "another process": nothing of its own

    def no_build(*, tournament):
        raise AssertionError("built again although another process shared it")

    monkeypatch.setattr(selectors, "tournament_state_load", no_build)
    theirs = tournament_state_get(tournament=cup)
    assert theirs is not mine
    assert theirs.view.stage("grupos").tables == mine.view.stage("grupos").tables
    assert [j.key for j in theirs.jogo_rows] == [j.key for j in mine.jogo_rows]
    # the next version is not there yet: built here, from the database
    cup.results_version += 1
    with pytest.raises(AssertionError, match="built again"):
        tournament_state_get(tournament=cup)


@pytest.mark.django_db
def test_without_redis_pages_are_still_served(client, load_file, caplog):
    cup = cup_setup(load_file, slug="copa-sem-redis")
    config = {
        "default": {
            "BACKEND": "tournaments.caching.SharedRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
        "states": {"BACKEND": "tournaments.caching.ObjectCache", "LOCATION": "states-no-redis", "TIMEOUT": None},
    }
    with (
        override_settings(CACHES=config, ZAP_SHARE_STATES=True),
        caplog.at_level(logging.WARNING, "tournaments.caching"),
    ):
        for name in ("standings", "bracket", "jogos", "detail"):
            response = client.get(reverse(f"tournaments:{name}", kwargs={"slug": cup.slug}))
            assert response.status_code == 200 and b"Copa da S" in response.content
        shares_wait()
    assert any("cache indisponível" in r.getMessage() for r in caplog.records)


def test_clearing_pages_and_states_for_the_benchmark():
    caches["default"].set("page:x", b"body")
    caches["states"].set("state:x", object())
    pages_clear()
    tournament_state_cache_clear()
    assert caches["default"].get("page:x") is None and caches["states"].get("state:x") is None


def test_the_gc_pause_nests_and_restores():
    import gc

    from tournaments.state import gc_paused

    assert gc.isenabled()
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_worker_that_leaves_first_finishes_its_background_work():
    """gunicorn's worker_exit (config/gunicorn.py): the Nível, a call's e-mail or a state being shared, started
    after a response, would otherwise die with the worker's daemon threads."""
    import importlib

    hooks = importlib.import_module("config.gunicorn")
    done = threading.Event()
    release = threading.Event()

    def work():
        release.wait(5)
        time.sleep(0.05)
        done.set()

    caching.background_run(work, name="zap-test-work")
    assert not done.is_set()
    release.set()
    hooks.worker_exit(server=None, worker=None)
    assert done.is_set()
