"""What is happening now: the jogos at the mesas, the next jogos called, the latest results.

The event page opens with it on event day, and the TV mode cycles through it.
Built from the live state (the súmulas at the table read again), like /jogos/.
Long lists are cut (a 1,024-dupla event has 512 jogos in a round): the page
links to /jogos/ for the rest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rows import JogoRow
from .jogo import JogoItem, jogo_item_maker, status_code
from .labels import time_br

if TYPE_CHECKING:
    from ..state import TournamentState

IN_PLAY_SHOWN = 24  # jogos at the mesas shown on the event page (the TV shows them all, page by page)
NEXT_SHOWN = 16
LATEST_SHOWN = 8
DECIDED = ("finished", "wo", "confirmed", "awaiting", "contested")


@dataclass(frozen=True, slots=True)
class NowPage:
    """What is happening now (the event page on event day, the TV): the jogos at the mesas, the next ones called,
    the latest results, each list cut to its limit (``*_total``: how many there are)."""

    in_play: list[JogoItem]
    in_play_total: int
    next: list[JogoItem]
    next_total: int
    next_title: str  # the round of the next jogos ("Rodada 3")
    latest: list[JogoItem]
    any: bool


def _mesa_order(row: JogoRow) -> tuple[bool, int, int]:
    return row.mesa is None, row.mesa or 0, row.id


def now_present(
    state: TournamentState,
    *,
    in_play_limit: int | None = IN_PLAY_SHOWN,
    next_limit: int | None = NEXT_SHOWN,
    latest_limit: int = LATEST_SHOWN,
) -> NowPage:
    """The jogos at the mesas (by mesa), the next ones called (the earliest round with jogos still to play,
    by mesa), and the latest results (the last súmulas entered). ``None`` limits: every one."""
    codes = {row.id: status_code(state.results.get(row.id), row) for row in state.jogo_rows}
    at_table = sorted((r for r in state.jogo_rows if codes[r.id] == "live"), key=_mesa_order)
    stage_order = {m.id: m.order for m in state.stage_models.values()}
    to_play = [r for r in state.jogo_rows if codes[r.id] == "upcoming"]
    called: list[JogoRow] = []
    if to_play:
        first = min((stage_order.get(r.stage_id, 0), r.round or 0) for r in to_play)
        called = sorted(
            (r for r in to_play if (stage_order.get(r.stage_id, 0), r.round or 0) == first), key=_mesa_order
        )
    decided = [r for r in state.jogo_rows if codes[r.id] in DECIDED and r.entry_order is not None]
    decided.sort(key=lambda r: r.entry_order or 0, reverse=True)
    in_play_shown = at_table if in_play_limit is None else at_table[:in_play_limit]
    next_shown = called if next_limit is None else called[:next_limit]
    make = jogo_item_maker(state)
    next_items = [make(r) for r in next_shown]
    return NowPage(
        in_play=[make(r) for r in in_play_shown],
        in_play_total=len(at_table),
        next=next_items,
        next_total=len(called),
        next_title=next_items[0].round_title if next_items else "",
        latest=[make(r) for r in decided[:latest_limit]],
        any=bool(at_table or called or decided),
    )


CALLED_SHOWN = 12  # the latest calls on the event page and the TV


@dataclass(frozen=True, slots=True)
class CalledItem:
    """A jogo called to its mesa ("Sua vez"), still to play: the jogo and the time of its latest call."""

    jogo: JogoItem
    at: str


def called_present(
    state: TournamentState, *, called: Mapping[int, dt.datetime], limit: int | None = CALLED_SHOWN
) -> list[CalledItem]:
    """The called jogos (``calls.selectors.calls_on_pages``: jogo id -> its latest call) that have not begun
    as the súmulas stand now, the latest call first (then by mesa)."""
    if not called:
        return []
    rows = [r for r in state.jogo_rows if r.id in called and status_code(state.results.get(r.id), r) == "upcoming"]
    rows.sort(key=lambda r: (-called[r.id].timestamp(), _mesa_order(r)))
    if limit is not None:
        rows = rows[:limit]
    make = jogo_item_maker(state)
    return [CalledItem(jogo=make(r), at=time_br(called[r.id])) for r in rows]
