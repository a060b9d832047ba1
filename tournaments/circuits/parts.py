"""A circuit's ranking by part (issue 25 point 6): one ``CircuitAtleta`` row per atleta, rewritten only for the
atletas whose places changed.

A counted result in a finished etapa (a correction, a disqualification) changes the places of a few duplas:
``etapa_places_follow`` hands their atletas here and only their rows are computed again, by the same pure rules
as the whole ranking (``scoring.circuit.circuit_ranking`` over those atletas' results). What moves every row
(the points table, best N, a weight, an etapa attached or finishing, an exclusion) rebuilds them all, inside
the circuit's write. The ranks are not stored: a window over the rows gives them when a page is read
(``selectors.circuit_page``).
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.circuit import CircuitRow, circuit_ranking, points_table_parse

from ..models import Circuit, CircuitAtleta, CircuitEtapa, CircuitExclusion, EtapaPlace
from .places import season_etapas, season_places

__all__ = ["circuit_rows_update", "prev_ranks_refresh"]

PREV = ("prev_points", "prev_firsts", "prev_seconds", "prev_thirds", "prev_played")


def _etapas(circuit: Circuit) -> list[CircuitEtapa]:
    from .selectors import circuit_etapas

    return circuit_etapas(circuit=circuit, public=True)  # a draft counts once published


def circuit_rows_update(*, circuit: Circuit, atleta_ids: Iterable[int] | None = None) -> int:
    """Compute again the rows of these atletas (None: every atleta of the circuit) from the etapas' places, and
    store them (an atleta no longer in the ranking loses its row). Inside the circuit's write (or a write that
    moved its places). Returns how many rows were written."""
    from ..writes import write_required  # the write path imports the circuits' services, which import this

    write_required(what="circuit_rows_update")
    etapas = _etapas(circuit)
    ids = [e.tournament_id for e in etapas]
    only = None if atleta_ids is None else set(atleta_ids)
    finished = set(EtapaPlace.objects.filter(tournament_id__in=ids).values_list("tournament_id", flat=True).distinct())
    read = season_places(tournament_ids=ids, by_key=False, atleta_ids=only)
    scored = season_etapas(etapas=etapas, read=read, finished=finished, key=lambda e: str(e.tournament_id))
    excluded = {str(i) for i in CircuitExclusion.objects.filter(circuit=circuit).values_list("atleta_id", flat=True)}
    table = points_table_parse(circuit.points)
    best = circuit.count_best
    season = circuit_ranking(etapas=scored, table=table, count_best=best, excluded=excluded)
    counted = [i for i, e in enumerate(scored) if e.finished]
    before: dict[str, CircuitRow] = {}
    if len(counted) > 1:
        cut = scored[: counted[-1]]
        before = {r.atleta: r for r in circuit_ranking(etapas=cut, table=table, count_best=best, excluded=excluded)}
    qualifying = {
        r.atleta: r
        for r in circuit_ranking(
            etapas=[e for e in scored if not e.final], table=table, count_best=best, excluded=excluded
        )
    }
    teams = read.team_latest(order=ids)
    if circuit.previous_id is not None:  # else the equipe carried from the season before (``archive``)
        from .archive import equipes_carried

        teams = {**equipes_carried(circuit=circuit, by_key=False), **teams}
    made = []
    for row in season:
        prev = before.get(row.atleta)
        q = qualifying.get(row.atleta)
        made.append(
            CircuitAtleta(
                circuit=circuit,
                atleta_id=int(row.atleta),
                points=row.points,
                firsts=row.places[0],
                seconds=row.places[1],
                thirds=row.places[2],
                played=row.etapas,
                prev_points=prev.points if prev else 0,
                prev_firsts=prev.places[0] if prev else 0,
                prev_seconds=prev.places[1] if prev else 0,
                prev_thirds=prev.places[2] if prev else 0,
                prev_played=prev.etapas if prev else 0,
                prev_rank=prev.rank if prev is not None and only is None else None,
                q_points=q.points if q else 0,
                q_firsts=q.places[0] if q else 0,
                q_seconds=q.places[1] if q else 0,
                q_thirds=q.places[2] if q else 0,
                q_played=q.etapas if q else 0,
                results=[[int(r.etapa), r.place, r.points, r.counted] for r in row.results],
                team=teams.get(row.atleta, ""),
            )
        )
    gone = CircuitAtleta.objects.filter(circuit=circuit)
    if only is not None:
        gone = gone.filter(atleta_id__in=only)
    earlier = {a: (tuple(rest[:-1]), rest[-1]) for a, *rest in gone.values_list("atleta_id", *PREV, "prev_rank")}
    gone.delete()
    moved = False
    if only is not None:
        before_totals = {a: totals for a, (totals, _rank) in earlier.items() if totals[-1]}
        now_totals = {part.atleta_id: tuple(getattr(part, f) for f in PREV) for part in made if part.prev_played}
        moved = before_totals != now_totals  # someone's totals before the last etapa changed
        if not moved:  # every rank before the last etapa stands: these rows keep theirs
            for part in made:
                part.prev_rank = earlier[part.atleta_id][1] if part.prev_played else None
    CircuitAtleta.objects.bulk_create(made, batch_size=2000)
    if moved:
        prev_ranks_refresh(circuit=circuit)
    return len(made)


def prev_ranks_refresh(*, circuit: Circuit) -> None:
    """Every row's ``prev_rank`` again, by a window over the rows (one statement, SQLite and PostgreSQL alike)."""
    from django.db import connection

    table = connection.ops.quote_name(CircuitAtleta._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {table} SET prev_rank = s.prk FROM (
                SELECT id, RANK() OVER (
                    ORDER BY prev_points DESC, prev_firsts DESC, prev_seconds DESC, prev_thirds DESC
                ) AS prk
                FROM {table} WHERE circuit_id = %s AND prev_played > 0
            ) s WHERE {table}.id = s.id
            """,
            [circuit.pk],
        )
