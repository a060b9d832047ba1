"""Reads. A tournament's derived state (``state.py``) is kept per process and version, and advanced by the
results engine (``engine.py``) when the tournament moves on; the live pages add the súmulas as they stand."""

from dataclasses import replace

from django.core.cache import caches
from django.db import connections, router
from django.db.models import QuerySet, Sum

from scoring.jogo import jogo_evaluate

from .caching import STATES, one_at_a_time, shares_wait, state_key, state_share, state_shared_get, tournament_ident
from .engine import state_advance_to, write_current
from .models import Jogo, Mao, Mesa, Partida, Tournament
from .plainsql import columns, instance, made
from .rows import JogoRow, jogo_rows_read, partida_rows_read
from .snapshots import snapshots_forget, state_store, state_stored_get
from .state import (  # noqa: F401
    SIDE_INDEX,
    DuplaRef,
    PlayerRef,
    TournamentState,
    jogo_entry_from_rows,
    tournament_settings,
    tournament_state_load,
)


def tournament_by_slug(*, slug: str) -> Tournament | None:
    """The tournament at ``slug`` (None: none), in one plain query (``plainsql``): every public page asks it
    first, and a cached page costs little more than this query, whose queryset took longer to compile than
    to run (a third of a cached page's time)."""
    alias = router.db_for_read(Tournament)
    connection = connections[alias]

    def sql() -> str:
        q = connection.ops.quote_name
        return (
            f"SELECT {', '.join(columns(Tournament, 't', connection))} FROM {q(Tournament._meta.db_table)} t "
            f"WHERE t.{q('slug')} = %s"
        )

    with connection.cursor() as cursor:
        cursor.execute(made(("tournament_by_slug", connection.vendor), sql), [slug])
        row = cursor.fetchone()
    return None if row is None else instance(Tournament, row, db=alias, connection=connection)


def tournament_list() -> QuerySet[Tournament]:
    """The events on the public list: the published ones (a draft is seen only by its staff, at the desk)."""
    return Tournament.objects.filter(published=True).order_by("-date", "name")


def mesa_referees(*, tournament: Tournament) -> dict[int, int | None]:
    """Each mesa's referee (a user id), by mesa number (one query)."""
    return dict(Mesa.objects.filter(tournament=tournament).values_list("number", "referee_id"))


def jogo_referee(row: JogoRow | Jogo, mesa_referees: dict[int, int | None]) -> int | None:
    """Who referees a jogo (a row of ``jogo_rows``, or the jogo): the referee given to it, else its mesa's."""
    return row.referee_id or (mesa_referees.get(row.mesa) if row.mesa is not None else None)


def tournament_state_get(*, tournament: Tournament, cached: bool = True) -> TournamentState:
    """Every derived view of a tournament at its ``results_version``.

    This process keeps the newest state it has of each tournament. When the
    tournament has moved on, the engine's log says which jogos changed since:
    only those are read again, and only the parts of the results they touch
    are computed again (``engine.state_advance_to``). A structural change, or
    a process with nothing, builds the whole state (or reads the newest one stored
    in the database, ``snapshots.py``, and replays the log since). Concurrent requests of one process
    wait for a single build. Inside a write nothing is kept (it may still roll
    back): the write keeps its new state when it commits. ``cached=False``:
    built from the database, whatever is kept.
    """
    if not cached:
        return tournament_state_load(tournament=tournament)
    keep = write_current() is None
    key = state_key(tournament)
    state = caches[STATES].get(key)
    if state is not None:
        return state
    with one_at_a_time(f"build:{key}"):
        state = caches[STATES].get(key)
        if state is not None:
            return state
        latest = caches[STATES].get(latest_key(tournament))
        if latest is None:  # a process that has nothing: the newest state stored in the database (snapshots.py)
            latest = state_stored_get(tournament=tournament)
            if latest is not None and latest.version == tournament.results_version:
                return tournament_state_remember(state=latest, share=False) if keep else latest
        if latest is not None and latest.version < tournament.results_version:
            state = state_advance_to(state=latest, tournament=tournament)
            if state is not None:
                return tournament_state_remember(state=state, share=False) if keep else state
        state = state_shared_get(key)
        if state is not None:
            return tournament_state_remember(state=state, share=False) if keep else state
        state = tournament_state_load(tournament=tournament)
        return tournament_state_remember(state=state) if keep else state


def tournament_state_remember(*, state: TournamentState, share: bool = True) -> TournamentState:
    """Keep ``state`` as the views of its tournament at ``state.version`` (and as the newest this process has,
    unless it has a newer one: stored now and then for the processes that start with nothing, ``snapshots.py``);
    ``share``: this version also for the other processes, when so configured."""
    tournament = state.tournament
    key = state_key(tournament, version=state.version)
    caches[STATES].set(key, state)
    shared = [key] if share else []
    newest = caches[STATES].get(latest_key(tournament))
    if newest is None or newest.version <= state.version:
        caches[STATES].set(latest_key(tournament), state)
        state_store(state=state)
    state_share(shared, state)
    return state


def latest_key(tournament: Tournament) -> str:
    """The key of the newest state this process has of a tournament, whatever its version."""
    return f"latest:{tournament_ident(tournament)}"


def tournament_state_cache_clear() -> None:
    """Forget this process's derived states (tests, the benchmark's first visits), once any being shared landed."""
    shares_wait()
    caches[STATES].clear()
    snapshots_forget()


def tournament_live_version(*, tournament: Tournament) -> int:
    """The tournament's live version: the sum of its jogos' versions (one query).

    Every súmula write bumps its jogo's version, and a jogo's row is all it locks, so mãos of different jogos
    never wait on one row; the sum only grows while ``results_version`` stays (a jogo deleted is a structural
    change, which gives a new ``results_version``).
    """
    return Jogo.objects.filter(tournament=tournament).aggregate(v=Sum("version"))["v"] or 0


def tournament_live_get(*, tournament: Tournament, live: int | None = None) -> TournamentState:
    """The tournament's state with every súmula as it stands now (mãos of jogos in play, provisional results).

    Standings and bracket stay those of ``results_version`` (what counts);
    the jogos at the table are read again, in three small queries, once per
    live version (``live``, read when not given), so a mão refreshes the
    live pages without recomputing the standings.
    """
    state = tournament_state_get(tournament=tournament)
    if live is None:
        live = tournament_live_version(tournament=tournament)
    key = state_key(tournament, live=live)
    merged = caches[STATES].get(key)
    if merged is not None and merged.view is state.view:
        return merged
    # from the newest live state of the same results, if this process has one: only the jogos that moved since
    # are read again (during a round hundreds are at the table, and re-reading them all took 100 ms and more)
    latest: tuple[TournamentState, TournamentState] | None = caches[STATES].get(live_latest_key(tournament))
    merged = _live_merge(latest[1] if latest is not None and latest[0] is state else state)
    if write_current() is None:
        caches[STATES].set(key, merged)
        caches[STATES].set(live_latest_key(tournament), (state, merged))
    return merged


def live_latest_key(tournament: Tournament) -> str:
    """The key of the newest live state this process made of a tournament, with the state it was made over."""
    return f"live-latest:{tournament_ident(tournament)}"


def _live_merge(state: TournamentState) -> TournamentState:
    t = state.tournament
    # every jogo whose súmula changed since the state was read (its version moved): at the table, decided,
    # or back to "a jogar" after its mãos were undone
    known = {j.id: j.version for j in state.jogo_rows}  # as ``state`` has them (a live state: as it read)
    changed = [i for i, v in Jogo.objects.filter(tournament=t).values_list("id", "version") if known.get(i) != v]
    rows = jogo_rows_read(Jogo.objects.filter(id__in=changed)) if changed else []
    if not rows:
        return state
    ids = [j.id for j in rows]
    partida_rows = partida_rows_read(Partida.objects.filter(jogo_id__in=ids).order_by("jogo_id", "number"))
    mao_rows = list(
        Mao.objects.filter(partida__jogo_id__in=ids)
        .order_by("partida_id", "order")
        .values("partida_id", "to", "points", "how", "reason", "key")
    )
    fresh = {j.id: j for j in rows}
    partidas = dict(state.partidas)
    maos = dict(state.maos)
    entries, results = dict(state.entries), dict(state.results)
    for jid in ids:
        for p in state.partidas.get(jid, []):
            maos.pop(p.id, None)
        partidas[jid] = []
    for p in partida_rows:
        partidas[p.jogo_id].append(p)
        maos[p.id] = []
    for m in mao_rows:
        maos[m["partida_id"]].append(m)
    for j in rows:
        entry = jogo_entry_from_rows(jogo=j, partidas=partidas[j.id], maos=maos)
        entries[j.id] = entry
        results[j.id] = jogo_evaluate(entry=entry, settings=state.settings)[0] if entry is not None else None
    jogo_rows = [fresh.get(j.id, j) for j in state.jogo_rows]
    return replace(state, jogo_rows=jogo_rows, partidas=partidas, maos=maos, entries=entries, results=results)
