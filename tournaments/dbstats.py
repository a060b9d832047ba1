"""The planner's statistics after a structural write: PostgreSQL plans every query from the sizes its last
``ANALYZE`` saw. A draw or an import writes thousands of rows at once, just before the event's busiest hour;
until the tables are analyzed again, the planner still thinks them empty and picks the wrong index (the jogo's
lock scanned every jogo of the tournament instead of reading the one: 1 ms at 1,024 duplas, 4 at 4,096, on every
mão and confirmation). PostgreSQL's autovacuum would analyze them within a minute or so, where it runs at all: it
may be off (it is on the machine the checks run on), or behind.

So after a structural write, in the background, the app's tables never analyzed or changed by more rows than
autovacuum's own threshold since (50 + 10 % of them) are analyzed. ``ANALYZE`` reads a sample (at most 30,000
rows a table) and takes no lock that a read or a write waits for.
"""

from __future__ import annotations

import logging
import threading

from django.apps import apps
from django.db import DatabaseError, connection

logger = logging.getLogger(__name__)

# what autovacuum's defaults take for a table whose statistics are old (autovacuum_analyze_threshold, _scale_factor)
THRESHOLD_ROWS = 50
THRESHOLD_SHARE = 0.1


def app_tables() -> list[str]:
    """The tables of the app's own models (the ones a tournament's writes fill)."""
    return sorted({m._meta.db_table for m in apps.get_app_config("tournaments").get_models() if m._meta.managed})


def stale_tables_analyze(*, tables: list[str] | None = None) -> list[str]:
    """``ANALYZE`` the ``tables`` (default: the app's) whose statistics are missing or old; the ones analyzed.
    Only on PostgreSQL (SQLite plans without them); a failure is logged, never raised (the write has committed)."""
    if connection.vendor != "postgresql":
        return []
    tables = app_tables() if tables is None else tables
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT c.relname FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid "
                "WHERE c.relkind = 'r' AND c.relnamespace = to_regnamespace(current_schema())::oid "
                "AND c.relname = ANY(%s) AND (c.reltuples < 0 OR coalesce(s.n_mod_since_analyze, 0) > "
                "%s + %s * greatest(c.reltuples, 0)) ORDER BY c.relname",
                [tables, THRESHOLD_ROWS, THRESHOLD_SHARE],
            )
            stale = [row[0] for row in cursor.fetchall()]
            if stale:
                quote = connection.ops.quote_name
                cursor.execute(f"ANALYZE {', '.join(quote(t) for t in stale)}")
    except DatabaseError as exc:
        logger.warning("estatísticas do PostgreSQL não atualizadas (%s)", exc)
        return []
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()  # this thread's own connection
    return stale
