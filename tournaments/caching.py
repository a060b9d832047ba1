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

So workers share no state of their own: what one process caches, another
either reads from ``default`` or computes again from the database, and both
give the same page.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

try:  # the Redis client is there whenever REDIS_URL can be used
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - redis is in requirements.txt
    RedisError = OSError

logger = logging.getLogger(__name__)

# A cache server that is down or slow makes pages slower, never wrong or failing: they are computed instead.
CACHE_ERRORS = (OSError, RedisError)
SHARED = "default"
STATES = "states"


def tournament_key(tournament, *, live: bool = False) -> str:
    """The part of a key that names one version of a tournament's results (and of its súmulas when ``live``).

    The creation time is in it, so a new tournament that reuses an id never meets an old entry.
    """
    key = f"{tournament.pk}.{tournament.created_at.timestamp():.6f}.r{tournament.results_version}"
    return f"{key}.l{tournament.live_version}" if live else key


def page_key(*, tournament, name: str, language: str, params: dict[str, Any] | None = None,
             live: bool = False) -> str:
    """The key of a rendered page or sheet: its tournament version, template (or sheet), language and parameters."""
    digest = ""
    if params:
        digest = hashlib.sha256(repr(sorted(params.items())).encode()).hexdigest()[:24]
    return f"page:{tournament_key(tournament, live=live)}:{name}:{language}:{digest}"


def page_get(key: str) -> bytes | None:
    try:
        return caches[SHARED].get(key)
    except CACHE_ERRORS as exc:
        logger.warning("cache indisponível ao ler %s: %s", key, exc)
        return None


def page_put(key: str, body: bytes) -> None:
    try:
        caches[SHARED].set(key, body)
    except CACHE_ERRORS as exc:
        logger.warning("cache indisponível ao gravar %s: %s", key, exc)


def pages_clear() -> None:
    """Forget every cached page of this site (tests, the benchmark's first visits)."""
    caches[SHARED].clear()


class ObjectCache(BaseCache):
    """This process's memory, values kept by reference and never copied; least recently used out first.

    For objects that are read far more often than written and are too big to
    pickle on every read (a tournament's derived state). Thread-safe; bounded
    by ``OPTIONS["MAX_ENTRIES"]``. A value must not be changed once stored.
    """

    def __init__(self, location: str, params: dict):
        super().__init__(params)
        self._data: OrderedDict[str, tuple[Any, float | None]] = OrderedDict()
        self._lock = threading.Lock()

    def _live(self, key: str) -> tuple[Any, float | None] | None:
        entry = self._data.get(key)
        if entry is not None and entry[1] is not None and entry[1] <= time.time():
            del self._data[key]
            return None
        return entry

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            entry = self._live(key)
            if entry is None:
                return default
            self._data.move_to_end(key)
            return entry[0]

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            self._store(key, value, timeout)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._live(key) is not None:
                return False
            self._store(key, value, timeout)
            return True

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            entry = self._live(key)
            if entry is None:
                return False
            self._data[key] = (entry[0], self.get_backend_timeout(timeout))
            return True

    def delete(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            return self._data.pop(key, None) is not None

    def has_key(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            return self._live(key) is not None

    def clear(self):
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def _store(self, key: str, value: Any, timeout) -> None:
        self._data[key] = (value, self.get_backend_timeout(timeout))
        self._data.move_to_end(key)
        while len(self._data) > self._max_entries:
            self._data.popitem(last=False)
