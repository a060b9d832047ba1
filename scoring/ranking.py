"""Player ranking across events (docs/regras.md §7, Truco Online regulation 004).

004 names the ingredients, not the arithmetic. Our reading, kept only here:

    G = jogos played, W = jogos won, A = jogos lost by walkover (abandono)
    score = max(0, (1000 * WLB(W, G, z=1.96)      # performance with 95 % confidence
                    + 60 * log10(G + 1)           # activity bonus
                    - 400 * A / G)                # abandonment penalty
                   * min(1, G / 10))              # damping over the first 10 jogos
    rounded half up; G = 0 gives 0.

WLB is the lower bound of the Wilson score interval for the win rate W / G.
004 counts online "partidas"; on this site the unit is the jogo, and an
"abandono" is a jogo lost by walkover.
"Jamais inferior a 0" is applied after the damping (the damping factor is
never negative, so the order does not change the result).

The same score walks two rankings (``walk_step``, DOMAIN §7.2 and §9.5): an atleta's Nível over their counted
jogos (A: jogos lost by walkover), and an account's online ranking over its counted online partidas (A: partidas
it abandoned).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from .jogo import WALKOVER_BOTH
from .tournament import DuplaInfo, JogoRecord

__all__ = [
    "LEVELS",
    "UNRANKED_LEVEL",
    "WALK_START",
    "RankingRow",
    "Walk",
    "level_slug",
    "player_level",
    "player_score",
    "ranking_compute",
    "score_walk",
    "walk_step",
    "wilson_lower_bound",
]

# (level name, minimum score), ascending.
LEVELS: tuple[tuple[str, int], ...] = (
    ("Fichinha", 0),
    ("Blefador", 350),
    ("Coringa", 500),
    ("Pica-Fumo", 650),
    ("Espadilha", 755),
    ("Escopeta", 900),
    ("ZAP", 975),
)
# Players without an account (not ranked).
UNRANKED_LEVEL = "Marreco"


def level_slug(level: str) -> str:
    """The level's key as its drawn icon is named (``static/img/online/levels/<slug>.svg``): "Pica-Fumo" →
    "pica-fumo", "ZAP" → "zap"."""
    return level.lower()


def _check_counts(*, played: int, won: int, walkovers_lost: int = 0) -> None:
    if played < 0 or won < 0 or walkovers_lost < 0:
        raise ValueError("os totais de jogos não podem ser negativos")
    if won > played:
        raise ValueError(f"mais vitórias ({won}) do que jogos disputados ({played})")
    if walkovers_lost > played - won:
        raise ValueError(f"mais derrotas por WO ({walkovers_lost}) do que derrotas ({played - won})")


def wilson_lower_bound(*, won: int, played: int, z: float = 1.96) -> float:
    """Lower bound of the Wilson score interval for won / played (0.0 when nothing played)."""
    _check_counts(played=played, won=won)
    if won == 0:  # exact 0 (also for played == 0), free of rounding noise
        return 0.0
    p = won / played
    z2 = z * z
    centre = p + z2 / (2 * played)
    margin = z * math.sqrt(p * (1 - p) / played + z2 / (4 * played * played))
    return min(p, max(0.0, (centre - margin) / (1 + z2 / played)))


def player_score(*, played: int, won: int, walkovers_lost: int) -> int:
    """Ranking score of a player (see the module docstring)."""
    _check_counts(played=played, won=won, walkovers_lost=walkovers_lost)
    if played == 0:
        return 0
    raw = (
        1000 * wilson_lower_bound(won=won, played=played) + 60 * math.log10(played + 1) - 400 * walkovers_lost / played
    )
    value = max(0.0, raw * min(1.0, played / 10))
    return int(value + 0.5)


def player_level(*, score: int | None) -> str:
    """Level name for a score; ``None`` (no account) is "Marreco"."""
    if score is None:
        return UNRANKED_LEVEL
    if score < 0:
        raise ValueError(f"pontuação de ranking não pode ser negativa: {score}")
    name = LEVELS[0][0]
    for level, minimum in LEVELS:
        if score >= minimum:
            name = level
    return name


class Walk(NamedTuple):
    """Where the walk of DOMAIN §7.2 stands: the counts so far and the score. ``abandoned``: the jogos lost by
    walkover (Nível) or the partidas abandoned (the online ranking, §9.5): the ``A`` of the formula."""

    played: int
    won: int
    abandoned: int
    score: int


WALK_START: Final = Walk(played=0, won=0, abandoned=0, score=0)


def walk_step(walk: Walk, *, won: bool, abandoned: bool) -> Walk:
    """The walk after one more counted result (DOMAIN §7.2, and §9.5 for the online ranking): one rule for the
    atletas' Nível (a jogo: won, lost by walkover) and the accounts' online ranking (a partida: won, lost by
    abandonment). The candidate S is ``player_score`` of the results so far; after a win the score is
    max(score, S), after a loss min(score, S), so a win never lowers it and a loss never raises it. A win is
    never an abandonment (``abandoned`` is read only for a loss).

    The walk starts at 0 (``WALK_START``; our choice where DOMAIN is silent: before the first result one is
    Marreco, with no score; a first result lost leaves 0, Fichinha, rather than the few points S gives one
    loss)."""
    played = walk.played + 1
    won_total = walk.won + (1 if won else 0)
    abandoned_total = walk.abandoned + (1 if abandoned and not won else 0)
    candidate = player_score(played=played, won=won_total, walkovers_lost=abandoned_total)
    score = max(walk.score, candidate) if won else min(walk.score, candidate)
    return Walk(played=played, won=won_total, abandoned=abandoned_total, score=score)


def score_walk(*, results: Iterable[tuple[bool, bool]]) -> list[int]:
    """The score after each counted result, in order (``walk_step`` from ``WALK_START``): each result is (won,
    lost by walkover or abandonment). An atleta's Nível walks their jogos; an account's online ranking its
    partidas."""
    walk = WALK_START
    path: list[int] = []
    for win, abandoned in results:
        walk = walk_step(walk, won=win, abandoned=abandoned)
        path.append(walk.score)
    return path


# --- the players' table ------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingRow:
    player: str
    score: int
    level: str
    played: int
    won: int
    walkovers_lost: int


def ranking_compute(*, duplas: Sequence[DuplaInfo], jogos: Sequence[JogoRecord]) -> list[RankingRow]:
    """Each player's score from the finished jogos of their dupla (byes are not jogos)."""
    tally: dict[str, list[int]] = {d.key: [0, 0, 0] for d in duplas}
    for j in jogos:
        res = j.result
        if not res.finished:
            continue
        for side in (0, 1):
            t = tally.get(j.duplas[side])
            if t is None:
                continue
            t[0] += 1
            if res.winner == side:
                t[1] += 1
            if res.walkover == side or res.walkover == WALKOVER_BOTH:
                t[2] += 1
    rows = []
    for d in duplas:
        g, w, a = tally[d.key]
        score = player_score(played=g, won=w, walkovers_lost=a)
        for p in d.players:
            rows.append(
                RankingRow(player=p, score=score, level=player_level(score=score), played=g, won=w, walkovers_lost=a)
            )
    rows.sort(key=lambda r: (-r.score, -r.won, r.player))
    return rows
