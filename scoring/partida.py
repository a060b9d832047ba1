"""A partida to 12 pontos-partida, checked mão by mão or by its final score (docs/regras.md §3)."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import RuleError
from .messages import _, ngettext
from .rules import RuleSettings
from .text import is_blank

TARGET = 12
NORMAL_VALUES = (1, 3, 6, 9, 12)
RAN_VALUES = (1, 3, 6, 9)  # value before the refused raise
ONZE = 11
HOW_CHOICES = ("played", "ran", "refused", "penalty")

NORMAL, MAO_DE_ONZE, MAO_DE_FERRO = "normal", "mao_de_onze", "mao_de_ferro"


@dataclass(frozen=True)
class Mao:
    """One entry of a súmula: a mão, or a penalty inside a partida.

    ``to`` is 0 or 1 (the dupla that scores, in the jogo's order) or None for
    a mão whose three rounds tied. ``points`` may be None where the situation
    leaves one possible value (a refused mão de onze, an accepted one, a tie).
    """

    to: int | None
    points: int | None = None
    how: str = "played"
    reason: str = ""
    key: str = field(default="", compare=False)  # the súmula API's client-made id, when it came that way


@dataclass(frozen=True)
class PartidaScore:
    score: tuple[int, int]
    finished: bool

    @property
    def winner(self) -> int | None:
        if not self.finished:
            return None
        return 0 if self.score[0] > self.score[1] else 1


def situation(score: tuple[int, int]) -> str:
    """Which kind of mão is played at this score."""
    on_eleven = [s == ONZE for s in score]
    if all(on_eleven):
        return MAO_DE_FERRO
    if any(on_eleven):
        return MAO_DE_ONZE
    return NORMAL


def is_finished(score: tuple[int, int]) -> bool:
    return max(score) >= TARGET


def _values(values: Iterable[int]) -> str:
    vals = list(values)
    if len(vals) == 1:
        return str(vals[0])
    return _("%(first)s ou %(last)s", first=", ".join(str(v) for v in vals[:-1]), last=vals[-1])


def mao_gain(*, score: tuple[int, int], mao: Mao, settings: RuleSettings) -> tuple[tuple[int, int] | None, str | None]:
    """Points each dupla gets from ``mao`` at ``score``, or the rule it breaks (pt-BR)."""
    if is_finished(score):
        return None, _(
            "a partida já terminou (%(a)s x %(b)s); nenhuma mão é aceita depois do fim", a=score[0], b=score[1]
        )
    if mao.how not in HOW_CHOICES:
        return None, _("tipo de mão %(how)s desconhecido; use played, ran, refused ou penalty", how=repr(mao.how))
    if mao.to is not None and (type(mao.to) is not int or mao.to not in (0, 1)):
        return None, _("'to' deve ser 0, 1 ou null (recebido %(to)s)", to=repr(mao.to))
    if mao.points is not None and (isinstance(mao.points, bool) or not isinstance(mao.points, int)):
        return None, _("'points' deve ser um número inteiro (recebido %(points)s)", points=repr(mao.points))
    kind = situation(score)
    on_eleven = 0 if score[0] == ONZE else 1  # meaningful only in a mão de onze
    other = 1 - on_eleven
    ferro = settings.mao_de_ferro_value

    if mao.how == "penalty":
        if not isinstance(mao.reason, str) or is_blank(mao.reason):
            return None, _("toda penalidade precisa de um motivo ('reason')")
        if mao.to is None:
            return None, _("penalidade sem dupla beneficiada: informe 'to'")
        allowed = NORMAL_VALUES if kind == NORMAL else (1, 3) if kind == MAO_DE_ONZE else tuple(sorted({1, ferro}))
        if mao.points not in allowed:
            points, values = mao.points, _values(allowed)
            count = points if isinstance(points, int) else 0
            if kind == MAO_DE_ONZE:
                return None, ngettext(
                    "penalidade de %(points)s ponto inválida com uma dupla em 11: a perda é de 1 ponto ou dos "
                    "pontos em disputa (%(allowed)s)",
                    "penalidade de %(points)s pontos inválida com uma dupla em 11: a perda é de 1 ponto ou dos "
                    "pontos em disputa (%(allowed)s)",
                    count,
                    points=points,
                    allowed=values,
                )
            if kind == MAO_DE_FERRO:
                return None, ngettext(
                    "penalidade de %(points)s ponto inválida na mão de ferro: a perda é de 1 ponto ou dos "
                    "pontos em disputa (%(allowed)s)",
                    "penalidade de %(points)s pontos inválida na mão de ferro: a perda é de 1 ponto ou dos "
                    "pontos em disputa (%(allowed)s)",
                    count,
                    points=points,
                    allowed=values,
                )
            return None, ngettext(
                "penalidade de %(points)s ponto inválida: a perda é de 1 ponto ou dos pontos em disputa (%(allowed)s)",
                "penalidade de %(points)s pontos inválida: a perda é de 1 ponto ou dos pontos em disputa (%(allowed)s)",
                count,
                points=points,
                allowed=values,
            )
        return _to(mao.to, mao.points), None

    if mao.to is None:  # three tied rounds
        if mao.how != "played":
            return None, _("mão empatada (to = null) só pode ser 'played'")
        opponent_scores = kind == MAO_DE_ONZE and settings.mao_de_onze_tie == "opponent"
        if mao.points not in (None, 0):
            if opponent_scores:
                return None, _(
                    "mão de onze com as três rodadas empatadas: a dupla que não está com 11 recebe 3 "
                    "pontos automaticamente; não informe 'points'"
                )
            return None, _("mão com as três rodadas empatadas não dá pontos a nenhuma dupla; não informe 'points'")
        if opponent_scores:
            return _to(other, 3), None  # FENACEF Art.21 §ún.
        return (0, 0), None

    if kind == MAO_DE_FERRO:
        if mao.how in ("ran", "refused"):
            return None, _("na mão de ferro (11 x 11) não há decisão nem truco: registre só quem venceu a mão")
        if mao.points not in (None, ferro):
            return None, _(
                "na mão de ferro (11 x 11) a mão vale %(value)s; recebido %(points)s", value=ferro, points=mao.points
            )
        return _to(mao.to, ferro), None

    if kind == MAO_DE_ONZE:
        if mao.how == "ran":
            return None, _("na mão de onze não há truco, então ninguém corre: a mão é aceita (vale 3) ou recusada (+1)")
        if mao.how == "refused":
            if mao.to != other:
                return None, _("a mão de onze recusada dá 1 ponto à dupla que não está com 11")
            if mao.points not in (None, 1):
                return None, _(
                    "a mão de onze recusada vale 1 ponto à outra dupla; recebido %(points)s", points=mao.points
                )
            return _to(other, 1), None
        if mao.points not in (None, 3):
            return None, _("a mão de onze aceita vale 3 pontos (não há truco); recebido %(points)s", points=mao.points)
        return _to(mao.to, 3), None

    # normal mão
    if mao.how == "refused":
        return None, _("só a dupla com 11 pontos pode recusar a mão (mão de onze)")
    if mao.how == "ran":
        if mao.points not in RAN_VALUES:
            return None, _(
                "quem corre dá %(allowed)s pontos (o valor antes do pedido recusado); recebido %(points)s",
                allowed=_values(RAN_VALUES),
                points=mao.points,
            )
        return _to(mao.to, mao.points), None
    if mao.points not in NORMAL_VALUES:
        return None, _(
            "uma mão vale %(allowed)s; recebido %(points)s", allowed=_values(NORMAL_VALUES), points=mao.points
        )
    return _to(mao.to, mao.points), None


def _to(side: int, points: int) -> tuple[int, int]:
    return (points, 0) if side == 0 else (0, points)


def partida_from_maos(*, maos: Iterable[Mao], settings: RuleSettings) -> tuple[PartidaScore, list[RuleError]]:
    """Replay a súmula's mãos; the running score and any problems, each at ``maos[i]``."""
    score = (0, 0)
    errors: list[RuleError] = []
    for i, mao in enumerate(maos):
        gain, problem = mao_gain(score=score, mao=mao, settings=settings)
        if problem:
            errors.append(RuleError(f"maos[{i}]", problem))
            if is_finished(score):
                break  # everything after the end is refused; one message is enough
            continue
        assert gain is not None  # no problem, so a gain
        score = (score[0] + gain[0], score[1] + gain[1])
    return PartidaScore(score=score, finished=is_finished(score)), errors


def final_score_error(*, score: tuple[int, int], settings: RuleSettings) -> str | None:
    """Why a partida cannot have ended ``a x b`` (quick entry), or None if some mãos reach it.

    The last mão came from a score where neither dupla had 12. With the loser
    on 10 or less, the winner came from 0..11 with 1 to 12 points: 12..22.
    With the loser on 11 every mão is worth at most 3: 12 or 13 from 9 or 10
    (mão de onze), or 11 + the mão de ferro value from 11 x 11.
    """
    try:
        a, b = score
    except (TypeError, ValueError):
        return _("placar inválido %(score)s: informe dois números inteiros ≥ 0 (a x b)", score=repr(score))
    for v in (a, b):
        if type(v) is not int or v < 0:
            return _("placar inválido %(a)s x %(b)s: use números inteiros ≥ 0", a=repr(a), b=repr(b))
    winner, loser = max(a, b), min(a, b)
    if winner < TARGET:
        return _(
            "placar %(a)s x %(b)s não termina a partida: uma dupla precisa chegar a %(target)s", a=a, b=b, target=TARGET
        )
    if loser >= TARGET:
        return _(
            "placar %(a)s x %(b)s impossível: a partida acaba quando a primeira dupla chega a %(target)s",
            a=a,
            b=b,
            target=TARGET,
        )
    if loser <= 10:
        top = TARGET - 1 - 1 + 12  # from 10 with a 12-point mão
        if winner > top:
            return _(
                "placar %(a)s x %(b)s impossível: a maior mão vale 12, então o vencedor termina com no máximo %(top)s",
                a=a,
                b=b,
                top=top,
            )
        return None
    possible = sorted({12, 13, ONZE + settings.mao_de_ferro_value})
    if winner not in possible:
        return _(
            "placar %(a)s x %(b)s impossível: com uma dupla em 11 nenhuma mão vale mais de 3, "
            "então o vencedor termina com %(possible)s",
            a=a,
            b=b,
            possible=_values(possible),
        )
    return None


def perda_da_partida_score(*, lost_by: int) -> tuple[int, int]:
    """A partida lost by penalty is recorded 12 x 0 to the other dupla."""
    return (0, TARGET) if lost_by == 0 else (TARGET, 0)
