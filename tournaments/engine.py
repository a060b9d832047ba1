"""The results engine by part: what a write changed, recomputed alone, versioned, logged.

The parts of a tournament's results (docs/arquitetura.md, "Por onde passa uma escrita"): each group's table
(``g:<stage>:<group>``), each group stage's comparison across groups and its
qualifiers (``s:<stage>``), each knockout stage's bracket (``k:<stage>``) and
the general classification (``c``). ``scoring.tournament_compute`` computes
them from the records; given the view before a change and what the change
touched, it computes again only the touched group tables (the rest is cheap:
comparisons, brackets, classification).

A write (``writes.tournament_write``) ends here (``engine_commit``), inside its
transaction, under the tournament's row lock:

1. the state before the write (taken when it began) is advanced by the jogos
   the write touched: they alone are read again (``state_advance``); a
   structural write builds the whole state;
2. the bracket follows: a knockout drawn when its entrants are known, the
   next jogo created when both its duplas are (``_bracket_follow``);
3. the parts that differ from before get the new version: the tournament's
   ``results_version`` + 1, a ``TournamentChange`` row (which jogos, which
   parts) and one ``ResultPart`` row per changed part;
4. the new state is kept in this process once the transaction commits.

Another process that has the state of an earlier version replays the log
(``state_advance_to``): the jogos the changes name are read again and the
same parts computed, so it never builds the whole state after a result.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from scoring import mesas as mesa_rules
from scoring.jogo import jogo_evaluate
from scoring.tournament import (
    GroupStageView,
    JogoRecord,
    KnockoutStageView,
    Touched,
    TournamentView,
    tournament_compute,
)

from .jogo_keys import jogo_keys_new
from .models import Draw, Dupla, Jogo, ResultPart, Tournament, TournamentChange
from .rows import JogoRow, jogos_reread
from .state import (
    TournamentState,
    _counted_earlier_vias,
    gc_paused,
    jogo_entry_from_rows,
    jogo_order,
    jogo_record,
    tournament_state_load,
)

# What a write says it touched (writes.tournament_write): how much the engine recomputes on its way out.
RESULTS, STRUCTURE, PAGES, PRIVATE, LIVE = "results", "structure", "pages", "private", "live"
KINDS = (RESULTS, STRUCTURE, PAGES, PRIVATE, LIVE)


@dataclass
class Write:
    """One write under way: what it is, who does it, and what it touched."""

    tournament: Tournament | None
    action: str
    user: Any = None
    kind: str = STRUCTURE
    jogos: set[int] = field(default_factory=set)  # RESULTS / LIVE: the jogos whose records changed
    duplas: set[int] = field(default_factory=set)  # RESULTS: the duplas whose public fields changed (a DQ)
    jogos_started: set[int] = field(default_factory=set)  # LIVE: jogos that left "a jogar" (or went back to it)
    # filled in by the engine on the way out
    version: int | None = None  # the tournament's results version after the write (None: unchanged)
    parts: list[str] = field(default_factory=list)  # the parts of the results that changed
    created_jogos: int = 0  # knockout jogos the results made ready to play
    base: Any = field(default=None, repr=False)  # the state the write started from (results and pages writes)
    structural: bool = False  # filled in by the engine: every part was made again

    def jogos_touched(self, ids: Iterable[int]) -> None:
        """The records (partidas, mãos, WO, status, via) of these jogos changed."""
        self.jogos.update(int(i) for i in ids)

    def duplas_touched(self, ids: Iterable[int]) -> None:
        """These duplas' public fields changed (a disqualification): read again, their parts computed again."""
        self.duplas.update(int(i) for i in ids)

    def structure_changed(self) -> None:
        """Something the pages show other than results changed: every part is made again."""
        self.kind = STRUCTURE


_local = threading.local()


def write_current() -> Write | None:
    """The write (``writes.Write``) this thread is inside, if any: a state read inside one is not kept (the
    write may still roll back)."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


def writes_stack() -> list[Write]:
    """This thread's writes under way, innermost last (``writes.tournament_write`` pushes and pops)."""
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


REPLAY_MAX = 200  # more changes than this since a process's state: it builds the whole state instead
ALL_PARTS = "*"


# --- parts ------------------------------------------------------------------------------------------


def parts_of(view: TournamentView) -> dict[str, object]:
    """Each part of a view by its key, as values that compare equal when the part is the same."""
    out: dict[str, object] = {}
    for stage_view in view.stages:
        key = stage_view.stage.key
        if isinstance(stage_view, GroupStageView):
            for table in stage_view.tables:
                out[f"g:{key}:{table.key}"] = table
            out[f"s:{key}"] = (
                stage_view.others,
                stage_view.qualifiers,
                stage_view.complete,
                stage_view.decided,
                stage_view.unused_sorteios,
            )
        elif isinstance(stage_view, KnockoutStageView):
            out[f"k:{key}"] = (stage_view.order, stage_view.bracket, stage_view.waiting_for)
    out["c"] = (view.finished, view.classification)
    return out


def parts_changed(before: TournamentView, after: TournamentView) -> list[str]:
    """The keys of the parts that differ between two views of one tournament (new or gone ones included)."""
    old, new = parts_of(before), parts_of(after)
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))


# --- advancing a state ------------------------------------------------------------------------------


def state_advance_to(*, state: TournamentState, tournament: Tournament) -> TournamentState | None:
    """``state`` advanced to ``tournament.results_version`` by replaying the log; None when it cannot be (a
    structural change, a gap in the log, too many changes): then the whole state is built."""
    behind = tournament.results_version - state.version
    if behind <= 0 or behind > REPLAY_MAX:
        return None
    changes = list(
        TournamentChange.objects.filter(
            tournament=tournament, version__gt=state.version, version__lte=tournament.results_version
        )
        .order_by("version")
        .values_list("version", "jogos", "duplas", "parts")
    )
    if len(changes) != behind or any(jogos is None for _v, jogos, _d, _p in changes):
        return None
    advanced = state_advance(
        state=state,
        jogo_ids={i for _v, jogos, _d, _p in changes for i in jogos or ()},  # (none is None: checked above)
        dupla_ids={i for _v, _j, duplas, _p in changes for i in duplas or ()},
        tournament=tournament,
    )
    if advanced is not None:
        versions = dict(state.part_versions)
        for version, _jogos, _duplas, parts in changes:
            versions.update(dict.fromkeys(parts, version))
        advanced = replace(advanced, part_versions=versions)
    return advanced


def _rows_replaced(rows: list[JogoRow], fresh: list[JogoRow], stage_order: dict[int, int]) -> list[JogoRow]:
    """``rows`` (in ``jogo_order``) with each of ``fresh`` in its jogo's place: found by bisection, not by walking
    every jogo of the event; a row not where its order says (a jogo new to the state, or one whose mesa moved) sends
    the rest down the walk, which keeps a moved jogo where it was and puts new ones in order."""
    out, left = list(rows), []
    for row in fresh:
        i = bisect_left(out, jogo_order(row, stage_order), key=lambda j: jogo_order(j, stage_order))
        if i < len(out) and out[i].id == row.id:
            out[i] = row
        else:
            left.append(row)
    if left:
        by_id = {j.id: j for j in left}
        out = [by_id.pop(j.id, j) for j in out]
        if by_id:  # jogos new to this state (the next knockout jogos): in their place
            out = sorted(out + list(by_id.values()), key=lambda j: jogo_order(j, stage_order))
    return out


def state_advance(
    *, state: TournamentState, jogo_ids: set[int], tournament: Tournament, dupla_ids: AbstractSet[int] = frozenset()
) -> TournamentState | None:
    """See ``_advance``; the cyclic collector paused meanwhile (the copies allocate much and make no cycles)."""
    with gc_paused():
        return _advance(state=state, jogo_ids=jogo_ids, tournament=tournament, dupla_ids=dupla_ids)


def _advance(
    *, state: TournamentState, jogo_ids: set[int], tournament: Tournament, dupla_ids: AbstractSet[int] = frozenset()
) -> TournamentState | None:
    """``state`` with the records of these jogos (and the public fields of these duplas) read again and the
    parts they touch computed again; labelled with ``tournament``'s version. None when they no longer fit
    the state (a jogo gone or moved stage, a dupla gone): then the whole state is built."""
    version = tournament.results_version
    if dupla_ids:
        reread = _duplas_reread(state, dupla_ids)
        if reread is None:
            return None
        state = reread
    if not jogo_ids and not dupla_ids:
        return replace(state, tournament=tournament, version=version)
    ids = sorted(jogo_ids)
    rows, partida_rows, mao_rows = jogos_reread(tournament_id=tournament.pk, ids=ids)
    by_id = {d.id: d for d in state.duplas.values()}
    stage_key = {s.id: s.key for s in state.stage_models.values()}
    group_key = {gid: g for (_stage, g), gid in state.group_names.items()}
    if len(rows) != len(ids) or any(
        r.dupla_a_id not in by_id
        or r.dupla_b_id not in by_id
        or r.stage_id not in stage_key
        or (r.group_id is not None and r.group_id not in group_key)
        for r in rows
    ):
        return None
    partidas, maos = dict(state.partidas), dict(state.maos)
    entries, results, record_by_jogo = dict(state.entries), dict(state.results), dict(state.record_by_jogo)
    touched_groups: set[tuple[str, str]] = set()
    touched_duplas: set[str] = {d.key for d in state.duplas.values() if d.id in dupla_ids}
    for jid in ids:
        for p in partidas.pop(jid, ()):
            maos.pop(p.id, None)
        old = record_by_jogo.pop(jid, None)
        if old is not None:
            touched_duplas.update(old.duplas)
            if old.group is not None:
                touched_groups.add((old.stage, old.group))
    for p in partida_rows:
        partidas.setdefault(p.jogo_id, []).append(p)
    for m in mao_rows:
        maos.setdefault(m["partida_id"], []).append(m)
    earlier = _counted_earlier_vias(rows, by_id=by_id, settings=state.settings)
    for j in rows:
        entry = jogo_entry_from_rows(jogo=j, partidas=partidas.get(j.id, []), maos=maos)
        entries[j.id] = entry
        results[j.id] = result = jogo_evaluate(entry=entry, settings=state.settings)[0] if entry else None
        record = jogo_record(
            jogo=j, result=result, earlier=earlier.get(j.id), stage_key=stage_key, group_key=group_key, by_id=by_id
        )
        touched_duplas.update((by_id[j.dupla_a_id].key, by_id[j.dupla_b_id].key))
        if j.group_id is not None:
            touched_groups.add((stage_key[j.stage_id], group_key[j.group_id]))
        if record is not None:
            record_by_jogo[j.id] = record
    jogo_rows = _rows_replaced(state.jogo_rows, rows, {s.id: s.order for s in state.stage_models.values()})
    records = [record_by_jogo[j.id] for j in jogo_rows if j.id in record_by_jogo]
    # the touched groups' records, in the jogos' order, from the rows' group ids: scoring need not sort every record
    # of the event by group to find them (6,000 records at 4,096 duplas)
    touched_ids = {state.group_names[place]: place for place in touched_groups if place in state.group_names}
    group_records: dict[tuple[str, str], list[JogoRecord]] = {place: [] for place in touched_ids.values()}
    for j in jogo_rows:
        if j.group_id in touched_ids and j.id in record_by_jogo:
            group_records[touched_ids[j.group_id]].append(record_by_jogo[j.id])
    view = tournament_compute(
        settings=state.settings,
        duplas=state.dupla_infos,
        stages=state.stage_specs,
        jogos=records,
        previous=state.view,
        touched=Touched(groups=frozenset(touched_groups), duplas=frozenset(touched_duplas)),
        group_records=group_records,
    )
    return replace(
        state,
        tournament=tournament,
        version=version,
        jogo_rows=jogo_rows,
        entries=entries,
        results=results,
        maos=maos,
        partidas=partidas,
        records=records,
        record_by_jogo=record_by_jogo,
        view=view,
    )


# --- a write's end ----------------------------------------------------------------------------------


def engine_commit(*, write: Write) -> TournamentState | None:
    """The end of a write (``writes.Write``, inside its transaction): recompute what it touched, follow the
    bracket, version the changed parts, log it. Returns the new state (to keep once the write commits), None
    when nothing the results show changed."""
    tournament = write.tournament
    if tournament is None or write.kind in (PRIVATE, LIVE):
        return None
    base = write.base
    structural = write.kind == STRUCTURE or base is None
    if write.kind == RESULTS and not write.jogos and not write.duplas:
        return None  # nothing that counts changed (a first confirmation): the live pages follow the jogo's version
    state: TournamentState | None = None
    if not structural:
        state = state_advance(state=base, jogo_ids=set(write.jogos), dupla_ids=set(write.duplas), tournament=tournament)
        structural = state is None
    if structural:
        state = tournament_state_load(tournament=tournament)
    assert state is not None  # advanced, else loaded
    touched = set(write.jogos)
    followed = _bracket_follow(tournament=tournament, state=state)
    if followed.draws:
        structural = True  # the knockout's recorded draw is part of the stages' description
        state = tournament_state_load(tournament=tournament)
    elif followed.jogos:
        touched |= followed.jogos
        state = state_advance(state=state, jogo_ids=followed.jogos, tournament=tournament) or tournament_state_load(
            tournament=tournament
        )
    version = tournament.results_version + 1
    finished = state.view.finished if not followed.created else False
    parts = sorted(parts_of(state.view)) if structural else parts_changed(base.view, state.view)
    if not structural and write.duplas:  # a dupla's rows show it (disqualified): the tables it is in change too
        parts = sorted(set(parts) | _group_parts_of(state, write.duplas))
    Tournament.objects.filter(pk=tournament.pk).update(results_version=version, finished=finished)
    TournamentChange.objects.create(
        tournament=tournament,
        version=version,
        action=write.action[:40],
        jogos=None if structural else sorted(touched),
        duplas=[] if structural else sorted(write.duplas),
        parts=parts,
    )
    if structural:
        ResultPart.objects.filter(tournament=tournament).exclude(key__in=parts).delete()
    _parts_save(tournament=tournament, keys=parts, version=version)
    tournament.results_version, tournament.finished = version, finished
    versions = {} if structural else dict(base.part_versions)
    versions.update(dict.fromkeys(parts, version))
    state = replace(state, tournament=tournament, version=version, part_versions=versions)
    write.version, write.parts, write.created_jogos, write.structural = version, parts, followed.created, structural
    return state


def _group_parts_of(state: TournamentState, dupla_ids: set[int]) -> set[str]:
    keys = {d.key for d in state.duplas.values() if d.id in dupla_ids}
    return {
        f"g:{stage}:{group}" for (stage, group), part in state.view.group_parts.items() if keys & set(part.table.duplas)
    }


def _duplas_reread(state: TournamentState, ids: AbstractSet[int]) -> TournamentState | None:
    """``state`` with these duplas' public fields (disqualification, name, seed) as the database has them."""
    rows = {
        row["id"]: row
        for row in Dupla.objects.filter(pk__in=ids).values(
            "id", "key", "name", "seed", "disqualified", "disqualified_reason"
        )
    }
    by_id = {d.id: d for d in state.duplas.values()}
    if set(rows) != set(ids) or any(i not in by_id or rows[i]["key"] != by_id[i].key for i in ids):
        return None
    duplas = dict(state.duplas)
    for i in ids:
        row = rows[i]
        duplas[row["key"]] = replace(
            by_id[i],
            name=row["name"],
            seed=row["seed"],
            disqualified=row["disqualified"],
            disqualified_reason=row["disqualified_reason"],
        )
    changed = {rows[i]["key"]: duplas[rows[i]["key"]] for i in ids}
    infos = [
        replace(
            info,
            name=changed[info.key].name,
            seed=changed[info.key].seed,
            disqualified=changed[info.key].disqualified,
            disqualified_reason=changed[info.key].disqualified_reason,
        )
        if info.key in changed
        else info
        for info in state.dupla_infos
    ]
    return replace(state, duplas=duplas, dupla_infos=infos)


def _parts_save(*, tournament: Tournament, keys: list[str], version: int) -> None:
    if not keys:
        return
    ResultPart.objects.bulk_create(
        [ResultPart(tournament=tournament, key=k, version=version) for k in keys],
        update_conflicts=True,
        unique_fields=["tournament", "key"],
        update_fields=["version"],
        batch_size=500,
    )


class _Followed:
    def __init__(self) -> None:
        self.draws: list[Draw] = []
        self.jogos: set[int] = set()  # jogos created or whose duplas changed
        self.created = 0


def _bracket_follow(*, tournament: Tournament, state: TournamentState) -> _Followed:
    """What the results decide in the brackets: the knockout's draw recorded once its entrants are known, a
    jogo for every bracket jogo whose duplas are known (winners advance), and the duplas of a jogo not begun
    changed when a corrected result changed who plays it."""
    out = _Followed()
    existing = {
        (j.stage_id, j.round, j.position, j.third_place): j
        for j in state.jogo_rows
        if j.round is not None and j.group_id is None
    }
    fresh = None
    to_create: list[Jogo] = []
    to_update: list[Jogo] = []
    for view in state.view.stages:
        if not isinstance(view, KnockoutStageView) or view.bracket is None:
            continue
        bracket = view.bracket
        stage = state.stage_models[view.stage.key]
        mesas: dict[tuple[int, int], int] | None = None  # by slot, made for the stage's first new jogo
        if view.stage.key not in state.recorded_orders:
            out.draws.append(
                Draw(
                    tournament=tournament,
                    kind=Draw.BRACKET,
                    stage=stage,
                    method=stage.draw_method,
                    seed=stage.draw_seed,
                    result={"order": view.order},
                )
            )
        for slot in bracket.jogos():
            key = (stage.id, slot.round, slot.position, slot.third_place)
            a, b = slot.duplas
            if slot.bye or a is None or b is None:
                continue
            if key in existing:
                moved = _moved(existing[key], (a, b), state)
                if moved is not None:
                    to_update.append(moved)
                continue
            if fresh is None:
                fresh = jogo_keys_new(taken=(j.key for j in state.jogo_rows))
            if mesas is None:
                assert view.order is not None  # a stage with a bracket has its draw
                mesas = mesa_rules.knockout_mesas(order=view.order, mesas=tournament.mesas)
            to_create.append(
                Jogo(
                    tournament=tournament,
                    stage=stage,
                    dupla_a_id=state.duplas[a].id,
                    dupla_b_id=state.duplas[b].id,
                    round=slot.round,
                    position=slot.position,
                    third_place=slot.third_place,
                    best_of=slot.best_of,
                    key=next(fresh),
                    mesa=mesas[(slot.round, slot.position)],
                )
            )
    Draw.objects.bulk_create(out.draws)
    created = Jogo.objects.bulk_create(to_create, batch_size=500)
    Jogo.objects.bulk_update(to_update, ["dupla_a", "dupla_b"])
    out.created = len(created)
    out.jogos = {j.pk for j in created} | {j.pk for j in to_update}
    return out


def _moved(row: JogoRow, duplas: tuple[str, str], state: TournamentState) -> Jogo | None:
    """A knockout jogo not begun whose duplas the bracket now says are others (a corrected result changed
    a winner): the jogo with the right duplas, to save; None when nothing moved or it has begun."""
    a, b = state.duplas[duplas[0]].id, state.duplas[duplas[1]].id
    if (
        (row.dupla_a_id, row.dupla_b_id) == (a, b)
        or row.status != Jogo.SCHEDULED
        or state.entries.get(row.id) is not None
    ):
        return None
    return Jogo(pk=row.id, dupla_a_id=a, dupla_b_id=b)
