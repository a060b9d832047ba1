"""Group tables with their tiebreak notes, and the final classification."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.text import slugify

from scoring.standings import StandingRow as ScoredRow
from scoring.tournament import GroupStageView
from scoring.tournament import GroupTable as ScoredTable

from ..models import Tournament
from .duplas import DuplaRef, dupla_refs, player_names, unknown_dupla
from .labels import (
    as_is,
    average_br,
    criterion_note,
    ordinal,
    page_labels,
    plain_param,
    positive_int,
    signed,
)
from .stages import stage_views
from .types import fast_constructor

if TYPE_CHECKING:
    from ..state import TournamentState

GROUPS_PER_PAGE = 16  # more groups than this: /classificacao/ shows them this many a page
CLASSIFICATION_WHOLE_UP_TO = 16  # a longer general classification: the top places on /classificacao/, all on ?ver=geral
CLASSIFICATION_TOP_PLACES = 8

# --- what the pages show ------------------------------------------------------------------
#
# Frozen and slotted. The rows (a table's line, a place of the classification) are built by the thousand per
# request on a big event, through ``types.fast_constructor`` (a frozen dataclass's own ``__init__`` costs five
# times the dict they replace).


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a group table (or of the comparison between groups): numbers already formatted."""

    rank: int | None
    rank_label: str
    dupla: DuplaRef
    group: str  # "Grupo A" in the comparison between groups; "" in a group's own table
    points: str
    jogos: str
    won: str
    lost: str
    partidas_won: str
    partidas_lost: str
    points_for: str
    points_against: str
    saldo: str
    average: str
    note: str  # "decidido por confronto direto"…
    decided_by: str
    decided_after: str
    tied: bool
    qualified: bool
    cls: str  # the row's CSS classes
    tags: bool  # anything to show beside the name (qualified, tied, a note, disqualified)


@dataclass(frozen=True, slots=True)
class PartRef:
    """What ``{% partcache %}`` needs to keep a part's fragment: the tournament, the part and its version."""

    tournament: Tournament
    key: str
    version: int


@dataclass(frozen=True, slots=True)
class GroupTable:
    """A group's table. ``stage_title`` and ``show_stage``: for a table shown outside its stage (a TV slide, a
    dupla's page), empty on /classificacao/."""

    part: PartRef | None
    key: str
    title: str
    anchor: str
    complete: bool
    jogos_done: int
    jogos_total: int
    progress: str
    state: str  # "finished", "live" or "upcoming"
    rows: list[StandingRow]
    awaiting_draw: bool  # duplas tied in everything: a sorteio will order them
    stage_title: str = ""
    show_stage: bool = False


@dataclass(frozen=True, slots=True)
class GroupStage:
    """A group stage on /classificacao/: its tables (those of the page) and its comparison between groups."""

    key: str
    slug: str
    title: str
    tables: list[GroupTable]
    others: list[StandingRow]
    per_group: int
    best_others: int
    complete: bool
    decided: bool


@dataclass(frozen=True, slots=True)
class PageLink:
    """A page of groups in the pager: "A–P"."""

    number: int
    url: str
    current: bool
    label: str


@dataclass(frozen=True, slots=True)
class GroupLink:
    key: str
    url: str
    complete: bool


@dataclass(frozen=True, slots=True)
class StageJump:
    """A stage in the "go to group" list of a paged event: its groups and its comparison between groups."""

    title: str
    groups: list[GroupLink]
    others_url: str


@dataclass(frozen=True, slots=True)
class ClassificationRow:
    """A place in the final classification."""

    place: int | None
    place_label: str
    dupla: DuplaRef
    players: list[str]
    players_text: str
    show_players: bool  # a dupla without its own name is called by its players already: not printed twice
    medal: str
    medal_label: str


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """/classificacao/: group tables by stage (a page of them on a big event) and the final classification."""

    stages: list[GroupStage]
    classification: list[ClassificationRow]
    finished: bool
    general: bool  # ?ver=geral: the general classification alone
    classification_cut: bool
    classification_total: int
    has_stages: bool
    show_stage_titles: bool
    paged: bool
    canonical: bool
    query: str
    pages: list[PageLink]
    jump: list[StageJump]
    previous: PageLink | None
    next: PageLink | None
    page_number: int
    page_count: int


_standing_row_make = fast_constructor(StandingRow)
_group_table_make = fast_constructor(GroupTable)  # a table per group: 1,024 of them on the printed classificação
_part_ref_make = fast_constructor(PartRef)
_classification_row_make = fast_constructor(ClassificationRow)

# --- standings ---------------------------------------------------------------------


def _standing_row(
    row: ScoredRow, refs: Mapping[str, DuplaRef], labels: Mapping[str, Any], *, group: str = "", ranked: bool = True
) -> StandingRow:
    """One line of a table. ``ranked`` False (nothing played yet): no rank, no tie flag, no tiebreak note,
    since every dupla would otherwise be "1º" and "tied" on zeros."""
    s = row.stats
    decided_by = row.decided_by if ranked else None
    note = criterion_note(decided_by, row.decided_after, labels) if ranked else ""
    tied = row.tied and ranked
    dupla = refs.get(row.dupla) or unknown_dupla(row.dupla)
    return _standing_row_make(
        rank=row.rank if ranked else None,
        rank_label=ordinal(row.rank) if ranked else "",
        dupla=dupla,
        group=labels["group"] % {"key": group} if group else "",
        points=as_is(s.points),
        jogos=as_is(s.jogos),
        won=as_is(s.won),
        lost=as_is(s.lost),
        partidas_won=as_is(s.partidas_won),
        partidas_lost=as_is(s.partidas_lost),
        points_for=as_is(s.points_for),
        points_against=as_is(s.points_against),
        saldo=signed(s.saldo),
        average=average_br(s.average),
        note=note,
        decided_by=decided_by or "",
        decided_after=(row.decided_after or "") if ranked else "",
        tied=tied,
        qualified=row.qualified,
        cls=("is-qualified" if row.qualified else "") + (" is-tied" if tied else ""),
        tags=bool(row.qualified or tied or note or dupla.disqualified),
    )


def _unplayed_rows(table: ScoredTable) -> list[ScoredRow]:
    """A group with nothing played: its rows in the draw's order (the group as drawn), not in a made-up rank."""
    by_dupla = {r.dupla: r for r in table.rows}
    return [by_dupla[d] for d in table.duplas if d in by_dupla] + [r for r in table.rows if r.dupla not in table.duplas]


@functools.lru_cache(maxsize=8192)  # slugify is slow (two regexes, unicode normalisation); keys repeat
def _group_anchor(stage_key: str, group_key: str) -> str:
    return f"grupo-{slugify(stage_key)}-{slugify(group_key)}"


def part_ref(state: TournamentState, key: str) -> PartRef | None:
    """What ``{% partcache %}`` needs to keep a part's fragment: the tournament, the part and its version."""
    version = state.part_versions.get(key)
    return None if version is None else _part_ref_make(tournament=state.tournament, key=key, version=version)


def standings_present(
    state: TournamentState, *, pagina: str | int | None = None, ver: str | None = None, whole: bool = False
) -> StandingsPage:
    """Group tables (all of them, or ``GROUPS_PER_PAGE`` a page when there are more) and the final classification.

    ``whole``: every group on one page, whatever their number (the printed classificação).
    ``ver="geral"``: the complete general classification alone (its own page); the first page of the
    groups shows only its top places when it is longer than ``CLASSIFICATION_WHOLE_UP_TO``.

    On a paged event the final classification (one complete list) is on the
    first page only, and each stage's comparison between groups comes after
    its last group.
    """
    labels = page_labels()
    refs = dupla_refs(state)
    if ver is not None:
        return _general_page(state, refs, canonical=ver == "geral" and pagina is None)
    group_stages = [(view, title) for view, _model, title in stage_views(state) if isinstance(view, GroupStageView)]
    everything = [(si, t) for si, (view, _title) in enumerate(group_stages) for t in view.tables]
    paged = len(everything) > GROUPS_PER_PAGE and not whole
    page_count = -(-len(everything) // GROUPS_PER_PAGE) if paged else 1
    wanted = positive_int(pagina)
    valid = paged and wanted is not None and wanted <= page_count
    canonical = pagina is None or (valid and plain_param(pagina, wanted))
    current = wanted if valid and wanted is not None else 1
    first = (current - 1) * GROUPS_PER_PAGE
    shown = everything[first : first + GROUPS_PER_PAGE] if paged else everything
    shown_ids = {id(t) for _si, t in shown}

    stages: list[GroupStage] = []
    for _si, (view, title) in enumerate(group_stages):
        tables_here = [t for t in view.tables if id(t) in shown_ids]
        last_here = not paged or (view.tables and id(view.tables[-1]) in shown_ids)
        if paged and not tables_here and not (not view.tables and current == 1):
            continue
        group_of = {d: t.key for t in view.tables for d in t.duplas}
        tables = [
            _group_table_make(
                part=part_ref(state, f"g:{view.stage.key}:{t.key}"),
                key=t.key,
                title=labels["group"] % {"key": t.key},
                anchor=_group_anchor(view.stage.key, t.key),
                complete=t.complete,
                jogos_done=t.jogos_done,
                jogos_total=t.jogos_total,
                progress=labels["progress"] % {"done": t.jogos_done, "total": t.jogos_total},
                state="finished" if t.complete else ("live" if t.jogos_done else "upcoming"),
                rows=(
                    [_standing_row(r, refs, labels) for r in t.rows]
                    if t.jogos_done
                    else [_standing_row(r, refs, labels, ranked=False) for r in _unplayed_rows(t)]
                ),
                awaiting_draw=bool(t.jogos_done) and any(r.tied for r in t.rows),
            )
            for t in tables_here
        ]
        played = any(t.jogos_done for t in view.tables)
        others = (
            [_standing_row(r, refs, labels, group=group_of.get(r.dupla, ""), ranked=played) for r in view.others]
            if last_here
            else []
        )
        stages.append(
            GroupStage(
                key=view.stage.key,
                slug=slugify(view.stage.key),
                title=title,
                tables=tables,
                others=others,
                per_group=view.stage.per_group,
                best_others=view.stage.best_others,
                complete=view.complete,
                decided=view.decided,
            )
        )

    classification_shown = bool(state.view.finished and state.view.classification)  # on page 1
    classification = classification_present(state, refs=refs) if current == 1 else []
    total_rows = len(classification)
    cut = not whole and total_rows > CLASSIFICATION_WHOLE_UP_TO
    if cut:
        classification = [r for r in classification if r.place and r.place <= CLASSIFICATION_TOP_PLACES]
    pages: list[PageLink] = []
    jump: list[StageJump] = []
    previous: PageLink | None = None
    following: PageLink | None = None
    if paged:
        for n in range(1, page_count + 1):
            part = everything[(n - 1) * GROUPS_PER_PAGE : n * GROUPS_PER_PAGE]
            keys = [t.key for _si, t in part]
            url = f"?pagina={n}"
            if n == 1 and classification_shown:  # past the complete classification, to the groups
                url += f"#{_group_anchor(group_stages[part[0][0]][0].stage.key, part[0][1].key)}"
            pages.append(
                PageLink(
                    number=n,
                    url=url,
                    current=n == current,
                    label=keys[0] if len(keys) == 1 else f"{keys[0]}–{keys[-1]}",
                )
            )
        previous = pages[current - 2] if current > 1 else None
        following = pages[current] if current < page_count else None
        position = 0
        for view, title in group_stages:
            groups = []
            for t in view.tables:
                n = position // GROUPS_PER_PAGE + 1
                anchor = _group_anchor(view.stage.key, t.key)
                groups.append(
                    GroupLink(
                        key=t.key,
                        url=f"#{anchor}" if n == current else f"?pagina={n}#{anchor}",
                        complete=t.complete,
                    )
                )
                position += 1
            others_url = ""
            if view.others:
                n = max(position - 1, 0) // GROUPS_PER_PAGE + 1
                anchor = f"demais-{slugify(view.stage.key)}"
                others_url = f"#{anchor}" if n == current else f"?pagina={n}#{anchor}"
            jump.append(StageJump(title=title, groups=groups, others_url=others_url))
    return StandingsPage(
        stages=stages,
        classification=classification,
        finished=state.view.finished,
        general=False,
        classification_cut=cut,
        classification_total=total_rows,
        has_stages=bool(group_stages),
        show_stage_titles=len(group_stages) > 1 or classification_shown,
        paged=paged,
        canonical=canonical,
        query=f"?pagina={current}" if valid else "",
        pages=pages,
        jump=jump,
        previous=previous,
        next=following,
        page_number=current,
        page_count=page_count,
    )


def _general_page(state: TournamentState, refs: Mapping[str, DuplaRef], *, canonical: bool) -> StandingsPage:
    """``?ver=geral``: the whole general classification, nothing else (a big event's list is long)."""
    rows = classification_present(state, refs=refs)
    return StandingsPage(
        stages=[],
        classification=rows,
        finished=state.view.finished,
        general=True,
        classification_cut=False,
        classification_total=len(rows),
        has_stages=False,
        show_stage_titles=False,
        paged=False,
        canonical=canonical,
        query="?ver=geral",
        pages=[],
        jump=[],
        previous=None,
        next=None,
        page_number=1,
        page_count=1,
    )


def classification_present(
    state: TournamentState, *, refs: Mapping[str, DuplaRef] | None = None, medals_only: bool = False
) -> list[ClassificationRow]:
    if not state.view.finished:
        return []
    labels = page_labels()
    refs = refs if refs is not None else dupla_refs(state)
    players = player_names(state)
    rows: list[ClassificationRow] = []
    for c in state.view.classification:
        if medals_only and not c.medal:
            continue
        names = [players.get(p, p) for p in c.players]
        dupla = refs.get(c.dupla) or unknown_dupla(c.dupla)
        rows.append(
            _classification_row_make(
                place=c.place,
                place_label=ordinal(c.place),
                dupla=dupla,
                players=names,
                players_text=(
                    labels["players"] % {"a": names[0], "b": names[1]} if len(names) == 2 else ", ".join(names)
                ),
                show_players=bool(dupla.has_name or tuple(names) != tuple(dupla.player_names)),
                medal=c.medal or "",
                medal_label=labels["medal"].get(c.medal or "", ""),
            )
        )
    return rows
