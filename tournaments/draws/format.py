"""The competition format of a tournament (``Tournament.format``): its defaults per preset and its problems.

The desk's setup form stores what the organizer chose; anything left out
takes the preset's default (docs/regras.md §6). ``best_of_*`` at None means the
preset's value, resolved per stage and round by ``scoring.tournament``
(``group_best_of``, ``knockout_best_of``). The checks themselves are pure
(``scoring.format``).
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.format import KIND_LABELS, format_check, format_notes
from scoring.rules import PRESETS

from .. import limits
from ..models import Tournament
from ..selectors import tournament_settings

__all__ = [
    "FORMAT_DEFAULTS",
    "STAGE_GROUPS",
    "STAGE_KNOCKOUT",
    "format_defaults",
    "format_effective",
    "format_facts",
    "format_notes_for",
    "format_problems",
    "knockout_only",
]

# Stage keys and names the competition draw writes.
STAGE_GROUPS = ("grupos", "Fase de grupos")
STAGE_KNOCKOUT = ("mata", "Mata-mata")

_BASE: dict[str, Any] = {
    "kind": "groups_knockout",
    "group_size": 4,
    "per_group": 2,
    "best_others": 0,
    "best_of_groups": None,
    "best_of_knockout": None,
    "best_of_rounds": {},
    "bracket_method": "seeded",
}

# The format an empty ``Tournament.format`` stands for, per preset. Best-of values stay None: the preset
# resolves them (AABB: 5 in the first knockout round, 3 after; FENACEF: 3 in groups, 5 in the knockout).
FORMAT_DEFAULTS: dict[str, dict[str, Any]] = {
    preset: _BASE | {"kind": settings.format} for preset, settings in PRESETS.items()
}


def format_defaults(*, preset: str) -> dict[str, Any]:
    return copy.deepcopy(FORMAT_DEFAULTS.get(preset, _BASE))


def format_effective(*, tournament: Tournament) -> dict[str, Any]:
    """The stored format over the defaults; the kind defaults to the tournament's settings (preset + overrides)."""
    fmt = format_defaults(preset=tournament.preset)
    fmt["kind"] = tournament_settings(tournament=tournament).format
    stored = tournament.format if isinstance(tournament.format, dict) else {}
    fmt.update({k: copy.deepcopy(v) for k, v in stored.items() if k in _BASE})
    if fmt.get("best_of_rounds") is None:
        fmt["best_of_rounds"] = {}
    return fmt


def knockout_only(*, tournament: Tournament) -> bool:
    """The event is a knockout alone, no groups: its pages and messages speak of the chave, never of grupos."""
    return format_effective(tournament=tournament)["kind"] == "knockout"


def format_problems(tournament: Tournament, n_duplas: int | None) -> list[str]:
    """Why the competition draw cannot be made with this format and ``n_duplas`` duplas (pt-BR); [] when it can.

    ``n_duplas`` None checks the format alone (e.g. when the setup form saves it).
    """
    return format_check(format_effective(tournament=tournament), n_duplas, max_jogos=limits.MAX_JOGOS)


def format_notes_for(tournament: Tournament, n_duplas: int) -> list[str]:
    """What the draw will make (group sizes with the proposal when uneven, bracket size and byes)."""
    return format_notes(format_effective(tournament=tournament), n_duplas)


METHOD_LABELS = {
    "seeded": gettext_lazy("cabeças de chave nas posições de praxe"),
    "random": gettext_lazy("sorteio"),
    "fixed": gettext_lazy("ordem escolhida pela comissão"),
}


def format_facts(*, tournament: Tournament, fmt: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The format as (label, value) lines for the desk, best-of resolved against the preset."""
    fmt = fmt or format_effective(tournament=tournament)
    settings = tournament_settings(tournament=tournament)
    kind = fmt["kind"]
    facts = [(_("Formato"), _(KIND_LABELS[kind]) if kind in KIND_LABELS else str(kind))]
    if kind in ("groups_knockout", "round_robin"):
        facts.append((_("Melhor de, nos grupos"), str(fmt.get("best_of_groups") or settings.best_of_groups)))
    if kind == "groups_knockout":
        facts.append((_("Duplas por grupo (preferido)"), str(fmt.get("group_size"))))
        qualify = _("%(n)s por grupo") % {"n": fmt.get("per_group")}
        if fmt.get("best_others"):
            qualify += " + " + _("%(n)s melhores demais colocadas") % {"n": fmt["best_others"]}
        facts.append((_("Classificadas"), qualify))
    if kind in ("groups_knockout", "knockout"):
        raw = fmt.get("best_of_rounds")
        rounds = {int(k): v for k, v in (raw if isinstance(raw, dict) else {}).items() if str(k).isdigit()}
        stage_best = fmt.get("best_of_knockout")
        first = rounds.get(1, stage_best or settings.best_of_first_knockout)
        later = stage_best or settings.best_of_later_knockout
        text = (
            (_("%(a)s na 1ª rodada, %(b)s nas seguintes") % {"a": first, "b": later}) if first != later else str(first)
        )
        extra = [_("%(v)s na %(k)sª rodada") % {"v": v, "k": k} for k, v in sorted(rounds.items()) if k > 1]
        facts.append((_("Melhor de, no mata-mata"), ", ".join([text, *extra])))
        if kind == "knockout":
            method = str(METHOD_LABELS.get(fmt.get("bracket_method") or "", "?"))
        else:
            method = _("cruzadas pela classificação dos grupos")
            if fmt.get("bracket_method") == "random":
                method += " " + _("(sorteio)")
        facts.append((_("Posições na chave"), method))
    return facts
