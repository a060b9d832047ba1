"""The tiebreak sorteio from the desk (docs/regras.md §5.1 step 4 and §5.2): duplas still tied after saldo.

A tie awaits its sorteio when a complete group table (or the comparison of
the best others across groups, once every group is complete) has duplas
sharing a rank (``StandingRow.tied``). The sorteio orders exactly that block
and is stored like an imported one: ``Draw(kind=tiebreak, stage, group,
result={"order": [...]})`` (group None: across groups), here with the method
``random`` and its seed.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from scoring.standings import StandingRow
from scoring.tournament import GroupStageView

from ..audit import audit_record
from ..models import Draw, Group, Tournament
from ..refusals import Refused
from ..selectors import TournamentState, tournament_state_get
from ..writes import STRUCTURE, tournament_write
from .pairing import SEED_LIMIT

__all__ = ["TieBlock", "tiebreak_run", "ties_awaiting"]


@dataclass(frozen=True)
class TieBlock:
    stage: str
    stage_name: str
    group: str | None  # None: across groups (best others)
    rank: int
    duplas: tuple[str, ...]
    names: tuple[str, ...]
    decides_cut: bool  # the tie straddles the qualifying places

    @property
    def value(self) -> str:
        """What the desk's form posts to name this block."""
        return ",".join(self.duplas)


def _blocks(rows: list[StandingRow], cut: int) -> list[tuple[int, tuple[str, ...], bool]]:
    by_rank: dict[int, list[str]] = {}
    for r in rows:
        if r.tied:
            by_rank.setdefault(r.rank, []).append(r.dupla)
    out = []
    for rank, duplas in sorted(by_rank.items()):
        end = rank - 1 + len(duplas)
        out.append((rank, tuple(sorted(duplas)), rank <= cut < end))
    return out


def ties_awaiting(*, state: TournamentState) -> list[TieBlock]:
    """Every tied block that waits for a sorteio now, stage by stage."""
    out: list[TieBlock] = []
    for view in state.view.stages:
        if not isinstance(view, GroupStageView):
            continue
        stage = view.stage
        name = stage.name or stage.key
        for table in view.tables:
            if not table.complete:
                continue
            for rank, duplas, cut in _blocks(table.rows, stage.per_group):
                out.append(
                    TieBlock(
                        stage=stage.key,
                        stage_name=name,
                        group=table.key,
                        rank=rank,
                        duplas=duplas,
                        names=tuple(state.duplas[d].display_name for d in duplas),
                        decides_cut=cut,
                    )
                )
        if view.complete and view.others:
            for rank, duplas, cut in _blocks(view.others, stage.best_others):
                out.append(
                    TieBlock(
                        stage=stage.key,
                        stage_name=name,
                        group=None,
                        rank=rank,
                        duplas=duplas,
                        names=tuple(state.duplas[d].display_name for d in duplas),
                        decides_cut=cut,
                    )
                )
    return out


def tiebreak_run(
    *,
    tournament: Tournament,
    user: User | None,
    stage: str,
    group: str | None,
    duplas: list[str],
    seed: int | None = None,
) -> Draw:
    """Draw the order of one tied block with a ``secrets`` seed (or the one given), record it and refresh."""
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    with tournament_write(tournament=tournament, action="draw.tiebreak", user=user, kind=STRUCTURE):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        state = tournament_state_get(tournament=tournament, cached=False)
        wanted = tuple(sorted(duplas))
        block = next(
            (
                b
                for b in ties_awaiting(state=state)
                if b.stage == stage and b.group == (group or None) and b.duplas == wanted
            ),
            None,
        )
        if block is None:
            raise Refused.invalid(
                _(
                    "Sorteio de desempate: esse empate não está aguardando sorteio (a classificação "
                    "mudou ou o sorteio já foi feito)."
                )
            )
        order = list(block.duplas)
        random.Random(seed).shuffle(order)
        stage_row = state.stage_models[stage]
        group_row = Group.objects.get(stage=stage_row, key=block.group) if block.group else None
        draw = Draw.objects.create(
            tournament=tournament,
            kind=Draw.TIEBREAK,
            stage=stage_row,
            group=group_row,
            method="random",
            seed=seed,
            result={"order": order},
            performed_by=user if user is not None and user.is_authenticated else None,
        )
        where = _("grupo %(g)s") % {"g": block.group} if block.group else _("entre grupos")
        names = [state.duplas[d].display_name for d in order]
        audit_record(
            tournament=tournament,
            user=user,
            action="tiebreak_draw",
            summary=_("Sorteio de desempate (%(stage)s, %(where)s): %(order)s")
            % {"stage": block.stage_name, "where": where, "order": ", ".join(names)},
            after={"stage": stage, "group": block.group, "seed": seed, "order": order},
        )
    return draw
