"""One jogo's súmula as stored: its record for ``scoring``, the duplas' answers, the ids of its mãos; and the
records this process keeps for the jogos it wrote lately (``jogo_record_locked``)."""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import ForeignKey

from scoring.jogo import JogoEntry

from ..models import Dupla, Group, Jogo, Mao, Partida, Stage, Tournament
from ..plainsql import columns, instance, made, width
from ..selectors import jogo_entry_from_rows

# A jogo's record as stored: its entry for ``scoring`` (None while empty), its partidas and their mãos (by partida id).
StoredRecord = tuple[JogoEntry | None, list[Partida], dict[int, list[Mao]]]

# The jogo's row and what the súmula shows of it (its duplas, stage and group), as select_related would read them.
_LOCK_JOINS = (
    ("dupla_a", Dupla, "INNER"),
    ("dupla_b", Dupla, "INNER"),
    ("stage", Stage, "INNER"),
    ("group", Group, "LEFT"),
)


def _lock_sql(connection: BaseDatabaseWrapper) -> str:
    q = connection.ops.quote_name
    selected, joins = columns(Jogo, "j", connection), []
    for n, (name, model, how) in enumerate(_LOCK_JOINS):
        selected += columns(model, f"r{n}", connection)
        field = Jogo._meta.get_field(name)
        assert isinstance(field, ForeignKey)  # the jogo's own foreign keys
        joins.append(f"{how} JOIN {q(model._meta.db_table)} r{n} ON r{n}.{q('id')} = j.{q(field.column)}")
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = " FOR UPDATE OF j"  # the jogo's row only (the group is on a LEFT JOIN's nullable side)
    elif connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    return (
        f"SELECT {', '.join(selected)} FROM {q(Jogo._meta.db_table)} j {' '.join(joins)} "
        f"WHERE j.{q('tournament_id')} = %s AND j.{q('key')} = %s{lock}"
    )


def jogo_lock(*, tournament: Tournament, key: str) -> Jogo | None:
    """The jogo ``key`` of ``tournament``, its row locked until the transaction ends, with its duplas, stage and
    group (None: no such jogo). What ``select_for_update(of=("self",)).select_related(…)`` reads, in one plain
    query (``plainsql``): every súmula write starts here, and compiling that queryset cost more than the rest
    of a mão."""
    alias = router.db_for_write(Jogo)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(made(("jogo_lock", connection.vendor), lambda: _lock_sql(connection)), [tournament.pk, key])
        row = cursor.fetchone()
    if row is None:
        return None
    end = width(Jogo)
    jogo = instance(Jogo, row[:end], db=alias, connection=connection)
    jogo._state.fields_cache["tournament"] = tournament
    for name, model, _how in _LOCK_JOINS:
        start, end = end, end + width(model)
        values = row[start:end]
        jogo._state.fields_cache[name] = (
            None if values[0] is None else instance(model, values, db=alias, connection=connection)
        )
    return jogo


def _record_sql(connection: BaseDatabaseWrapper) -> str:
    """A jogo's partidas, each with its mãos (LEFT JOIN: a partida by score or by penalty has none), in order."""
    q = connection.ops.quote_name
    return (
        f"SELECT {', '.join(columns(Partida, 'p', connection) + columns(Mao, 'm', connection))} "
        f"FROM {q(Partida._meta.db_table)} p "
        f"LEFT JOIN {q(Mao._meta.db_table)} m ON m.{q('partida_id')} = p.{q('id')} "
        f"WHERE p.{q('jogo_id')} = %s ORDER BY p.{q('number')}, m.{q('order')}"
    )


def jogo_record_load(*, jogo: Jogo) -> StoredRecord:
    """The jogo's record (None while empty), its partidas and their mãos, in one plain query (``plainsql``):
    a mão POST reads this under its jogo's lock each time."""
    alias = router.db_for_read(Partida)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(made(("jogo_record", connection.vendor), lambda: _record_sql(connection)), [jogo.pk])
        rows = cursor.fetchall()
    split = width(Partida)
    partidas: list[Partida] = []
    maos: dict[int, list[Mao]] = {}
    partida = None
    for row in rows:
        if partida is None or partida.pk != row[0]:
            partida = instance(Partida, row[:split], db=alias, connection=connection)
            partida._state.fields_cache["jogo"] = jogo
            partidas.append(partida)
        if row[split] is not None:
            mao = instance(Mao, row[split:], db=alias, connection=connection)
            mao._state.fields_cache["partida"] = partida
            maos.setdefault(partida.pk, []).append(mao)
    mao_rows = {
        pid: [{"to": m.to, "points": m.points, "how": m.how, "reason": m.reason, "key": m.key} for m in ms]
        for pid, ms in maos.items()
    }
    return jogo_entry_from_rows(jogo=jogo, partidas=partidas, maos=mao_rows), partidas, maos


# --- the records kept in this process ---------------------------------------------------------------------
#
# A referee sends a mão every few seconds to the same jogo, and each mão read the jogo's whole record again
# (its partidas and mãos, forty or so rows made model instances) under the jogo's lock: an eighth of a mão's
# CPU. The record is kept here, per process, under what it depends on: the jogo's row, its ``version`` and
# the jogo's own columns the record reads (best-of, walkover, penalty). Every súmula write moves the version
# under the jogo's row lock (``locked.jogo_finish``), a file import makes new jogos (rows never reused: PostgreSQL
# sequences, SQLite AUTOINCREMENT), and the admin shows results read-only; so a kept record is the stored one.
# A record is kept once the transaction that read it under the lock, or wrote it, commits; never before: what
# a transaction rolled back (its own writes, an outer block's) leaves nothing behind, and a record committed at
# a version is the only one that version ever has. Another process's write moves the version, so this process
# reads the record again.

KEPT_RECORDS = 2048  # jogos whose record a process keeps (a few KiB each)
_kept: OrderedDict[tuple[object, ...], StoredRecord] = OrderedDict()
_kept_lock = threading.Lock()


def _kept_key(jogo: Jogo) -> tuple[object, ...]:
    return (jogo.pk, jogo.version, jogo.best_of, jogo.walkover, jogo.lost_by, jogo.penalty_reason)


def _copy(record: StoredRecord) -> StoredRecord:
    """The lists and the dict a write may extend are its own; the instances and the entry are not changed."""
    entry, partidas, maos = record
    return entry, list(partidas), {pid: list(rows) for pid, rows in maos.items()}


def _keep(key: tuple[object, ...], record: StoredRecord) -> None:
    with _kept_lock:
        _kept[key] = record
        _kept.move_to_end(key)
        while len(_kept) > KEPT_RECORDS:
            _kept.popitem(last=False)


def jogo_record_locked(*, jogo: Jogo) -> StoredRecord:
    """The record of ``jogo``, whose row this transaction has locked (``jogo_lock``): as kept for its version, else
    read (and kept). The caller may extend the lists it gets; it must not change the instances in them."""
    key = _kept_key(jogo)
    with _kept_lock:
        kept = _kept.get(key)
        if kept is not None:
            _kept.move_to_end(key)
    if kept is None:
        kept = jogo_record_load(jogo=jogo)
        jogo_record_keep(jogo=jogo, record=kept)  # as read: kept if the transaction commits
    entry, partidas, maos = _copy(kept)
    for partida in partidas:
        partida._state.fields_cache["jogo"] = jogo  # the jogo as locked now (one writer at a time: the lock)
    return entry, partidas, maos


def jogo_record_keep(*, jogo: Jogo, record: StoredRecord) -> None:
    """``record`` is what ``jogo`` holds at its version (as read, or as just written): kept once the transaction
    commits."""
    key, copied = _kept_key(jogo), _copy(record)
    transaction.on_commit(lambda: _keep(key, copied), using=router.db_for_write(Jogo), robust=True)


def jogo_records_forget() -> None:
    """Forget every kept record (tests: a rolled-back test's jogo rows may be made again with the same ids)."""
    with _kept_lock:
        _kept.clear()


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
