"""Reads for seeding an etapa's competition draw from its season (DOMAIN §7.3): each dupla's strength by the
circuit ranking, or by the força (OpenSkill), over the etapas **before** this one.

- By the circuit ranking: the ranking as it stood after the previous etapa (``circuit_standing(after=)``, so the
  finished etapas up to it); a dupla's value is the sum of its two atletas' points; ties by the better single
  rank of its atletas, then by the dupla's key.
- By the força: ``scoring.forca`` over the counted jogos of the etapas before this one, in calendar order and
  each etapa's order of play; a dupla's value is the sum of its atletas' mu − 3 sigma; ties by the dupla's key.

A dupla is "known" when one of its atletas has something to go by (circuit points, a rated jogo); only known
duplas are ever seeded. The força is read here and never shown as a placing: the draw only says it was used.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from scoring.forca import ForcaJogo, dupla_forca, forca_ratings

from ..models import CircuitEtapa, Dupla, Player, Tournament
from ..selectors import tournament_state_get
from ..state import jogo_order
from .selectors import circuit_etapas, circuit_standing

__all__ = [
    "BY_CIRCUIT",
    "BY_FORCA",
    "DuplaStrength",
    "SeedingSource",
    "seeding_by_circuit",
    "seeding_by_forca",
    "seeding_source",
]

BY_CIRCUIT, BY_FORCA = "circuit", "forca"
NO_RANK = 10**9


@dataclass(frozen=True, slots=True)
class SeedingSource:
    """Where an etapa's seeding comes from: its circuit and the etapa just before it (None: the first etapa)."""

    circuit_name: str
    circuit_slug: str
    etapa_ids: tuple[int, ...]  # the tournaments of the etapas before this one, in calendar order
    previous_slug: str | None
    previous_name: str | None


@dataclass(frozen=True, slots=True)
class DuplaStrength:
    key: str  # the dupla's key in this tournament
    value: float  # circuit points (a whole number) or força
    known: bool  # one of its atletas has circuit points / a rated jogo


def seeding_source(*, tournament: Tournament) -> SeedingSource | None:
    """The circuit of ``tournament`` and its etapas before it; None when the tournament is no etapa."""
    etapa = CircuitEtapa.objects.filter(tournament=tournament).select_related("circuit").first()
    if etapa is None:
        return None
    etapas = circuit_etapas(circuit=etapa.circuit)
    index = next(i for i, e in enumerate(etapas) if e.tournament_id == tournament.pk)
    before = etapas[:index]
    # the ranking "after" an etapa is over the published ones (a draft counts in none)
    previous = next((e.tournament for e in reversed(before) if e.tournament.published), None)
    return SeedingSource(
        circuit_name=etapa.circuit.name,
        circuit_slug=etapa.circuit.slug,
        etapa_ids=tuple(e.tournament_id for e in before),
        previous_slug=previous.slug if previous else None,
        previous_name=previous.name if previous else None,
    )


def _entrants(tournament: Tournament) -> list[tuple[str, tuple[str, ...]]]:
    """The duplas in the draw (not disqualified) with their atletas' keys, in dupla order."""
    rows = (
        Dupla.objects.filter(tournament=tournament, disqualified=False)
        .order_by("order", "id")
        .values_list("key", "player1__atleta__key", "player2__atleta__key")
    )
    return [(key, tuple(a for a in (a1, a2) if a)) for key, a1, a2 in rows]


def seeding_by_circuit(*, tournament: Tournament, source: SeedingSource) -> list[DuplaStrength]:
    """The duplas in the draw, strongest first, by their atletas' points in the ranking after the previous etapa."""
    points: dict[str, int] = {}
    ranks: dict[str, int] = {}
    if source.previous_slug is not None:
        circuit = CircuitEtapa.objects.select_related("circuit").get(tournament=tournament).circuit
        standing = circuit_standing(circuit=circuit, after=source.previous_slug)
        for row in standing.rows if standing is not None else ():
            points[row.key], ranks[row.key] = row.points, row.rank
    scored = []
    for key, atletas in _entrants(tournament):
        total = sum(points.get(a, 0) for a in atletas)
        best = min((ranks.get(a, NO_RANK) for a in atletas), default=NO_RANK)
        known = any(points.get(a, 0) > 0 for a in atletas)
        scored.append(((-total, best, key), DuplaStrength(key=key, value=total, known=known)))
    return [s for _sort, s in sorted(scored, key=lambda pair: pair[0])]


def _forca_jogos(source: SeedingSource) -> Iterator[ForcaJogo]:
    """The counted jogos of the etapas before this one, in order: the etapas in calendar order, each in its order
    of play (``state.jogo_order``), as ``nivel_jogos`` reads them; a player without an atleta is their own."""
    atleta_of: dict[int, dict[str, str]] = {}
    rows = Player.objects.filter(tournament_id__in=source.etapa_ids).values_list("tournament_id", "key", "atleta__key")
    for tournament_id, key, atleta in rows:
        atleta_of.setdefault(tournament_id, {})[key] = atleta or f"{tournament_id}:{key}"
    tournaments = {t.pk: t for t in Tournament.objects.filter(pk__in=source.etapa_ids)}
    for tournament_id in source.etapa_ids:
        state = tournament_state_get(tournament=tournaments[tournament_id])
        mine = atleta_of.get(tournament_id, {})
        players_of = {d.key: d.players for d in state.dupla_infos}
        stage_order = {s.id: s.order for s in state.stage_models.values()}
        for row in sorted(state.jogo_rows, key=lambda r: jogo_order(r, stage_order)):
            record = state.record_by_jogo.get(row.id)
            if record is None or not record.result.finished or record.result.winner not in (0, 1):
                continue
            a, b = (tuple(mine.get(p, p) for p in players_of.get(d, ())) for d in record.duplas)
            if len(a) != 2 or len(b) != 2 or len({*a, *b}) != 4:
                continue  # not two full duplas of four atletas (cannot be rated)
            yield ForcaJogo(duplas=((a[0], a[1]), (b[0], b[1])), winner=record.result.winner)


def seeding_by_forca(*, tournament: Tournament, source: SeedingSource) -> list[DuplaStrength]:
    """The duplas in the draw, strongest first, by their atletas' força over the etapas before this one."""
    ratings = forca_ratings(jogos=_forca_jogos(source))
    scored = []
    for key, atletas in _entrants(tournament):
        value = dupla_forca(ratings=ratings, atletas=atletas)
        known = any(a in ratings for a in atletas)
        scored.append(((-value, key), DuplaStrength(key=key, value=value, known=known)))
    return [s for _sort, s in sorted(scored, key=lambda pair: pair[0])]
