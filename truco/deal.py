"""The checkable deal (INTERCHANGE.md "A checkable deal"; DOMAIN §9.3).

A mão's seed is 32 random bytes. The deck starts in the order ranks low to high, each in suits ``p c e o``;
for i from 39 down to 1, j = SHA-256(seed ‖ i as one byte) read as a big-endian integer, mod (i + 1), and
cards i and j swap. Card k of the shuffled deck goes to seat (first + k) mod 4 for k < 12; the 13th card is
the vira (none with fixed manilhas). The commitment shown before the first card is SHA-256(seed) in hex.

The engine draws no seed: a caller gives one (``secrets.token_bytes(SEED_BYTES)``); a replay gives the logged
one. docs/conferir-embaralhamento.md shows a player how to check a deal with these few lines.
"""

from dataclasses import dataclass
from hashlib import sha256
from typing import Final

from .cards import DECK

SEATS: Final = 4
CARDS_EACH: Final = 3
SEED_BYTES: Final = 32


def shuffled(seed: bytes) -> list[str]:
    """The deck in the order ``seed`` gives it."""
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = int.from_bytes(sha256(seed + bytes([i])).digest(), "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def commitment(seed: bytes) -> str:
    """What the table shows before the first card: SHA-256 of the seed, hex."""
    return sha256(seed).hexdigest()


@dataclass(frozen=True, slots=True)
class Deal:
    hands: tuple[tuple[str, ...], ...]  # by seat, in the order dealt
    vira: str | None


def deal(*, seed: bytes, first: int, with_vira: bool) -> Deal:
    """The hands (by seat) and the vira that ``seed`` gives when dealing from seat ``first``."""
    deck = shuffled(seed)
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for k in range(SEATS * CARDS_EACH):
        hands[(first + k) % SEATS].append(deck[k])
    return Deal(hands=tuple(tuple(hand) for hand in hands), vira=deck[SEATS * CARDS_EACH] if with_vira else None)
