"""The etapas' places as the ranking reads them: one query over ``EtapaPlace``, folded per etapa into the places,
the disqualified and the equipes of the atletas, then the ``scoring.circuit.Etapa`` of each. Shared by the rows
by part (``parts``, atletas by id) and the whole ranking (``selectors``, atletas by key)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from scoring.circuit import Etapa

from ..models import CircuitEtapa, EtapaPlace

__all__ = ["SeasonPlaces", "season_etapas", "season_places"]


@dataclass(slots=True)
class SeasonPlaces:
    """Per etapa (tournament id): each atleta's best place, who was disqualified, each atleta's equipe."""

    places: dict[int, dict[str, int]]
    disqualified: dict[int, set[str]]
    teams: dict[int, dict[str, str]]
    names: dict[str, str] = field(default_factory=dict)  # filled when read by key

    def finished(self) -> set[int]:
        """The etapas with places: finished (only meaningful when every atleta was read)."""
        return {tid for tid, p in self.places.items() if p or self.disqualified[tid]}

    def team_latest(self, *, order: Iterable[int]) -> dict[str, str]:
        """Each atleta's equipe in the latest etapa (of ``order``) that names one."""
        out: dict[str, str] = {}
        for tid in order:
            out.update(self.teams.get(tid, {}))
        return out


def season_places(*, tournament_ids: list[int], by_key: bool, atleta_ids: set[int] | None = None) -> SeasonPlaces:
    """The places of these etapas (one query): atletas named by their key (``by_key``, with their names) or by their
    id as a string; ``atleta_ids``: only these atletas."""
    read = SeasonPlaces(
        places={tid: {} for tid in tournament_ids},
        disqualified={tid: set() for tid in tournament_ids},
        teams={tid: {} for tid in tournament_ids},
    )
    rows = EtapaPlace.objects.filter(tournament_id__in=tournament_ids, player__atleta__isnull=False)
    if atleta_ids is not None:
        rows = rows.filter(player__atleta_id__in=atleta_ids)
    fields = ("player__atleta__key", "player__atleta__name") if by_key else ("player__atleta_id", "player__atleta_id")
    for tournament_id, place, atleta, name, team in rows.values_list("tournament_id", "place", *fields, "player__team"):
        key = str(atleta)
        if by_key:
            read.names[key] = name
        if team:
            read.teams[tournament_id][key] = team
        if place is None:
            read.disqualified[tournament_id].add(key)
        else:
            held = read.places[tournament_id].get(key)
            read.places[tournament_id][key] = place if held is None else min(held, place)
    return read


def season_etapas(
    *, etapas: list[CircuitEtapa], read: SeasonPlaces, finished: set[int], key: Callable[[CircuitEtapa], str]
) -> list[Etapa]:
    """The etapas as ``scoring.circuit`` ranks them (``key`` names each); a disqualified atleta who also holds a
    place (the other dupla of the etapa) keeps the place."""
    return [
        Etapa(
            key=key(e),
            places=read.places[e.tournament_id],
            disqualified=frozenset(read.disqualified[e.tournament_id] - set(read.places[e.tournament_id])),
            weight=e.weight,
            final=e.final,
            finished=e.tournament_id in finished,
        )
        for e in etapas
    ]
