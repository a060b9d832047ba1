"""The súmula API's serializer: one function per answer, from what the domain reads to the answer's type
(``tournaments.api.schemas``), and ``to_json``, which writes any of them as the JSON object the API sends.

The súmula is sent as it is read: ``sumula.selectors.sumula_get`` builds it as the answer's type
(``tournaments.sumula.sheet.Sumula``), which is also the referee's screen's and the public pages' model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from tournaments.api.schemas import Errors, JogoRow, JogosList, Score, Status, Sumula
from tournaments.rows import JogoRow as StateRow
from tournaments.sumula.sheet import sheet_json

type Json = dict[str, Any]


def to_json(value: Any) -> Any:
    """An answer's dataclass as JSON values: its fields in order, tuples as lists, ``omit_none`` fields left out
    when None."""
    return sheet_json(value)


def errors_json(messages: Iterable[str]) -> Json:
    return cast(Json, to_json(Errors(errors=[str(m) for m in messages])))


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


def sumula_json(sumula: Sumula) -> Json:
    """The answer of ``GET …/jogos/<key>/`` and of every write (201 for a new mão, else 200): the súmula as read."""
    return cast(Json, to_json(sumula))
