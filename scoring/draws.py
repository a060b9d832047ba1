"""Draws before play: pairing individuals into duplas, groups, round-robin schedules.

Pure functions; every random choice uses ``random.Random(seed)`` so a recorded
seed replays the same draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["PairingResult", "groups_draw", "pairing_draw", "round_robin"]


@dataclass(frozen=True)
class PairingResult:
    """Outcome of the pairing draw."""

    # Player keys: registered pairs first (arrival order), then drawn pairs in draw order.
    duplas: tuple[tuple[str, str], ...]
    # Player keys in order of arrival (registration index, then position inside it).
    waiting_list: tuple[str, ...]


def pairing_draw(*, registrations: Sequence[Sequence[str]], seed: int, max_duplas: int | None) -> PairingResult:
    """Accept registrations up to the capacity and pair the accepted individuals by lot."""
    if max_duplas is not None and max_duplas < 0:
        raise ValueError("o limite de duplas não pode ser negativo")
    seen: set[str] = set()
    for index, registration in enumerate(registrations):
        if len(registration) not in (1, 2):
            raise ValueError(f"inscrição {index + 1}: deve ter 1 ou 2 jogadores, tem {len(registration)}")
        for player in registration:
            if player in seen:
                raise ValueError(f"inscrição {index + 1}: o jogador {player!r} já está inscrito neste torneio")
            seen.add(player)

    remaining = None if max_duplas is None else 2 * max_duplas
    pairs: list[tuple[str, str]] = []
    individuals: list[str] = []
    # (registration index, position inside it, player key)
    waiting: list[tuple[int, int, str]] = []
    arrival: dict[str, tuple[int, int]] = {}
    for index, registration in enumerate(registrations):
        for position, player in enumerate(registration):
            arrival[player] = (index, position)
        if remaining is not None and len(registration) > remaining:
            waiting.extend((index, pos, p) for pos, p in enumerate(registration))
            continue
        if remaining is not None:
            remaining -= len(registration)
        if len(registration) == 2:
            pairs.append((registration[0], registration[1]))
        else:
            individuals.append(registration[0])

    drawn = list(individuals)
    random.Random(seed).shuffle(drawn)
    if len(drawn) % 2:
        odd = drawn.pop()
        waiting.append((*arrival[odd], odd))
    pairs.extend((drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2))
    waiting.sort()
    return PairingResult(duplas=tuple(pairs), waiting_list=tuple(player for _, _, player in waiting))


def _check_unique(keys: Sequence[str], what: str) -> None:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ValueError(f"{what}: a dupla {key!r} aparece mais de uma vez")
        seen.add(key)


def groups_draw(*, duplas: Sequence[str], group_count: int, seed: int, seeded: Sequence[str] = ()) -> list[list[str]]:
    """Spread the seeds one per group in snake order, then deal the others by lot."""
    _check_unique(duplas, "sorteio dos grupos")
    _check_unique(seeded, "cabeças de chave")
    if group_count < 1:
        raise ValueError("o número de grupos deve ser pelo menos 1")
    if group_count > len(duplas) // 2:
        raise ValueError(
            f"não é possível formar {group_count} grupos com {len(duplas)} duplas: "
            "cada grupo precisa de pelo menos 2 duplas"
        )
    known = set(duplas)
    for key in seeded:
        if key not in known:
            raise ValueError(f"cabeça de chave {key!r} não está entre as duplas do sorteio")

    groups: list[list[str]] = [[] for _ in range(group_count)]
    for i, key in enumerate(seeded):
        lap, offset = divmod(i, group_count)
        groups[offset if lap % 2 == 0 else group_count - 1 - offset].append(key)

    seeded_set = set(seeded)
    rest = [key for key in duplas if key not in seeded_set]
    random.Random(seed).shuffle(rest)
    for key in rest:
        # smallest group first, lowest index on ties
        target = min(range(group_count), key=lambda g: (len(groups[g]), g))
        groups[target].append(key)
    return groups


def round_robin(*, duplas: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Circle-method schedule: every pair meets once, nobody plays twice in a round."""
    _check_unique(duplas, "rodízio")
    if len(duplas) < 2:
        return []
    slots: list[str | None] = list(duplas)
    if len(slots) % 2:
        slots.append(None)  # the dupla facing None rests in that round
    size = len(slots)
    rounds: list[list[tuple[str, str]]] = []
    for number in range(size - 1):
        jogos: list[tuple[str, str]] = []
        for i in range(size // 2):
            a, b = slots[i], slots[size - 1 - i]
            if a is None or b is None:
                continue
            if i == 0 and number % 2:
                a, b = b, a  # the fixed dupla alternates sides
            jogos.append((a, b))
        rounds.append(jogos)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds
