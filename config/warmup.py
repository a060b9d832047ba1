"""What a server process loads before its first request: the URLconf (and with it every view module), the
public pages' templates, both catalogues, the release's digest, and what Django builds on its first use of a
model, a URL pattern, a session or a language; each request thread's connections, the database's with the
site's tables already described to its server process.

Without it the first request of each fresh process pays for them (about half a second: most of the site's
modules are imported by the URLconf). With gunicorn's ``preload_app`` it runs once in the master, before the
workers fork, and they share what it loaded; each worker then loads the states of the events under way itself
(``worker_warm``), and each request thread opens its connections (``thread_warm``).
"""

from __future__ import annotations

import gc
import logging
import time
from importlib import import_module
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import DatabaseError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.template import TemplateDoesNotExist, TemplateSyntaxError, engines
from django.template.backends.django import DjangoTemplates
from django.template.loader import get_template
from django.urls import NoReverseMatch, URLResolver, get_resolver, reverse
from django.utils import formats, translation
from django.utils.module_loading import import_string

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
    _first_uses_warm()


def _first_uses_warm() -> None:
    """What Django builds or imports the first time a process needs it: each model's maps of its fields and
    relations (the first query of a model walks the relations of every model of the site), the URL patterns'
    compiled expressions in each language (the first ``resolve()``), the storages the messages and the sessions
    use, the templates' context processors, each language's date and number formats."""
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        meta.get_fields(include_hidden=True)
        for name in (
            "fields_map",
            "related_objects",
            "concrete_fields",
            "local_concrete_fields",
            "db_returning_fields",
        ):
            getattr(meta, name)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            _patterns_compile(get_resolver())
            formats.get_format("DATE_FORMAT")
    import_string(settings.MESSAGE_STORAGE)
    import_string(settings.SESSION_SERIALIZER)
    import_module(settings.SESSION_ENGINE)
    backend = engines["django"]
    assert isinstance(backend, DjangoTemplates)
    backend.engine.template_context_processors  # noqa: B018 - imported on first use


def _patterns_compile(resolver: URLResolver) -> None:
    resolver.pattern.regex  # noqa: B018 - compiled on first use, per language
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            _patterns_compile(pattern)
        else:
            pattern.pattern.regex  # noqa: B018


def thread_warm() -> None:
    """A request thread's own connections, opened as it starts rather than by its first request: the database's
    (kept for the thread's life: config/dbconn.py) and the shared cache's. Errors are logged, never raised: the
    first request opens what is missing."""
    from django.core.cache import caches
    from django.db import connections

    from config.dbconn import connections_used

    try:
        for connection in connections.all():
            connection.ensure_connection()
            catalogue_warm(connection=connection)
        connections_used()  # its first request needs no health check
    except DatabaseError as exc:
        logger.warning("warm-up: conexão com o banco não aberta (%s)", exc)
    try:
        caches["default"].get("zap:warm-up")  # opens the Redis connection (none in a process's own memory)
    except Exception as exc:  # a cache that does not answer: its first request reports it, with its own message
        logger.warning("warm-up: cache não respondeu (%s)", exc)


def catalogue_warm(*, connection: BaseDatabaseWrapper) -> None:
    """A new PostgreSQL connection's server process knows none of the site's tables: the first statement that
    reads one loads its description and its indexes' (measured here: 0.3-1.5 ms a table; a counting
    confirmation reads a dozen). One statement naming every table of the site loads them all, before the thread's
    first request (about 20 ms, once). A table missing (a migration not run yet) is logged: the requests meet it."""
    if connection.vendor != "postgresql":
        return
    q = connection.ops.quote_name
    reads = [
        f"SELECT 1 FROM {q(m._meta.db_table)} WHERE {q(m._meta.pk.column)} IS NULL"
        for m in apps.get_models(include_auto_created=True)
        if m._meta.managed and not m._meta.proxy and m._meta.pk is not None and m._meta.pk.column
    ]
    if not reads:
        return
    try:
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(reads))
            cursor.fetchall()
    except DatabaseError as exc:
        logger.warning("warm-up: tabelas do site não lidas pela conexão nova (%s)", exc)


def worker_warm() -> None:
    """In each gunicorn worker as it starts (``post_fork``), before it takes a request: the states of the events
    under way made again by the worker itself, from the state the master stored (``states_warm``).

    Inherited from the master through the fork, they were pages the worker shared with it, and its first requests
    copied them page by page as they touched the state (each object's reference count is written): measured at
    1,024 duplas, a worker's first counting confirmation had about 1,300 page faults instead of 210-290 and its
    first page after it about 1,430 instead of 270-320: 12-14 ms more CPU each. The master still builds them
    first, once, and stores them (``tournaments/snapshots.py``), so that each worker only reads the stored state
    (about 35 ms at 1,024 duplas, 150 at 4,096) instead of every worker building it from the tables at once, while
    the first workers up already serve. A recycled worker (``max_requests``) likewise starts from the newest
    stored state instead of the master's, which is as old as the server."""
    if settings.DEBUG:
        return
    from tournaments.selectors import tournament_state_cache_clear

    began = time.perf_counter()
    tournament_state_cache_clear()  # the master's copy let go of here, at start, not by the first requests
    loaded = states_warm()
    logger.info("worker warm-up: %d event states in %.0f ms", loaded, (time.perf_counter() - began) * 1000)


def states_warm(*, limit: int | None = None) -> int:
    """Load the derived states of the events under way (not finished; the most recent first, ``ZAP_WARM_STATES``
    of them) from the state stored in the database, replaying the log since (``tournaments/snapshots.py``), or
    from the tables. Run by gunicorn's master before it forks (``config/wsgi.py``: built and stored once), then by
    each worker as it starts (``worker_warm``): no worker pays for its first page of an event (about 200 ms at
    4,096 duplas). Errors are logged, never raised: a page builds what it needs.
    Returns how many were loaded."""
    from django.db import connections

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
        shares_wait()  # nothing left running in the background (a state being stored) when the worker serves
        for connection in connections.all(initialized_only=True):  # each request thread opens its own
            if not connection.in_atomic_block:  # (imported inside a transaction, as a test does: left open)
                connection.close()
    gc.freeze()  # what was loaded stays out of the collector's sight
    return loaded
