"""The public pages' fast path: a visitor's GET of a page kept for everyone, answered from one round trip to the
shared cache, before sessions, authentication, the URL resolver and the view.

A cached page used to cost about six times a static file (0.7 ms against 0.12 in one process, plus a database
query): most of it Django's own machinery around a body it already had. Here the middleware, right after the
static files', looks up the page as it was last served (status, headers and body) together with the stamps of its
tournament (``caching.fast_lookup``) and answers it while the stamp it was made under still stands and the minute
it says it was updated ("Atualizado às HH:MM") has not passed. Otherwise the request goes on to the view as ever;
the view says when its answer may be kept (``fast_keep``: a published event's page that its parameters ask for)
and under which stamp, read before it read the database (``fast_stamp``). Every write bumps the stamps once it
commits (``writes``), so a page kept before a write is never served after it: the next request makes it again.

Only anonymous visits (no session cookie) take this path: a signed-in visitor gets the same pages through the
view. Off without a shared cache (``ZAP_FAST_PAGES``, on with Redis): stamps kept in one process's memory would
not see another process's writes.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response

from tournaments.caching import EVERY_EVENT, FAST_ALL, FAST_RESULTS, fast_lookup, fast_put, fast_stamps_read, release

PREFIX = "/torneios/"
_SLUG = re.compile(r"[-\w]{1,100}", re.ASCII)


@dataclass(frozen=True, slots=True)
class Kept:
    """A page as served, with the stamp it was made under and the moment it stops being the page to serve."""

    scope: str
    stamp: int
    results_stamp: int  # ``r`` when it was made: a live page may be a moment behind the scores, never the results
    made: float  # when its stamps were read (the page shows at least what had been written by then)
    until: float
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


@dataclass(slots=True)
class Candidate:
    """A request the fast path could not answer: its tournament's slug, and what the view says may be kept."""

    slug: str
    scope: str = ""
    stamps: dict[str, int] | None = None
    made: float = 0.0
    until: float = 0.0


def _slug(path: str) -> str | None:
    """The tournament of a public page's address (``EVERY_EVENT`` for the list), None for any other address."""
    if not path.startswith(PREFIX):
        return None
    rest = path[len(PREFIX) :]
    if not rest:
        return EVERY_EVENT
    slug, _sep, _tail = rest.partition("/")
    return slug if _SLUG.fullmatch(slug) else None  # anything a slug cannot be goes to the view (a 404)


def _entry(request: HttpRequest) -> str:
    """The key of the page this request asks for: everything the view's answer depends on besides the stamps."""
    parts = (
        release(),
        request.get_full_path(),
        request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""),
        "gzip" if "gzip" in request.headers.get("Accept-Encoding", "") else "",
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-Target", ""),
    )
    return "fastpage:" + hashlib.blake2b("\x1f".join(parts).encode(), digest_size=20).hexdigest()


def fast_stamp(request: HttpRequest, *, live: bool) -> None:
    """Called by a cacheable view before it reads the database: the stamp its answer would be kept under (``s``
    for a page with live scores, ``r`` otherwise)."""
    candidate = getattr(request, "fast_page", None)
    if isinstance(candidate, Candidate):
        candidate.scope = FAST_ALL if live and candidate.slug != EVERY_EVENT else FAST_RESULTS
        candidate.made = time.time()
        candidate.stamps = fast_stamps_read(slug=candidate.slug)


def fast_keep(request: HttpRequest, *, until: float) -> None:
    """Called by a cacheable view about to answer the page for everyone: it may be served as it is until ``until``
    (the end of the minute the page says it was updated in), while the stamp read by ``fast_stamp`` stands."""
    candidate = getattr(request, "fast_page", None)
    if isinstance(candidate, Candidate) and candidate.stamps is not None:
        candidate.until = until


def _current(kept: Kept, stamps: dict[str, int]) -> bool:
    """Whether ``kept`` is still the page to serve: within its minute, and no write since its stamps were read; for
    a page with live scores, also a mão or two since, for ``ZAP_LIVE_COALESCE_SECONDS`` (the view coalesces its
    live pages the same way), as long as no result has moved."""
    now = time.time()
    if now >= kept.until:
        return False
    if stamps.get(kept.scope) == kept.stamp:
        return True
    return (
        kept.scope == FAST_ALL
        and stamps.get(FAST_RESULTS) == kept.results_stamp
        and now - kept.made < settings.ZAP_LIVE_COALESCE_SECONDS
    )


class FastPagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        slug = _slug(request.path)
        if (
            slug is None
            or request.method != "GET"
            or not settings.ZAP_FAST_PAGES
            or settings.SESSION_COOKIE_NAME in request.COOKIES
        ):
            return self.get_response(request)
        entry = _entry(request)
        found = fast_lookup(entry=entry, slug=slug)
        if found is not None:
            kept, current = found
            if isinstance(kept, Kept) and _current(kept, current):
                return self._answer(request, kept)
        candidate = Candidate(slug=slug)
        request.fast_page = candidate  # type: ignore[attr-defined]
        response = self.get_response(request)
        stamps = candidate.stamps
        if (
            candidate.until > time.time()
            and stamps is not None
            and response.status_code == 200
            and isinstance(response, HttpResponse)
            and not response.cookies
        ):
            kept = Kept(
                scope=candidate.scope,
                stamp=stamps[candidate.scope],
                results_stamp=stamps[FAST_RESULTS],
                made=candidate.made,
                until=candidate.until,
                status=response.status_code,
                headers=tuple(response.items()),
                body=response.content,
            )
            fast_put(entry=entry, value=kept, timeout=candidate.until - time.time())
        return response

    @staticmethod
    def _answer(request: HttpRequest, kept: Kept) -> HttpResponseBase:
        headers = dict(kept.headers)
        etag = headers.get("ETag")
        if etag:
            unchanged = get_conditional_response(request, etag=etag)
            if unchanged is not None:
                unchanged["ETag"] = etag
                for name in ("Vary", "Cache-Control", "Content-Language"):
                    if name in headers:
                        unchanged[name] = headers[name]
                return unchanged
        response = HttpResponse(kept.body, status=kept.status)
        for name, value in kept.headers:
            response[name] = value
        return response
