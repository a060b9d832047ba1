"""A circuit's season ranking of atletas (DOMAIN.md §7.3): points by place, weights, best N, shared ranks,
the ranking after each etapa with movement, qualification for the final and the equipe ranking.

Pure Python over plain inputs: an etapa is its key, weight, whether it is the final and whether it has finished,
and each atleta's place in its general classification (or that their dupla was disqualified). Who an atleta is
and where the places come from is the site's business; the arithmetic is only here.

Choices where DOMAIN is silent, kept here:
- an atleta who was disqualified in an etapa played it (it counts for "played at least M etapas") with 0 points
  and no place;
- with best N, among etapas of equal points the earlier ones count (the later ones are struck through; the total
  is the same either way);
- atletas that share a rank are listed by name, then key;
- a weight may be any positive number: points × weight rounded down (the file's weights are integers).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .atleta import name_normalize, name_sort_key
from .errors import RuleError, RuleViolation
from .messages import _

__all__ = [
    "DEFAULT_POINTS",
    "CircuitRow",
    "Etapa",
    "EtapaScore",
    "PointsTable",
    "Qualify",
    "QualifyState",
    "TeamRow",
    "circuit_movement",
    "circuit_qualify",
    "circuit_ranking",
    "points_table_parse",
    "qualify_lines",
    "team_ranking",
]

# DOMAIN §7.3's default table, in the circuit file's form.
DEFAULT_POINTS: Mapping[str, int] = {
    "1": 100,
    "2": 75,
    "3": 60,
    "4": 50,
    "5-8": 30,
    "9-16": 15,
    "17-32": 8,
    "others": 3,
}
TEAM_BEST = 4  # an equipe sums its best 4 atletas (DOMAIN §7.3)
_KEY = re.compile(r"^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$")  # no etapa has a millionth place


# --- the points table ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Points by place: ``bands`` are (first place, last place, points), contiguous from 1; ``others`` beyond."""

    bands: tuple[tuple[int, int, int], ...]
    others: int = 0

    def for_place(self, place: int) -> int:
        if place < 1:
            raise ValueError(f"place must be 1 or more: {place}")
        for first, last, points in self.bands:
            if first <= place <= last:
                return points
        return self.others


def points_table_parse(raw: Mapping[str, object] | None, *, where: str = "circuit.points") -> PointsTable:
    """The circuit file's ``points`` as a table (None: DOMAIN's default). Every problem is raised at once, each
    naming its key: a key that is not a place, a range or ``others``; points that are not a whole number ≥ 0;
    a gap or an overlap between 1 and the largest place named."""
    if raw is None:
        raw = DEFAULT_POINTS
    problems: list[RuleError] = []
    if not isinstance(raw, Mapping) or not raw:
        raise RuleViolation([RuleError(where, _("a tabela de pontos está vazia: dê os pontos de cada colocação"))])
    bands: list[tuple[int, int, int, str]] = []
    others = 0
    for key, value in raw.items():
        place = f"{where}.{key}" if len(str(key)) <= 24 else f"{where}.{str(key)[:20]}…"  # a line, not a page
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(
                RuleError(place, _("os pontos devem ser um número inteiro, 0 ou mais (veio %(v)s)", v=repr(value)))
            )
            continue
        if key == "others":
            others = value
            continue
        match = _KEY.match(str(key))
        first = int(match.group(1)) if match else 0
        last = int(match.group(2) or first) if match else 0
        if not match or first < 1 or last < first:
            problems.append(RuleError(place, _('a chave deve ser uma colocação ("3"), uma faixa ("5-8") ou "others"')))
            continue
        bands.append((first, last, value, str(key)))
    bands.sort()
    expected = 1
    for first, last, _points, key in bands:
        if first > expected:
            missing = str(expected) if first - 1 == expected else f"{expected}-{first - 1}"
            problems.append(RuleError(f"{where}.{key}", _("faltam os pontos do %(m)sº lugar", m=missing)))
        elif first < expected:
            problems.append(RuleError(f"{where}.{key}", _("colocação %(p)sº aparece em mais de uma chave", p=first)))
        expected = max(expected, last + 1)
    if problems:
        raise RuleViolation(problems)
    return PointsTable(bands=tuple((first, last, points) for first, last, points, _key in bands), others=others)


# --- an etapa and the ranking ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Etapa:
    """One etapa: each atleta's place in its general classification; ``disqualified`` atletas played, 0 points."""

    key: str
    places: Mapping[str, int]
    disqualified: frozenset[str] = frozenset()
    weight: int | Fraction = 1
    final: bool = False
    finished: bool = True

    def atletas(self) -> set[str]:
        return set(self.places) | set(self.disqualified)


@dataclass(frozen=True, slots=True)
class EtapaScore:
    etapa: str
    place: int | None  # None: disqualified
    points: int
    counted: bool


@dataclass(frozen=True, slots=True)
class CircuitRow:
    rank: int
    atleta: str
    points: int
    etapas: int  # etapas played (finished ones)
    places: tuple[int, int, int]  # 1st, 2nd and 3rd places over the etapas played
    results: tuple[EtapaScore, ...] = field(default=())


def _weighted(points: int, weight: int | Fraction) -> int:
    if weight <= 0:
        raise ValueError(f"an etapa's weight must be positive: {weight}")
    return math.floor(Fraction(points) * Fraction(weight))


def _shared_ranks(sort_keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition ranks ("1, 1, 3") for rows already in order; equal keys share a rank."""
    ranks: list[int] = []
    for i, k in enumerate(sort_keys):
        ranks.append(ranks[-1] if i and k == sort_keys[i - 1] else i + 1)
    return ranks


def circuit_ranking(
    *,
    etapas: Sequence[Etapa],
    table: PointsTable,
    count_best: int | None = None,
    excluded: Iterable[str] = (),
    names: Mapping[str, str] | None = None,
) -> list[CircuitRow]:
    """The season ranking over the finished ``etapas`` (in calendar order): every atleta who played one, by
    counted points, then more 1st, 2nd and 3rd places; equal ones share the rank."""
    if count_best is not None and count_best < 1:
        raise ValueError(f"count_best must be 1 or more: {count_best}")
    out = set(excluded)
    scores: dict[str, list[EtapaScore]] = {}
    for etapa in etapas:
        if not etapa.finished:
            continue
        for atleta in sorted(etapa.atletas()):
            if atleta in out:
                continue
            if atleta in etapa.disqualified:
                score = EtapaScore(etapa=etapa.key, place=None, points=0, counted=True)
            else:
                place = etapa.places[atleta]
                score = EtapaScore(
                    etapa=etapa.key, place=place, points=_weighted(table.for_place(place), etapa.weight), counted=True
                )
            scores.setdefault(atleta, []).append(score)
    unsorted: list[tuple[tuple[int, ...], tuple[str, str], CircuitRow]] = []
    for atleta, results in scores.items():
        if count_best is not None and len(results) > count_best:
            # the best N by points; among equal points the earlier etapas count
            best = sorted(range(len(results)), key=lambda i: (-results[i].points, i))[:count_best]
            keep = set(best)
            results = [
                r if i in keep else EtapaScore(etapa=r.etapa, place=r.place, points=r.points, counted=False)
                for i, r in enumerate(results)
            ]
        total = sum(r.points for r in results if r.counted)
        firsts, seconds, thirds = (sum(1 for r in results if r.place == p) for p in (1, 2, 3))
        row = CircuitRow(
            rank=0,
            atleta=atleta,
            points=total,
            etapas=len(results),
            places=(firsts, seconds, thirds),
            results=tuple(results),
        )
        name = name_sort_key((names or {}).get(atleta, atleta))  # ties in the Portuguese order of names
        unsorted.append(((-total, -firsts, -seconds, -thirds), name, row))
    unsorted.sort(key=lambda item: (item[0], item[1], item[2].atleta))
    ranks = _shared_ranks([item[0] for item in unsorted])
    return [
        CircuitRow(
            rank=rank, atleta=row.atleta, points=row.points, etapas=row.etapas, places=row.places, results=row.results
        )
        for rank, (_key, _name, row) in zip(ranks, unsorted, strict=True)
    ]


def circuit_movement(*, before: Sequence[CircuitRow], after: Sequence[CircuitRow]) -> dict[str, int | None]:
    """Each atleta's movement from ``before`` to ``after`` (places gained: positive up); None for a newcomer."""
    previous = {row.atleta: row.rank for row in before}
    return {row.atleta: (previous[row.atleta] - row.rank if row.atleta in previous else None) for row in after}


# --- qualification for the final -------------------------------------------------------------------------------

QUALIFIED, ALTERNATE, TIED, OUT = "qualified", "alternate", "tied", "out"


@dataclass(frozen=True, slots=True)
class Qualify:
    """The top ``top`` atletas qualify, among those who played at least ``min_etapas``; the next ``alternates``
    are alternates (suplentes)."""

    top: int
    min_etapas: int = 0
    alternates: int = 0


@dataclass(frozen=True, slots=True)
class QualifyState:
    """``status``: qualified, alternate, tied (at a line, until a sorteio settles it) or out. For ``tied``,
    ``line`` says which line the tie crosses: ``qualified`` (the last qualifying places) or ``alternate``."""

    status: str
    line: str = ""


def circuit_qualify(
    *,
    etapas: Sequence[Etapa],
    table: PointsTable,
    qualify: Qualify,
    count_best: int | None = None,
    excluded: Iterable[str] = (),
    drawn: Sequence[str] = (),
) -> dict[str, QualifyState]:
    """Each ranked atleta's qualification, by the ranking over the etapas not marked final.

    A group of tied atletas that crosses a line is settled by ``drawn`` (a recorded sorteio: atleta keys, the
    first ahead), when it orders every atleta of the group; until then they are all ``tied`` at that line."""
    rows = circuit_ranking(
        etapas=[e for e in etapas if not e.final], table=table, count_best=count_best, excluded=excluded
    )
    states = {row.atleta: QualifyState(OUT) for row in rows if row.etapas < qualify.min_etapas}
    eligible = [(row.atleta, row.rank) for row in rows if row.etapas >= qualify.min_etapas]
    states.update(qualify_lines(eligible=eligible, qualify=qualify, drawn=drawn))
    return states


def qualify_lines(
    *, eligible: Sequence[tuple[str, int]], qualify: Qualify, drawn: Sequence[str] = ()
) -> dict[str, QualifyState]:
    """The qualification of the atletas who played enough etapas, given in ranking order with their rank in the
    qualification ranking (equal ranks: a tie). A tied group that crosses a line is settled by ``drawn`` when it
    orders every atleta of the group; until then they are all ``tied`` at that line. Atletas past the lines
    (and not tied across one) are ``out``: a caller may give only the rows up to the group of the last line."""
    precedence = {atleta: i for i, atleta in enumerate(drawn)}
    states: dict[str, QualifyState] = {}
    lines = (qualify.top, qualify.top + qualify.alternates)

    def status_at(position: int) -> str:
        return QUALIFIED if position < lines[0] else ALTERNATE if position < lines[1] else OUT

    position = 0
    i = 0
    while i < len(eligible):
        group = [eligible[i]]
        while i + len(group) < len(eligible) and eligible[i + len(group)][1] == eligible[i][1]:
            group.append(eligible[i + len(group)])
        first, last = status_at(position), status_at(position + len(group) - 1)
        if first == last:
            for atleta, _rank in group:
                states[atleta] = QualifyState(first)
        elif all(atleta in precedence for atleta, _rank in group):
            for offset, (atleta, _rank) in enumerate(sorted(group, key=lambda r: precedence[r[0]])):
                states[atleta] = QualifyState(status_at(position + offset))
        else:
            line = QUALIFIED if first == QUALIFIED else ALTERNATE
            for atleta, _rank in group:
                states[atleta] = QualifyState(TIED, line)
        position += len(group)
        i += len(group)
    return states


# --- the equipe ranking ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamRow:
    rank: int
    team: str
    points: int
    atletas: tuple[str, ...]  # the (up to) 4 atletas whose points count, best first


def team_ranking(*, rows: Sequence[CircuitRow], teams: Mapping[str, str], best: int = TEAM_BEST) -> list[TeamRow]:
    """Equipes by the counted points of their best ``best`` atletas (``teams``: atleta → equipe, one equipe
    however its case, accents and spaces are typed; atletas without one are left out), then more 1st, 2nd and
    3rd places of those atletas; equal ones share the rank."""
    members: dict[str, list[CircuitRow]] = {}
    spelling: dict[str, str] = {}  # an equipe as its best-ranked atleta's registration spells it
    for row in rows:  # already in ranking order: the first ``best`` of each equipe are its best
        team = " ".join((teams.get(row.atleta) or "").split())
        if team:
            same = name_normalize(team)  # "Feras do Truco" and "FERAS  do truco" are one equipe
            spelling.setdefault(same, team)
            members.setdefault(same, []).append(row)
    unsorted: list[tuple[tuple[int, ...], TeamRow]] = []
    for same, its in members.items():
        team = spelling[same]
        counted = its[:best]
        points = sum(r.points for r in counted)
        places = tuple(sum(r.places[p] for r in counted) for p in range(3))
        key = (-points, -places[0], -places[1], -places[2])
        unsorted.append((key, TeamRow(rank=0, team=team, points=points, atletas=tuple(r.atleta for r in counted))))
    unsorted.sort(key=lambda item: (item[0], name_sort_key(item[1].team)))
    ranks = _shared_ranks([key for key, _row in unsorted])
    return [
        TeamRow(rank=rank, team=row.team, points=row.points, atletas=row.atletas)
        for rank, (_key, row) in zip(ranks, unsorted, strict=True)
    ]
