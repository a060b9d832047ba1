"""Issue 21: a hung Redis (it accepts connections and never answers) costs one short timeout, then the process
serves without the shared cache for CACHE_RETRY_SECONDS, then tries it again. No wall-clock assertions: the
attempts on the Redis client are counted."""

import socket
import threading

import pytest
from django.core.cache.backends.redis import RedisCacheClient
from django.test import override_settings
from django.urls import reverse

from tests.support.sumula import cup_setup
from tournaments import caching
from tournaments.caching import shares_wait
from tournaments.selectors import tournament_state_cache_clear

pytestmark = pytest.mark.django_db


@pytest.fixture
def hung_redis():
    """A server on a random loopback port that accepts every connection and never sends a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held, stop = [], threading.Event()

    def accept():
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    server.close()
    for conn in held:
        conn.close()


@pytest.fixture
def attempts(monkeypatch):
    """Every operation sent to a Redis server, by name."""
    calls: list[str] = []
    for name in ("get", "set"):
        original = getattr(RedisCacheClient, name)

        def counted(self, *args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(RedisCacheClient, name, counted)
    return calls


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(caching, "_clock", lambda: now[0])
    return now


def _on(url):
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": "tournaments.caching.SharedRedisCache",
                "LOCATION": url,
                "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
            },
            "states": {"BACKEND": "tournaments.caching.ObjectCache", "LOCATION": "states-hung", "TIMEOUT": None},
        },
        ZAP_SHARE_STATES=True,
        CACHE_RETRY_SECONDS=30,
    )


def _pages(client, cup, times: int) -> None:
    for i in range(times):
        tournament_state_cache_clear()  # as a fresh process would: the state comes from Redis or is built
        name = ("standings", "bracket", "jogos", "detail")[i % 4]
        response = client.get(reverse(f"tournaments:{name}", kwargs={"slug": cup.slug}))
        assert response.status_code == 200 and b"Copa da S" in response.content
    shares_wait()


def test_a_hung_redis_is_tried_once_then_left_alone(client, load_file, hung_redis, attempts, clock):
    cup = cup_setup(load_file, slug="copa-redis-parada")
    with _on(hung_redis):
        _pages(client, cup, 8)
        assert attempts == ["get"]  # the first read timed out; 8 pages served without asking again
        assert not caching.shared_cache_available()


def test_the_breaker_tries_again_after_the_pause(client, load_file, hung_redis, attempts, clock):
    cup = cup_setup(load_file, slug="copa-redis-volta")
    with _on(hung_redis):
        _pages(client, cup, 2)
        assert len(attempts) == 1
        clock[0] += 29
        _pages(client, cup, 2)
        assert len(attempts) == 1  # still within the pause
        clock[0] += 2
        _pages(client, cup, 3)
        assert len(attempts) == 2  # tried again once after the pause; it hangs still: another pause
        clock[0] += 31
    with _on("redis://127.0.0.1:1/0"):  # another configuration: asked at once
        assert caching.shared_cache_available()
    caching.shared_cache_reset()


def test_a_working_cache_is_used_again_after_the_pause(clock):
    caching.shared_cache_reset()
    calls = []

    def failing():
        calls.append("fail")
        raise ConnectionError("down")

    assert caching._tolerant("ler", "k", failing) is None and calls == ["fail"]
    assert caching._tolerant("ler", "k", lambda: calls.append("skipped") or "v") is None and calls == ["fail"]
    clock[0] += 30
    assert caching._tolerant("ler", "k", lambda: "v") == "v"
    caching.shared_cache_reset()
