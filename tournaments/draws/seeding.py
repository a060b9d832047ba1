"""Seeding an etapa's competition draw from its season (DOMAIN §7.3): before the draw, the organizer of a
tournament that is an etapa of a circuit chooses where the cabeças de chave come from:

- ``current``: the seeds as they are (set by hand on the duplas page): the behaviour of every other tournament;
- ``none``: no seeds;
- ``circuit``: by the circuit ranking after the previous etapa (``circuits.seeding.seeding_by_circuit``);
- ``forca``: by the força, OpenSkill over the jogos of the etapas before this one (``seeding_by_forca``).

``seeding_apply`` writes the duplas' seeds (one ``STRUCTURE`` write, audited; only before the draw) and returns
what the draw's public record says of it (``Draw.result["seeding"]``): the method, the circuit and the etapa
after which it was read, and which duplas were seeded; never a força value.

How many cabeças de chave (unless the organizer says): one per group when the format has groups, a quarter of the
bracket (2 at least) for a knockout, none for a single round robin (every dupla meets every other). Only duplas
with something to go by (circuit points, a rated jogo) are seeded, best first.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.bracket_draw import bracket_size
from scoring.format import group_sizes

from ..audit import audit_record
from ..circuits.seeding import (
    BY_CIRCUIT,
    BY_FORCA,
    SeedingSource,
    seeding_by_circuit,
    seeding_by_forca,
    seeding_source,
)
from ..models import Dupla, Tournament
from ..refusals import Refused
from ..writes import STRUCTURE, tournament_write
from .format import format_effective
from .pairing import refuse_if_drawn, tournament_lock

__all__ = [
    "BY_CIRCUIT",
    "BY_FORCA",
    "CURRENT",
    "METHODS",
    "NONE",
    "seeding_apply",
    "seeding_count_default",
    "seeding_source",
    "seeding_text",
]

CURRENT, NONE = "current", "none"
METHODS = (CURRENT, NONE, BY_CIRCUIT, BY_FORCA)


def _user(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def seeding_count_default(*, tournament: Tournament, entrants: int) -> int:
    """How many cabeças de chave the draw of ``entrants`` duplas takes by default (see the module's docstring)."""
    fmt = format_effective(tournament=tournament)
    if entrants < 2 or fmt["kind"] == "round_robin":
        return 0
    if fmt["kind"] == "knockout":
        return min(entrants, max(2, bracket_size(entrants) // 4))
    sizes = group_sizes(entrants, fmt["group_size"]) if fmt.get("group_size") else None
    return len(sizes) if sizes else 0


def seeding_apply(
    *, tournament: Tournament, user: User | AnonymousUser | None, method: str, count: int | None = None
) -> dict[str, Any]:
    """Set the duplas' seeds by ``method`` (one of ``METHODS``) before the competition draw; the record of it.

    Refused when the tournament is no etapa of a circuit, when the draw was published, or when the season has
    nothing to seed by yet (the first etapa, no finished etapa or counted jogo before this one)."""
    if method not in METHODS:
        raise Refused.invalid(_("Cabeças de chave: escolha uma das opções."))
    source = seeding_source(tournament=tournament)
    if source is None:
        raise Refused.invalid(_("Cabeças de chave: este torneio não é etapa de um circuito."))
    record: dict[str, Any] = {"method": method}
    if method in (BY_CIRCUIT, BY_FORCA):
        record |= {"circuit": source.circuit_name, "circuit_slug": source.circuit_slug}
        record |= {"after": source.previous_name, "after_slug": source.previous_slug}
    if method == CURRENT:  # the seeds as they are: nothing to write
        current = Dupla.objects.filter(tournament=tournament, seed__isnull=False).order_by("seed", "order", "id")
        record["seeded"] = list(current.values_list("key", flat=True))
        return record
    with tournament_write(tournament=tournament, action="draw.seeding", user=user, kind=STRUCTURE):
        tournament = tournament_lock(tournament)
        refuse_if_drawn(tournament, _("Cabeças de chave"))
        duplas = list(Dupla.objects.select_for_update().filter(tournament=tournament).order_by("order", "id"))
        before = {d.key: d.seed for d in duplas if d.seed is not None}
        seeded = _seeded(tournament, source, method, count) if method != NONE else []
        seeds = {key: n for n, key in enumerate(seeded, start=1)}
        changed = [d for d in duplas if d.seed != seeds.get(d.key)]
        for d in changed:
            d.seed = seeds.get(d.key)
        Dupla.objects.bulk_update(changed, ["seed"])
        record["seeded"] = seeded
        if changed:
            audit_record(
                tournament=tournament,
                user=_user(user),
                action="seeding_apply",
                summary=ngettext(
                    "Cabeças de chave %(how)s: %(n)d dupla", "Cabeças de chave %(how)s: %(n)d duplas", len(seeded)
                )
                % {"how": seeding_text(record), "n": len(seeded)},
                before={"seeds": before},
                after={"seeds": seeds, "seeding": record},
            )
    return record


def _seeded(tournament: Tournament, source: SeedingSource, method: str, count: int | None) -> list[str]:
    if source.previous_slug is None:
        raise Refused.invalid(
            _("Cabeças de chave: esta é a primeira etapa do circuito %(c)s; não há etapa anterior para usar.")
            % {"c": source.circuit_name}
        )
    read = seeding_by_circuit if method == BY_CIRCUIT else seeding_by_forca
    strengths = [s for s in read(tournament=tournament, source=source) if s.known]
    if not strengths:
        raise Refused.invalid(
            _("Cabeças de chave: nenhuma dupla deste torneio tem resultado nas etapas anteriores do circuito %(c)s.")
            % {"c": source.circuit_name}
        )
    entrants = Dupla.objects.filter(tournament=tournament, disqualified=False).count()
    if count is None:
        count = seeding_count_default(tournament=tournament, entrants=entrants)
    return [s.key for s in strengths[: max(0, count)]]


def seeding_text(record: dict[str, Any] | None) -> str:
    """How the cabeças de chave of a draw were chosen, for its record ("pelo ranking do circuito Liga X, após a
    etapa Y"); "" when the draw does not say (a tournament in no circuit, a draw made before this was kept)."""
    if not isinstance(record, dict):
        return ""
    method = record.get("method")
    names = {"c": record.get("circuit") or "", "e": record.get("after") or ""}
    if method == BY_CIRCUIT:
        return _("pelo ranking do circuito %(c)s, após a etapa %(e)s") % names
    if method == BY_FORCA:
        return _("pela força (OpenSkill) no circuito %(c)s, até a etapa %(e)s") % names
    if method == NONE:
        return _("nenhuma")
    if method == CURRENT:
        return _("definidas pela organização")
    return ""
