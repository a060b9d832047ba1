"""What a server process readies before its first request (config/warmup.py): what Django builds on the first
use of a model or a URL pattern, the site's tables described to a new PostgreSQL connection, and the states of
the events under way loaded by each worker itself."""

import pytest
from django.apps import apps
from django.db import connection
from django.db.models.options import Options
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver
from django.urls.resolvers import URLPattern, URLResolver

from config import warmup
from tournaments.models import Jogo


def _patterns(resolver: URLResolver):
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern)
        else:
            yield pattern


def test_after_the_warm_up_a_request_walks_no_relations_of_the_site(monkeypatch):
    """A process's first look at a model's relations (its first confirmation reads ``related_objects``) walks
    the relations of every model of the site (Django's relation tree): the warm-up walks them once."""
    walked = []
    original = Options._populate_directed_relation_graph
    monkeypatch.setattr(
        Options, "_populate_directed_relation_graph", lambda self: (walked.append(self), original(self))[1]
    )

    apps.clear_cache()  # a process that has not used its models yet
    list(Jogo._meta.related_objects)
    assert walked, "without the warm-up the first look walks the relations"

    apps.clear_cache()
    warmup.server_warm()
    walked.clear()
    str(Jogo.objects.filter(tournament_id=1, key="j1").query)
    list(Jogo._meta.related_objects)
    assert walked == []


def test_after_the_warm_up_every_url_pattern_is_compiled():
    warmup.server_warm()
    patterns = list(_patterns(get_resolver()))
    assert patterns and all(isinstance(p, URLPattern) for p in patterns)
    for p in patterns:  # compiled on first use: kept on the pattern (per language for a translated one)
        assert "regex" in p.pattern.__dict__ or getattr(p.pattern, "_regex_dict", None), p.pattern


@pytest.mark.django_db
def test_a_new_connection_is_given_every_table_of_the_site_in_one_statement():
    with CaptureQueriesContext(connection) as queries:
        warmup.catalogue_warm(connection=connection)
    if connection.vendor != "postgresql":
        assert len(queries) == 0  # SQLite has no server process to describe them to
        return
    assert len(queries) == 1
    sql = queries[0]["sql"]
    tables = {m._meta.db_table for m in apps.get_models(include_auto_created=True) if m._meta.managed}
    missing = [t for t in tables if connection.ops.quote_name(t) not in sql]
    assert not missing and "tournaments_jogo" in tables


@pytest.mark.django_db
def test_each_worker_loads_the_states_again_as_its_own(monkeypatch, settings):
    """config/wsgi.py (imported by gunicorn's master before it forks) builds and stores the states of the events
    under way; each worker forgets the master's and loads them again as it starts (config/gunicorn.py's
    post_fork), so they are its own pages and not shared with the master."""
    from pathlib import Path

    from tournaments import selectors

    loaded = []
    monkeypatch.setattr(warmup, "states_warm", lambda **kw: loaded.append(kw) or 0)
    selectors.caches[selectors.STATES].set("inherited", "the master's")
    settings.DEBUG = False
    warmup.worker_warm()
    assert loaded == [{}] and selectors.caches[selectors.STATES].get("inherited") is None
    settings.DEBUG = True  # runserver: nothing to warm
    warmup.worker_warm()
    assert loaded == [{}]

    wsgi = Path(warmup.__file__).with_name("wsgi.py").read_text()
    gunicorn = Path(warmup.__file__).with_name("gunicorn.py").read_text()
    assert "states_warm()" in wsgi and "worker_warm()" in gunicorn.split("def post_fork", 1)[1]


@pytest.mark.django_db(transaction=True)
def test_a_table_not_there_yet_is_logged_and_the_connection_still_serves(monkeypatch, caplog):
    """A worker started before its migration ran: the warm-up says so, and the thread's first request meets it."""
    import logging
    from types import SimpleNamespace

    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL's server processes are given the tables")
    missing = SimpleNamespace(
        _meta=SimpleNamespace(
            db_table="zap_tabela_que_falta", managed=True, proxy=False, pk=SimpleNamespace(column="id")
        )
    )
    monkeypatch.setattr(warmup.apps, "get_models", lambda **kw: [missing])
    with caplog.at_level(logging.WARNING, "config.warmup"):
        warmup.catalogue_warm(connection=connection)
    assert any("zap_tabela_que_falta" in r.getMessage() for r in caplog.records)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
