"""Model instances from plain SQL, for the few hot queries whose queryset costs more to compile than to run.

The súmula API's mão POST is the event's busiest request, and Django compiles each queryset anew on every
call: for a short query that is most of its cost. Its queries are written once here (per database vendor)
and their rows become model instances as the ORM would make them: every concrete column in the model's
order, the ORM's converters applied (JSON, and on SQLite booleans and datetimes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Col
from django.utils import timezone

_MADE: dict[tuple[object, ...], Any] = {}  # per (what, vendor, …): a query's text or a model's converters, made once


def made[T](key: tuple[object, ...], make: Callable[[], T]) -> T:
    """``make()`` once per ``key`` (a query's text for one database vendor, say), then the same value."""
    value = _MADE.get(key)
    if value is None:
        value = _MADE[key] = make()
    return value


def column_name(field: models.Field[Any, Any]) -> str:
    """A concrete field's column (only a field with no column of its own has none)."""
    assert field.column is not None
    return field.column


def columns(model: type[models.Model], alias: str, connection: BaseDatabaseWrapper) -> list[str]:
    """Every concrete column of ``model`` as ``alias."column"``, in the model's order."""
    q = connection.ops.quote_name
    return [f"{alias}.{q(column_name(f))}" for f in model._meta.concrete_fields]


def width(model: type[models.Model]) -> int:
    return len(model._meta.concrete_fields)


Converters = list[tuple[int, list[Callable[..., Any]], Col]]  # (column index, its converters, its column)


def _converters(model: type[models.Model], connection: BaseDatabaseWrapper) -> Converters:
    def make() -> Converters:
        found: Converters = []
        for i, f in enumerate(model._meta.concrete_fields):
            col = f.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if functions:
                found.append((i, functions, col))
        return found

    return made(("converters", connection.vendor, model), make)


def instance[M: models.Model](model: type[M], values: Sequence[Any], *, db: str, connection: BaseDatabaseWrapper) -> M:
    """The ``model`` instance of a row's ``values`` (its concrete columns, in order), as the ORM makes it."""
    values = converted(model, values, connection=connection)
    # no field names: every concrete column is given (from_db reads the names only for a partial row)
    return model.from_db(db, None, values)  # type: ignore[arg-type]


def converted(model: type[models.Model], values: Sequence[Any], *, connection: BaseDatabaseWrapper) -> tuple[Any, ...]:
    """A row's ``values`` (every concrete column of ``model``, in order) with the ORM's converters applied."""
    converters = _converters(model, connection)
    if not converters:
        return tuple(values)
    out = list(values)
    for i, functions, col in converters:
        value = out[i]
        for function in functions:
            value = function(value, col, connection)
        out[i] = value
    return tuple(out)


def rows_where_in(
    model: type[models.Model],
    column: str,
    values: Sequence[int],
    *,
    connection: BaseDatabaseWrapper,
    also: str = "",
    also_value: int | None = None,
    order: tuple[str, ...] = (),
) -> list[tuple[Any, ...]]:
    """Every concrete column of ``model``'s rows whose ``column`` is one of ``values`` (and ``also`` equals
    ``also_value``, when given), ordered by the ``order`` columns, converted as the ORM converts them: what
    ``values_list`` of every field reads, without compiling a queryset (the statement is made once per count of
    values, and prepared on PostgreSQL)."""
    if not values:
        return []

    def make() -> str:
        q = connection.ops.quote_name
        where = f"{q(column)} IN ({', '.join(['%s'] * len(values))})" + (f" AND {q(also)} = %s" if also else "")
        ordered = f" ORDER BY {', '.join(q(c) for c in order)}" if order else ""
        return f"SELECT {', '.join(columns(model, 't', connection))} FROM {q(model._meta.db_table)} t WHERE {where}{ordered}"

    params: list[int] = [*values, also_value] if also and also_value is not None else list(values)
    with connection.cursor() as cursor:
        cursor.execute(
            made(("rows_where_in", connection.vendor, model, column, len(values), also, order), make), params
        )
        rows = cursor.fetchall()
    return [converted(model, row, connection=connection) for row in rows]


def insert(instance: models.Model, *, db: str, connection: BaseDatabaseWrapper, unless: tuple[str, ...] = ()) -> bool:
    """INSERT ``instance`` (its fields' ``pre_save``, as ``save`` does: ``auto_now_add`` and the like) and set
    its primary key. ``unless``: the columns of a unique constraint; when a row with those values exists, nothing
    is inserted and False is returned (ON CONFLICT … DO NOTHING: a check and an insert in one statement)."""
    model = type(instance)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(instance, add=True), connection=connection) for f in fields]

    def make() -> str:
        q = connection.ops.quote_name
        conflict = f" ON CONFLICT ({', '.join(q(c) for c in unless)}) DO NOTHING" if unless else ""
        return (
            f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(column_name(f)) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}){conflict} RETURNING {q(column_name(model._meta.pk))}"
        )

    with connection.cursor() as cursor:
        cursor.execute(made(("insert", connection.vendor, model, unless), make), values)
        row = cursor.fetchone()
    if row is None:
        return False
    instance.pk = row[0]
    instance._state.adding, instance._state.db = False, db
    return True


# Column types whose Python values go to the database as they are (no ``get_db_prep_save`` needed): the rows of
# ``rows_insert`` skip Django's per-value preparation for them, which is most of a big ``bulk_create``'s cost.
_AS_IS = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "BigIntegerField",
        "BooleanField",
        "CharField",
        "ForeignKey",
        "IntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SlugField",
        "SmallIntegerField",
        "TextField",
    }
)
INSERT_PARAMS = 30_000  # parameters in one INSERT: within SQLite's 32,766 and PostgreSQL's 65,535


def rows_insert(
    model: type[models.Model],
    rows: Sequence[dict[str, Any]],
    *,
    connection: BaseDatabaseWrapper,
    ignore_conflicts: bool = False,
    update_conflicts: tuple[str, ...] = (),
) -> list[int]:
    """INSERT many rows of ``model`` at once, as plain values (``attname`` → value; a column left out takes its
    field's default, made for each row when it is a callable; ``auto_now_add`` the time now) and return their ids
    in order: ``bulk_create`` without making a model instance per row and compiling each batch (an import writes
    tens of thousands: players, duplas, jogos, partidas, mãos). ``ignore_conflicts``: a row that breaks a unique
    constraint is left out (ON CONFLICT DO NOTHING), and no ids are returned; ``update_conflicts`` (the columns of
    a unique constraint): a row that has them as one already there updates it instead (an upsert; no ids). Sends
    no signals, as ``bulk_create`` sends none.

    PostgreSQL takes each column as one array (``INSERT … SELECT * FROM unnest(…)``: a few parameters, however many
    rows; psycopg parses a statement of thousands of placeholders slowly); SQLite takes rows of values."""
    if not rows:
        return []
    fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]  # the database makes it
    now = timezone.now()
    fixed: dict[str, Any] = {}  # a column's default, the same for every row
    made_each: dict[str, Callable[[], Any]] = {}  # a column whose default is made for each row (a token, a dict)
    for f in fields:
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
            fixed[f.attname] = now
        elif f.has_default() and callable(f.default):
            made_each[f.attname] = f.default
        else:
            fixed[f.attname] = f.get_default()
    postgresql = connection.vendor == "postgresql"
    prep = [_preparer(f, connection=connection, arrays=postgresql) for f in fields]

    def values_of(row: dict[str, Any]) -> list[Any]:
        out = []
        for f, prepare in zip(fields, prep, strict=True):
            name = f.attname
            value = row[name] if name in row else made_each[name]() if name in made_each else fixed[name]
            out.append(value if prepare is None else prepare(value))
        return out

    q = connection.ops.quote_name
    head = f"INSERT INTO {q(model._meta.db_table)} ({', '.join(q(column_name(f)) for f in fields)}) "
    if update_conflicts:
        others = [q(column_name(f)) for f in fields if f.attname not in update_conflicts]
        tail = f" ON CONFLICT ({', '.join(q(c) for c in update_conflicts)}) DO UPDATE SET " + ", ".join(
            f"{c} = EXCLUDED.{c}" for c in others
        )
    elif ignore_conflicts:
        tail = " ON CONFLICT DO NOTHING"
    else:
        tail = f" RETURNING {q(column_name(model._meta.pk))}"
    if postgresql:
        arrays = ", ".join(f"%s::{_array_type(f, connection)}" for f in fields)
        body, per = f"SELECT * FROM unnest({arrays})", INSERT_PARAMS
    else:
        body, per = "VALUES ", max(1, INSERT_PARAMS // len(fields))
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    ids: list[int] = []
    with connection.cursor() as cursor:
        for start in range(0, len(rows), per):
            batch = [values_of(row) for row in rows[start : start + per]]
            if postgresql:
                cursor.execute(head + body + tail, [list(column) for column in zip(*batch, strict=True)])
            else:
                cursor.execute(head + body + ", ".join([one] * len(batch)) + tail, [v for row in batch for v in row])
            if not ignore_conflicts and not update_conflicts:
                # a statement's new ids grow in the order of its rows (PostgreSQL's sequence, SQLite's rowid),
                # whatever order RETURNING gives them in
                ids += sorted(r[0] for r in cursor.fetchall())
    return ids


def _preparer(
    field: models.Field[Any, Any], *, connection: BaseDatabaseWrapper, arrays: bool
) -> Callable[[Any], Any] | None:
    """How a Python value of ``field`` goes to the database (None: as it is). In an array (PostgreSQL), a JSON value
    goes as its text (cast to ``jsonb``)."""
    kind = field.get_internal_type()
    if kind in _AS_IS:
        return None
    if arrays and kind == "JSONField":
        encoder = getattr(field, "encoder", None)
        return lambda value: None if value is None else json.dumps(value, cls=encoder)
    return lambda value: field.get_db_prep_save(value, connection=connection)


def _array_type(field: models.Field[Any, Any], connection: BaseDatabaseWrapper) -> str:
    """The PostgreSQL array type of a column (``integer[]``, ``varchar(60)[]``, ``jsonb[]``)."""
    return f"{field.db_type(connection)}[]"  # a foreign key's is its target's (integer, bigint)


def update(instance: models.Model, attnames: list[str], *, connection: BaseDatabaseWrapper) -> None:
    """UPDATE these columns of ``instance``'s row (``save(update_fields=…)`` without compiling a queryset)."""
    model = type(instance)
    fields = cast("list[models.Field[Any, Any]]", [model._meta.get_field(name) for name in attnames])  # columns
    q = connection.ops.quote_name
    values = [f.get_db_prep_save(getattr(instance, f.attname), connection=connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(model._meta.db_table)} SET {', '.join(f'{q(column_name(f))} = %s' for f in fields)} "
            f"WHERE {q(column_name(model._meta.pk))} = %s",
            values + [instance.pk],
        )


# What ``key_lock`` guards, each under a number of its own (two scopes never share a lock).
KEY_LOCK_SCOPES = {"pin.address": 1, "pin.account": 2, "pin.tournament": 3}


def key_lock(scope: str, key: object, *, connection: BaseDatabaseWrapper) -> None:
    """Lock ``key`` of ``scope`` until the transaction ends, for what has no row of its own to lock (an address's
    wrong PINs): a counter that many requests read and grow at once, read and grown by one at a time.

    PostgreSQL: a transaction-level advisory lock on the key's hash (two keys that share one merely wait for each
    other). SQLite: nothing to take; each write transaction holds the database's one write lock from its start
    (``transaction_mode`` IMMEDIATE, config/settings.py)."""
    assert connection.in_atomic_block, "key_lock holds until the transaction ends: open one first"
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [KEY_LOCK_SCOPES[scope], str(key)])


def row_lock(
    model: type[models.Model],
    pk: int,
    *,
    connection: BaseDatabaseWrapper,
    no_key: bool = False,
    read: tuple[str, ...] = (),
) -> tuple[Any, ...] | None:
    """Lock ``model``'s row ``pk`` until the transaction ends (SELECT … FOR UPDATE; ``no_key``: FOR NO KEY UPDATE,
    where the database has it) and read its ``read`` columns as they now stand (the primary key when none are
    named); None when there is no such row. SQLite locks the whole database at its first write."""

    def make() -> str:
        q = connection.ops.quote_name
        lock = ""
        if connection.features.has_select_for_update:
            lock = (
                " FOR NO KEY UPDATE" if no_key and connection.features.has_select_for_no_key_update else " FOR UPDATE"
            )
        pk_column = q(column_name(model._meta.pk))
        selected = ", ".join(q(c) for c in read) if read else pk_column
        return f"SELECT {selected} FROM {q(model._meta.db_table)} WHERE {pk_column} = %s{lock}"

    with connection.cursor() as cursor:
        cursor.execute(made(("row_lock", connection.vendor, model, no_key, read), make), [pk])
        return cursor.fetchone()
