"""PostgreSQL: after a structural write (a draw, an import), the app's tables whose statistics are missing or old
are analyzed (tournaments/dbstats.py), so the event's first mãos and confirmations are not planned as if the
tables were empty (autovacuum may be off, or a minute behind)."""

import pytest
from django.db import connection
from django.test import TestCase

from tournaments import writes
from tournaments.dbstats import app_tables, stale_tables_analyze
from tournaments.models import Tournament


def _reltuples(table: str) -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        return cursor.fetchone()[0]


def test_the_apps_tables_are_the_ones_a_tournament_fills():
    tables = app_tables()
    assert {"tournaments_jogo", "tournaments_mao", "tournaments_dupla"} <= set(tables)
    assert not any(t.startswith(("auth_", "django_")) for t in tables)


@pytest.mark.django_db
def test_sqlite_has_nothing_to_analyze():
    if connection.vendor == "postgresql":
        pytest.skip("this run uses PostgreSQL")
    assert stale_tables_analyze() == []


@pytest.mark.django_db
def test_a_table_never_analyzed_is_analyzed_and_one_analyzed_since_is_left_alone():
    if connection.vendor != "postgresql":
        pytest.skip(f"the planner's statistics are PostgreSQL's; this run uses {connection.vendor}")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE zap_stats_probe (id int PRIMARY KEY, key text)")
        cursor.execute("INSERT INTO zap_stats_probe SELECT n, 'j' || n FROM generate_series(1, 2000) n")
    assert _reltuples("zap_stats_probe") < 0  # never analyzed: the planner guesses its size
    assert stale_tables_analyze(tables=["zap_stats_probe"]) == ["zap_stats_probe"]
    assert _reltuples("zap_stats_probe") == 2000
    assert stale_tables_analyze(tables=["zap_stats_probe"]) == []  # nothing changed since


class StructuralWritesAnalyze(TestCase):
    """On commit of a structural write: in a request, in the background once the response has gone; in a command
    (an import), at once. A live write (a mão) never asks for it."""

    def test_a_structural_write_asks_for_it_on_commit_and_a_live_one_does_not(self):
        ran: list[str] = []
        tournament = Tournament.objects.create(name="Copa", slug="copa-estatisticas", date="2026-12-01")
        originals = writes.background_run, writes.stale_tables_analyze, writes.in_request
        writes.background_run = lambda target, *args, name: ran.append(f"thread:{name}")
        writes.stale_tables_analyze = lambda: ran.append("now") or []
        try:
            for kind, requested in ((writes.LIVE, True), (writes.STRUCTURE, True), (writes.STRUCTURE, False)):
                writes.in_request = lambda requested=requested: requested
                with self.captureOnCommitCallbacks(execute=True):
                    with writes.tournament_write(tournament=tournament, action="test", kind=kind):
                        pass
        finally:
            writes.background_run, writes.stale_tables_analyze, writes.in_request = originals
        assert ran == ["thread:zap-analyze", "now"]
