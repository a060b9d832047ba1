"""The TV mode (/torneios/<slug>/tv/): a screen at the venue cycling through slides in large type.

Slides: the jogos at the mesas (with live scores), the next jogos called, the
latest results, the standings (group tables, or the final classification),
and the last rounds of the bracket. Each slide holds what fits a 16:9 screen
read from a few metres; long lists become several slides. Without JavaScript
the slides are simply stacked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from scoring.tournament import KnockoutStageView

from .bracket import BracketJogo, BracketRound, bracket_present
from .duplas import DuplaRef
from .jogo import JogoItem
from .now import CalledItem, called_present, now_present
from .standings import ClassificationRow, GroupTable, classification_present, standings_present

if TYPE_CHECKING:
    from ..state import TournamentState

JOGOS_PER_SLIDE = 12
TABLES_PER_SLIDE = 4
STANDINGS_SLIDES_MAX = 4  # a big event: the first page of groups only (the rest is on the site)
JOGOS_SLIDES_MAX = 6
CLASSIFICATION_ROWS = 12
BRACKET_ROUNDS = 4  # quarterfinals on (the last 4 rounds: round of 16, quarters, semis, final)


@dataclass(frozen=True, slots=True, kw_only=True)
class Slide:
    """A TV slide: ``kind`` says which of the lists it shows ("jogos", "tables", "classification", "bracket")."""

    kind: str
    title: str
    number: int = 0  # 1…, in the order of the slides
    jogos: list[JogoItem] | None = None
    tables: list[GroupTable] | None = None
    rows: list[ClassificationRow] | None = None
    rounds: list[BracketRound] | None = None
    third: BracketJogo | None = None
    champion: DuplaRef | None = None
    called: list[CalledItem] | None = None
    circuit_rows: list[Any] | None = None  # ``circuits.selectors.StandingRow``: the circuit's top (kind "circuit")


@dataclass(frozen=True, slots=True)
class TvPage:
    slides: list[Slide]
    canonical: bool


def _chunks[T](items: list[T], size: int, limit: int) -> list[list[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)][:limit]


def _jogo_slides(kind: str, title: str, jogos: list[JogoItem]) -> list[Slide]:
    parts = _chunks(jogos, JOGOS_PER_SLIDE, JOGOS_SLIDES_MAX)
    return [
        Slide(kind=kind, title=title + (f" ({n}/{len(parts)})" if len(parts) > 1 else ""), jogos=part)
        for n, part in enumerate(parts, start=1)
    ]


def tv_present(state: TournamentState, *, called: Mapping[int, dt.datetime] | None = None) -> TvPage:
    """The slides; ``called`` (``calls.selectors.calls_on_pages``) makes the first one "Sua vez": the latest jogos
    called to their mesa that have not begun."""
    slides: list[Slide] = []
    if not state.view.finished:
        shown = called_present(state, called=called or {}, limit=JOGOS_PER_SLIDE)
        if shown:
            slides.append(Slide(kind="called", title=_("Sua vez: chamados às mesas"), called=shown))
        now = now_present(
            state, in_play_limit=JOGOS_PER_SLIDE * JOGOS_SLIDES_MAX, next_limit=JOGOS_PER_SLIDE * JOGOS_SLIDES_MAX
        )
        slides += _jogo_slides("jogos", _("Jogos nas mesas"), now.in_play)
        if now.next:
            slides += _jogo_slides("jogos", _("Próximos jogos") + " · " + now.next_title, now.next)
        if now.latest:
            slides.append(Slide(kind="jogos", title=_("Últimos resultados"), jogos=now.latest))
        standings = standings_present(state)  # the first page of groups: a screen shows a few of them
        tables = [replace(table, stage_title=stage.title) for stage in standings.stages for table in stage.tables]
        parts = _chunks(tables, TABLES_PER_SLIDE, STANDINGS_SLIDES_MAX)
        for part in parts:
            keys = [t.key for t in part]
            slides.append(
                Slide(
                    kind="tables",
                    tables=part,
                    title=_("Classificação")
                    + " · "
                    + (part[0].title if len(part) == 1 else _("Grupos %(a)s a %(b)s") % {"a": keys[0], "b": keys[-1]}),
                )
            )
    else:
        rows = classification_present(state)
        if rows:
            slides.append(Slide(kind="classification", title=_("Classificação final"), rows=rows[:CLASSIFICATION_ROWS]))
    if any(isinstance(v, KnockoutStageView) and v.bracket is not None for v in state.view.stages):
        bracket = bracket_present(state)  # a big bracket: from the round of 32 on
        for stage in bracket.stages:
            if stage.rounds:
                slides.append(
                    Slide(
                        kind="bracket",
                        title=_("Chave") + (" · " + stage.title if len(bracket.stages) > 1 else ""),
                        rounds=stage.rounds[-BRACKET_ROUNDS:],
                        third=stage.third,
                        champion=stage.champion,
                    )
                )
    return TvPage(slides=[replace(slide, number=n) for n, slide in enumerate(slides, start=1)], canonical=True)


CIRCUIT_ROWS = 10


def tv_circuit_add(page: TvPage, *, name: str, rows: list[Any]) -> TvPage:
    """The page with a last slide: the top of the season ranking of the circuit this event is an etapa of
    (``rows``: its ``StandingRow``s, the first ``CIRCUIT_ROWS`` shown)."""
    if not rows:
        return page
    slide = Slide(
        kind="circuit",
        title=_("Ranking do circuito · %(name)s") % {"name": name},
        circuit_rows=rows[:CIRCUIT_ROWS],
        number=len(page.slides) + 1,
    )
    return replace(page, slides=[*page.slides, slide])
