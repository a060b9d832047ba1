"""The competition draw as a plan: groups with their schedules, or the bracket, computed and not written.

The desk shows a plan as the preview; publishing computes it again from the
same inputs (format, duplas, seed, and for a fixed bracket the organizer's
order) and writes it (``competition.competition_publish``). ``check`` is a
fingerprint of the inputs read from the database, so a publish can tell that
something changed since the preview.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring import draws as draw_rules
from scoring.format import group_sizes
from scoring.tournament import DuplaInfo, StageSpec, knockout_draw

from ..models import Dupla, Stage, Tournament
from ..registrations.window import registration_is_open
from ..wording import worded
from .format import format_effective, format_notes_for, format_problems


@dataclass(frozen=True)
class DuplaBrief:
    key: str
    name: str
    seed: int | None


@dataclass
class GroupPlan:
    key: str
    duplas: list[str]
    rounds: list[list[tuple[str, str]]]


@dataclass
class CompetitionPlan:
    fmt: dict[str, Any]
    seed: int | None
    entrants: list[str]  # dupla keys in the draw (not disqualified), in dupla order
    duplas: dict[str, DuplaBrief]
    problems: list[str]
    notes: list[str]
    check: str
    groups: list[GroupPlan] = field(default_factory=list)
    seeded: list[str] = field(default_factory=list)  # seeded duplas, best seed first
    order: list[str | None] | None = None  # knockout only: first-round slots, None = a folga (bye)
    order_problems: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.fmt["kind"]

    @property
    def method(self) -> str:
        return self.fmt.get("bracket_method") or "seeded"

    def name(self, key: str | None) -> str:
        return self.duplas[key].name if key in self.duplas else _("folga")


def group_key(index: int) -> str:
    """A, B, …, Z, AA, AB, … for the index 0, 1, …"""
    key = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        key = chr(ord("A") + rest) + key
    return key


def _duplas(tournament: Tournament) -> tuple[list[str], dict[str, DuplaBrief]]:
    rows = (
        Dupla.objects.filter(tournament=tournament)
        .order_by("order", "id")
        .values("key", "name", "seed", "disqualified", "player1__name", "player2__name")
    )
    entrants, briefs = [], {}
    for r in rows:
        briefs[r["key"]] = DuplaBrief(
            key=r["key"], name=r["name"] or f"{r['player1__name']} / {r['player2__name']}", seed=r["seed"]
        )
        if not r["disqualified"]:
            entrants.append(r["key"])
    return entrants, briefs


def competition_plan(
    *, tournament: Tournament, seed: int | None, fixed_order: list[str | None] | None = None
) -> CompetitionPlan:
    """The draw that ``seed`` (and a fixed order) makes of the tournament as it is now.

    With ``seed`` None only the problems, notes and check are computed (the page before "Sortear").
    """
    fmt = format_effective(tournament=tournament)
    entrants, briefs = _duplas(tournament)
    n = len(entrants)
    problems: list[str] = []
    if Stage.objects.filter(tournament=tournament).exists():
        problems.append(_("O sorteio já foi publicado. Para sortear de novo, use “Refazer sorteio”."))
    if registration_is_open(tournament=tournament):
        problems.append(_("Inscrições: ainda estão abertas. Encerre as inscrições antes do sorteio."))
    if n < 2:
        problems.append(_("Duplas: são precisas pelo menos 2 duplas para o sorteio; há %(n)d.") % {"n": n})
    problems += [worded(p) for p in format_problems(tournament, n) if n >= 2 or not p.startswith("Duplas:")]
    seeded = [
        key
        for _s, _i, key in sorted((briefs[k].seed, i, k) for i, k in enumerate(entrants) if briefs[k].seed is not None)
    ]
    fingerprint = json.dumps([fmt, [(k, briefs[k].seed) for k in entrants]], sort_keys=True, default=str)
    plan = CompetitionPlan(
        fmt=fmt,
        seed=seed,
        entrants=entrants,
        duplas=briefs,
        problems=problems,
        notes=[worded(note) for note in format_notes_for(tournament, n)] if n >= 2 else [],
        check=hashlib.sha256(fingerprint.encode()).hexdigest()[:16],
        seeded=seeded,
    )
    if problems or seed is None:
        return plan
    if plan.kind == "knockout":
        _bracket_plan(plan, fixed_order)
    else:
        _groups_plan(plan)
    return plan


def _groups_plan(plan: CompetitionPlan) -> None:
    if plan.kind == "round_robin":
        groups = [list(plan.entrants)]
    else:
        sizes = group_sizes(len(plan.entrants), plan.fmt["group_size"])
        assert sizes is not None and plan.seed is not None  # a draw (a seed) of a format without problems
        groups = draw_rules.groups_draw(
            duplas=plan.entrants, group_count=len(sizes), seed=plan.seed, seeded=plan.seeded
        )
    plan.groups = [
        GroupPlan(key=group_key(i), duplas=g, rounds=draw_rules.round_robin(duplas=g)) for i, g in enumerate(groups)
    ]


def _bracket_plan(plan: CompetitionPlan, fixed_order: list[str | None] | None) -> None:
    method = plan.method
    infos = {k: DuplaInfo(key=k, players=(), seed=plan.duplas[k].seed) for k in plan.entrants}
    entrants = [(k, None) for k in plan.entrants]
    if method == "fixed":
        if fixed_order is None:  # the starting proposal: the seeded order, unseeded drawn with the seed
            spec = StageSpec(
                key="mata", kind="knockout", entrants=tuple(plan.entrants), draw_method="seeded", draw_seed=plan.seed
            )
            plan.order, _errors = knockout_draw(stage=spec, entrants=entrants, duplas=infos)
            return
        spec = StageSpec(
            key="mata",
            kind="knockout",
            entrants=tuple(plan.entrants),
            draw_method="fixed",
            draw_order=tuple(fixed_order),
        )
        _order, errors = knockout_draw(stage=spec, entrants=entrants, duplas=infos)
        plan.order = list(fixed_order)
        plan.order_problems = [_named(worded(e.message), plan) for e in errors]
        return
    spec = StageSpec(
        key="mata", kind="knockout", entrants=tuple(plan.entrants), draw_method=method, draw_seed=plan.seed
    )
    plan.order, _errors = knockout_draw(stage=spec, entrants=entrants, duplas=infos)


def _named(message: str, plan: CompetitionPlan) -> str:
    """A bracket problem with the duplas' names next to their keys ('d1' → 'Ana / Bia' (d1))."""
    for key, brief in plan.duplas.items():
        message = message.replace(f"'{key}'", f"{brief.name} ({key})")
    return message
