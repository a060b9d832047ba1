"""Conditional GETs for what clients poll: an ``ETag`` made from the versions an answer is built from, and 304
for an ``If-None-Match`` that names it, before anything is read or rendered."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response


def etag_make(*parts: object) -> str:
    """A strong entity tag from what decides an answer's content (the cache key, the minute shown…)."""
    return '"' + hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32] + '"'


def not_modified(request: HttpRequest, *, etag: str) -> HttpResponse | None:
    """A 304 when the client already holds the answer tagged ``etag`` (GET and HEAD); None otherwise."""
    if request.method not in ("GET", "HEAD"):
        return None
    response = get_conditional_response(request, etag=etag)
    if response is not None:
        response["ETag"] = etag
    return response
