"""One jogo's súmula as stored: its record for ``scoring``, the duplas' answers, the ids of its mãos."""

from __future__ import annotations

from django.db import connections, router

from scoring.jogo import JogoEntry

from ..models import Dupla, Group, Jogo, Mao, Partida, Stage, Tournament
from ..selectors import jogo_entry_from_rows

# Every column of both tables, in their models' field order (``Model.from_db`` then builds them positionally).
_PARTIDA_COLUMNS = [f.column for f in Partida._meta.concrete_fields]
_MAO_COLUMNS = [f.column for f in Mao._meta.concrete_fields]
_PREPARED: dict = {}  # the queries and the converters, per database vendor (made once)


def _converters(connection, fields) -> list[tuple[int, list, object]]:
    """What turns the database's values of these columns into Python ones (JSON, booleans, datetimes on SQLite),
    as the ORM would apply them: (position, converters, expression) for the columns that have any."""
    key = ("converters", connection.vendor, tuple(fields))
    found = _PREPARED.get(key)
    if found is None:
        found = []
        for i, f in enumerate(fields):
            col = f.get_col(f.model._meta.db_table)
            functions = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if functions:
                found.append((i, functions, col))
        _PREPARED[key] = found
    return found


def _converted(values, converters, connection) -> list:
    values = list(values)
    for i, functions, col in converters:
        value = values[i]
        for function in functions:
            value = function(value, col, connection)
        values[i] = value
    return values


def _record_sql(connection) -> str:
    """A jogo's partidas, each with its mãos (LEFT JOIN: a partida by score or by penalty has none), in order."""
    key = ("record", connection.vendor)
    sql = _PREPARED.get(key)
    if sql is None:
        q = connection.ops.quote_name
        columns = ([f"p.{q(c)}" for c in _PARTIDA_COLUMNS] + [f"m.{q(c)}" for c in _MAO_COLUMNS])
        sql = _PREPARED[key] = (
            f"SELECT {', '.join(columns)} FROM {q(Partida._meta.db_table)} p "
            f"LEFT JOIN {q(Mao._meta.db_table)} m ON m.{q('partida_id')} = p.{q('id')} "
            f"WHERE p.{q('jogo_id')} = %s ORDER BY p.{q('number')}, m.{q('order')}")
    return sql


# The jogo's row and what the súmula shows of it (its duplas, stage and group), as select_related would read them.
_LOCK_JOINS = (("dupla_a", Dupla, "INNER"), ("dupla_b", Dupla, "INNER"), ("stage", Stage, "INNER"),
               ("group", Group, "LEFT"))


def _lock_sql(connection) -> str:
    key = ("lock", connection.vendor)
    sql = _PREPARED.get(key)
    if sql is None:
        q = connection.ops.quote_name
        columns = [f"j.{q(f.column)}" for f in Jogo._meta.concrete_fields]
        joins = []
        for n, (name, model, how) in enumerate(_LOCK_JOINS):
            columns += [f"r{n}.{q(f.column)}" for f in model._meta.concrete_fields]
            joins.append(f"{how} JOIN {q(model._meta.db_table)} r{n} "
                         f"ON r{n}.{q('id')} = j.{q(Jogo._meta.get_field(name).column)}")
        lock = ""
        if connection.features.has_select_for_update_of:
            lock = " FOR UPDATE OF j"  # the jogo's row only (the group is on a LEFT JOIN's nullable side)
        elif connection.features.has_select_for_update:
            lock = " FOR UPDATE"
        sql = _PREPARED[key] = (f"SELECT {', '.join(columns)} FROM {q(Jogo._meta.db_table)} j {' '.join(joins)} "
                           f"WHERE j.{q('tournament_id')} = %s AND j.{q('key')} = %s{lock}")
    return sql


def jogo_lock(*, tournament: Tournament, key: str) -> Jogo | None:
    """The jogo ``key`` of ``tournament``, its row locked until the transaction ends, with its duplas, stage and
    group (None: no such jogo). What ``select_for_update(of=("self",)).select_related(…)`` reads, in one plain
    query: every súmula write starts here, and compiling that queryset cost more than the rest of a mão."""
    alias = router.db_for_write(Jogo)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection), [tournament.pk, key])
        row = cursor.fetchone()
    if row is None:
        return None
    start, end = 0, len(Jogo._meta.concrete_fields)
    jogo = Jogo.from_db(alias, None, _converted(row[start:end], _converters(connection, Jogo._meta.concrete_fields),
                                                  connection))
    jogo._state.fields_cache["tournament"] = tournament
    for name, model, _how in _LOCK_JOINS:
        start, end = end, end + len(model._meta.concrete_fields)
        values = row[start:end]
        jogo._state.fields_cache[name] = None if values[0] is None else model.from_db(
            alias, None, _converted(values, _converters(connection, model._meta.concrete_fields), connection))
    return jogo


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
    partida_converters = _converters(connection, Partida._meta.concrete_fields)
    mao_converters = _converters(connection, Mao._meta.concrete_fields)
    partidas: list[Partida] = []
    maos: dict[int, list[Mao]] = {}
    partida = None
    for row in rows:
        if partida is None or partida.pk != row[0]:
            values = row[:width]
            partida = Partida.from_db(alias, None, _converted(values, partida_converters, connection)
                                      if partida_converters else values)
            partida._state.fields_cache["jogo"] = jogo
            partidas.append(partida)
        if row[width] is not None:
            values = row[width:]
            mao = Mao.from_db(alias, None, _converted(values, mao_converters, connection) if mao_converters else values)
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
