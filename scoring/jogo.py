"""A jogo: best-of-N partidas, walkovers, perda do jogo, classification points (docs/regras.md §3-§4)."""

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, TypeGuard, cast

from .errors import RuleError
from .messages import _
from .partida import TARGET, Mao, PartidaScore, final_score_error, partida_from_maos, perda_da_partida_score
from .rules import ClassPoints, RuleSettings, best_of_error, wins_needed
from .text import is_blank

WALKOVER_BOTH = "both"


@dataclass(frozen=True)
class PartidaEntry:
    """How one partida was recorded: final score, mãos, or perda da partida (lost_by = 0/1)."""

    score: tuple[int, int] | None = None
    maos: tuple[Mao, ...] | None = None
    lost_by: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class JogoEntry:
    """A jogo's result as recorded. ``walkover``: 0/1 (the absent dupla), "both", or None; ``reason``: why the
    jogo was lost (perda do jogo: required) or why the WO was given (the referee's screen asks for it; older
    files may lack it)."""

    best_of: int
    partidas: tuple[PartidaEntry, ...] = ()
    walkover: int | str | None = None
    lost_by: int | None = None  # perda do jogo
    reason: str = ""  # the perda do jogo's or the walkover's


@dataclass(frozen=True)
class JogoResult:
    best_of: int
    partidas: tuple[PartidaScore, ...] = ()  # scores that count for pontos-partida
    partidas_won: tuple[int, int] = (0, 0)
    winner: int | None = None
    finished: bool = False
    walkover: int | str | None = None
    lost_by: int | None = None

    @property
    def has_result(self) -> bool:
        return self.finished

    @property
    def started(self) -> bool:
        return self.finished or bool(self.partidas)

    @cached_property  # a frozen dataclass: computed once, read by every standings pass
    def points_for(self) -> tuple[int, int]:
        """Pontos-partida for each dupla (walkovers give none)."""
        return (sum(p.score[0] for p in self.partidas), sum(p.score[1] for p in self.partidas))


def _side(value: object) -> TypeGuard[int]:
    return type(value) is int and value in (0, 1)


def _has_reason(reason: object) -> bool:
    return isinstance(reason, str) and not is_blank(reason)


def jogo_evaluate(*, entry: JogoEntry, settings: RuleSettings) -> tuple[JogoResult, list[RuleError]]:
    """Check a jogo's record and compute its result; problems are placed at ``partidas[i]``…"""
    problem = best_of_error(entry.best_of)
    if problem:
        return JogoResult(best_of=1), [RuleError("best_of", problem)]
    need = wins_needed(entry.best_of)
    if entry.walkover is not None:
        if entry.partidas or entry.lost_by is not None:
            return JogoResult(best_of=entry.best_of), [
                RuleError("walkover", _("um jogo com WO não tem partidas nem penalidade"))
            ]
        if entry.walkover == WALKOVER_BOTH:
            return JogoResult(best_of=entry.best_of, finished=True, walkover=WALKOVER_BOTH), []
        if not _side(entry.walkover):
            return JogoResult(best_of=entry.best_of), [
                RuleError("walkover", _("WO deve indicar a dupla ausente ou 'both'"))
            ]
        present = 1 - entry.walkover
        walkover_won = (need, 0) if present == 0 else (0, need)
        return JogoResult(
            best_of=entry.best_of, partidas_won=walkover_won, winner=present, finished=True, walkover=entry.walkover
        ), []
    if entry.lost_by is not None:
        if not _side(entry.lost_by):
            return JogoResult(best_of=entry.best_of), [
                RuleError("penalty.lost_by", _("a penalidade deve indicar uma das duas duplas do jogo"))
            ]
        if not _has_reason(entry.reason):
            return JogoResult(best_of=entry.best_of), [
                RuleError("penalty.reason", _("toda penalidade precisa de um motivo ('reason')"))
            ]
        penalty_winner = 1 - entry.lost_by
        penalty_scores = tuple(
            PartidaScore(score=perda_da_partida_score(lost_by=entry.lost_by), finished=True) for _ in range(need)
        )
        penalty_won = (need, 0) if penalty_winner == 0 else (0, need)
        return JogoResult(
            best_of=entry.best_of,
            partidas=penalty_scores,
            partidas_won=penalty_won,
            winner=penalty_winner,
            finished=True,
            lost_by=entry.lost_by,
        ), []

    errors: list[RuleError] = []
    scores: list[PartidaScore] = []
    won = [0, 0]
    for i, partida in enumerate(entry.partidas):
        place = f"partidas[{i}]"
        if max(won) >= need:
            errors.append(
                RuleError(
                    place,
                    _(
                        "o jogo já terminou %(a)s x %(b)s (melhor de %(best_of)s); nenhuma partida é aceita depois",
                        a=won[0],
                        b=won[1],
                        best_of=entry.best_of,
                    ),
                )
            )
            break
        if scores and not scores[-1].finished:
            errors.append(
                RuleError(f"partidas[{i - 1}]", _("partida não terminou, mas o jogo tem outra partida depois dela"))
            )
            break
        result, partida_errors = partida_evaluate(entry=partida, settings=settings)
        errors.extend(e.nested(place) for e in partida_errors)
        if partida_errors:
            continue
        scores.append(result)
        if result.winner is not None:  # finished
            won[result.winner] += 1
    finished = max(won) >= need
    winner = (0 if won[0] > won[1] else 1) if finished else None
    return JogoResult(
        best_of=entry.best_of, partidas=tuple(scores), partidas_won=(won[0], won[1]), winner=winner, finished=finished
    ), errors


def partida_evaluate(*, entry: PartidaEntry, settings: RuleSettings) -> tuple[PartidaScore, list[RuleError]]:
    """One partida's final or running score, from whichever way it was recorded."""
    if entry.lost_by is not None:
        if not _side(entry.lost_by):
            return PartidaScore((0, 0), False), [
                RuleError("penalty.lost_by", _("a penalidade deve indicar uma das duas duplas do jogo"))
            ]
        if not _has_reason(entry.reason):
            return PartidaScore((0, 0), False), [
                RuleError("penalty.reason", _("toda penalidade precisa de um motivo ('reason')"))
            ]
        return PartidaScore(perda_da_partida_score(lost_by=entry.lost_by), True), []
    if entry.maos is not None:
        return partida_from_maos(maos=entry.maos, settings=settings)
    if entry.score is None:
        return PartidaScore((0, 0), False), [
            RuleError("", _("partida vazia: informe o placar, as mãos ou a penalidade"))
        ]
    problem = final_score_error(score=entry.score, settings=settings)
    if problem:
        return PartidaScore((0, 0), False), [RuleError("", problem)]
    return PartidaScore(cast(tuple[int, int], tuple(entry.score)), True), []


def result_flipped(result: JogoResult) -> JogoResult:
    """The same result seen with the duplas the other way round."""

    def side(v: Any) -> Any:  # a side 0/1, None or "both"
        return v if v is None or v == WALKOVER_BOTH else 1 - v

    return replace(
        result,
        partidas=tuple(replace(p, score=(p.score[1], p.score[0])) for p in result.partidas),
        partidas_won=(result.partidas_won[1], result.partidas_won[0]),
        winner=side(result.winner),
        walkover=side(result.walkover),
        lost_by=side(result.lost_by),
    )


def class_points(*, result: JogoResult, points: ClassPoints) -> tuple[int, int]:
    """Classification points each dupla earns from a finished group jogo (FENACEF Art.4-5)."""
    if not result.finished:
        return (0, 0)
    if result.walkover == WALKOVER_BOTH:
        return (0, 0)
    win, loss = (
        (points.walkover_win, points.walkover_loss)
        if result.walkover is not None
        else (points.clean_win, points.clean_loss)
        if min(result.partidas_won) == 0
        else (points.close_win, points.close_loss)
    )
    return (win, loss) if result.winner == 0 else (loss, win)


def jogo_summary(result: JogoResult) -> str:
    """A short pt-BR reading of a result, e.g. '2 x 1' or 'WO'."""
    if result.walkover == WALKOVER_BOTH:
        return "WO duplo"
    if result.walkover is not None:
        return "WO"
    return f"{result.partidas_won[0]} x {result.partidas_won[1]}"


__all__ = [
    "TARGET",
    "WALKOVER_BOTH",
    "JogoEntry",
    "JogoResult",
    "PartidaEntry",
    "class_points",
    "jogo_evaluate",
    "jogo_summary",
    "partida_evaluate",
]
