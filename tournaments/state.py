"""A tournament's derived state, built from the database: what every page, sheet and export reads.

``tournament_state_load`` loads a tournament in a fixed, small number of queries and hands it to ``scoring``;
the results engine (``engine.py``) advances a state after a write without loading it all again, and
``selectors.tournament_state_get`` keeps the states of this process.
"""

import gc
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from scoring.jogo import WALKOVER_BOTH, JogoEntry, JogoResult, PartidaEntry, jogo_evaluate
from scoring.partida import Mao as MaoRecord
from scoring.rules import RuleSettings, settings_build
from scoring.sumula import counts
from scoring.tournament import DuplaInfo, GroupSpec, JogoRecord, StageSpec, TournamentView, tournament_compute

from .models import Draw, Dupla, GroupEntry, Jogo, Mao, Partida, ResultPart, Stage, SumulaVia, Tournament
from .result_form import Errors, result_read
from .rows import (
    JogoRow,
    PartidaRow,
    jogo_rows_pack,
    jogo_rows_read,
    jogo_rows_unpack,
    partida_rows_pack,
    partida_rows_read,
    partida_rows_unpack,
)

SIDE_INDEX = {"a": 0, "b": 1, "": None}


_gc_pauses = 0  # builds under way
_gc_was_enabled = False
_GC_LOCK = threading.Lock()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a large state is built or read.

    Building a large tournament's state allocates hundreds of thousands of
    objects and no reference cycles, so the collector would only re-scan live
    objects (about 40 % of the time at 1,024 duplas). Reference counting still
    frees everything; the collector resumes, as it was, when the last pause ends.
    """
    global _gc_pauses, _gc_was_enabled
    with _GC_LOCK:
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _gc_pauses -= 1
            if _gc_pauses == 0 and _gc_was_enabled:
                gc.enable()


def tournament_settings(*, tournament: Tournament) -> RuleSettings:
    settings, _errors = settings_build(preset=tournament.preset, overrides=tournament.settings or {})
    if settings is None:  # stored overrides are validated on the way in; fall back to the preset
        settings, _ = settings_build(preset=tournament.preset)
    assert settings is not None  # a preset alone always builds
    return settings


@dataclass(frozen=True)
class PlayerRef:
    """What the pages and the file say of a player (public fields only)."""

    id: int
    key: str
    name: str


@dataclass(frozen=True)
class DuplaRef:
    """What the pages and the file say of a dupla (public fields only: no PIN)."""

    id: int
    key: str
    name: str
    seed: int | None
    disqualified: bool
    disqualified_reason: str
    player1: PlayerRef
    player2: PlayerRef

    @property
    def display_name(self) -> str:
        return self.name or f"{self.player1.name} / {self.player2.name}"


@dataclass
class TournamentState:
    """Everything a page or the export needs, with the derived views computed once."""

    tournament: Tournament
    settings: RuleSettings
    duplas: dict[str, DuplaRef]  # in the tournament's order
    stage_models: dict[str, Stage]
    group_names: dict[tuple[str, str], int]  # (stage, group) -> group id
    jogo_rows: list[JogoRow]
    entries: dict[int, JogoEntry | None]  # jogo id -> its record
    results: dict[int, JogoResult | None]
    maos: dict[int, list[Mapping[str, Any]]]  # partida id -> its mãos (rows of ``values()``)
    partidas: dict[int, list[PartidaRow]]  # jogo id -> its partidas (rows)
    recorded_orders: dict[str, list]  # knockout stage -> recorded draw
    sorteio_draws: list[Mapping[str, Any]]  # the tiebreak draws (rows of ``values()``)
    view: TournamentView
    stage_specs: list[StageSpec] = field(default_factory=list)
    records: list[JogoRecord] = field(default_factory=list)  # what counts, as handed to ``scoring``
    record_by_jogo: dict[int, JogoRecord] = field(default_factory=dict)  # jogo id -> its entry in ``records``
    version: int = 0  # the tournament's ``results_version`` these views are of
    dupla_infos: list[DuplaInfo] = field(default_factory=list)  # the duplas as ``scoring`` sees them
    part_versions: dict[str, int] = field(default_factory=dict)  # part key -> the version that last changed it

    def __getstate__(self) -> dict:
        """Pickled (``snapshots.py``, ``caching.py``) with its rows as tuples, packed and unpacked in one pass
        each rather than by a call per row (``rows.py``): as fast as the dicts were, and smaller."""
        state = dict(self.__dict__)
        state["jogo_rows"] = jogo_rows_pack(self.jogo_rows)
        state["partidas"] = {jogo_id: partida_rows_pack(rows) for jogo_id, rows in self.partidas.items()}
        return state

    def __setstate__(self, state: dict) -> None:
        state["jogo_rows"] = jogo_rows_unpack(state["jogo_rows"])
        state["partidas"] = {jogo_id: partida_rows_unpack(rows) for jogo_id, rows in state["partidas"].items()}
        self.__dict__.update(state)

    def dupla(self, key: str | None) -> DuplaRef | None:
        return self.duplas.get(key) if key else None

    def dupla_key_by_id(self) -> dict[int, str]:
        return {d.id: k for k, d in self.duplas.items()}


def tournament_state_load(*, tournament: Tournament) -> TournamentState:
    """Load a tournament (8 queries at most, whatever its size) and derive every view.

    The state lives long and holds hundreds of thousands of objects without cycles: once built it is moved
    out of the cyclic collector's sight (``gc.freeze``), so a later collection, set off by any request's
    allocations, does not walk it again (a pause of 100 ms at 4,096 duplas). Reference counting still frees
    it when it is dropped (``long_lived``).
    """
    return long_lived(lambda: _state_build(tournament))


def long_lived[T](make: Callable[[], T]) -> T:
    """``make()`` (a whole state, built or unpickled) with the cyclic collector paused, then moved out of its
    sight (``gc.freeze``) with everything else alive: a state is hundreds of thousands of objects without cycles
    that live until a newer one replaces them. Left in sight, they are walked again by every full collection,
    which any request's allocations set off once enough objects survived since the last one (a pause of 400 ms
    at 4,096 duplas, every few counted results, for a state read from Redis or a snapshot). Reference counting
    still frees them when they are dropped."""
    gc.collect(1)  # the young garbage first, while it is small (it would stay uncollected once frozen)
    with gc_paused():
        value = make()
        # out of sight before the collector resumes: its next young collection would walk the whole new state
        # (twice the time of a collection asked for, 200 ms at 4,096 duplas)
        gc.freeze()
    return value


def _state_build(tournament: Tournament) -> TournamentState:
    settings = tournament_settings(tournament=tournament)
    # the parts' versions before the records they version: a write committing in between makes the records
    # newer than their versions (a fragment cached early), never older (a stale fragment under a new version)
    part_versions = dict(ResultPart.objects.filter(tournament=tournament).values_list("key", "version"))
    duplas = [
        DuplaRef(
            id=row["id"],
            key=row["key"],
            name=row["name"],
            seed=row["seed"],
            disqualified=row["disqualified"],
            disqualified_reason=row["disqualified_reason"],
            player1=PlayerRef(row["player1_id"], row["player1__key"], row["player1__name"]),
            player2=PlayerRef(row["player2_id"], row["player2__key"], row["player2__name"]),
        )
        for row in Dupla.objects.filter(tournament=tournament)
        .order_by("order", "id")
        .values(
            "id",
            "key",
            "name",
            "seed",
            "disqualified",
            "disqualified_reason",
            "player1_id",
            "player1__key",
            "player1__name",
            "player2_id",
            "player2__key",
            "player2__name",
        )
    ]
    by_id = {d.id: d for d in duplas}
    stages = list(Stage.objects.filter(tournament=tournament).order_by("order"))
    stage_by_id = {s.id: s for s in stages}
    group_entries = list(
        GroupEntry.objects.filter(group__stage__tournament=tournament)
        .select_related("group")
        .order_by("group__stage_id", "group__order", "order")
        .values("group_id", "group__key", "group__stage_id", "group__order", "dupla_id")
    )
    draw_rows = list(
        Draw.objects.filter(tournament=tournament, kind__in=[Draw.BRACKET, Draw.TIEBREAK])
        .order_by("performed_at", "id")
        .values("kind", "stage_id", "group_id", "result", "performed_at", "performed_by__username")
    )
    jogo_rows = jogo_rows_read(Jogo.objects.filter(tournament=tournament))
    partida_rows = partida_rows_read(Partida.objects.filter(jogo__tournament=tournament).order_by("jogo_id", "number"))
    mao_rows: list[Mapping[str, Any]] = []
    if any(p.mode == Partida.MAOS for p in partida_rows):
        mao_rows = list(
            Mao.objects.filter(partida__jogo__tournament=tournament)
            .order_by("partida_id", "order")
            .values("partida_id", "to", "points", "how", "reason", "key")
        )

    stage_order = {s.id: s.order for s in stages}
    jogo_rows.sort(key=lambda j: jogo_order(j, stage_order))
    group_key_by_id: dict[int, str] = {}
    groups_by_stage: dict[int, dict[str, list[str]]] = {}
    group_ids: dict[tuple[str, str], int] = {}
    for e in group_entries:
        group_key_by_id[e["group_id"]] = e["group__key"]
        groups_by_stage.setdefault(e["group__stage_id"], {}).setdefault(e["group__key"], []).append(
            by_id[e["dupla_id"]].key
        )
        group_ids[(stage_by_id[e["group__stage_id"]].key, e["group__key"])] = e["group_id"]
    recorded: dict[str, list] = {}
    sorteios: dict[int, list] = {}
    for d in draw_rows:
        if d["kind"] == Draw.BRACKET and d["stage_id"] in stage_by_id:
            recorded[stage_by_id[d["stage_id"]].key] = d["result"]["order"]
        elif d["kind"] == Draw.TIEBREAK and d["stage_id"] in stage_by_id:
            sorteios.setdefault(d["stage_id"], []).append(
                (group_key_by_id.get(d["group_id"]), tuple(d["result"]["order"]))
            )

    specs: list[StageSpec] = []
    for s in stages:
        if s.kind == Stage.GROUPS:
            groups = tuple(GroupSpec(key=k, duplas=tuple(v)) for k, v in groups_by_stage.get(s.id, {}).items())
            specs.append(
                StageSpec(
                    key=s.key,
                    kind=s.kind,
                    name=s.name,
                    best_of=s.best_of,
                    groups=groups,
                    per_group=s.qualify_per_group,
                    best_others=s.qualify_best_others,
                    sorteios=tuple(sorteios.get(s.id, ())),
                )
            )
        else:
            entrants = s.entrants if s.entrants == "previous" else tuple(s.entrants or ())
            order = recorded.get(s.key)
            specs.append(
                StageSpec(
                    key=s.key,
                    kind=s.kind,
                    name=s.name,
                    best_of=s.best_of,
                    best_of_rounds={int(k): v for k, v in (s.best_of_rounds or {}).items()},
                    entrants=entrants,
                    draw_method=s.draw_method,
                    draw_seed=s.draw_seed,
                    draw_order=tuple(order) if order is not None else None,
                )
            )

    maos_by_partida: dict[int, list[Mapping[str, Any]]] = {}
    for m in mao_rows:
        maos_by_partida.setdefault(m["partida_id"], []).append(m)
    partidas_by_jogo: dict[int, list[PartidaRow]] = {}
    for p in partida_rows:
        partidas_by_jogo.setdefault(p.jogo_id, []).append(p)

    entries: dict[int, JogoEntry | None] = {}
    results: dict[int, JogoResult | None] = {}
    record_by_jogo: dict[int, JogoRecord] = {}
    earlier = _counted_earlier_vias(jogo_rows, by_id=by_id, settings=settings)
    stage_key = {s.id: s.key for s in stages}
    for j in jogo_rows:
        entry = jogo_entry_from_rows(jogo=j, partidas=partidas_by_jogo.get(j.id, []), maos=maos_by_partida)
        entries[j.id] = entry
        results[j.id] = result = jogo_evaluate(entry=entry, settings=settings)[0] if entry is not None else None
        record = jogo_record(
            jogo=j,
            result=result,
            earlier=earlier.get(j.id),
            stage_key=stage_key,
            group_key=group_key_by_id,
            by_id=by_id,
        )
        if record is not None:
            record_by_jogo[j.id] = record
    records = [record_by_jogo[j.id] for j in jogo_rows if j.id in record_by_jogo]
    infos = [
        DuplaInfo(
            key=d.key,
            players=(d.player1.key, d.player2.key),
            name=d.name,
            seed=d.seed,
            disqualified=d.disqualified,
            disqualified_reason=d.disqualified_reason,
        )
        for d in duplas
    ]
    view = tournament_compute(settings=settings, duplas=infos, stages=specs, jogos=records)
    return TournamentState(
        tournament=tournament,
        settings=settings,
        duplas={d.key: d for d in duplas},
        stage_models={s.key: s for s in stages},
        group_names=group_ids,
        jogo_rows=jogo_rows,
        entries=entries,
        results=results,
        maos=maos_by_partida,
        partidas=partidas_by_jogo,
        recorded_orders=recorded,
        sorteio_draws=[d for d in draw_rows if d["kind"] == Draw.TIEBREAK],
        view=view,
        stage_specs=specs,
        records=records,
        record_by_jogo=record_by_jogo,
        version=tournament.results_version,
        dupla_infos=infos,
        part_versions=part_versions,
    )


def jogo_order(row: JogoRow, stage_order: dict[int, int]) -> tuple:
    """Where a jogo comes in a tournament's list: stage, round, third place last, position, mesa (none first)."""

    def n(value: int | None) -> tuple[int, int]:
        return (0, 0) if value is None else (1, value)

    return (
        stage_order.get(row.stage_id, 0),
        n(row.round),
        row.third_place,
        n(row.position),
        n(row.mesa),
        row.id,
    )


def jogo_record(
    *,
    jogo: JogoRow,
    result: JogoResult | None,
    earlier: JogoResult | None,
    stage_key: dict[int, str],
    group_key: dict[int, str],
    by_id: dict,
) -> JogoRecord | None:
    """What a jogo hands to ``scoring``: its result from "confirmed" on, else an earlier via that counted; None
    otherwise (nothing recorded, or a result still to be confirmed: what counts moves only with what counts, so
    a mão never changes the standings' state; the live pages show the score from ``tournament_live_get``)."""
    if not counts(jogo.status):
        result = earlier
    if result is None:
        return None
    return JogoRecord(
        stage=stage_key[jogo.stage_id],
        group=group_key.get(jogo.group_id) if jogo.group_id is not None else None,
        duplas=(by_id[jogo.dupla_a_id].key, by_id[jogo.dupla_b_id].key),
        result=result,
        round=jogo.round if jogo.group_id is None else None,
        position=jogo.position,
        third_place=jogo.third_place,
    )


def _counted_earlier_vias(jogo_rows: list[JogoRow], *, by_id: dict, settings: RuleSettings) -> dict[int, JogoResult]:
    """The counted result of each jogo whose current via is still to be confirmed after a correction."""
    waiting = {
        j.id: j for j in jogo_rows if j.counted_via is not None and j.counted_via != j.via and not counts(j.status)
    }
    if not waiting:
        return {}
    out: dict[int, JogoResult] = {}
    for v in SumulaVia.objects.filter(jogo_id__in=list(waiting)).values("jogo_id", "via", "result"):
        j = waiting[v["jogo_id"]]
        if v["via"] != j.counted_via:
            continue
        duplas = (by_id[j.dupla_a_id].key, by_id[j.dupla_b_id].key)
        entry = result_read(v["result"], "", duplas, j.best_of, Errors())
        if entry is not None:
            out[j.id] = jogo_evaluate(entry=entry, settings=settings)[0]
    return out


def jogo_entry_from_rows(
    *, jogo: JogoRow | Jogo, partidas: Sequence[PartidaRow | Partida], maos: Mapping[int, Sequence[Mapping[str, Any]]]
) -> JogoEntry | None:
    """A stored jogo as the record ``scoring`` checks; None while nothing is recorded."""
    if jogo.walkover:
        return JogoEntry(
            best_of=jogo.best_of,
            walkover=WALKOVER_BOTH if jogo.walkover == "both" else SIDE_INDEX[jogo.walkover],
            reason=jogo.penalty_reason,
        )
    if jogo.lost_by:
        return JogoEntry(best_of=jogo.best_of, lost_by=SIDE_INDEX[jogo.lost_by], reason=jogo.penalty_reason)
    if not partidas:
        return None
    out = []
    for p in partidas:
        if p.mode == Partida.PENALTY:
            out.append(PartidaEntry(lost_by=SIDE_INDEX[p.lost_by], reason=p.penalty_reason))
        elif p.mode == Partida.MAOS:
            out.append(
                PartidaEntry(
                    maos=tuple(
                        MaoRecord(to=m["to"], points=m["points"], how=m["how"], reason=m["reason"], key=m["key"])
                        for m in maos.get(p.id, [])
                    )
                )
            )
        else:
            # as stored: the rules check it (a score missing is "placar inválido")
            out.append(PartidaEntry(score=cast(tuple[int, int], (p.score_a, p.score_b))))
    return JogoEntry(best_of=jogo.best_of, partidas=tuple(out))
