"""The súmula's life (docs/contrato.md "Súmula API", docs/regras.md §2 steps 5-6): statuses and what each allows.

Pure rules, no storage: the services ask these functions, the screens and the
API show what they answer, so a rule is written once.
"""

from dataclasses import dataclass

from .jogo import WALKOVER_BOTH, JogoResult
from .messages import _
from .partida import MAO_DE_FERRO, MAO_DE_ONZE, NORMAL_VALUES, RAN_VALUES, Mao, mao_gain, situation
from .rules import RuleSettings

SCHEDULED, IN_PROGRESS, AWAITING, CONTESTED, CONFIRMED, HOMOLOGATED = (
    "scheduled",
    "in_progress",
    "awaiting_confirmation",
    "contested",
    "confirmed",
    "homologated",
)
STATUSES = (SCHEDULED, IN_PROGRESS, AWAITING, CONTESTED, CONFIRMED, HOMOLOGATED)
# a result counts in standings and bracket from "confirmed" on
COUNTING = frozenset({CONFIRMED, HOMOLOGATED})
# the result is complete and waits for the duplas or the referee
DECIDED = frozenset({AWAITING, CONTESTED, CONFIRMED, HOMOLOGATED})

ACCEPTED, CONTEST = "confirmed", "contested"  # a dupla's answer

# what a recorded mão was, as a súmula tells it
MAO_PENALTY, MAO_REFUSED, MAO_RAN, MAO_TIE, MAO_FERRO, MAO_ONZE, MAO_PLAYED = (
    "penalty",
    "refused",
    "ran",
    "tie",
    MAO_DE_FERRO,
    MAO_DE_ONZE,
    "played",
)


def mao_kind(*, how: str, to: int | None, before: tuple[int, int]) -> str:
    """What a recorded mão was at the score ``before`` it: a penalty, a refused mão de onze, a dupla that ran,
    three tied rounds, a mão de ferro, a mão de onze played, or an ordinary mão (its value tells the rest)."""
    if how == "penalty":
        return MAO_PENALTY
    if how == "refused":
        return MAO_REFUSED
    if how == "ran":
        return MAO_RAN
    if to is None:
        return MAO_TIE
    return {MAO_DE_FERRO: MAO_FERRO, MAO_DE_ONZE: MAO_ONZE}.get(situation(before), MAO_PLAYED)


def answers_needed(*, walkover: int | str | None) -> tuple[bool, bool]:
    """Which duplas (per side) must confirm the súmula: both, but never a dupla absent from a walkover (it was
    not at the mesa to see it); with both absent, neither. ``walkover``: the absent side, "both" or None."""
    if walkover is None:
        return (True, True)
    if walkover == WALKOVER_BOTH:
        return (False, False)
    return (walkover != 0, walkover != 1)


def sumula_status(*, result: JogoResult | None, answers: tuple[str | None, str | None], signed: bool) -> str:
    """The status a súmula stands at, from its result, the duplas' answers (per side) and the signature.

    Confirmed once every dupla that must confirm (``answers_needed``) did; a contest by either dupla holds it."""
    if result is None or not result.started:
        return SCHEDULED
    if not result.finished:
        return IN_PROGRESS
    if signed:
        return HOMOLOGATED
    if CONTEST in answers:
        return CONTESTED
    if all(
        answer == ACCEPTED
        for answer, needed in zip(answers, answers_needed(walkover=result.walkover), strict=True)
        if needed
    ):
        return CONFIRMED
    return AWAITING


def status_fits_result(*, status: str, result: JogoResult | None) -> str | None:
    """Why a stored ``status`` cannot be the status of ``result`` (a tournament file's claim), or None."""
    started = result is not None and result.started
    finished = result is not None and result.finished
    if status == SCHEDULED and started:
        return _("o jogo tem resultado, então não está 'scheduled'")
    if status == IN_PROGRESS and (not started or finished):
        return _("'in_progress' é de um jogo começado e ainda não decidido")
    if status in DECIDED and not finished:
        return _("'%(status)s' é de um jogo decidido: o resultado ainda não decide o jogo", status=status)
    return None


def counts(status: str) -> bool:
    return status in COUNTING


@dataclass(frozen=True)
class MaoOptions:
    """What a referee may enter at a score: the buttons the screen enables, checked by ``mao_gain``."""

    situation: str  # normal | mao_de_onze | mao_de_ferro
    played: tuple[int, ...]  # values of a mão won (to either dupla)
    ran: tuple[int, ...]  # values given by a dupla that ran
    refuse_by: int | None  # the side on 11 that may refuse the mão de onze (the other gets +1)
    tie: bool  # three tied rounds
    penalty: tuple[int, ...]  # values of a penalty inside the partida


def mao_options(*, score: tuple[int, int], settings: RuleSettings) -> MaoOptions | None:
    """Every entry the rules accept at ``score`` (None once the partida is over)."""

    def ok(mao: Mao) -> bool:
        return mao_gain(score=score, mao=mao, settings=settings)[1] is None

    if not ok(Mao(to=None)):
        return None  # the partida has ended
    kind = situation(score)
    refuse_by = None
    if kind == "mao_de_onze":
        on_eleven = 0 if score[0] == 11 else 1
        refuse_by = on_eleven if ok(Mao(to=1 - on_eleven, how="refused")) else None
    return MaoOptions(
        situation=kind,
        played=tuple(v for v in NORMAL_VALUES if ok(Mao(to=0, points=v))),
        ran=tuple(v for v in RAN_VALUES if ok(Mao(to=0, points=v, how="ran"))),
        refuse_by=refuse_by,
        tie=True,
        penalty=tuple(v for v in NORMAL_VALUES if ok(Mao(to=0, points=v, how="penalty", reason="x"))),
    )
