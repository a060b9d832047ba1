"""Caches, through Django's cache framework (``settings.CACHES``).

- ``default`` is shared by every process and server: Redis when ``REDIS_URL`` is
  set, this process's memory otherwise (``make run``). It holds rendered pages
  and sheets under keys that carry the tournament's versions
  (``results_version``, and ``live_version`` for the live pages), which every
  write bumps: an entry is never stale, the next version simply has other
  keys, and old ones age out (their timeout, or Redis's LRU).
- ``states`` is this process's memory of derived tournament states
  (``selectors.TournamentState``), keyed the same way. They are Python objects
  of thousands of rows, kept by reference (``ObjectCache``): copying one in and
  out of a shared cache costs about what building it again does.

With ``ZAP_SHARE_STATES`` (on when Redis is the shared cache) a process also
puts the states it computes in ``default``, pickled, so another process reads
one (about 4 times faster than building it) instead of building it again.

So workers share no state of their own: what one process caches, another
either reads from ``default`` or computes again from the database, and both
give the same page.

A shared cache that does not answer (down, or hung: it accepts and never
replies) costs one short socket timeout (``settings.CACHES``), then this
process leaves it alone for ``CACHE_RETRY_SECONDS`` (a circuit breaker) and
serves without it; the first use after the pause tries it again.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.core.signals import request_finished, request_started, setting_changed
from django.dispatch import receiver

from .state import long_lived

if TYPE_CHECKING:
    from .models import Tournament
    from .state import TournamentState

logger = logging.getLogger(__name__)

# A cache server that is down or slow makes pages slower, never wrong or failing: they are computed instead.
CACHE_ERRORS: tuple[type[Exception], ...]
try:  # the Redis client is there whenever REDIS_URL can be used
    from redis.exceptions import RedisError

    CACHE_ERRORS = (OSError, RedisError)
except ImportError:  # pragma: no cover - redis is in requirements.txt
    CACHE_ERRORS = (OSError,)
SHARED = "default"
STATES = "states"


@functools.cache
def release() -> str:
    """The code's version, in every key: a deploy never serves what the code before it made (pages, states).

    ``ZAP_RELEASE`` when the deploy sets it, else a digest of the code, templates and catalogues themselves.
    """
    if settings.ZAP_RELEASE:
        return settings.ZAP_RELEASE
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder in ("config", "scoring", "tournaments", "templates", "locale"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in (".py", ".html", ".txt", ".mo", ".json") and path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def tournament_ident(tournament: Tournament) -> str:
    """A tournament in a key: its id and creation time, so a new tournament that reuses an id never meets an old
    entry."""
    return f"{tournament.pk}.{tournament.created_at.timestamp():.6f}"


def tournament_key(tournament: Tournament, *, live: int | str | None = None, version: int | None = None) -> str:
    """The part of a key that names one version of a tournament's results (and of its súmulas: ``live``, the
    tournament's live version), made by this release.

    """
    version = tournament.results_version if version is None else version
    key = f"{release()}:{tournament_ident(tournament)}.r{version}"
    return f"{key}.l{live}" if live is not None else key


def page_key(
    *,
    tournament: Tournament,
    name: str,
    language: str,
    params: dict[str, Any] | None = None,
    live: int | str | None = None,
) -> str:
    """The key of a rendered page or sheet: its tournament version, template (or sheet), language and parameters."""
    digest = ""
    if params:
        digest = hashlib.sha256(repr(sorted(params.items())).encode()).hexdigest()[:24]
    return f"page:{tournament_key(tournament, live=live)}:{name}:{language}:{digest}"


def list_key(*, versions: list[tuple], language: str) -> str:
    """The key of the list of events: the version of each (id, creation, results version) and the language."""
    digest = hashlib.sha256(repr(versions).encode()).hexdigest()[:32]
    return f"list:{release()}:{digest}:{language}"


def fragment_key(*, tournament: Tournament, part: str, version: int, name: str, language: str) -> str:
    """The key of a rendered fragment of one part of the results (``templatetags/parts.py``) at its version."""
    return f"frag:{release()}:{tournament_ident(tournament)}:{part}:v{version}:{name}:{language}"


def state_key(tournament: Tournament, *, live: int | None = None, version: int | None = None) -> str:
    """The key of a tournament's derived state at its current version (or at ``version``); with ``live`` (the
    live version), with the súmulas at the table as they stand."""
    if live is not None:
        return f"live:{tournament_key(tournament, live=live)}"
    return f"state:{tournament_key(tournament, version=version)}"


_clock = time.monotonic
_shared_skip_until = 0.0  # this process does not ask the shared cache before this time (_clock) after a failure


def shared_cache_available() -> bool:
    """False while the breaker is open: the shared cache failed less than ``CACHE_RETRY_SECONDS`` ago."""
    return _clock() >= _shared_skip_until


def shared_cache_reset() -> None:
    """Close the breaker: the next use asks the shared cache (a new cache configuration, tests)."""
    global _shared_skip_until
    _shared_skip_until = 0.0


@receiver(setting_changed)
def _caches_changed(*, setting: str, **kwargs: Any) -> None:
    if setting in ("CACHES", "CACHE_RETRY_SECONDS"):
        shared_cache_reset()


def _tolerant[T](action: str, key: str, call: Callable[[], T]) -> T | None:
    """``call()`` on the shared cache; None, with a warning, when the cache server does not answer.

    After a failure the shared cache is skipped (None, as for a miss) for ``CACHE_RETRY_SECONDS``: a hung
    server would otherwise cost every request its socket timeouts.
    """
    global _shared_skip_until
    if not shared_cache_available():
        return None
    try:
        return call()
    except CACHE_ERRORS as exc:
        pause = settings.CACHE_RETRY_SECONDS
        _shared_skip_until = _clock() + pause
        logger.warning("cache indisponível ao %s %s: %s; sem o cache compartilhado por %s s", action, key, exc, pause)
        return None


def page_get(key: str) -> bytes | None:
    return _tolerant("ler", key, lambda: caches[SHARED].get(key))


def pages_get_many(keys: list[str]) -> dict[str, bytes]:
    """The kept pages or fragments of ``keys`` found, in one round trip (none when the cache does not answer)."""
    if not keys:
        return {}
    return _tolerant("ler", keys[0], lambda: caches[SHARED].get_many(keys)) or {}


def page_put(key: str, body: bytes, *, timeout: float | None = None) -> None:
    """Keep a rendered page or fragment (``timeout``: for that many seconds only; else the cache's own)."""
    _tolerant("gravar", key, lambda: caches[SHARED].set(key, body, DEFAULT_TIMEOUT if timeout is None else timeout))


def pages_clear() -> None:
    """Forget every cached page (and shared state) of this site (tests, the benchmark's first visits).

    States still being shared land first, so none arrives after the clear.
    """
    shares_wait()
    caches[SHARED].clear()


_FLIGHTS: dict[str, list] = {}  # work under way in this process -> [its lock, threads holding or waiting]
_FLIGHTS_LOCK = threading.Lock()


@contextmanager
def one_at_a_time(key: str) -> Iterator[None]:
    """One thread of this process at a time does the work named ``key`` (a state's build, a page's render): the
    others wait for it, then find its result cached instead of doing the same work at the same moment (when a
    live page's second ends, every thread polling it would otherwise render it at once)."""
    with _FLIGHTS_LOCK:
        flight = _FLIGHTS.setdefault(key, [threading.Lock(), 0])
        flight[1] += 1
    try:
        with flight[0]:
            yield
    finally:
        with _FLIGHTS_LOCK:
            flight[1] -= 1
            if flight[1] == 0:
                _FLIGHTS.pop(key, None)


_shares: list[threading.Thread] = []
_SHARES_LOCK = threading.Lock()


def state_share(keys: list[str], state: TournamentState) -> None:
    """Put a derived state in the shared cache for the other processes (``ZAP_SHARE_STATES``), pickled once,
    under each of ``keys``.

    Done in a background thread: pickling a large state takes about as long as
    a page (30 ms at 1,024 duplas), and the write that computed it should not
    wait. The state is never changed once built, so it is safe to read there.
    Until the copy lands, another process builds the state itself.
    """
    if not settings.ZAP_SHARE_STATES:
        return
    if not keys:
        return
    background_run(_share, keys, state, name="zap-state-share")


_requests = threading.local()  # per thread: what waits for the end of the request being served


def in_request() -> bool:
    """Whether this thread is serving a request (``background_run`` would wait for its response to go)."""
    return getattr(_requests, "pending", None) is not None


def background_run(target: Callable[..., object], *args: object, name: str) -> None:
    """Run ``target(*args)`` in a daemon thread that ``shares_wait`` waits for (a state being shared or stored).

    Inside a request it starts once the response has been sent (``request_finished``): pickling a state holds
    the interpreter's lock for tens of milliseconds, which the page being rendered would otherwise wait for.
    """
    pending = getattr(_requests, "pending", None)
    if pending is not None:
        pending.append((target, args, name))
        return
    _background_start(target, args, name)


@receiver(request_started)
def _request_begins(**kwargs: Any) -> None:
    _requests.pending = []


@receiver(request_finished)
def _request_ends(**kwargs: Any) -> None:
    pending, _requests.pending = getattr(_requests, "pending", None), None
    for target, args, name in pending or ():
        _background_start(target, args, name)


def _background_start(target: Callable[..., object], args: tuple[object, ...], name: str) -> None:
    thread = threading.Thread(target=target, args=args, name=name, daemon=True)
    with _SHARES_LOCK:
        _shares[:] = [t for t in _shares if t.is_alive()]
        _shares.append(thread)
    thread.start()


def _share(keys: list[str], state: TournamentState) -> None:
    data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    _tolerant("gravar", keys[0], lambda: caches[SHARED].set_many(dict.fromkeys(keys, data)))


def shares_wait() -> None:
    """Wait for the states being shared or stored to land (tests, the benchmark)."""
    _request_ends()  # what this thread's request left waiting (one that ended by an exception, in tests)
    with _SHARES_LOCK:
        pending = list(_shares)
    for thread in pending:
        thread.join()


def state_shared_get(key: str) -> TournamentState | None:
    """The derived state another process shared under ``key``; None if there is none (or no shared cache)."""
    if not settings.ZAP_SHARE_STATES:
        return None
    data = _tolerant("ler", key, lambda: caches[SHARED].get(key))
    if data is None:
        return None
    return long_lived(lambda: pickle.loads(data))  # hundreds of thousands of objects, out of the collector's sight


_STORES: dict[str, tuple[OrderedDict, threading.Lock]] = {}
_STORES_LOCK = threading.Lock()


class ObjectCache(BaseCache):
    """This process's memory, values kept by reference and never copied; least recently used out first.

    For objects that are read far more often than written and are too big to
    pickle on every read (a tournament's derived state). Thread-safe; bounded
    by ``OPTIONS["MAX_ENTRIES"]``. A value must not be changed once stored.
    """

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        # Django makes one backend object per thread: the entries live at module level, by LOCATION, so
        # every thread of the process sees the same ones (as Django's LocMemCache does).
        with _STORES_LOCK:
            self._data, self._lock = _STORES.setdefault(location, (OrderedDict(), threading.Lock()))

    def _live(self, key: str) -> tuple[Any, float | None] | None:
        entry = self._data.get(key)
        if entry is not None and entry[1] is not None and entry[1] <= time.time():
            del self._data[key]
            return None
        return entry

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            entry = self._live(key)
            if entry is None:
                return default
            self._data.move_to_end(key)
            return entry[0]

    def set(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            self._store(key, value, timeout)

    def add(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._live(key) is not None:
                return False
            self._store(key, value, timeout)
            return True

    def touch(self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            entry = self._live(key)
            if entry is None:
                return False
            self._data[key] = (entry[0], self.get_backend_timeout(timeout))
            return True

    def delete(self, key: Any, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            return self._data.pop(key, None) is not None

    def has_key(self, key: Any, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            return self._live(key) is not None

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def _store(self, key: str, value: Any, timeout: float | None) -> None:
        self._data[key] = (value, self.get_backend_timeout(timeout))
        self._data.move_to_end(key)
        while len(self._data) > self._max_entries:
            self._data.popitem(last=False)


class _ReusedClients(RedisCacheClient):
    """Django's Redis client, keeping one ``redis.Redis`` per connection pool: Django makes a new one for every
    call (about 0.16 ms each: it copies the table of about 170 response callbacks), a sixth of a cached page's
    time. A ``redis.Redis`` is safe to share between threads: each command takes a connection from the pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own (private) helpers, which django-stubs does not declare
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))  # type: ignore[attr-defined]
        return client


class SharedRedisCache(RedisCache):
    """The shared cache on Redis (``settings.CACHES["default"]`` with ``REDIS_URL``): Django's, with its clients
    reused (``_ReusedClients``)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusedClients

    def stamps_bump(self, keys: list[str]) -> None:
        """Each of ``keys`` one up, a missing one started at a random value: one round trip (Django's ``incr``
        takes two per key and raises on a missing one)."""
        names = [self.make_and_validate_key(key) for key in keys]
        client = self._cache.get_client(names[0], write=True)
        with client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.set(name, _stamp_fresh(), nx=True)
                pipe.incr(name)
            pipe.execute()


# --- the public pages' fast path: stamps ----------------------------------------------------------------------
#
# ``public.fastpages`` answers a visitor's GET of a public page from one shared-cache round trip, before Django's
# sessions, authentication and view run: the page as served (headers and body) and the stamp it was made under.
# A stamp is a counter per tournament (its slug: the address the fast path sees) that every write bumps once it
# commits (``writes``): ``s`` after any write a page could show (a mão too), ``r`` after any but a live one (what
# the pages without live scores follow), and ``r`` of ``*`` for the list of events. A page is served from there
# only while its stamp stands; a missing stamp (evicted, a new cache) starts again from a random value, so no page
# kept before it can match.

FAST_ALL, FAST_RESULTS = "s", "r"
EVERY_EVENT = "*"


def fast_stamp_key(*, scope: str, slug: str) -> str:
    return f"fast:{scope}:{slug}"


def _stamp_fresh() -> int:
    return int.from_bytes(os.urandom(7), "big")


def _stamp_bump(key: str) -> None:
    cache = caches[SHARED]
    try:
        cache.incr(key)
    except ValueError:  # no stamp yet (or evicted): any new value differs from every one a kept page carries
        _stamp_start(key)


def _stamp_start(key: str) -> None:
    caches[SHARED].add(key, _stamp_fresh(), None)


def fast_stamps_bump(*, slug: str, results: bool) -> None:
    """After a write of the tournament at ``slug`` committed: its ``s`` stamp, and with ``results`` (any write but a
    live one) its ``r`` stamp and the list of events'. On Redis one round trip (``SharedRedisCache.stamps_bump``)."""
    keys = [fast_stamp_key(scope=FAST_ALL, slug=slug)]
    if results:
        keys += [fast_stamp_key(scope=FAST_RESULTS, slug=slug), fast_stamp_key(scope=FAST_RESULTS, slug=EVERY_EVENT)]
    cache = caches[SHARED]
    if isinstance(cache, SharedRedisCache):
        _tolerant("renovar", slug, functools.partial(cache.stamps_bump, keys))
        return
    for key in keys:
        _tolerant("renovar", key, functools.partial(_stamp_bump, key))


def fast_stamps_read(*, slug: str) -> dict[str, int] | None:
    """The stamps (``s`` and ``r``) a page about to be made from the database is kept under, read before the
    database is; None when the shared cache does not answer (the page is then not kept for the fast path)."""
    keys = {fast_stamp_key(scope=scope, slug=slug): scope for scope in (FAST_ALL, FAST_RESULTS)}
    found = _tolerant("ler", slug, lambda: caches[SHARED].get_many(list(keys)))
    if found is None:
        return None
    if len(found) < len(keys):
        for key in keys.keys() - found.keys():
            _tolerant("gravar", key, functools.partial(_stamp_start, key))
        found = _tolerant("ler", slug, lambda: caches[SHARED].get_many(list(keys)))
        if found is None or len(found) < len(keys):
            return None
    stamps = {keys[key]: value for key, value in found.items()}
    return stamps if all(isinstance(v, int) for v in stamps.values()) else None


def fast_lookup(*, entry: str, slug: str) -> tuple[Any, dict[str, int]] | None:
    """The kept page at ``entry`` and the current stamps of ``slug``, in one round trip; None on a miss."""
    scopes = {
        fast_stamp_key(scope=FAST_ALL, slug=slug): FAST_ALL,
        fast_stamp_key(scope=FAST_RESULTS, slug=slug): FAST_RESULTS,
    }
    found = _tolerant("ler", entry, lambda: caches[SHARED].get_many([entry, *scopes]))
    if not found or entry not in found:
        return None
    return found[entry], {scopes[key]: value for key, value in found.items() if key in scopes}


def fast_put(*, entry: str, value: Any, timeout: float) -> None:
    _tolerant("gravar", entry, lambda: caches[SHARED].set(entry, value, max(1, int(timeout) + 1)))
