"""What a server process loads before its first request: the URLconf (and with it every view module), the
public pages' templates, both catalogues and the release's digest.

Without it the first request of each fresh process pays for them (about half a second: most of the site's
modules are imported by the URLconf). With gunicorn's ``preload_app`` it runs once in the master, before the
workers fork, and they share what it loaded.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import NoReverseMatch, URLResolver, get_resolver, reverse
from django.utils import translation

logger = logging.getLogger(__name__)

# the folders of the pages a spectator, a referee or a dupla opens first
TEMPLATE_FOLDERS = ("tournaments", "sumula", "privatelink")


def _resolvers_fill(resolver: URLResolver) -> None:
    resolver.reverse_dict  # noqa: B018 - built on first use: the URL patterns compiled for reverse()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            _resolvers_fill(pattern)


def _namespaces_fill(resolver: URLResolver, path: str = "") -> None:
    """reverse() builds, on its first use, a resolver per namespace (and language): reverse one name of each
    that takes no arguments."""
    for namespace, (_prefix, child) in resolver.namespace_dict.items():
        full = f"{path}{namespace}"
        for name in [n for n in child.reverse_dict if isinstance(n, str)]:
            try:
                reverse(f"{full}:{name}")
                break
            except NoReverseMatch:
                continue
        _namespaces_fill(child, f"{full}:")


def server_warm() -> None:
    """Load the URLconf, the public templates and the catalogues (errors are logged, never raised: a page that
    cannot load fails on its own request, with its own message)."""
    for language, _name in settings.LANGUAGES:  # reverse()'s tables are kept per language
        with translation.override(language):
            _resolvers_fill(get_resolver())  # imports every view module, and readies reverse() for every name
            _namespaces_fill(get_resolver())
    from tournaments.caching import release

    release()  # the code's digest, in every cache key (30 ms: it reads the code)
    base = Path(settings.BASE_DIR) / "templates"
    for folder in TEMPLATE_FOLDERS:
        for path in sorted((base / folder).glob("*.html")):
            try:
                get_template(str(path.relative_to(base)))
            except (TemplateDoesNotExist, TemplateSyntaxError) as exc:  # pragma: no cover - a broken template
                logger.warning("warm-up: %s", exc)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            translation.gettext("Classificação")


def thread_warm() -> None:
    """A request thread's own connections, opened as it starts rather than by its first request: the database's
    (kept for the thread's life: config/dbconn.py) and the shared cache's. Errors are logged, never raised: the
    first request opens what is missing."""
    from django.core.cache import caches
    from django.db import DatabaseError, connections

    from config.dbconn import connections_used

    try:
        for connection in connections.all():
            connection.ensure_connection()
        connections_used()  # its first request needs no health check
    except DatabaseError as exc:
        logger.warning("warm-up: conexão com o banco não aberta (%s)", exc)
    try:
        caches["default"].get("zap:warm-up")  # opens the Redis connection (none in a process's own memory)
    except Exception as exc:  # a cache that does not answer: its first request reports it, with its own message
        logger.warning("warm-up: cache não respondeu (%s)", exc)


def states_warm(*, limit: int | None = None) -> int:
    """Load the derived states of the events under way (not finished; the most recent first, ``ZAP_WARM_STATES``
    of them) from the state stored in the database, replaying the log since (``tournaments/snapshots.py``), or
    from the tables. With gunicorn's ``preload_app`` this runs once in the master: every worker starts with
    them, instead of each paying for its first page of an event (about 200 ms at 4,096 duplas). Errors are
    logged, never raised: a page builds what it needs. Returns how many were loaded."""
    from django.db import DatabaseError, connections

    from tournaments.caching import shares_wait
    from tournaments.models import Tournament
    from tournaments.selectors import tournament_state_get

    limit = settings.ZAP_WARM_STATES if limit is None else limit
    loaded = 0
    try:
        for tournament in Tournament.objects.filter(finished=False).order_by("-date", "-pk")[:limit]:
            try:
                tournament_state_get(tournament=tournament)
                loaded += 1
            except Exception:
                logger.exception("warm-up: estado do torneio %s não carregado", tournament.slug)
    except DatabaseError as exc:  # e.g. not migrated yet: the workers build what they need
        logger.warning("warm-up: estados não carregados (%s)", exc)
    finally:
        shares_wait()  # nothing running in the background when the workers fork
        for connection in connections.all(initialized_only=True):  # each worker opens its own
            if not connection.in_atomic_block:  # (imported inside a transaction, as a test does: left open)
                connection.close()
    gc.freeze()  # what was loaded stays out of the collector's sight, and its pages shared with the workers
    return loaded
