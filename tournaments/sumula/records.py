"""One jogo's súmula as stored: its record for ``scoring``, the duplas' answers, the ids of its mãos."""

from __future__ import annotations

from django.db import connections, router

from scoring.jogo import JogoEntry

from ..models import Jogo, Mao, Partida
from ..selectors import jogo_entry_from_rows

# Every column of both tables, in their models' field order (``Model.from_db`` then builds them positionally).
_PARTIDA_COLUMNS = [f.column for f in Partida._meta.concrete_fields]
_MAO_COLUMNS = [f.column for f in Mao._meta.concrete_fields]
_PARTIDA_NAMES = [f.attname for f in Partida._meta.concrete_fields]
_MAO_NAMES = [f.attname for f in Mao._meta.concrete_fields]
_SQL: dict[str, str] = {}  # the query, per database vendor


def _record_sql(connection) -> str:
    """A jogo's partidas, each with its mãos (LEFT JOIN: a partida by score or by penalty has none), in order."""
    sql = _SQL.get(connection.vendor)
    if sql is None:
        q = connection.ops.quote_name
        columns = ([f"p.{q(c)}" for c in _PARTIDA_COLUMNS] + [f"m.{q(c)}" for c in _MAO_COLUMNS])
        sql = _SQL[connection.vendor] = (
            f"SELECT {', '.join(columns)} FROM {q(Partida._meta.db_table)} p "
            f"LEFT JOIN {q(Mao._meta.db_table)} m ON m.{q('partida_id')} = p.{q('id')} "
            f"WHERE p.{q('jogo_id')} = %s ORDER BY p.{q('number')}, m.{q('order')}")
    return sql


def jogo_record_load(*, jogo: Jogo) -> tuple[JogoEntry | None, list[Partida], dict[int, list[Mao]]]:
    """The jogo's record (None while empty), its partidas and their mãos, in one query.

    A mão POST reads this under its jogo's lock each time: one plain query, no queryset to compile.
    """
    alias = router.db_for_read(Partida)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(_record_sql(connection), [jogo.pk])
        rows = cursor.fetchall()
    width = len(_PARTIDA_COLUMNS)
    partidas: list[Partida] = []
    maos: dict[int, list[Mao]] = {}
    partida = None
    for row in rows:
        if partida is None or partida.pk != row[0]:
            partida = Partida.from_db(alias, _PARTIDA_NAMES, row[:width])
            partida._state.fields_cache["jogo"] = jogo
            partidas.append(partida)
        if row[width] is not None:
            mao = Mao.from_db(alias, _MAO_NAMES, row[width:])
            mao._state.fields_cache["partida"] = partida
            maos.setdefault(partida.pk, []).append(mao)
    row = {"walkover": jogo.walkover, "lost_by": jogo.lost_by, "best_of": jogo.best_of,
           "penalty_reason": jogo.penalty_reason}
    partida_rows = [{"id": p.pk, "mode": p.mode, "score_a": p.score_a, "score_b": p.score_b, "lost_by": p.lost_by,
                     "penalty_reason": p.penalty_reason} for p in partidas]
    mao_rows = {pid: [{"to": m.to, "points": m.points, "how": m.how, "reason": m.reason, "key": m.key} for m in ms]
                for pid, ms in maos.items()}
    return jogo_entry_from_rows(jogo=row, partidas=partida_rows, maos=mao_rows), partidas, maos


def answers_of(jogo: Jogo) -> tuple[str | None, str | None]:
    """Each dupla's answer to the current via (``confirmed``, ``contested`` or None), in the jogo's order."""
    c = jogo.confirmations or {}
    return ((c.get("a") or {}).get("answer"), (c.get("b") or {}).get("answer"))


def mao_id(*, partida: Partida | int, mao: Mao | None = None, order: int | None = None, key: str = "") -> str:
    """A mão's id in the API: the client-made one, else ``p<partida>m<mão>`` (both counted from 1)."""
    if mao is not None:
        key, order = mao.key, mao.order
    if key:
        return key
    number = partida.number if isinstance(partida, Partida) else partida
    return f"p{number}m{(order or 0) + 1}"
