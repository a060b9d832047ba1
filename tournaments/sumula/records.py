"""One jogo's súmula as stored: its record for ``scoring``, the duplas' answers, the ids of its mãos."""

from __future__ import annotations

from django.db import connections, router
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
