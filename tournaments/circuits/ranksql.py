"""The circuit ranking's window queries over its rows by part (``CircuitAtleta``): one page of the ranking with
each row's rank and movement, the heads of the qualification ranking, the equipes. Plain SQL that SQLite and
PostgreSQL both run (window functions); tied atletas sort by name the Portuguese way, as ``scoring.circuit`` sorts
them (``scoring.atleta.name_sort_key``): by ``Atleta.name_search`` (the name without case and accents), then the
name and the key, each by code point on both (``COLLATE "C"`` on PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import connection

from scoring.atleta import name_sort_key
from scoring.circuit import CircuitRow, Qualify, TeamRow, qualify_lines, team_ranking

from ..models import Circuit, CircuitAtleta

__all__ = [
    "RankedRow",
    "RowsPage",
    "circuit_positions",
    "circuit_rows_head",
    "circuit_rows_page",
    "circuit_teams",
    "qualify_heads",
]


@dataclass(frozen=True, slots=True)
class RankedRow:
    rank: int
    key: str
    name: str
    points: int
    played: int
    places: tuple[int, int, int]
    results: list[list]  # [tournament id, place, points, counted]
    movement: int | None
    q_played: int
    team: str
    pos: int  # 0… in the whole ranking's order


@dataclass(frozen=True, slots=True)
class RowsPage:
    rows: list[RankedRow]
    count: int  # rows the search finds
    total: int  # rows in the ranking
    positions: dict[str, int] = field(default_factory=dict)  # where the rows read stand in the whole ranking


def _tables() -> tuple[str, str, str]:
    from ..models import Atleta

    q = connection.ops.quote_name
    collate = ' COLLATE "C"' if connection.vendor == "postgresql" else ""
    return q(CircuitAtleta._meta.db_table), q(Atleta._meta.db_table), collate


_KEY = "r.points DESC, r.firsts DESC, r.seconds DESC, r.thirds DESC"


def _names(collate: str) -> str:
    """Tied atletas in the Portuguese order of names (``scoring.atleta.name_sort_key``), then by key."""
    return f"a.name_search{collate}, a.name{collate}, a.key{collate}"


_Q = "r.q_points DESC, r.q_firsts DESC, r.q_seconds DESC, r.q_thirds DESC"


_COLUMNS = (
    "a.key, a.name, r.points, r.played, r.firsts, r.seconds, r.thirds, r.results, r.team, r.q_played, "
    "r.prev_played, r.prev_rank"
)


def circuit_rows_head(*, circuit: Circuit, limit: int, offset: int, previous: bool) -> RowsPage:
    """The rows ``offset`` to ``offset + limit`` of the whole ranking (no search), read down the ranking's index:
    the first ``offset + limit`` rows by points and places, then the rest of the last tie, put in the ranking's
    order (tied atletas by name). Three short queries, however long the season; a page deep in it reads the
    rows above it. ``previous``: whether there is an etapa to move since (else no movement)."""
    rows_table, atletas, _collate = _tables()
    head = f"""
        SELECT {_COLUMNS}, RANK() OVER (ORDER BY {_KEY}) AS rk
        FROM {rows_table} r JOIN {atletas} a ON a.id = r.atleta_id
        WHERE r.circuit_id = %s ORDER BY {_KEY} LIMIT %s
    """
    n = offset + limit
    with connection.cursor() as cursor:
        cursor.execute(head, [circuit.pk, n])
        fetched = list(cursor.fetchall())
        if len(fetched) == n and n:
            last = fetched[-1]
            cursor.execute(
                f"""
                SELECT {_COLUMNS}, %s AS rk FROM {rows_table} r JOIN {atletas} a ON a.id = r.atleta_id
                WHERE r.circuit_id = %s AND r.points = %s AND r.firsts = %s AND r.seconds = %s AND r.thirds = %s
                """,
                [last[-1], circuit.pk, last[2], last[4], last[5], last[6]],
            )
            seen = {row[0] for row in fetched}
            fetched += [row for row in cursor.fetchall() if row[0] not in seen]
    total = CircuitAtleta.objects.filter(circuit=circuit).count()
    fetched.sort(key=lambda row: (row[-1], name_sort_key(row[1]), row[0]))  # rank, then name (Portuguese), key
    decode = _json_decoder()
    out = [
        RankedRow(
            rank=rk,
            key=key,
            name=name,
            points=points,
            played=played,
            places=(f1, f2, f3),
            results=decode(results),
            # the rank before the last etapa minus the rank now (places gained); None: new in the ranking since
            # it, or no etapa before it
            movement=prev_rank - rk if previous and prev_played and prev_rank is not None else None,
            q_played=q_played,
            team=team,
            pos=pos,
        )
        for pos, (key, name, points, played, f1, f2, f3, results, team, q_played, prev_played, prev_rank, rk) in (
            (i, row) for i, row in enumerate(fetched)
        )
        if offset <= pos < n
    ]
    head_positions = {row[0]: i for i, row in enumerate(fetched)}
    return RowsPage(rows=out, count=total, total=total, positions=head_positions)


def circuit_rows_page(*, circuit: Circuit, words: Sequence[str], limit: int, offset: int) -> RowsPage:
    """The rows ``offset`` to ``offset + limit`` of the ranking whose names hold every one of ``words``
    (normalized), with their rank in the whole ranking and their movement (None: new since the previous etapa,
    or no previous etapa); and how many rows the search finds. One query."""
    rows_table, atletas, collate = _tables()
    search = "".join(" AND t.name_search LIKE %s ESCAPE '!'" for _w in words)
    sql = f"""
        SELECT t.key, t.name, t.points, t.played, t.firsts, t.seconds, t.thirds, t.results, t.team, t.q_played,
               t.prev_played, t.rk, t.prk, t.any_prev, t.pos, t.total, COUNT(*) OVER () AS found
        FROM (
            SELECT a.key AS key, a.name AS name, a.name_search AS name_search, r.points AS points,
                   r.played AS played, r.firsts AS firsts, r.seconds AS seconds, r.thirds AS thirds,
                   r.results AS results, r.team AS team, r.q_played AS q_played, r.prev_played AS prev_played,
                   RANK() OVER (ORDER BY {_KEY}) AS rk,
                   r.prev_rank AS prk,
                   MAX(r.prev_played) OVER () AS any_prev,
                   ROW_NUMBER() OVER (ORDER BY {_KEY}, {_names(collate)}) - 1 AS pos,
                   COUNT(*) OVER () AS total
            FROM {rows_table} r JOIN {atletas} a ON a.id = r.atleta_id
            WHERE r.circuit_id = %s
        ) t
        WHERE 1 = 1{search}
        ORDER BY t.rk, t.name_search{collate}, t.name{collate}, t.key{collate}
        LIMIT %s OFFSET %s
    """
    params: list[int | str] = [circuit.pk, *(f"%{_like(w)}%" for w in words), limit, offset]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    if not fetched:
        if not offset:
            return RowsPage(
                rows=[], count=0, total=CircuitAtleta.objects.filter(circuit=circuit).count() if words else 0
            )
        return RowsPage(
            rows=[],
            count=_count(circuit=circuit, words=words),
            total=CircuitAtleta.objects.filter(circuit=circuit).count(),
        )
    out = []
    decode = _json_decoder()
    for (
        key,
        name,
        points,
        played,
        f1,
        f2,
        f3,
        results,
        team,
        q_played,
        prev_played,
        rk,
        prk,
        any_prev,
        pos,
        _t,
        _n,
    ) in fetched:
        out.append(
            RankedRow(
                rank=rk,
                key=key,
                name=name,
                points=points,
                played=played,
                places=(f1, f2, f3),
                results=decode(results),
                # the rank before the last etapa minus the rank now (places gained); None: new in the ranking
                # since it, or no etapa before it
                movement=None if not any_prev or not prev_played or prk is None else prk - rk,
                q_played=q_played,
                team=team,
                pos=pos,
            )
        )
    return RowsPage(rows=out, count=fetched[0][-1], total=fetched[0][-2])


def _json_decoder() -> Callable[[object], list]:
    """A JSON column as the driver gives it: decoded already (PostgreSQL's jsonb) or text (SQLite)."""
    return lambda value: value if isinstance(value, list) else json.loads(str(value))


def _like(word: str) -> str:
    """A word to find anywhere in a name: LIKE's wildcards in it are taken as they are."""
    return word.replace("!", "!!").replace("%", "!%").replace("_", "!_")


def _count(*, circuit: Circuit, words: Sequence[str]) -> int:
    qs = CircuitAtleta.objects.filter(circuit=circuit)
    for w in words:
        qs = qs.filter(atleta__name_search__contains=w)
    return qs.count()


def circuit_positions(*, circuit: Circuit, keys: Sequence[str]) -> dict[str, int]:
    """Where these atletas stand in the whole ranking's order (0…). One query."""
    if not keys:
        return {}
    rows_table, atletas, collate = _tables()
    marks = ", ".join("%s" for _k in keys)
    sql = f"""
        SELECT t.key, t.pos FROM (
            SELECT a.key AS key, ROW_NUMBER() OVER (ORDER BY {_KEY}, {_names(collate)}) - 1 AS pos
            FROM {rows_table} r JOIN {atletas} a ON a.id = r.atleta_id
            WHERE r.circuit_id = %s
        ) t WHERE t.key IN ({marks})
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [circuit.pk, *keys])
        return dict(cursor.fetchall())


def qualify_heads(*, circuit: Circuit, qualify: Qualify, drawn: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The qualification of the atletas at the head of the qualification ranking (up to the tied group of the
    alternates' line): key → (state, the line a tie crosses). Everyone else who played a qualifying etapa is
    out. Read down the qualification's index: the first eligible rows up to the alternates' line, then the rest
    of the last tie; two short queries."""
    rows_table, atletas, _collate = _tables()
    columns = "a.key, r.q_points, r.q_firsts, r.q_seconds, r.q_thirds"
    eligible_rows = f"FROM {rows_table} r JOIN {atletas} a ON a.id = r.atleta_id WHERE r.circuit_id = %s AND r.q_played > 0 AND r.q_played >= %s"
    n = qualify.top + qualify.alternates
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} {eligible_rows} ORDER BY {_Q} LIMIT %s", [circuit.pk, qualify.min_etapas, n])
        fetched = list(cursor.fetchall())
        if len(fetched) == n and n:
            last = fetched[-1]
            cursor.execute(
                f"SELECT {columns} {eligible_rows} AND r.q_points = %s AND r.q_firsts = %s AND r.q_seconds = %s "
                "AND r.q_thirds = %s",
                [circuit.pk, qualify.min_etapas, *last[1:]],
            )
            seen = {row[0] for row in fetched}
            fetched += [row for row in cursor.fetchall() if row[0] not in seen]
    # equal totals are a tie: the same rank (its number does not matter here, only who shares it)
    tiers = {totals: i for i, totals in enumerate(sorted({tuple(row[1:]) for row in fetched}, reverse=True))}
    eligible = [
        (row[0], tiers[tuple(row[1:])]) for row in sorted(fetched, key=lambda row: tuple(row[1:]), reverse=True)
    ]
    states = qualify_lines(eligible=eligible, qualify=qualify, drawn=drawn)
    return {key: (state.status, state.line) for key, state in states.items()}


def circuit_teams(*, circuit: Circuit) -> tuple[list[TeamRow], dict[str, str]]:
    """The equipe ranking (DOMAIN §7.3) from the rows of atletas with an equipe, and their names. One query."""
    rows_table, atletas, collate = _tables()
    sql = f"""
        SELECT a.key, r.team, r.points, r.firsts, r.seconds, r.thirds, a.name
        FROM {rows_table} r JOIN {atletas} a ON a.id = r.atleta_id
        WHERE r.circuit_id = %s AND r.team <> ''
        ORDER BY {_KEY}, {_names(collate)}
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [circuit.pk])
        fetched = cursor.fetchall()
    rows = [
        CircuitRow(rank=0, atleta=key, points=p, etapas=0, places=(f1, f2, f3))
        for key, _t, p, f1, f2, f3, _n in fetched
    ]
    names = {key: name for key, *_rest, name in fetched}
    return team_ranking(rows=rows, teams={key: team for key, team, *_rest in fetched}), names
