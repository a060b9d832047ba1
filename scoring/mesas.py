"""Spreading the jogos of one round over the mesas (tables) of the venue.

Pure functions. A round's jogos are given in their order; each gets a mesa and
a turn (1 = the first jogos played at once, 2 = the next ones on the freed
mesas, …). No dupla plays two jogos in the same turn, and the order is kept:
a jogo never goes to an earlier turn than the one before it.

A knockout round's jogos take turns over the mesas by their place among the
round's real jogos (a bye is no jogo and takes no mesa).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass

__all__ = ["MesaSlot", "knockout_mesas", "mesas_spread"]


@dataclass(frozen=True)
class MesaSlot:
    mesa: int
    turn: int


def mesas_spread[K: Hashable](
    *, jogos: Sequence[tuple[K, K]], mesas: int | None, busy: Collection[int] = ()
) -> list[MesaSlot]:
    """A mesa and a turn for each jogo of a round, in order.

    ``mesas``: the number of mesas (None: as many as needed, one jogo per mesa,
    all in the first turn). ``busy``: mesas taken in the first turn by jogos
    already under way (those keep their mesa).
    """
    if mesas is not None and mesas < 1:
        raise ValueError("o número de mesas deve ser pelo menos 1")
    out: list[MesaSlot] = []
    used: dict[int, set[int]] = {}  # turn -> mesas taken
    playing: dict[int, set[K]] = {}  # turn -> duplas playing
    last_turn: dict[K, int] = {}
    current = 1
    for a, b in jogos:
        turn = max(current, last_turn.get(a, 0) + 1, last_turn.get(b, 0) + 1)
        while True:
            taken = used.setdefault(turn, set(busy) if turn == 1 else set())
            free = _first_free(taken, mesas)
            if free is not None and a not in playing.get(turn, ()) and b not in playing.get(turn, ()):
                break
            turn += 1
        taken.add(free)
        playing.setdefault(turn, set()).update((a, b))
        last_turn[a] = last_turn[b] = turn
        current = turn
        out.append(MesaSlot(mesa=free, turn=turn))
    return out


def _first_free(taken: set[int], mesas: int | None) -> int | None:
    mesa = 1
    while mesa in taken:
        mesa += 1
    if mesas is not None and mesa > mesas:
        return None
    return mesa


def knockout_mesas(*, order: Sequence[object | None], mesas: int | None) -> dict[tuple[int, int], int]:
    """The mesa of each jogo of a bracket drawn as ``order`` (its first round's slots), by (round, position).

    A slot is a jogo when both halves of the draw under it hold a dupla; a bye (one half empty) is none and
    takes no mesa. Each round's jogos take turns over the ``mesas`` in position order (None: one mesa per
    jogo), so they fill every mesa before any mesa takes a second one. The third-place jogo (position 0 of
    the last round) sits beside the final. A slot that a walkover of both duplas empties later keeps its turn.
    """
    if mesas is not None and mesas < 1:
        raise ValueError("o número de mesas deve ser pelo menos 1")
    filled = [entry is not None for entry in order]
    out: dict[tuple[int, int], int] = {}
    round_number = 0
    while len(filled) >= 2:
        round_number += 1
        index = 0
        above: list[bool] = []
        for p in range(len(filled) // 2):
            left, right = filled[2 * p], filled[2 * p + 1]
            if left and right:
                out[(round_number, p + 1)] = index % mesas + 1 if mesas is not None else index + 1
                index += 1
            above.append(left or right)
        filled = above
    if round_number >= 2:
        out[(round_number, 0)] = 2 if mesas is None or mesas >= 2 else 1
    return out
