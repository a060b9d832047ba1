"""A súmula as it is read: one frozen dataclass per part (the súmula, a partida, a mão, a penalty, an answer, the
signature, the entries allowed next), built once by ``sumula.selectors.sumula_get`` and read by attribute by every
consumer (the API, the referee's screen, the public and printed súmula, the dupla's page).

These are also the API's answer types (``tournaments.api.schemas`` names them, ``tournaments.api.openapi`` writes
their schemas, named after the classes): ``sheet_json`` writes any of them as the JSON object the API sends
(fields in this order; a field whose metadata says ``omit_none`` is left out when None, every other one is always
written, null included), which is also the data the referee's screen hands to ``static/js/sumula.js``.
A ``Score`` is a pair of points (or of partidas won), in the order of the jogo's duplas.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Literal

from .commands import spec

type Score = tuple[int, int]
type Status = Literal["scheduled", "in_progress", "awaiting_confirmation", "contested", "confirmed", "homologated"]
type Answer = Literal["confirmed", "contested"]
type How = Literal["played", "ran", "refused", "penalty"]
type Situation = Literal["normal", "mao_de_onze", "mao_de_ferro"]

OMIT_NONE = {"omit_none": True}


@dataclass(frozen=True)
class PenaltyInfo:
    """A perda (of a partida or of the jogo): the dupla punished and why."""

    lost_by: str
    reason: str


@dataclass(frozen=True)
class Mao:
    id: str
    to: int | None
    points: int | None
    how: How
    score: Score = field(metadata=spec(description="the partida's points after this mão"))
    reason: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class Partida:
    number: int = field(metadata=spec(minimum=1))
    maos: list[Mao]
    score: Score
    finished: bool
    winner: str | None
    penalty: PenaltyInfo | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class AnswerDetail:
    answer: Answer | None
    reason: str | None
    at: str | None
    by: str | None


@dataclass(frozen=True)
class Signed:
    by: str | None = field(metadata=spec(description="referee or organizer (a role, never a name)"))
    at: str | None
    reason: str | None


@dataclass(frozen=True)
class MaoOptions:
    """The entries the rules accept next, at ``score``."""

    score: Score
    situation: Situation
    played: list[int]
    ran: list[int]
    refuse_by: int | None
    tie: bool
    penalty: list[int]


@dataclass(frozen=True)
class Sumula:
    """A jogo's súmula (its current via, or an earlier one with ``?via=N``)."""

    key: str
    stage: str
    group: str | None
    round: int | None
    mesa: int | None
    duplas: tuple[str, str]
    best_of: int = field(metadata=spec(minimum=1))
    status: Status
    via: int = field(metadata=spec(minimum=1))
    via_reason: str | None
    vias: int = field(metadata=spec(minimum=1, description="the súmula's current via"))
    replaced_at: str | None = field(metadata=spec(description="when this earlier via was replaced"))
    partidas: list[Partida]
    score: Score
    winner: str | None
    walkover: str | None = field(metadata=spec(description="the dupla key that did not show, or both"))
    walkover_reason: str | None = field(metadata=OMIT_NONE | spec(description="why the WO was given"))
    penalty: PenaltyInfo | None
    confirmations: dict[str, Answer | None] = field(metadata=spec(description="per dupla key"))
    confirmation_details: dict[str, AnswerDetail | None]
    signed: Signed | None
    version: int = field(metadata=spec(minimum=0))
    current: Score | None
    options: MaoOptions | None


def sheet_json(value: Any) -> Any:
    """A dataclass as JSON values: its fields in order, tuples as lists, ``omit_none`` fields left out when None."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    plan = _PLANS.get(kind)
    if plan is None:
        if not (is_dataclass(value) and not isinstance(value, type)):
            if isinstance(value, (list, tuple)):
                return [sheet_json(v) for v in value]
            if isinstance(value, dict):
                return {k: sheet_json(v) for k, v in value.items()}
            return value
        plan = _PLANS[kind] = tuple((f.name, bool(f.metadata.get("omit_none"))) for f in fields(value))
    out: dict[str, Any] = {}
    for name, omit_none in plan:
        item = getattr(value, name)
        if item is None:
            if not omit_none:
                out[name] = None
        else:
            out[name] = item if type(item) in _PLAIN else sheet_json(item)
    return out


# a súmula's mão answer writes hundreds of values: the plain ones are returned at once, and each dataclass's
# fields are listed once (``dataclasses.fields`` on every value was a tenth of a mão POST's Python)
_PLAIN = frozenset({str, int, float, bool, type(None)})
_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {}
