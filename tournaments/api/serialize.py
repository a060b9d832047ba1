"""The súmula API's serializer: one function per answer, from what the domain reads to the answer's type
(``tournaments.api.schemas``), and ``to_json``, which writes any of them as the JSON object the API sends.

The súmula read (``sumula.selectors.sumula_get``) is also the referee's screen's and the public pages' model;
the API never sends it as it is: ``sumula_json`` picks each field the API publishes, by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, cast

from tournaments.api.schemas import (
    AnswerDetail,
    Errors,
    JogoRow,
    JogosList,
    Mao,
    MaoOptions,
    Partida,
    PenaltyInfo,
    Score,
    Signed,
    Status,
    Sumula,
)
from tournaments.rows import JogoRow as StateRow

type Json = dict[str, Any]


def to_json(value: Any) -> Any:
    """An answer's dataclass as JSON values: its fields in order, tuples as lists, ``omit_none`` fields left out
    when None."""
    if is_dataclass(value) and not isinstance(value, type):
        out: Json = {}
        for f in fields(value):
            item = getattr(value, f.name)
            if item is None and f.metadata.get("omit_none"):
                continue
            out[f.name] = to_json(item)
        return out
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def errors_json(messages: Iterable[str]) -> Json:
    return cast(Json, to_json(Errors(errors=[str(m) for m in messages])))


def _score(value: Iterable[int]) -> Score:
    a, b = value
    return (a, b)


def _score_or_none(value: Iterable[int] | None) -> Score | None:
    return None if value is None else _score(value)


def _pair(value: Iterable[str]) -> tuple[str, str]:
    a, b = value
    return (a, b)


def jogo_row(
    *,
    jogo: StateRow,
    stage: str,
    group: str | None,
    duplas: tuple[str, str],
    score: Score,
    current: Score | None,
) -> JogoRow:
    """One row of ``GET …/jogos/``: ``jogo`` is the live state's row of the jogo."""
    return JogoRow(
        key=jogo.key,
        stage=stage,
        group=group,
        round=jogo.round,
        mesa=jogo.mesa,
        duplas=duplas,
        status=cast("Status", jogo.status),  # the column holds one of the súmula statuses (scoring.sumula)
        via=jogo.via,
        version=jogo.version,
        score=score,
        current=current,
    )


def jogos_json(*, rows: list[JogoRow], live_version: int) -> Json:
    return cast(Json, to_json(JogosList(jogos=rows, live_version=live_version)))


def _penalty(value: Mapping[str, Any] | None) -> PenaltyInfo | None:
    return None if value is None else PenaltyInfo(lost_by=value["lost_by"], reason=value["reason"])


def _mao(value: Mapping[str, Any]) -> Mao:
    return Mao(
        id=value["id"],
        to=value["to"],
        points=value["points"],
        how=value["how"],
        score=_score(value["score"]),
        reason=value.get("reason"),
    )


def _partida(value: Mapping[str, Any]) -> Partida:
    return Partida(
        number=value["number"],
        maos=[_mao(m) for m in value["maos"]],
        score=_score(value["score"]),
        finished=value["finished"],
        winner=value["winner"],
        penalty=_penalty(value.get("penalty")),
    )


def _detail(value: Mapping[str, Any] | None) -> AnswerDetail | None:
    if value is None:
        return None
    return AnswerDetail(answer=value["answer"], reason=value["reason"], at=value["at"], by=value["by"])


def _signed(value: Mapping[str, Any] | None) -> Signed | None:
    return None if value is None else Signed(by=value["by"], at=value["at"], reason=value["reason"])


def _options(value: Mapping[str, Any] | None) -> MaoOptions | None:
    if value is None:
        return None
    return MaoOptions(
        score=_score(value["score"]),
        situation=value["situation"],
        played=list(value["played"]),
        ran=list(value["ran"]),
        refuse_by=value["refuse_by"],
        tie=value["tie"],
        penalty=list(value["penalty"]),
    )


def sumula_model(sumula: Mapping[str, Any]) -> Sumula:
    """The API's súmula from the súmula read (``sumula.selectors.sumula_get``)."""
    return Sumula(
        key=sumula["key"],
        stage=sumula["stage"],
        group=sumula["group"],
        round=sumula["round"],
        mesa=sumula["mesa"],
        duplas=_pair(sumula["duplas"]),
        best_of=sumula["best_of"],
        status=sumula["status"],
        via=sumula["via"],
        via_reason=sumula["via_reason"],
        vias=sumula["vias"],
        replaced_at=sumula["replaced_at"],
        partidas=[_partida(p) for p in sumula["partidas"]],
        score=_score(sumula["score"]),
        winner=sumula["winner"],
        walkover=sumula["walkover"],
        penalty=_penalty(sumula["penalty"]),
        confirmations=dict(sumula["confirmations"]),
        confirmation_details={k: _detail(v) for k, v in sumula["confirmation_details"].items()},
        signed=_signed(sumula["signed"]),
        version=sumula["version"],
        current=_score_or_none(sumula["current"]),
        options=_options(sumula["options"]),
    )


def sumula_json(sumula: Mapping[str, Any]) -> Json:
    """The answer of ``GET …/jogos/<key>/`` and of every write (201 for a new mão, else 200)."""
    return cast(Json, to_json(sumula_model(sumula)))
