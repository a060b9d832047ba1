"""Typed read models: a jogo and a partida as the derived state (``state.py``) holds them.

One field per concrete column of the model, named by its attname (``dupla_a_id``, ``stage_id``), in the
model's order; ``tests/test_rows.py`` fails when a column is added, renamed or removed without the row. Rows
are read once, as tuples (``values_list``: cheaper than the dicts of ``values()``), where the state is built or
advanced (``state.py``, ``engine.py``, the live merge in ``selectors.py``); a row is never changed in place: a
fresh one replaces it.

Frozen and slotted: no ``__dict__``, and pickled as the tuple of its values (the state is pickled into the
database, ``snapshots.py``, and shared between processes, ``caching.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from .models import Jogo, Partida


@dataclass(frozen=True, slots=True)
class JogoRow:
    """A stored jogo (``models.Jogo``): its columns, by attname."""

    id: int
    tournament_id: int
    key: str
    stage_id: int
    group_id: int | None
    dupla_a_id: int
    dupla_b_id: int
    round: int | None
    mesa: int | None
    position: int | None
    third_place: bool
    online: bool  # a hybrid event's mesa online (docs/regras.md §9.7)
    best_of: int
    status: str
    via: int
    via_reason: str
    counted_via: int | None
    confirmations: dict[str, Any]
    signed_by_id: int | None
    signed_at: datetime | None
    signed_reason: str
    version: int
    walkover: str
    lost_by: str
    penalty_reason: str
    entry_order: int | None
    referee_id: int | None

    @classmethod
    def from_values(cls, values: dict[str, Any]) -> Self:
        """The row of a ``values()`` dict of a jogo (every column)."""
        return cls(**values)

    def __reduce__(self) -> tuple[Callable[[tuple[Any, ...]], JogoRow], tuple[tuple[Any, ...]]]:
        return (jogo_row_make, (_jogo_values(self),))


@dataclass(frozen=True, slots=True)
class PartidaRow:
    """A stored partida (``models.Partida``): its columns, by attname."""

    id: int
    jogo_id: int
    number: int
    mode: str
    score_a: int | None
    score_b: int | None
    lost_by: str
    penalty_reason: str

    @classmethod
    def from_values(cls, values: dict[str, Any]) -> Self:
        """The row of a ``values()`` dict of a partida (every column)."""
        return cls(**values)

    def __reduce__(self) -> tuple[Callable[[tuple[Any, ...]], PartidaRow], tuple[tuple[Any, ...]]]:
        return (partida_row_make, (_partida_values(self),))


JOGO_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(JogoRow))
PARTIDA_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PartidaRow))


def _makers[R](
    cls: type[R], names: tuple[str, ...], prefix: str
) -> tuple[Callable[[tuple[Any, ...]], R], Callable[[Iterable[tuple[Any, ...]]], list[R]]]:
    """Constructors of ``cls`` from the tuples of its values, in its fields' order: one row, and many at once.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, three times slower than the
    dict ``values()`` made, and the state reads and unpickles tens of thousands of rows. A row is made as a
    plain object with the same slots, which stores them directly, then given its class (allowed: the layouts
    are the same); many in one loop, without a call per row.
    """
    if cls.__slots__ != names:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: slots {cls.__slots__} are not its fields {names}")  # type: ignore[attr-defined]
    targets = ", ".join(f"row.{name}" for name in names)
    source = (
        f"class Mutable:\n    __slots__ = {names!r}\n\n"
        f"def {prefix}_make(values):\n    row = new(Mutable)\n    ({targets},) = values\n"
        "    row.__class__ = cls\n    return row\n\n"
        f"def {prefix}s_unpack(many):\n    out = []\n    append = out.append\n    for values in many:\n"
        f"        row = new(Mutable)\n        ({targets},) = values\n        row.__class__ = cls\n        append(row)\n"
        "    return out\n"
    )
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls, "__name__": __name__}
    exec(source, namespace)  # as ``dataclasses`` makes ``__init__``; named so that pickle finds them
    return namespace[f"{prefix}_make"], namespace[f"{prefix}s_unpack"]


jogo_row_make, jogo_rows_unpack = _makers(JogoRow, JOGO_FIELDS, "jogo_row")
partida_row_make, partida_rows_unpack = _makers(PartidaRow, PARTIDA_FIELDS, "partida_row")
_jogo_values: Callable[[JogoRow], tuple[Any, ...]] = attrgetter(*JOGO_FIELDS)
_partida_values: Callable[[PartidaRow], tuple[Any, ...]] = attrgetter(*PARTIDA_FIELDS)


def jogo_rows_read(queryset: QuerySet[Jogo]) -> list[JogoRow]:
    """The jogos of ``queryset`` as rows, in its order (one query)."""
    return jogo_rows_unpack(queryset.values_list(*JOGO_FIELDS))


def partida_rows_read(queryset: QuerySet[Partida]) -> list[PartidaRow]:
    """The partidas of ``queryset`` as rows, in its order (one query)."""
    return partida_rows_unpack(queryset.values_list(*PARTIDA_FIELDS))


def jogo_rows_pack(rows: list[JogoRow]) -> list[tuple[Any, ...]]:
    """Rows as the tuples of their values, to pickle many at once (``jogo_rows_unpack``): a row's own
    ``__reduce__`` runs once per row."""
    return list(map(_jogo_values, rows))


def partida_rows_pack(rows: list[PartidaRow]) -> list[tuple[Any, ...]]:
    return list(map(_partida_values, rows))


MAO_VALUES = ("partida_id", "to", "points", "how", "reason", "key")  # what a jogo's record needs of each mão


def jogos_reread(*, tournament_id: int, ids: list[int]) -> tuple[list[JogoRow], list[PartidaRow], list[dict[str, Any]]]:
    """These jogos of the tournament as a counted result reads them again (``engine.state_advance``): their rows,
    their partidas' rows (by jogo and number) and their mãos (``MAO_VALUES``, by partida and order). Plain
    statements made once (``plainsql.rows_where_in``), not querysets compiled on every confirmation."""
    from django.db import connections, router

    from . import plainsql
    from .models import Jogo, Mao, Partida

    connection = connections[router.db_for_read(Jogo)]
    rows = jogo_rows_unpack(
        plainsql.rows_where_in(
            Jogo, "id", ids, also="tournament_id", also_value=tournament_id, order=("id",), connection=connection
        )
    )
    partidas = partida_rows_unpack(
        plainsql.rows_where_in(Partida, "jogo_id", ids, order=("jogo_id", "number"), connection=connection)
    )
    by_maos = [p.id for p in partidas] if any(p.mode == Partida.MAOS for p in partidas) else []
    names = [f.attname for f in Mao._meta.concrete_fields]
    picked = [names.index(name) for name in MAO_VALUES]
    maos = [
        dict(zip(MAO_VALUES, (row[i] for i in picked), strict=True))
        for row in plainsql.rows_where_in(
            Mao, "partida_id", by_maos, order=("partida_id", "order"), connection=connection
        )
    ]
    return rows, partidas, maos
