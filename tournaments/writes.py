"""The one write path: every change to a tournament goes through ``tournament_write``.

It opens the transaction, locks what the write changes in one order (the
tournament's row first, then the rows the body locks; a súmula at the table
locks its jogo only), lets the body write and audit, and on the way out asks
the results engine (``engine.engine_commit``) what the write changed: the
parts of the results it recomputed, the version it gave them, the knockout
jogos that follow. Cache keys come from those versions; nothing else bumps
one.

What a write says it touched decides how much is recomputed:

- ``RESULTS``: results of some jogos (``write.jogos_touched(ids)``), and
  a disqualified dupla (``write.duplas_touched(ids)``): their group tables,
  then what depends on them;
- ``STRUCTURE`` (the default): anything else the pages show (duplas, stages,
  draws, mesas, names): every part is made again;
- ``PAGES``: the pages change but no result does (a registration): a new
  version with the same parts;
- ``PRIVATE``: nothing any page shows (PINs, staff, invitations): no version,
  and no lock but what the body takes;
- ``LIVE``: a súmula at the table (a mão, its undo, a result still to be
  confirmed): locks the jogo only, so mãos of different jogos never wait on
  one row; it may not change what counts (the engine refuses it if it did).

Writes nest: a service called inside another's write joins it (its touches
add up; the outer write commits once).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from django.db import transaction

from .caching import background_run, fast_stamps_bump, in_request
from .dbstats import stale_tables_analyze
from .engine import (
    KINDS,
    LIVE,
    PAGES,
    PRIVATE,
    RESULTS,
    STRUCTURE,
    Write,
    engine_commit,
    write_current,
    writes_stack,
)
from .models import Jogo, Tournament
from .plainsql import row_lock
from .selectors import tournament_state_get, tournament_state_remember

__all__ = [
    "KINDS",
    "LIVE",
    "PAGES",
    "PRIVATE",
    "RESULTS",
    "STRUCTURE",
    "UnguardedWrite",
    "Write",
    "engine_refresh",
    "tournament_rebuild",
    "tournament_write",
    "tournaments_lock",
    "write_current",
    "write_followers_add",
    "write_guard",
    "write_required",
]
# how much a kind asks the engine to do, least first: joined writes take the most any of them asked
_WEIGHT = {PRIVATE: 0, LIVE: 1, PAGES: 2, RESULTS: 3, STRUCTURE: 4}


@contextmanager
def tournament_write(
    *, tournament: Tournament | None, action: str, user: Any = None, kind: str = STRUCTURE
) -> Iterator[Write]:
    """Run the body as one write of ``tournament`` (None: a tournament being created; set ``write.tournament``).

    All or nothing: one transaction. The tournament's row is locked first (except for ``LIVE`` writes, whose
    body locks its jogo), so two writes of one tournament never build on each other's stale view and never wait
    on each other in a cycle. On the way out the engine recomputes what the write touched and records it.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown write kind {kind!r}")
    outer = write_current()
    if outer is not None and (tournament is None or outer.tournament is None or outer.tournament.pk == tournament.pk):
        # joined: the outer write locks, commits and says what changed, once
        if _WEIGHT[kind] > _WEIGHT[outer.kind]:
            outer.kind = kind
        if outer.tournament is None and tournament is not None:
            outer.tournament = tournament
        yield outer
        return
    write = Write(tournament=tournament, action=action, user=user, kind=kind)
    stack = writes_stack()
    # the first transaction of the connection: nothing uncommitted is visible yet, so the state read before the
    # body writes may be kept (a later write finds it); inside another transaction it may not
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        depth = len(stack)
        if not outermost:
            stack.append(write)
        try:
            if tournament is not None and kind in (RESULTS, STRUCTURE, PAGES):
                tournament_lock(tournament=tournament)
                if kind != STRUCTURE:  # the state the write starts from, read before the body writes anything
                    write.base = tournament_state_get(tournament=tournament)
            if outermost:
                stack.append(write)  # from here on, a state read is not kept (this write may still roll back)
            yield write
            _commit(write)
        finally:
            del stack[depth:]


# What the site derives from tournaments across them asks to hear of each write on its way out (its own
# ``transaction.on_commit`` decides when it runs): the atletas' Nível, the circuits' etapa places. They register in
# ``apps.TournamentsConfig.ready``, so this module imports none of them (they import it).
_FOLLOWERS: list[Callable[[Write], None]] = []


def write_followers_add(follower: Callable[[Write], None]) -> None:
    """Call ``follower(write)`` at the end of every write, inside its transaction (once per follower)."""
    if follower not in _FOLLOWERS:
        _FOLLOWERS.append(follower)


def _commit(write: Write) -> None:
    """The engine's part of a write's end, and what follows its commit: the new state kept in this process;
    after a live write that took a jogo to the table, the event's status (``event_status_follow``)."""
    state = engine_commit(write=write)
    if state is not None:
        transaction.on_commit(lambda: tournament_state_remember(state=state, share=write.structural))
    if write.tournament is not None and write.kind != PRIVATE:
        # the public pages' fast path serves none kept before this write (caching.fast_stamps_bump)
        slug, results = write.tournament.slug, write.kind != LIVE
        transaction.on_commit(lambda: fast_stamps_bump(slug=slug, results=results), robust=True)
    for follow in _FOLLOWERS:
        follow(write)
    if write.kind == STRUCTURE:  # a draw, an import: maybe thousands of new rows the planner knows nothing of
        transaction.on_commit(planner_statistics_follow, robust=True)
    if write.tournament is not None and write.kind == LIVE and write.jogos_started:
        tournament_id, started = write.tournament.pk, frozenset(write.jogos_started)
        transaction.on_commit(lambda: event_status_follow(tournament_id=tournament_id, jogo_ids=started), robust=True)


def planner_statistics_follow() -> None:
    """After a structural write commits, the tables whose statistics it left old are analyzed (``dbstats``): in a
    request once its response has gone; in a command (an import) here and now, as its process may end before a
    thread would finish."""
    if in_request():
        background_run(stale_tables_analyze, name="zap-analyze")
    else:
        stale_tables_analyze()


def write_required(*, what: str) -> Write:
    """The current write, for a helper that writes only as part of one (the audit, a jogos' respread);
    ``UnguardedWrite`` when called outside any."""
    write = write_current()
    if write is None:
        raise UnguardedWrite(f"{what} outside writes.tournament_write")
    return write


def tournament_lock(*, tournament: Tournament) -> None:
    """Lock the tournament's row until the transaction ends, and read its versions as they now stand."""
    row = row_lock(  # a plain statement, prepared on PostgreSQL: every results write starts here
        Tournament, tournament.pk, connection=transaction.get_connection(), read=("results_version", "finished")
    )
    if row is not None:
        tournament.results_version, tournament.finished = row[0], bool(row[1])


def tournaments_lock(*, ids: list[int]) -> None:
    """Lock several tournaments' rows, in one order (the admin, whose request may name several before it runs);
    once the write commits, the public pages' fast path serves nothing of theirs kept before it (a tournament
    deleted included: its slug is read here, while it still has one)."""
    rows = list(Tournament.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", "slug"))
    for _pk, slug in rows:
        transaction.on_commit(functools.partial(fast_stamps_bump, slug=slug, results=True), robust=True)


def event_status_follow(*, tournament_id: int, jogo_ids: frozenset) -> None:
    """After a live write that took jogos to the table (or back to "a jogar"): when no other jogo of the event
    has begun, these decide whether it has (the pages' "a começar" / "em andamento"), so a results write reads
    them again (and any the state still shows begun), giving the pages a new version.

    Run after the live write commits (it held the jogo's lock only; this one locks the tournament first): one
    query, and a write only when the event's first jogo starts or its last started one is undone.
    """
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    if Jogo.objects.filter(tournament=tournament).exclude(status=Jogo.SCHEDULED).exclude(id__in=jogo_ids).exists():
        return  # the event had begun and stays so, whatever these jogos do
    with tournament_write(tournament=tournament, action="event.status", kind=RESULTS) as write:
        shown = {j.id for j in write.base.jogo_rows if j.status != Jogo.SCHEDULED}
        write.jogos_touched(set(jogo_ids) | shown)


def engine_refresh(*, tournament: Tournament, action: str) -> None:
    """Inside a write whose body changed the tournament behind the services' back (the admin): recompute the
    whole tournament now, as a structural write would on its way out."""
    if write_current() is None:
        raise RuntimeError("engine_refresh outside a write: wrap the change in writes.tournament_write")
    _commit(Write(tournament=tournament, action=action, kind=STRUCTURE))


def tournament_rebuild(*, tournament: Tournament, action: str = "rebuild", user: Any = None) -> Write:
    """A write of nothing but the recomputation: after data changed outside the services (the benchmark's
    setups, an operator's fix in the database shell), every part is made again and gets a new version."""
    with tournament_write(tournament=tournament, action=action, user=user) as write:
        pass
    return write


# --- the guard: no write to a tournament outside the one path ------------------------------------------


class UnguardedWrite(RuntimeError):
    """Site code changed a tournament's data outside ``tournament_write``."""


_BASE = Path(__file__).resolve().parent.parent
_GUARDED = tuple(str(_BASE / folder) + os.sep for folder in ("tournaments", "scoring"))
_UNGUARDED = (str(_BASE / "tournaments" / "migrations") + os.sep, str(_BASE / "tests") + os.sep)
_WRITES = ("INSERT", "UPDATE", "DELETE")
# stored data that is none of a tournament's own: a state snapshot (snapshots.py), the atletas' Nível and their
# counted jogos per tournament it is walked from (atletas/services.py, recomputed after a write commits) and the
# site-wide atletas (atletas left without players are removed by ``manage.py nivel_rebuild``)
_DERIVED = (
    '"tournaments_statesnapshot"',
    '"tournaments_atletanivel"',
    '"tournaments_atletajogos"',
    '"tournaments_atleta"',
)


def write_guard(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """A database execute wrapper (``connection.execute_wrapper``) that refuses, with ``UnguardedWrite``, a
    statement that writes a tournament's table (``tournaments_*``) outside a write when it comes from the
    site's code (not from a test's own setup or a migration). The test suite runs under it."""
    if (
        write_current() is None
        and sql.lstrip()[:6].upper() in _WRITES
        and '"tournaments_' in sql
        and not any(table in sql for table in _DERIVED)
    ):
        origin = _origin()
        if origin is not None:
            raise UnguardedWrite(f"{origin} writes outside writes.tournament_write: {sql[:120]}")
    return execute(sql, params, many, context)


def _origin() -> str | None:
    """The innermost frame of the site's code on the stack (file:line), None when a test or migration is it."""
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_UNGUARDED):
            return None
        if name.startswith(_GUARDED) and not name.endswith(os.sep + "writes.py"):
            return f"{os.path.relpath(name, _BASE)}:{frame.f_lineno}"
        frame = frame.f_back
    return None
