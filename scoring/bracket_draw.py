"""Slot orders for a knockout bracket (chave).

An order is a list of dupla keys (``None`` = bye) whose slot pairs
(0, 1), (2, 3), ... are the first-round jogos. How results progress through
the bracket is not decided here.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Collection, Iterator, Sequence

from .messages import _

__all__ = [
    "bracket_size",
    "crossed_order",
    "fixed_order_errors",
    "random_order",
    "seeded_order",
    "standard_seed_positions",
]


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def bracket_size(n: int) -> int:
    """Smallest power of two >= n (at least 2)."""
    if n < 2:
        raise ValueError(f"uma chave precisa de pelo menos 2 duplas; recebeu {n}")
    return 1 << (n - 1).bit_length()


def standard_seed_positions(size: int) -> list[int]:
    """Seed number (1-based) of each slot in the standard bracket order.

    Built from [1, 2] by replacing every seed s with (s, new_size + 1 - s):
    seeds 1 and 2 can only meet in the final, seeds i and size + 1 - i meet
    in the first round.
    """
    if size < 2 or not _is_power_of_two(size):
        raise ValueError(f"o tamanho da chave deve ser uma potência de 2 maior ou igual a 2; recebeu {size}")
    order = [1, 2]
    while len(order) < size:
        new_size = 2 * len(order)
        order = [x for s in order for x in (s, new_size + 1 - s)]
    return order


def _check_entrants(entrants: Sequence[str]) -> None:
    seen: set[str] = set()
    for key in entrants:
        if key is None:
            raise ValueError("a lista de duplas da chave não pode conter posições vazias")
        if key in seen:
            raise ValueError(f"a dupla {key!r} aparece mais de uma vez na chave")
        seen.add(key)


def seeded_order(*, entrants: Sequence[str]) -> list[str | None]:
    """Place entrants (best seed first) at the standard positions; byes go to the best seeds."""
    _check_entrants(entrants)
    n = len(entrants)
    return [entrants[s - 1] if s <= n else None for s in standard_seed_positions(bracket_size(n))]


def random_order(*, entrants: Sequence[str], seed: int) -> list[str | None]:
    """Draw the seed order by lot (Random(seed)), then place it as ``seeded_order``."""
    shuffled = list(entrants)
    random.Random(seed).shuffle(shuffled)
    return seeded_order(entrants=shuffled)


def fixed_order_errors(*, order: Sequence[str | None], known: Collection[str]) -> list[str]:
    """Problems (pt-BR) of an organizer-given bracket order; empty when it is valid."""
    errors: list[str] = []
    if len(order) < 2 or not _is_power_of_two(len(order)):
        errors.append(
            _(
                "a chave deve ter um número de posições que seja potência de 2 (2, 4, 8, 16, …); tem %(size)s",
                size=len(order),
            )
        )
    seen: set[str] = set()
    for index, key in enumerate(order):
        if key is None:
            continue
        if not isinstance(key, str):
            errors.append(
                _(
                    "posição %(position)s: esperava a chave de uma dupla ou null, recebeu %(key)s",
                    position=index + 1,
                    key=repr(key),
                )
            )
            continue
        if key not in known:
            errors.append(_("posição %(position)s: dupla desconhecida %(key)s", position=index + 1, key=repr(key)))
        elif key in seen:
            errors.append(
                _("posição %(position)s: a dupla %(key)s aparece mais de uma vez", position=index + 1, key=repr(key))
            )
        seen.add(key)
    for jogo in range(len(order) // 2):
        if order[2 * jogo] is None and order[2 * jogo + 1] is None:
            errors.append(
                _(
                    "jogo %(jogo)s da primeira rodada (posições %(first)s e %(second)s): bye contra bye",
                    jogo=jogo + 1,
                    first=2 * jogo + 1,
                    second=2 * jogo + 2,
                )
            )
    duplas = len({key for key in order if isinstance(key, str)})
    if duplas < 2:
        errors.append(_("a chave precisa de pelo menos 2 duplas; tem %(duplas)s", duplas=duplas))
    return errors


class _Unvisited:
    """Seeds low..high not yet visited, walked outward from a point (nearest first).

    Union-find "next unvisited" pointers in both directions keep every walk
    amortised near O(number of seeds it passes).
    """

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high
        self.clear()

    def clear(self) -> None:
        span = range(self.low - 1, self.high + 2)  # with one sentinel on each side
        self._down = {x: x for x in span}
        self._up = {x: x for x in span}

    def __contains__(self, seed: int) -> bool:
        return self._down[seed] == seed

    def visit(self, seed: int) -> None:
        self._down[seed] = seed - 1
        self._up[seed] = seed + 1

    @staticmethod
    def _find(parent: dict[int, int], x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def nearest(self, original: int) -> Iterator[int]:
        """Unvisited seeds by distance to ``original``, lower seed first on ties.

        A seed visited while the walk is paused is still yielded if not yet
        passed; the caller skips it.
        """
        low, high = self.low, self.high
        below = self._find(self._down, original)
        above = self._find(self._up, original)
        while below >= low or above <= high:
            if below == above:
                yield below
                below = self._find(self._down, below - 1)
                above = self._find(self._up, above + 1)
            elif above > high or (below >= low and original - below <= above - original):
                yield below
                below = self._find(self._down, below - 1)
            else:
                yield above
                above = self._find(self._up, above + 1)


def crossed_order(*, entrants: Sequence[tuple[str, str]]) -> list[str | None]:
    """``seeded_order`` with first-round meetings of the same group avoided when possible.

    ``entrants`` are (dupla_key, group_key) in seed order. The top half of the
    seeds stays in place; the bottom half (byes included, which never conflict)
    is re-matched to the first-round jogos by augmenting paths, each jogo
    preferring the seeds closest to its original opponent. Paths are searched
    breadth-first so that a single conflict becomes a swap of neighbours.
    """
    keys = [key for key, _ in entrants]
    _check_entrants(keys)
    n = len(keys)
    size = bracket_size(n)
    half = size // 2
    positions = standard_seed_positions(size)
    group_of = {seed: group for seed, (_, group) in enumerate(entrants, start=1)}

    # Jogo j is slots (2j, 2j+1); exactly one of its two seeds is in the top half.
    top_seed = [min(positions[2 * j], positions[2 * j + 1]) for j in range(half)]
    original = [size + 1 - t for t in top_seed]

    def allowed(jogo: int, seed: int) -> bool:
        return seed > n or group_of[seed] != group_of[top_seed[jogo]]

    owner: dict[int, int] = {}  # bottom seed -> jogo
    match: list[int | None] = [None] * half  # jogo -> bottom seed
    for jogo in range(half):
        if allowed(jogo, original[jogo]):
            match[jogo] = original[jogo]
            owner[original[jogo]] = jogo

    # Best seeds first, shortest augmenting path first (breadth-first search).
    # Standard Kuhn speed-up: seeds reached by a failed search stay dead until
    # the matching changes. A jogo only accepts seeds outside its top seed's
    # group, so once one jogo of a group has scanned everything, any other
    # jogo of that group can find nothing new until the next change.
    unvisited = _Unvisited(half + 1, size)
    exhausted_groups: set[str] = set()
    for root in sorted((j for j in range(half) if match[j] is None), key=lambda j: top_seed[j]):
        reached_from: dict[int, int] = {}
        queue = deque([root])
        free_seed: int | None = None
        while queue and free_seed is None:
            jogo = queue.popleft()
            group = group_of[top_seed[jogo]]
            if group in exhausted_groups:
                continue
            for seed in unvisited.nearest(original[jogo]):
                if seed not in unvisited or not allowed(jogo, seed):
                    continue
                unvisited.visit(seed)
                reached_from[seed] = jogo
                if seed not in owner:
                    free_seed = seed
                    break
                queue.append(owner[seed])
            else:
                exhausted_groups.add(group)
        if free_seed is None:
            continue
        seed = free_seed
        while True:  # flip the augmenting path back to the root
            jogo = reached_from[seed]
            previous = match[jogo]
            match[jogo] = seed
            owner[seed] = jogo
            if previous is None:
                break
            seed = previous
        unvisited.clear()
        exhausted_groups.clear()

    # Jogos left without a conflict-free opponent: original seed if free, else in seed order.
    unmatched = [j for j in range(half) if match[j] is None]
    for jogo in unmatched:
        if original[jogo] not in owner:
            match[jogo] = original[jogo]
            owner[original[jogo]] = jogo
    spare = iter(sorted(set(range(half + 1, size + 1)) - owner.keys()))
    for jogo in sorted((j for j in unmatched if match[j] is None), key=lambda j: original[j]):
        match[jogo] = next(spare)

    order: list[str | None] = []
    for jogo in range(half):
        bottom = match[jogo]
        assert bottom is not None
        pair = [top_seed[jogo], bottom]
        if positions[2 * jogo] != top_seed[jogo]:
            pair.reverse()  # keep the top seed on its original side
        order.extend(keys[s - 1] if s <= n else None for s in pair)
    return order
