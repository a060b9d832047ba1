"""A single-elimination bracket derived from its first-round draw and the jogos played."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from .jogo import JogoResult, result_flipped

# The recorded results by (round, position, third place): the duplas as recorded and the result.
BracketResults = Mapping[tuple[int, int | None, bool], tuple[tuple[str, str], JogoResult]]


@dataclass
class BracketJogo:
    round: int  # 1-based
    position: int  # 1-based inside the round
    duplas: tuple[str | None, str | None]
    best_of: int
    bye: bool = False
    result: JogoResult | None = None
    winner: str | None = None
    decided: bool = False  # winner known, or nobody goes on (both absent)
    third_place: bool = False

    @property
    def loser(self) -> str | None:
        if not self.decided or self.bye or self.winner is None:
            return None
        a, b = self.duplas
        return b if self.winner == a else a

    @property
    def ready(self) -> bool:
        """Both duplas known and the jogo still to be decided: it can be played."""
        return not self.decided and None not in self.duplas

    @property
    def score(self) -> tuple[int, int] | None:
        if self.result is None or (not self.result.started):
            return None
        return self.result.partidas_won


@dataclass
class Bracket:
    rounds: list[list[BracketJogo]]
    third_place: BracketJogo | None = None
    best_of: Mapping[int, int] = field(default_factory=dict)

    @property
    def final(self) -> BracketJogo:
        return self.rounds[-1][0]

    @property
    def finished(self) -> bool:
        done = self.final.decided
        if self.third_place is not None:
            done = done and self.third_place.decided
        return done

    def jogos(self) -> list[BracketJogo]:
        out = [j for rnd in self.rounds for j in rnd]
        if self.third_place is not None:
            out.append(self.third_place)
        return out

    def find(self, *, round_number: int, position: int, third_place: bool = False) -> BracketJogo | None:
        if third_place:
            return self.third_place
        if 1 <= round_number <= len(self.rounds) and 1 <= position <= len(self.rounds[round_number - 1]):
            return self.rounds[round_number - 1][position - 1]
        return None


def _settle(jogo: BracketJogo, results: BracketResults) -> None:
    a, b = jogo.duplas
    recorded = results.get((jogo.round, jogo.position, jogo.third_place))
    result = None
    if recorded is not None:
        duplas, result = recorded
        if tuple(duplas) == (b, a):  # recorded the other way round: read it in the bracket's order
            result = result_flipped(result)
    jogo.result = result
    if result is not None and result.finished and a is not None and b is not None:
        jogo.decided = True
        jogo.winner = None if result.winner is None else jogo.duplas[result.winner]


def bracket_build(
    *, order: Sequence[str | None], best_of_for_round: Sequence[int], results: BracketResults, third_place_match: bool
) -> Bracket:
    """Rounds side by side from the first-round slots and the results keyed by (round, position, third place).

    Each result comes with the duplas in the order it was recorded.

    ``best_of_for_round[r-1]`` is the best-of of round r. A bye's winner is its
    dupla; a jogo both duplas missed sends nobody on, and its opponent in the
    next round goes through as on a bye.
    """
    size = len(order)
    total = size.bit_length() - 1
    rounds: list[list[BracketJogo]] = []
    first: list[BracketJogo] = []
    for p in range(size // 2):
        a, b = order[2 * p], order[2 * p + 1]
        jogo = BracketJogo(round=1, position=p + 1, duplas=(a, b), best_of=best_of_for_round[0])
        if (a is None) != (b is None):
            jogo.bye, jogo.decided, jogo.winner = True, True, a if a is not None else b
        elif a is None and b is None:
            jogo.bye, jogo.decided = True, True
        else:
            _settle(jogo, results)
        first.append(jogo)
    rounds.append(first)
    for r in range(2, total + 1):
        prev = rounds[-1]
        current: list[BracketJogo] = []
        for p in range(len(prev) // 2):
            left, right = prev[2 * p], prev[2 * p + 1]
            a = left.winner if left.decided else None
            b = right.winner if right.decided else None
            jogo = BracketJogo(round=r, position=p + 1, duplas=(a, b), best_of=best_of_for_round[r - 1])
            if left.decided and right.decided and (a is None or b is None):
                jogo.bye, jogo.decided, jogo.winner = True, True, a if a is not None else b
            else:
                _settle(jogo, results)
            current.append(jogo)
        rounds.append(current)
    bracket = Bracket(rounds=rounds, best_of={r + 1: n for r, n in enumerate(best_of_for_round)})
    if third_place_match and total >= 2:
        semis = rounds[-2]
        losers = cast(tuple[str | None, str | None], tuple(s.loser for s in semis))
        # a semi-final without a loser (a bye, or both duplas absent) leaves no third-place jogo to play
        semis_with_losers = all(not s.bye and not (s.decided and s.loser is None) for s in semis)
        if semis_with_losers:
            third = BracketJogo(round=total, position=0, duplas=losers, best_of=best_of_for_round[-1], third_place=True)
            if None not in losers:
                _settle(third, results)
            bracket.third_place = third
    return bracket


def eliminated_round(bracket: Bracket) -> dict[str, int]:
    """For every dupla in the bracket, the last round it reached (champion: total + 1)."""
    reached: dict[str, int] = {}
    for rnd in bracket.rounds:
        for jogo in rnd:
            for d in jogo.duplas:
                if d is not None:
                    reached[d] = max(reached.get(d, 0), jogo.round)
    final = bracket.final
    if final.decided and final.winner is not None:
        reached[final.winner] = len(bracket.rounds) + 1
    return reached
