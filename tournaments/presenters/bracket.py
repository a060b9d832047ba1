"""The bracket, drawn as a bracket: rounds side by side, sections for big brackets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.bracket import BracketJogo as ScoredJogo
from scoring.jogo import WALKOVER_BOTH
from scoring.tournament import KnockoutStageView

from ..rows import JogoRow
from .duplas import DuplaRef, dupla_refs, unknown_dupla
from .jogo import PartidaLine, jogo_online, jogo_rows_by_slot, result_view
from .labels import Status, knockout_round_title, page_labels, plain_param, positive_int, scores_text
from .stages import stage_views
from .standings import ClassificationRow, classification_present
from .types import fast_constructor

if TYPE_CHECKING:
    from ..state import TournamentState

BRACKET_PAGED_OVER = 64  # more duplas than this in a bracket: earlier rounds by section
SECTION_ROUND_FROM_END = 5  # ... the round of 32 ("16-avos de final") and later shown whole
BRACKET_CLASSIFICATION_ROWS = 32  # a sectioned bracket lists the final classification down to the round of 32

# --- what the pages show ------------------------------------------------------------------
#
# Frozen and slotted. ``BracketSlot`` and ``BracketJogo`` are built by the thousand for the printed bracket of a
# big event, through ``types.fast_constructor`` (a frozen dataclass's own ``__init__`` costs five times the dict
# they replace).


@dataclass(frozen=True, slots=True)
class BracketSlot:
    """A side of a jogo in the bracket: its dupla, or "a definir" / "— folga —"."""

    dupla: DuplaRef | None
    label: str
    empty: bool
    bye: bool
    score: int | None  # partidas won (a jogo not counted yet: as its súmula stands)
    winner: bool  # won, counted
    leading: bool  # won by a result not counted yet (awaiting confirmation, contested): provisional
    absent: bool


@dataclass(frozen=True, slots=True)
class SectionLink:
    """A section of a big bracket (the sub-bracket that fills one place of the round of 32)."""

    number: int
    label: str
    url: str
    winner: str  # the name of the dupla that came out of it, else ""
    current: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketJogo:
    """A jogo of the bracket: its two slots, its status and score."""

    round: int
    position: int
    third_place: bool
    name: str  # the round's name ("Semifinais"), or "Disputa de 3º lugar"
    slots: list[BracketSlot]
    bye: bool
    decided: bool
    status: Status
    mesa: int | None
    key: str
    best_of: int
    best_of_label: str
    live: PartidaLine | None
    partidas: list[PartidaLine]
    score_text: str
    walkover: bool
    sources: list[SectionLink]  # on a sectioned bracket's round of 32: the sections feeding each slot
    online: bool = False  # played on an online table: the "online" badge


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    name: str
    best_of_label: str
    jogos: list[BracketJogo]
    pairs: list[list[BracketJogo]]  # the jogos two by two (the two that feed one jogo of the next round)


@dataclass(frozen=True, slots=True)
class SectionPage:
    """The section a page shows (``?secao=N``), with its neighbours."""

    number: int
    label: str
    slot_round: str
    previous: SectionLink | None
    next: SectionLink | None
    winner: str


@dataclass(frozen=True, slots=True)
class BracketStage:
    """A knockout stage: its rounds (or a section of them), the third-place jogo and the champion."""

    key: str
    slug: str
    title: str
    drawn: bool
    rounds: list[BracketRound]
    third: BracketJogo | None
    champion: DuplaRef | None
    waiting: str  # not drawn yet: what it waits for
    sections: list[SectionLink]
    section: SectionPage | None


@dataclass(frozen=True, slots=True)
class BracketPage:
    """/chave/: every knockout stage (or one section of a big bracket) and the final classification."""

    stages: list[BracketStage]
    classification: list[ClassificationRow]
    classification_total: int
    classification_cut: bool
    section: SectionPage | None
    canonical: bool
    query: str


_bracket_slot = fast_constructor(BracketSlot)
_bracket_jogo = fast_constructor(BracketJogo)

# --- the bracket -------------------------------------------------------------------


def bracket_jogo(
    state: TournamentState,
    jogo: ScoredJogo,
    refs: Mapping[str, DuplaRef],
    rows_by_slot: Mapping[tuple[int, int | None, int | None, bool], JogoRow],
    stage_id: int | None,
    total: int,
    labels: Mapping[str, Any] | None = None,
    *,
    provisional: bool = True,
) -> BracketJogo:
    """A jogo of the bracket. The bracket moves on counted results; a jogo not counted yet shows its súmula as it
    stands (its live score, its provisional result, labelled), unless ``provisional`` is False (counted only)."""
    labels = labels or page_labels()
    row = (
        rows_by_slot.get((stage_id, jogo.round, 0 if jogo.third_place else jogo.position, jogo.third_place))
        if stage_id is not None
        else None
    )
    partida_rows = state.partidas.get(row.id, []) if row else []
    result = jogo.result
    if result is None and row is not None and provisional:
        # not counted yet (docs/regras.md §2, step 6): at the table, or decided and awaiting confirmation or
        # contested. Its súmula as it stands (the live state), told as the jogos page tells it ("em andamento",
        # "provisório: …"); the bracket itself moves on counted results only, so nobody advances on it
        result = state.results.get(row.id)
    shown = result_view(result, row, partida_rows, labels)
    score = result.partidas_won if result is not None and result.started else None
    if result is not None and result.walkover == WALKOVER_BOTH:
        score = None  # nobody played: no partidas to count
    leader = shown.winner if not jogo.decided else None  # a provisional winner: not moved forward
    slots = []
    for side, key in enumerate(jogo.duplas):
        ref = (refs.get(key) or unknown_dupla(key)) if key else None
        if key is None:
            label = labels["bye_slot"] if jogo.bye else labels["to_define"]
        else:
            assert ref is not None
            label = ref.name
        slots.append(
            _bracket_slot(
                dupla=ref,
                label=label,
                empty=key is None,
                bye=jogo.bye and key is None,
                score=score[side] if score is not None and not jogo.bye else None,
                winner=bool(jogo.decided and key is not None and jogo.winner == key),
                leading=leader == side and key is not None,
                absent=shown.walkover_side == side,
            )
        )
    status: Status
    if jogo.bye:
        status = labels["bye"]
    elif jogo.decided and jogo.winner is None:
        status = labels["wo_both"]
    elif None in jogo.duplas:
        status = labels["pending"]
    else:
        status = shown.status
    return _bracket_jogo(
        round=jogo.round,
        position=jogo.position,
        third_place=jogo.third_place,
        name=knockout_round_title(round_number=jogo.round, total_rounds=total, third_place=jogo.third_place),
        slots=slots,
        bye=jogo.bye,
        decided=jogo.decided,
        status=status,
        mesa=row.mesa if row else None,
        key=row.key if row else "",
        best_of=jogo.best_of,
        best_of_label=labels["best_of"] % {"n": jogo.best_of} if jogo.best_of else "",
        live=shown.live,
        partidas=shown.partidas,
        score_text=scores_text(p.text for p in shown.partidas),
        walkover=status.code == "wo" or shown.status.code == "wo",
        sources=[],
        online=row is not None and jogo_online(state, row),
    )


def _bracket_round(
    number: int, total: int, rnd: list[ScoredJogo], jogos: list[BracketJogo], labels: Mapping[str, Any]
) -> BracketRound:
    return BracketRound(
        number=number,
        name=knockout_round_title(round_number=number, total_rounds=total),
        best_of_label=labels["best_of"] % {"n": rnd[0].best_of} if rnd and rnd[0].best_of else "",
        jogos=jogos,
        pairs=[jogos[i : i + 2] for i in range(0, len(jogos), 2)],
    )


def bracket_present(
    state: TournamentState, *, secao: str | int | None = None, whole: bool = False, provisional: bool = True
) -> BracketPage:
    """Every knockout stage: its rounds side by side, the third-place jogo, the champion, the final classification.

    ``whole``: every round of every bracket, whatever its size (the printed chave).
    ``provisional``: the jogos not counted yet as their súmulas stand (live scores, results awaiting confirmation
    or contested, labelled); False: counted results only (the printed chave: a wall bracket shows what counts).

    A bracket of more than ``BRACKET_PAGED_OVER`` duplas shows the round of 32
    and later rounds; the rounds before it come by section (``secao``): the
    sub-bracket that fills one place of the round of 32, numbered 1… across
    the stages, each on its own page.
    """
    labels = page_labels()
    refs = dupla_refs(state)
    rows_by_slot = jogo_rows_by_slot(state)
    wanted = positive_int(secao)
    stages: list[BracketStage] = []
    offset = 0
    chosen: BracketStage | None = None
    for view, model, title in stage_views(state):
        if not isinstance(view, KnockoutStageView):
            continue
        stage_id = model.id if model else None
        key, slug, drawn = view.stage.key, slugify(view.stage.key), view.bracket is not None
        if view.bracket is None:
            waiting = _(view.waiting_for) if view.waiting_for else labels["not_drawn"]
            stages.append(BracketStage(key, slug, title, drawn, [], None, None, waiting, [], None))
            continue
        b = view.bracket
        total = len(b.rounds)

        def present(jogo: ScoredJogo, total: int = total, stage_id: int | None = stage_id) -> BracketJogo:
            return bracket_jogo(state, jogo, refs, rows_by_slot, stage_id, total, labels, provisional=provisional)

        rounds: list[BracketRound] = []
        sections: list[SectionLink] = []
        section: SectionPage | None = None
        entrants = sum(1 for d in (view.order or ()) if d is not None)
        cut = total - SECTION_ROUND_FROM_END + 1  # the round of 32
        if entrants > BRACKET_PAGED_OVER and cut > 1 and not whole:
            count = 2 * len(b.rounds[cut - 1])
            for s in range(1, count + 1):
                feeder = b.rounds[cut - 2][s - 1]
                winner = (
                    (refs.get(feeder.winner) or unknown_dupla(feeder.winner)).name
                    if feeder.decided and feeder.winner
                    else ""
                )
                sections.append(
                    SectionLink(
                        number=offset + s,
                        label=labels["section"] % {"n": offset + s},
                        url=f"?secao={offset + s}",
                        winner=winner,
                        current=wanted == offset + s,
                    )
                )
            if wanted is not None and offset < wanted <= offset + count:
                s = wanted - offset
                for r in range(1, cut):
                    size = 2 ** (cut - 1 - r)
                    part = b.rounds[r - 1][(s - 1) * size : s * size]
                    rounds.append(_bracket_round(r, total, part, [present(j) for j in part], labels))
                target = b.rounds[cut - 1][(s - 1) // 2]
                rounds.append(_bracket_round(cut, total, b.rounds[cut - 1], [present(target)], labels))
                section = SectionPage(
                    number=wanted,
                    label=labels["section"] % {"n": wanted},
                    slot_round=rounds[-1].name,
                    previous=sections[s - 2] if s > 1 else None,
                    next=sections[s] if s < count else None,
                    winner=sections[s - 1].winner,
                )
            else:
                for r in range(cut, total + 1):
                    jogos = [present(j) for j in b.rounds[r - 1]]
                    if r == cut:
                        jogos = [replace(item, sources=sections[2 * p : 2 * p + 2]) for p, item in enumerate(jogos)]
                    rounds.append(_bracket_round(r, total, b.rounds[r - 1], jogos, labels))
            offset += count
        else:
            for r, rnd in enumerate(b.rounds, start=1):
                rounds.append(_bracket_round(r, total, rnd, [present(j) for j in rnd], labels))
        # a section page shows the section alone: no third-place jogo, no champion
        third = present(b.third_place) if b.third_place is not None and section is None else None
        final = b.final
        champion = None
        if final.decided and final.winner and section is None:
            champion = refs.get(final.winner) or unknown_dupla(final.winner)
        out = BracketStage(key, slug, title, drawn, rounds, third, champion, "", sections, section)
        stages.append(out)
        if section is not None:
            chosen = out

    canonical = secao is None or (chosen is not None and plain_param(secao, wanted))
    if chosen is not None:  # a section page shows that section only
        return BracketPage(
            stages=[chosen],
            classification=[],
            classification_total=0,
            classification_cut=False,
            section=chosen.section,
            canonical=canonical,
            query=f"?secao={wanted}",
        )
    classification = classification_present(state, refs=refs)
    total_rows = len(classification)
    cut_rows = any(s.sections for s in stages) and total_rows > BRACKET_CLASSIFICATION_ROWS
    if cut_rows:
        classification = [r for r in classification if r.place and r.place <= BRACKET_CLASSIFICATION_ROWS]
    return BracketPage(
        stages=stages,
        classification=classification,
        classification_total=total_rows,
        classification_cut=cut_rows,
        section=None,
        canonical=canonical,
        query="",
    )
