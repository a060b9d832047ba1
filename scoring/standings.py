"""Group standings, tiebreaks and the comparison across groups (docs/regras.md §5.1-§5.2)."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .jogo import WALKOVER_BOTH, JogoResult, class_points
from .rules import ClassPoints

POINTS, PARTIDAS_WON, HEAD_TO_HEAD, SALDO, AVERAGE, DRAW = (
    "points",
    "partidas_won",
    "head_to_head",
    "saldo",
    "average",
    "draw",
)

CRITERION_LABELS = {
    POINTS: "pontos classificatórios",
    PARTIDAS_WON: "partidas vencidas",
    HEAD_TO_HEAD: "confronto direto",
    SALDO: "saldo de pontos-partida",
    AVERAGE: "average",
    DRAW: "sorteio",
}

INF = float("inf")


@dataclass(frozen=True)
class GroupJogo:
    duplas: tuple[str, str]
    result: JogoResult


@dataclass(frozen=True)
class DuplaStats:
    """What a dupla did in a set of jogos (finished ones only)."""

    dupla: str
    points: int = 0
    jogos: int = 0
    won: int = 0
    lost: int = 0
    partidas_won: int = 0
    partidas_lost: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def saldo(self) -> int:
        return self.points_for - self.points_against

    @property
    def average(self) -> float | None:
        """The average as shown: rounded to 3 places, inf when against = 0 < for, None for 0 ÷ 0."""
        return average_value(self.points_for, self.points_against)

    def average_key(self) -> tuple[int, float]:
        return average_key(self.points_for, self.points_against)


def average_value(points_for: int, points_against: int) -> float | None:
    if points_against == 0:
        return INF if points_for > 0 else None
    # exact half-up rounding of the fraction (a float and round() would round 0.0005 cases to even)
    exact = Decimal(points_for) / Decimal(points_against)
    return float(exact.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))


def average_key(points_for: int, points_against: int) -> tuple[int, float]:
    """Sort key, higher is better: for>0 over 0 beats every finite average; 0 ÷ 0 ranks last."""
    if points_against == 0:
        return (2, 0) if points_for > 0 else (0, 0)
    # A float quotient is exact enough: two different fractions of integers below 2**26 differ by more
    # than 2**-52, and equal fractions always give the same correctly rounded float.
    return (1, points_for / points_against)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    dupla: str
    stats: DuplaStats
    decided_by: str | None  # criterion separating this row from the one below it
    tied: bool  # still tied after head-to-head and saldo, awaiting the sorteio
    qualified: bool = False
    decided_after: str | None = None  # set when decided_by came from a restart after this criterion

    def __getattr__(self, name: str) -> Any:  # rows read like their stats: row.points, row.saldo…
        if name == "stats":
            raise AttributeError(name)
        return getattr(self.stats, name)


def stats_collect(*, duplas: Iterable[str], jogos: Iterable[GroupJogo], points: ClassPoints) -> dict[str, DuplaStats]:
    """Sum each dupla's finished jogos (WO: partidas won, no pontos-partida)."""
    acc = {
        d: {
            "points": 0,
            "jogos": 0,
            "won": 0,
            "lost": 0,
            "partidas_won": 0,
            "partidas_lost": 0,
            "points_for": 0,
            "points_against": 0,
        }
        for d in duplas
    }
    for jogo in jogos:
        res = jogo.result
        if not res.finished:
            continue
        cp = class_points(result=res, points=points)
        pf = res.points_for
        for side in (0, 1):
            d = jogo.duplas[side]
            if d not in acc:
                continue
            a = acc[d]
            a["jogos"] += 1
            a["points"] += cp[side]
            if res.winner == side:
                a["won"] += 1
            else:
                a["lost"] += 1
            a["partidas_won"] += res.partidas_won[side]
            a["partidas_lost"] += res.partidas_won[1 - side]
            a["points_for"] += pf[side]
            a["points_against"] += pf[1 - side]
    return {d: DuplaStats(dupla=d, **v) for d, v in acc.items()}


# --- ordering machinery -------------------------------------------------------------
# A step takes a block of tied duplas and returns (parts best first, criterion name,
# next step for parts still tied); one part means it could not separate the block.

Segment = list[str]
Boundary = tuple[str, str | None]  # (criterion that decided, criterion that split the enclosing block before)
# A tiebreak step: a block of tied duplas -> its parts, the criterion that split it, the next step's key.
Step = Callable[[Segment], tuple[list[Segment], str, str]]


@dataclass
class Ordering:
    """Duplas best first, cut into segments (a segment of more than one awaits a sorteio)."""

    segments: list[Segment]
    boundaries: list[str]  # criterion between segment i and i+1
    draws_used: list[frozenset[str]]


def _split(block: Sequence[str], key: Callable[[str], Any]) -> list[Segment]:
    ordered = sorted(block, key=key, reverse=True)
    parts: list[Segment] = []
    last = object()
    for d in ordered:
        k = key(d)
        if parts and k == last:
            parts[-1].append(d)
        else:
            parts.append([d])
        last = k
    return parts


class _Resolver:
    """Applies the steps to a block, recursively, and records between which segments each criterion decided.

    A boundary is (criterion, after): ``after`` is the criterion that split the
    enclosing block just before (None at the top, or when that was the points),
    so a page can tell "confronto direto após saldo" from a plain "confronto direto".
    """

    def __init__(self, steps: dict[str, Step], draws: Sequence[Sequence[str]]):
        self.steps = steps
        # a sorteio is the order of one tied block: each dupla of the block exactly once
        self.draws = {frozenset(order): list(order) for order in draws if len(set(order)) == len(order)}
        self.used: list[frozenset[str]] = []

    def resolve(self, block: Segment, step: str, after: str | None = None) -> tuple[list[Segment], list[Boundary]]:
        if len(block) == 1:
            return [block], []
        if step == DRAW:
            order = self.draws.get(frozenset(block))
            if order is None:
                return [sorted(block)], []
            self.used.append(frozenset(block))
            return [[d] for d in order], [(DRAW, after)] * (len(order) - 1)
        parts, criterion, next_step = self.steps[step](block)
        if len(parts) == 1:
            return self.resolve(block, next_step, after)
        segments: list[Segment] = []
        boundaries: list[Boundary] = []
        inner_after = None if criterion == POINTS else criterion
        for i, part in enumerate(parts):
            if i:
                boundaries.append((criterion, after))
            sub_segments, sub_boundaries = self.resolve(part, next_step, inner_after)
            segments.extend(sub_segments)
            boundaries.extend(sub_boundaries)
        return segments, boundaries


# Where each criterion stands in the group order (FENACEF Art.6 §1); a criterion decided "after" one at or
# below it in this order is a restart (head-to-head again after saldo, or after a mini-table).
_GROUP_ORDER = {PARTIDAS_WON: 1, HEAD_TO_HEAD: 2, SALDO: 3, DRAW: 4}


def restarted_after(criterion: str | None, after: str | None) -> str | None:
    """``after`` when the decision came from restarting the chain after it, else None."""
    if criterion is None or after is None or criterion not in _GROUP_ORDER or after not in _GROUP_ORDER:
        return None
    return after if _GROUP_ORDER[after] >= _GROUP_ORDER[criterion] else None


def _rows(
    ordering_segments: list[Segment], boundaries: list[Boundary], stats: Mapping[str, DuplaStats]
) -> list[StandingRow]:
    rows: list[StandingRow] = []
    position = 1
    for i, seg in enumerate(ordering_segments):
        for j, d in enumerate(seg):
            last_of_seg = j == len(seg) - 1
            decided, after = boundaries[i] if last_of_seg and i < len(boundaries) else (None, None)
            rows.append(
                StandingRow(
                    rank=position,
                    dupla=d,
                    stats=stats[d],
                    decided_by=decided,
                    decided_after=restarted_after(decided, after),
                    tied=len(seg) > 1,
                )
            )
        position += len(seg)
    return rows


def group_standings(
    *, duplas: Sequence[str], jogos: Sequence[GroupJogo], points: ClassPoints, draws: Sequence[Sequence[str]] = ()
) -> tuple[list[StandingRow], list[frozenset[str]]]:
    """A group table with tiebreaks (FENACEF Art.6 §1, docs/regras.md §5.1).

    Returns the rows best first and the recorded sorteios that were applied.
    """
    stats = stats_collect(duplas=duplas, jogos=jogos, points=points)
    finished = [j for j in jogos if j.result.finished]

    def mini_points(block: Segment) -> dict[str, int]:
        members = set(block)
        sub = [j for j in finished if j.duplas[0] in members and j.duplas[1] in members]
        return {d: s.points for d, s in stats_collect(duplas=block, jogos=sub, points=points).items()}

    def by_points(block: Segment) -> tuple[list[Segment], str, str]:
        return _split(block, lambda d: stats[d].points), POINTS, PARTIDAS_WON

    def by_partidas(block: Segment) -> tuple[list[Segment], str, str]:
        return _split(block, lambda d: stats[d].partidas_won), PARTIDAS_WON, HEAD_TO_HEAD

    def by_head_to_head(block: Segment) -> tuple[list[Segment], str, str]:
        if len(block) == 2:
            # the winner of their jogo is ahead (should they have met more than once: more jogos won)
            a, b = block
            wins = {a: 0, b: 0}
            for j in finished:
                if set(j.duplas) == {a, b} and j.result.walkover != WALKOVER_BOTH and j.result.winner is not None:
                    wins[j.duplas[j.result.winner]] += 1
            if wins[a] == wins[b]:
                return [block], HEAD_TO_HEAD, SALDO
            return ([[a], [b]] if wins[a] > wins[b] else [[b], [a]]), HEAD_TO_HEAD, SALDO
        mini = mini_points(block)
        parts = _split(block, lambda d: mini[d])
        # a still-tied, smaller subset starts again at head-to-head; an unchanged block goes to saldo
        return parts, HEAD_TO_HEAD, (HEAD_TO_HEAD if len(parts) > 1 else SALDO)

    def by_saldo(block: Segment) -> tuple[list[Segment], str, str]:
        # like the mini-table: a still-tied, smaller subset starts again at head-to-head; an unchanged block
        # (neither head-to-head nor saldo can shrink it) goes to the sorteio
        parts = _split(block, lambda d: stats[d].saldo)
        return parts, SALDO, (HEAD_TO_HEAD if len(parts) > 1 else DRAW)

    resolver = _Resolver(
        {POINTS: by_points, PARTIDAS_WON: by_partidas, HEAD_TO_HEAD: by_head_to_head, SALDO: by_saldo}, draws
    )
    segments, boundaries = resolver.resolve(sorted(duplas), POINTS)
    return _rows(segments, boundaries, stats), resolver.used


def cross_group_order(
    *, candidates: Sequence[tuple[DuplaStats, int]], draws: Sequence[Sequence[str]] = ()
) -> tuple[list[StandingRow], list[frozenset[str]]]:
    """Duplas of different groups compared (docs/regras.md §5.2); each candidate with its group's size.

    Points first; then, among duplas whose groups have the same size, partidas
    vencidas, saldo, sorteio; when the sizes differ, average, then sorteio.
    """
    stats = {s.dupla: s for s, _ in candidates}
    size = {s.dupla: n for s, n in candidates}

    def by_points(block: Segment) -> tuple[list[Segment], str, str]:
        if len(_split(block, lambda d: stats[d].points)) > 1:
            return _split(block, lambda d: stats[d].points), POINTS, "after_points"
        return [block], POINTS, "after_points"

    def after_points(block: Segment) -> tuple[list[Segment], str, str]:
        if len({size[d] for d in block}) == 1:
            return _split(block, lambda d: stats[d].partidas_won), PARTIDAS_WON, SALDO
        return _split(block, lambda d: stats[d].average_key()), AVERAGE, DRAW

    def by_saldo(block: Segment) -> tuple[list[Segment], str, str]:
        return _split(block, lambda d: stats[d].saldo), SALDO, DRAW

    resolver = _Resolver({POINTS: by_points, "after_points": after_points, SALDO: by_saldo}, draws)
    segments, boundaries = resolver.resolve(sorted(stats), POINTS)
    return _rows(segments, boundaries, stats), resolver.used


def rows_qualify(rows: list[StandingRow], count: int) -> list[StandingRow]:
    """Mark the first ``count`` places qualified, except a tie that straddles the cut (it awaits the sorteio)."""
    out = []
    for row in rows:
        inside = row.rank <= count
        if inside and row.tied:
            block_end = row.rank - 1 + sum(1 for r in rows if r.rank == row.rank)
            inside = block_end <= count
        out.append(replace(row, qualified=inside))
    return out


def cut_is_decided(rows: Sequence[StandingRow], count: int) -> bool:
    """True unless a tie awaiting its sorteio straddles the qualifying cut."""
    for row in rows:
        if row.tied and row.rank <= count:
            block_end = row.rank - 1 + sum(1 for r in rows if r.rank == row.rank)
            if block_end > count:
                return False
    return True
