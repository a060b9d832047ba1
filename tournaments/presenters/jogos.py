"""The /jogos/ page: schedule and results, by stage, round and mesa, with live scores (one jogo's line: ``jogo``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from django.utils.html import escape
from django.utils.translation import gettext as _

from scoring.atleta import name_sort_key
from scoring.tournament import GroupStageView, KnockoutStageView

from ..rows import JogoRow
from .duplas import DuplaRef, dupla_refs, unknown_dupla
from .jogo import JogoItem, jogo_item, status_code
from .labels import (
    knockout_round_title,
    page_labels,
    plain_param,
    positive_int,
)
from .stages import StageView, stage_views

if TYPE_CHECKING:
    from ..state import TournamentState

JOGOS_PAGED_OVER = 100  # more jogos than this: /jogos/ shows one round at a time

# --- what the pages show ------------------------------------------------------------------
#
# Frozen and slotted. A jogo's line is built by the thousand per request on a big event (a round of 4,096 duplas
# has 2,048 jogos): ``PartidaLine``, ``ResultView`` and ``JogoItem`` are made through ``types.fast_constructor``
# (a frozen dataclass's own ``__init__`` costs five times the dict they replace). ``_Stage`` and ``_Block`` are
# the builder's own scratch values, filled in as /jogos/ is built.


@dataclass(frozen=True, slots=True)
class Rest:
    """A dupla with no jogo in a round of its group (an odd group): "folga"."""

    dupla: DuplaRef
    group: str


@dataclass(frozen=True, slots=True)
class JogosRound:
    """A round of a stage (Rodada 1, Semifinais…): its jogos by mesa and the duplas resting."""

    title: str
    number: int  # in the order of the navigation, 1…
    jogos: list[JogoItem]
    rest: list[Rest]
    live: int  # jogos at a mesa now
    done: bool


@dataclass(frozen=True, slots=True)
class JogosSection:
    """A stage on /jogos/."""

    key: str
    title: str
    kind: str  # "groups" or "knockout"
    waiting: str  # a knockout not drawn yet: what it waits for
    rounds: list[JogosRound]


@dataclass(frozen=True, slots=True)
class RoundLink:
    """A round in the navigation of a paged /jogos/."""

    number: int
    title: str
    url: str
    current: bool
    live: int
    done: bool


@dataclass(frozen=True, slots=True)
class NavStage:
    title: str
    waiting: str
    rounds: list[RoundLink]


@dataclass(frozen=True, slots=True)
class CurrentRound:
    number: int
    title: str
    stage: str


@dataclass(frozen=True, slots=True)
class JogosPage:
    """/jogos/: every round (or one round of a big event, ``paged``), or every jogo of one dupla."""

    sections: list[JogosSection]
    live_count: int
    duplas: list[DuplaRef]  # the dupla filter's choices, by name
    options: list[tuple[str, str, bool]]  # the same as (key, name, selected)
    selected: DuplaRef | None
    selected_key: str
    has_jogos: bool
    paged: bool
    nav: list[NavStage]
    current: CurrentRound | None
    previous: RoundLink | None
    next: RoundLink | None
    canonical: bool
    query: str


@dataclass(slots=True)
class _Stage:
    """A stage while /jogos/ is built: its rounds (``_Block``), before any jogo item is made."""

    key: str
    title: str
    kind: str
    waiting: str
    view: StageView
    blocks: list[_Block] = field(default_factory=list)


@dataclass(slots=True)
class _Block:
    """A round while /jogos/ is built: its rows and the state of its jogos."""

    title: str
    round: int | None
    rows: list[JogoRow]
    live: int = 0
    done: bool = False
    stage: _Stage | None = None
    number: int = 0


# --- jogos: results and live scores --------------------------------------------------


def jogos_present(state: TournamentState, *, dupla: str | None = None, rodada: str | int | None = None) -> JogosPage:
    """Schedule and results: stage → round (Rodada 1…, Semifinais…) → jogos by mesa.

    With ``dupla``, every jogo of that dupla. Else every round, or, for an
    event of more than ``JOGOS_PAGED_OVER`` jogos, one round (``rodada``, a
    number in the order of the navigation; by default the first round with a
    jogo still to finish, else the last) with links to the others.
    """
    labels = page_labels()
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_key = {gid: g for (_s, g), gid in state.group_names.items()}
    group_titles: dict[int | None, str] = {gid: escape(labels["group"] % {"key": g}) for gid, g in group_key.items()}
    selected = dupla if dupla in refs else None
    paged = selected is None and len(state.jogo_rows) > JOGOS_PAGED_OVER
    rows_by_stage: dict[int, list[JogoRow]] = defaultdict(list)
    for row in state.jogo_rows:
        rows_by_stage[row.stage_id].append(row)

    # every round of every stage, with its rows and the state of its jogos (no jogo built yet)
    stages: list[_Stage] = []
    blocks: list[_Block] = []
    for view, model, title in stage_views(state):
        is_groups = isinstance(view, GroupStageView)
        rows = rows_by_stage.get(model.id, []) if model else []
        total = len(view.bracket.rounds) if isinstance(view, KnockoutStageView) and view.bracket else None
        by_sort: dict[tuple[int, int], _Block] = {}
        for row in rows:
            number = row.round
            sort = (number or 0, 0 if row.third_place and not is_groups else 1)
            block = by_sort.get(sort)
            if block is None:
                if is_groups:
                    name = labels["round"] % {"n": number} if number else labels["jogos"]
                else:
                    name = knockout_round_title(
                        round_number=number, total_rounds=total, third_place=row.third_place
                    ) or labels["round"] % {"n": "?"}
                block = by_sort[sort] = _Block(title=name, round=number, rows=[])
            if selected and selected not in (key_of.get(row.dupla_a_id), key_of.get(row.dupla_b_id)):
                continue
            block.rows.append(row)
        waiting = ""
        if isinstance(view, KnockoutStageView) and view.bracket is None:
            waiting = _(view.waiting_for) if view.waiting_for else labels["not_drawn"]
        stage = _Stage(
            key=view.stage.key,
            title=title,
            kind="groups" if is_groups else "knockout",
            waiting=waiting,
            view=view,
        )
        for sort in sorted(by_sort):
            block = by_sort[sort]
            if not block.rows:
                continue
            codes = [status_code(state.results.get(r.id), r) for r in block.rows]
            block.live = codes.count("live")
            block.done = all(c in ("finished", "wo", "confirmed") for c in codes)
            block.stage = stage
            block.number = len(blocks) + 1
            blocks.append(block)
            stage.blocks.append(block)
        stages.append(stage)

    wanted = positive_int(rodada)
    valid_round = paged and wanted is not None and wanted <= len(blocks)
    canonical = (dupla is None or selected is not None) and (
        rodada is None or (valid_round and plain_param(rodada, wanted))
    )
    current: _Block | None = None
    if paged:
        current = blocks[wanted - 1] if valid_round and wanted else next((b for b in blocks if not b.done), blocks[-1])

    def build(block: _Block, stage: _Stage) -> JogosRound:
        jogos = [jogo_item(state, row, refs, key_of, group_titles, block.title, labels) for row in block.rows]
        jogos.sort(key=lambda j: (j.mesa is None, j.mesa or 0, j.id))
        rest: list[Rest] = []
        if stage.kind == "groups" and not selected and block.round is not None:
            assert isinstance(stage.view, GroupStageView)
            rest = _rests(stage.view, block.rows, refs, key_of, group_key, labels)
        return JogosRound(
            title=block.title,
            number=block.number,
            jogos=jogos,
            rest=rest,
            live=block.live,
            done=block.done,
        )

    sections = []
    for stage in stages:
        shown = [b for b in stage.blocks if current is None or b is current]
        if current is not None and not shown:
            continue
        sections.append(
            JogosSection(
                key=stage.key,
                title=stage.title,
                kind=stage.kind,
                waiting="" if current is not None else stage.waiting,
                rounds=[build(b, stage) for b in shown],
            )
        )

    nav: list[NavStage] = []
    previous, following = None, None
    if current is not None:
        for stage in stages:
            nav.append(
                NavStage(
                    title=stage.title,
                    waiting=stage.waiting,
                    rounds=[
                        RoundLink(
                            number=b.number,
                            title=b.title,
                            url=f"?rodada={b.number}",
                            current=b is current,
                            live=b.live,
                            done=b.done,
                        )
                        for b in stage.blocks
                    ],
                )
            )
        links = [r for s in nav for r in s.rounds]
        previous = links[current.number - 2] if current.number > 1 else None
        following = links[current.number] if current.number < len(links) else None

    choices = sorted(refs.values(), key=lambda r: name_sort_key(r.name))
    if selected:
        query = "?dupla=" + quote(selected, safe="")
    else:
        query = f"?rodada={wanted}" if valid_round else ""
    return JogosPage(
        sections=sections,
        live_count=sum(b.live for b in blocks),
        duplas=choices,
        options=[(r.key, r.name, r.key == selected) for r in choices],
        selected=refs.get(selected) if selected else None,
        selected_key=selected or "",
        has_jogos=bool(blocks),
        paged=current is not None,
        nav=nav,
        current=CurrentRound(number=current.number, title=current.title, stage=current.stage.title)
        if current is not None and current.stage is not None
        else None,
        previous=previous,
        next=following,
        canonical=canonical,
        query=query,
    )


def _rests(
    view: GroupStageView,
    rows: list[JogoRow],
    refs: Mapping[str, DuplaRef],
    key_of: Mapping[int, str],
    group_key: Mapping[int, str],
    labels: Mapping[str, Any],
) -> list[Rest]:
    """Duplas of a group with no jogo in a round (odd groups): shown as 'folga'."""
    playing: set[str | None] = set()
    groups: set[str | None] = set()
    for row in rows:
        playing.update((key_of.get(row.dupla_a_id), key_of.get(row.dupla_b_id)))
        groups.add(group_key.get(row.group_id) if row.group_id is not None else None)
    out = []
    for t in view.tables:
        if t.key not in groups:
            continue
        for d in t.duplas:
            if d not in playing:
                out.append(Rest(dupla=refs.get(d) or unknown_dupla(d), group=labels["group"] % {"key": t.key}))
    return out
