"""The whole event derived from its records: stage tables, qualifiers, brackets, classification.

Callers (the importer, the pages, the export) describe the tournament with
the plain records below and get every computed view from here, so each rule
lives in one place.
"""

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import bracket_draw
from .bracket import Bracket, bracket_build, eliminated_round
from .errors import RuleError
from .jogo import JogoResult
from .messages import _
from .rules import RuleSettings
from .standings import (
    DuplaStats,
    GroupJogo,
    StandingRow,
    average_key,
    cross_group_order,
    cut_is_decided,
    group_standings,
    rows_qualify,
    stats_collect,
)

GROUPS, KNOCKOUT = "groups", "knockout"
PREVIOUS = "previous"
DRAW_METHODS = ("seeded", "random", "fixed")


@dataclass(frozen=True)
class DuplaInfo:
    key: str
    players: tuple[str, ...]
    name: str = ""
    seed: int | None = None
    disqualified: bool = False
    disqualified_reason: str = ""


@dataclass(frozen=True)
class GroupSpec:
    key: str
    duplas: tuple[str, ...]


@dataclass(frozen=True)
class StageSpec:
    key: str
    kind: str
    name: str = ""
    best_of: int | None = None  # None: the preset's default
    best_of_rounds: Mapping[int, int] = field(default_factory=dict)
    groups: tuple[GroupSpec, ...] = ()
    per_group: int = 0
    best_others: int = 0
    sorteios: tuple[tuple[str | None, tuple[str, ...]], ...] = ()  # (group or None for across groups, order)
    entrants: str | tuple[str, ...] = PREVIOUS
    draw_method: str = "seeded"
    draw_seed: int | None = None
    draw_order: tuple[str | None, ...] | None = None  # the draw's recorded result (first-round slots)


@dataclass(frozen=True)
class JogoRecord:
    stage: str
    duplas: tuple[str, str]
    result: JogoResult
    group: str | None = None
    round: int | None = None  # knockout round (1-based)
    position: int | None = None  # knockout position inside the round (1-based)
    third_place: bool = False


@dataclass
class GroupTable:
    key: str
    duplas: tuple[str, ...]
    rows: list[StandingRow]
    complete: bool
    jogos_total: int
    jogos_done: int


@dataclass
class GroupStageView:
    stage: StageSpec
    tables: list[GroupTable]
    others: list[StandingRow]  # the candidates for the best-others places, compared across groups
    complete: bool  # every jogo has a result
    decided: bool  # complete, and no tie awaiting a sorteio decides a qualifying place
    qualifiers: list[tuple[str, str]]  # (dupla, group) in seed order; empty until decided
    unused_sorteios: list[tuple[str | None, tuple[str, ...]]]


@dataclass
class KnockoutStageView:
    stage: StageSpec
    order: list[str | None] | None  # first-round slots, None until drawn
    bracket: Bracket | None
    waiting_for: str = ""  # why it is not drawn yet (pt-BR)


def knockout_best_of(*, stage: StageSpec, round_number: int, settings: RuleSettings) -> int:
    """Best-of of a knockout round: the round's override, else the stage's, else the preset's."""
    if round_number in stage.best_of_rounds:
        return stage.best_of_rounds[round_number]
    if stage.best_of is not None:
        return stage.best_of
    return settings.best_of_first_knockout if round_number == 1 else settings.best_of_later_knockout


def group_best_of(*, stage: StageSpec, settings: RuleSettings) -> int:
    return stage.best_of if stage.best_of is not None else settings.best_of_groups


@dataclass(frozen=True)
class GroupPart:
    """One group's table as its own jogos decide it (a part of the results, recomputed only when they change):
    before the stage's cross-group pass marks best-others places."""

    table: GroupTable
    used: frozenset[frozenset[str]]  # the sorteios (as frozensets of duplas) that decided one of its ties


def group_part_compute(
    *, stage: StageSpec, group: GroupSpec, jogos: Sequence[JogoRecord], settings: RuleSettings
) -> GroupPart:
    """One group's table from its jogos (those of ``jogos`` in this stage and group) and its sorteios."""
    played = [
        GroupJogo(duplas=j.duplas, result=j.result) for j in jogos if j.stage == stage.key and j.group == group.key
    ]
    draws = [order for g, order in stage.sorteios if g == group.key]
    rows, used = group_standings(duplas=group.duplas, jogos=played, points=settings.class_points, draws=draws)
    n = len(group.duplas)
    total = n * (n - 1) // 2
    done_pairs = {frozenset(j.duplas) for j in played if j.result.finished}
    complete = len(done_pairs) >= total
    if complete:
        rows = rows_qualify(rows, stage.per_group)
    table = GroupTable(
        key=group.key, duplas=group.duplas, rows=rows, complete=complete, jogos_total=total, jogos_done=len(done_pairs)
    )
    return GroupPart(table=table, used=frozenset(used))


def groups_stage_compute(*, stage: StageSpec, jogos: Sequence[JogoRecord], settings: RuleSettings) -> GroupStageView:
    """The stage's view: each group's table, then the comparison across groups (best others, qualifiers in seed
    order)."""
    by_group = _records_by_group(jogos)
    return groups_stage_assemble(
        stage=stage,
        parts=[
            group_part_compute(stage=stage, group=g, jogos=by_group.get((stage.key, g.key), ()), settings=settings)
            for g in stage.groups
        ],
    )


def groups_stage_assemble(*, stage: StageSpec, parts: Sequence[GroupPart]) -> GroupStageView:
    """The comparison across a stage's group tables: who qualifies, best others. The parts are not changed."""
    draws_by_group: dict[str | None, list[tuple[str, ...]]] = {}
    for group, order in stage.sorteios:
        draws_by_group.setdefault(group, []).append(order)
    used: set[tuple[str | None, frozenset[str]]] = {(p.table.key, u) for p in parts for u in p.used}
    tables = [p.table for p in parts]
    complete = all(t.complete for t in tables)
    decided = complete and all(cut_is_decided(t.rows, stage.per_group) for t in tables)

    others: list[StandingRow] = []
    qualifiers: list[tuple[str, str]] = []
    if stage.best_others:
        candidates: list[tuple[DuplaStats, int]] = []
        # candidates: the places right after the direct qualifiers, tier by tier, as many tiers as needed
        tier = stage.per_group + 1
        while len(candidates) < stage.best_others and any(len(t.rows) >= tier for t in tables):
            for t in tables:
                if len(t.rows) >= tier:
                    row = t.rows[tier - 1]
                    candidates.append((row.stats, len(t.duplas)))
            tier += 1
        rows, used_here = cross_group_order(candidates=candidates, draws=draws_by_group.get(None, ()))
        used.update((None, u) for u in used_here)
        others = rows_qualify(rows, stage.best_others) if decided else rows
        decided = decided and cut_is_decided(rows, stage.best_others)
    if decided:
        qualifiers = _seed_order(tables=tables, per_group=stage.per_group)
        best = {r.dupla for r in others if r.qualified}
        qualifiers += [(r.dupla, _group_of(tables, r.dupla)) for r in others if r.qualified]
        if best:  # a best-others place is a qualified place of its group table too (new tables: parts are kept)
            tables = [
                replace(t, rows=[replace(r, qualified=True) if r.dupla in best else r for r in t.rows])
                if any(d in best for d in t.duplas)
                else t
                for t in tables
            ]
    unused = [(g, o) for g, o in stage.sorteios if (g, frozenset(o)) not in used]
    return GroupStageView(
        stage=stage,
        tables=tables,
        others=others,
        complete=complete,
        decided=decided,
        qualifiers=qualifiers,
        unused_sorteios=unused,
    )


def _group_of(tables: Sequence[GroupTable], dupla: str) -> str:
    for t in tables:
        if dupla in t.duplas:
            return t.key
    return ""


def _seed_order(*, tables: Sequence[GroupTable], per_group: int) -> list[tuple[str, str]]:
    """Direct qualifiers tier by tier (all winners, then all seconds…), each tier ranked across groups."""
    out: list[tuple[str, str]] = []
    for tier in range(1, per_group + 1):
        tier_rows = [(t.rows[tier - 1], t) for t in tables if len(t.rows) >= tier]
        ranked, _ = cross_group_order(candidates=[(r.stats, len(t.duplas)) for r, t in tier_rows])
        group_index = {r.dupla: (i, t.key) for i, (r, t) in enumerate(tier_rows)}
        ranked_keys = sorted((r.rank, group_index[r.dupla][0], r.dupla) for r in ranked)
        out.extend((d, group_index[d][1]) for _, _, d in ranked_keys)
    return out


def knockout_draw(
    *, stage: StageSpec, entrants: Sequence[tuple[str, str | None]], duplas: Mapping[str, DuplaInfo]
) -> tuple[list[str | None] | None, list[RuleError]]:
    """Run (or replay) the draw of a knockout stage: the first-round slots in bracket order."""
    keys = [d for d, _ in entrants]
    if len(keys) < 2:
        return None, [RuleError("entrants", _("a fase eliminatória precisa de pelo menos 2 duplas"))]
    if stage.draw_method == "fixed" or stage.draw_order is not None:
        order = list(stage.draw_order or ())
        problems = bracket_draw.fixed_order_errors(order=order, known=set(keys))
        placed = {d for d in order if d is not None}
        missing = [d for d in keys if d not in placed]
        if missing:
            problems.append(_("a chave não inclui as duplas: %(missing)s", missing=", ".join(missing)))
        return (None if problems else order), [RuleError("draw.order", p) for p in problems]
    from_groups = stage.entrants == PREVIOUS
    if stage.draw_method == "random":
        if stage.draw_seed is None:
            return None, [RuleError("draw.seed", _("o sorteio da chave precisa de uma semente ('seed')"))]
        if from_groups:
            shuffled = list(entrants)
            random.Random(stage.draw_seed).shuffle(shuffled)
            return bracket_draw.crossed_order(entrants=_with_groups(shuffled)), []
        return bracket_draw.random_order(entrants=keys, seed=stage.draw_seed), []
    if from_groups:
        return bracket_draw.crossed_order(entrants=_with_groups(entrants)), []
    seeded = sorted((duplas[d].seed, i, d) for i, d in enumerate(keys) if duplas[d].seed is not None)
    unseeded = [d for d in keys if duplas[d].seed is None]
    if stage.draw_seed is not None:
        random.Random(stage.draw_seed).shuffle(unseeded)
    return bracket_draw.seeded_order(entrants=[d for _, _, d in seeded] + unseeded), []


def _with_groups(entrants: Sequence[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """Entrants with a group key each; one without a group is alone in its own."""
    return [(d, g if g is not None else f"\0{d}") for d, g in entrants]


def knockout_stage_compute(
    *, stage: StageSpec, order: Sequence[str | None] | None, jogos: Sequence[JogoRecord], settings: RuleSettings
) -> KnockoutStageView:
    if order is None:
        return KnockoutStageView(
            stage=stage,
            order=None,
            bracket=None,
            waiting_for=_("a chave será sorteada quando a fase anterior terminar"),
        )
    total = len(order).bit_length() - 1
    best_of = [knockout_best_of(stage=stage, round_number=r, settings=settings) for r in range(1, total + 1)]
    results = {
        (j.round, j.position if not j.third_place else 0, j.third_place): (j.duplas, j.result)
        for j in jogos
        if j.stage == stage.key and j.round is not None
    }
    bracket = bracket_build(
        order=order, best_of_for_round=best_of, results=results, third_place_match=settings.third_place == "match"
    )
    return KnockoutStageView(stage=stage, order=list(order), bracket=bracket)


@dataclass(frozen=True)
class Touched:
    """What a change to the records touched: the groups whose jogos changed (stage, group) and the duplas of
    the jogos that changed. Everything else of a previous view is kept as it was."""

    groups: frozenset[tuple[str, str]] = frozenset()
    duplas: frozenset[str] = frozenset()


@dataclass
class TournamentView:
    stages: list[GroupStageView | KnockoutStageView]
    finished: bool
    classification: list["ClassificationRow"]
    stats: dict[str, DuplaStats]  # over every stage (average of FENACEF Art.6 §3)
    group_parts: dict[tuple[str, str], GroupPart] = field(default_factory=dict)  # (stage, group) -> its part
    # the player ranking's inputs (duplas, jogos): ``scoring.ranking.ranking_compute`` reads them when asked,
    # not on every change
    ranking_input: tuple[Any, ...] = field(default=((), ()), compare=False, repr=False)

    def stage(self, key: str) -> "GroupStageView | KnockoutStageView | None":
        for view in self.stages:
            if view.stage.key == key:
                return view
        return None


def tournament_compute(
    *,
    settings: RuleSettings,
    duplas: Sequence[DuplaInfo],
    stages: Sequence[StageSpec],
    jogos: Sequence[JogoRecord],
    previous: TournamentView | None = None,
    touched: Touched | None = None,
    group_records: Mapping[tuple[str, str], Sequence[JogoRecord]] | None = None,
) -> TournamentView:
    """Every derived view of an event, in stage order.

    With ``previous`` (the view of the same event before a change) and ``touched`` (what the change touched),
    only the touched group tables and the duplas' totals are computed again; the comparisons across groups,
    the brackets and the classification, which are cheap, always are. The result equals a computation from
    scratch (tests/engine/test_engine_incremental.py). ``group_records``: the records of some groups, as ``jogos``
    holds them and in its order (the caller may know the touched groups' without a walk); any other group computed
    again finds its records in ``jogos``.
    """
    info = {d.key: d for d in duplas}
    group_parts: dict[tuple[str, str], GroupPart] = {}
    views: list[GroupStageView | KnockoutStageView] = []
    by_group: dict[tuple[str, str], list[JogoRecord]] | None = None
    for i, stage in enumerate(stages):
        if stage.kind == GROUPS:
            parts: list[GroupPart] = []
            for g in stage.groups:
                place = (stage.key, g.key)
                kept = (
                    previous.group_parts.get(place)
                    if (previous is not None and touched is not None and place not in touched.groups)
                    else None
                )
                if kept is None or kept.table.duplas != g.duplas:
                    given = group_records.get(place) if group_records is not None else None
                    if given is None:
                        if by_group is None:
                            by_group = _records_by_group(jogos)
                        given = by_group.get(place, ())
                    kept = group_part_compute(stage=stage, group=g, jogos=given, settings=settings)
                parts.append(kept)
                group_parts[place] = kept
            views.append(groups_stage_assemble(stage=stage, parts=parts))
            continue
        order: Sequence[str | None] | None = stage.draw_order
        if order is None:
            entrants = stage_entrants(stage=stage, previous=views[i - 1] if i else None)
            if entrants is not None:
                order, _ = knockout_draw(stage=stage, entrants=entrants, duplas=info)
        views.append(knockout_stage_compute(stage=stage, order=order, jogos=jogos, settings=settings))
    if previous is not None and touched is not None:
        stats = dict(previous.stats)
        for gone in set(stats) - set(info):
            del stats[gone]
        changed = set(touched.duplas) | (set(info) - set(stats))
        if changed:
            stats.update(
                stats_collect(
                    duplas=changed,
                    points=settings.class_points,
                    jogos=[
                        GroupJogo(j.duplas, j.result) for j in jogos if j.duplas[0] in changed or j.duplas[1] in changed
                    ],
                )
            )
        stats = {d: stats[d] for d in info}  # the event's order, as a computation from scratch gives
    else:
        stats = stats_collect(
            duplas=info, jogos=[GroupJogo(j.duplas, j.result) for j in jogos], points=settings.class_points
        )
    last = views[-1] if views else None
    finished = bool(last) and isinstance(last, KnockoutStageView) and last.bracket is not None and last.bracket.finished
    if last is not None and isinstance(last, GroupStageView):
        # an event of groups only ends when every place is known: no tie may still await its sorteio
        finished = len(views) == 1 and last.decided and not any(r.tied for t in last.tables for r in t.rows)
    classification = (
        classification_compute(views=views, duplas=info, stats=stats, settings=settings) if finished else []
    )
    return TournamentView(
        stages=views,
        finished=finished,
        classification=classification,
        stats=stats,
        group_parts=group_parts,
        ranking_input=(tuple(duplas), tuple(jogos)),
    )


def _records_by_group(jogos: Sequence[JogoRecord]) -> dict[tuple[str, str], list[JogoRecord]]:
    out: dict[tuple[str, str], list[JogoRecord]] = {}
    for j in jogos:
        if j.group is not None:
            out.setdefault((j.stage, j.group), []).append(j)
    return out


def stage_entrants(
    *, stage: StageSpec, previous: "GroupStageView | KnockoutStageView | None"
) -> list[tuple[str, str | None]] | None:
    """The knockout's entrants with their group, or None while the previous stage is not decided."""
    if stage.entrants != PREVIOUS:
        return [(d, None) for d in stage.entrants]
    if previous is None:
        return None
    if isinstance(previous, GroupStageView):
        return list(previous.qualifiers) if previous.decided else None
    if previous.bracket is None or not previous.bracket.final.decided:
        return None
    final = previous.bracket.final
    return [(final.winner, None)] if final.winner else None


# --- general classification (FENACEF Art.7) and medals ------------------------------

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}


@dataclass(frozen=True)
class ClassificationRow:
    place: int | None
    dupla: str
    players: tuple[str, ...]
    medal: str | None


def classification_compute(
    *,
    views: Sequence["GroupStageView | KnockoutStageView"],
    duplas: Mapping[str, DuplaInfo],
    stats: Mapping[str, DuplaStats],
    settings: RuleSettings,
) -> list[ClassificationRow]:
    """Knockout duplas by how far they got (ties by average), then group-eliminated duplas by average.

    A disqualified dupla keeps its results but takes no place or medal. A dupla
    knocked out by its own absence (walkover) is not disqualified: it keeps the
    place it reached and that place's medal (docs/regras.md §5.4).
    """

    def avg(d: str) -> tuple[int, float]:
        s = stats.get(d)
        return average_key(s.points_for, s.points_against) if s else (0, 0)

    knockout = next((v for v in reversed(views) if isinstance(v, KnockoutStageView) and v.bracket), None)
    ordered_blocks: list[list[str]] = []
    seen: set[str] = set()
    if knockout is not None:
        bracket = knockout.bracket
        assert bracket is not None  # picked for having one
        reached = eliminated_round(bracket)  # champion: total + 1; runner-up: total; semi-final losers: total - 1…
        total = len(bracket.rounds)
        third = bracket.third_place
        for level in range(total + 1, 0, -1):
            duplas_here = sorted(d for d, r in reached.items() if r == level and d not in seen)
            if not duplas_here:
                continue
            seen.update(duplas_here)
            if level == total - 1 and len(duplas_here) > 1:  # the semi-final losers: the third-place rule
                if settings.third_place == "shared":
                    ordered_blocks.append(duplas_here)  # one block: one place, one medal
                    continue
                if settings.third_place == "match" and third is not None and third.decided and third.winner:
                    ordered_blocks += [[third.winner]] + ([[third.loser]] if third.loser else [])
                    rest = [d for d in duplas_here if d not in (third.winner, third.loser)]
                    ordered_blocks += _split_by(rest, avg)
                    continue
            ordered_blocks += _split_by(duplas_here, avg)
    groups = [v for v in views if isinstance(v, GroupStageView)]
    if groups:
        rest = [d for v in groups for t in v.tables for d in t.duplas if d not in seen]
        if knockout is None and len(groups) == 1 and len(groups[0].tables) == 1:
            ordered_blocks += [[r.dupla] for r in groups[0].tables[0].rows]  # a single round-robin: its table
        else:
            ordered_blocks += _split_by(list(dict.fromkeys(rest)), avg)
    rows: list[ClassificationRow] = []
    place = 1
    disqualified: list[str] = []
    for block in filter(None, ordered_blocks):
        eligible = [d for d in block if not duplas[d].disqualified]
        disqualified += [d for d in block if duplas[d].disqualified]
        for d in eligible:
            rows.append(ClassificationRow(place=place, dupla=d, players=duplas[d].players, medal=MEDALS.get(place)))
        place += len(eligible)
    rows += [ClassificationRow(place=None, dupla=d, players=duplas[d].players, medal=None) for d in disqualified]
    return rows


def _split_by(items: Sequence[str], key: Callable[[str], Any]) -> list[list[str]]:
    """Blocks of equal ``key``, best first; inside a block, keys in alphabetical order."""
    keyed = sorted(((key(d), d) for d in sorted(items)), key=lambda kd: kd[0], reverse=True)  # stable
    blocks: list[list[str]] = []
    last = None
    for k, d in keyed:
        if blocks and k == last:
            blocks[-1].append(d)
        else:
            blocks.append([d])
        last = k
    return blocks
