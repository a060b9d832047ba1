"""The súmula API's answers as types: one frozen dataclass per JSON object the API writes.

``tournaments.api.serialize`` builds them and writes them as JSON (fields in this order; a field whose metadata
says ``omit_none`` is left out when None, every other one is always written, null included);
``tournaments.api.openapi`` turns them into the published OpenAPI document's schemas. A ``Score`` is a pair of
points (or of partidas won), in the order of the jogo's duplas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tournaments.sumula.commands import spec

type Score = tuple[int, int]
type Status = Literal["scheduled", "in_progress", "awaiting_confirmation", "contested", "confirmed", "homologated"]
type Answer = Literal["confirmed", "contested"]

OMIT_NONE = {"omit_none": True}


@dataclass(frozen=True)
class Errors:
    """Every refusal: the reasons, in Portuguese."""

    errors: list[str] = field(metadata=spec(minItems=1, items={"type": "string", "minLength": 1}))


@dataclass(frozen=True)
class JogoRow:
    key: str
    stage: str
    group: str | None
    round: int | None
    mesa: int | None
    duplas: tuple[str, str]
    status: Status
    via: int = field(metadata=spec(minimum=1))
    version: int = field(metadata=spec(minimum=0))
    score: Score = field(metadata=spec(description="partidas won"))
    current: Score | None = field(metadata=spec(description="the points of the partida being played"))


@dataclass(frozen=True)
class JogosList:
    jogos: list[JogoRow]
    live_version: int = field(metadata=spec(minimum=0))


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
    how: Literal["played", "ran", "refused", "penalty"]
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
    situation: Literal["normal", "mao_de_onze", "mao_de_ferro"]
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
    penalty: PenaltyInfo | None
    confirmations: dict[str, Answer | None] = field(metadata=spec(description="per dupla key"))
    confirmation_details: dict[str, AnswerDetail | None]
    signed: Signed | None
    version: int = field(metadata=spec(minimum=0))
    current: Score | None
    options: MaoOptions | None
