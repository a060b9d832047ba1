"""The súmula API's answers as types: one frozen dataclass per JSON object the API writes.

The súmula and its parts are the domain's read model (``tournaments.sumula.sheet``, built by
``sumula.selectors.sumula_get``), named here as answers: the API writes the súmula as it is read.
``tournaments.api.serialize`` builds the others and writes any of them as JSON (fields in this order; a field
whose metadata says ``omit_none`` is left out when None, every other one is always written, null included);
``tournaments.api.openapi`` turns them into the published OpenAPI document's schemas. A ``Score`` is a pair of
points (or of partidas won), in the order of the jogo's duplas.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.sumula.commands import spec
from tournaments.sumula.sheet import (
    OMIT_NONE,
    Answer,
    AnswerDetail,
    Mao,
    MaoOptions,
    Partida,
    PenaltyInfo,
    Score,
    Signed,
    Status,
    Sumula,
)

__all__ = [
    "OMIT_NONE",
    "Answer",
    "AnswerDetail",
    "Errors",
    "JogoRow",
    "JogosList",
    "Mao",
    "MaoOptions",
    "Partida",
    "PenaltyInfo",
    "Score",
    "Signed",
    "Status",
    "Sumula",
]


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
