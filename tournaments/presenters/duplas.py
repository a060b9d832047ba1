"""The public face of a dupla: its name, its players' names, its seed; never private data."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from .labels import page_labels
from .types import fast_constructor

if TYPE_CHECKING:
    from ..state import TournamentState


@dataclass(frozen=True, slots=True)
class DuplaRef:
    """A dupla as every page names it: its name, its players, its seed and the links to its pages.

    Made once per set of duplas (``dupla_refs``, 4,096 at once on a big event: ``_dupla_ref``) and shared by the
    requests that use it: frozen."""

    key: str
    name: str
    short: str  # where a line names both duplas ("Ana / Bia 3 x 4 Caio / Davi"): its own name, else first names
    players: str  # "Ana e Bia": the players' names as a line (the page shows it under the dupla's own name)
    player_names: tuple[str, ...]
    has_name: bool
    seed: int | None
    disqualified: bool
    filter_url: str  # /jogos/ of this dupla alone
    url: str  # its public page; "" for a key not in the tournament


# --- duplas ------------------------------------------------------------------------


def first_name(name: str) -> str:
    """A player's first name ("Ana" of "Ana Souza"): where a screen names a dupla short."""
    return (name or "").split(" ")[0] or name


def dupla_url(slug: str, key: str) -> str:
    """The dupla's public page."""
    return f"/torneios/{slug}/duplas/{quote(key, safe='')}/"


_dupla_ref = fast_constructor(DuplaRef)

# (duplas' id, slug, label) -> (duplas, refs)
_REFS: OrderedDict[tuple[int, str, str], tuple[object, dict[str, DuplaRef]]] = OrderedDict()
_REFS_MAX = 32
_REFS_LOCK = threading.Lock()


def dupla_refs(state: TournamentState) -> dict[str, DuplaRef]:
    """Public face of every dupla: name, players' names, seed, disqualified, the link to its jogos.

    Made once per set of duplas (a state and every live state over it share one), slug and language: a live
    page of 1,024 duplas is rendered every second during a round, and these links were a third of it. The
    result is shared: read it, never change it."""
    players = page_labels()["players"]
    key = (id(state.duplas), state.tournament.slug, str(players))
    with _REFS_LOCK:
        kept = _REFS.get(key)
        if kept is not None and kept[0] is state.duplas:
            _REFS.move_to_end(key)
            return kept[1]
    refs = _dupla_refs_make(state, players)
    with _REFS_LOCK:
        _REFS[key] = (state.duplas, refs)
        while len(_REFS) > _REFS_MAX:
            _REFS.popitem(last=False)
    return refs


def _dupla_refs_make(state: TournamentState, players: str) -> dict[str, DuplaRef]:
    refs = {}
    slug = state.tournament.slug
    for key, d in state.duplas.items():
        p1, p2 = d.player1.name, d.player2.name
        refs[key] = _dupla_ref(
            key=key,
            name=d.name or f"{p1} / {p2}",  # Dupla.display_name, without going through the model again
            short=d.name or f"{first_name(p1)} / {first_name(p2)}",
            players=players % {"a": p1, "b": p2},
            player_names=(p1, p2),
            has_name=bool(d.name),
            seed=d.seed,
            disqualified=d.disqualified,
            filter_url="?dupla=" + quote(key, safe="/"),
            url=dupla_url(slug, key),
        )
    return refs


def player_names(state: TournamentState) -> dict[str, str]:
    out = {}
    for d in state.duplas.values():
        out[d.player1.key] = d.player1.name
        out[d.player2.key] = d.player2.name
    return out


def unknown_dupla(key: str | None) -> DuplaRef:
    """A dupla the state does not know (a key of a jogo or a row without its dupla): its key as its name."""
    return DuplaRef(
        key=key or "",
        name=key or "—",
        short=key or "—",
        players="",
        player_names=(),
        has_name=False,
        seed=None,
        disqualified=False,
        filter_url="?dupla=" + quote(key or "", safe="/"),
        url="",
    )
