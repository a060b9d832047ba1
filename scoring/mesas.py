"""Spreading the jogos of one round over the mesas (tables) of the venue.

Pure functions. A round's jogos are given in their order; each gets a mesa and
a turn (1 = the first jogos played at once, 2 = the next ones on the freed
mesas, …). No dupla plays two jogos in the same turn, and the order is kept:
a jogo never goes to an earlier turn than the one before it.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass

__all__ = ["MesaSlot", "knockout_mesa", "mesas_spread"]


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


def knockout_mesa(*, position: int, third_place: bool, mesas: int | None = None) -> int:
    """Mesa of a knockout jogo: its position in the round (taking turns over ``mesas``); the third place beside the final."""
    if third_place:
        return 2 if mesas is None or mesas >= 2 else 1
    if mesas is None:
        return position
    return (position - 1) % mesas + 1
