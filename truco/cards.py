"""The 40-card deck, its notation and the strength of each card under a vira or fixed manilhas (DOMAIN §9.1).

Cards are written rank + suit (INTERCHANGE.md "Online play"): ranks ``4 5 6 7 Q J K A 2 3`` (low to high),
suits ``p`` (paus ♣), ``c`` (copas ♥), ``e`` (espadas ♠), ``o`` (ouros ♦). A card is that two-letter string.
"""

from functools import cache
from typing import Final

RANKS: Final = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
SUITS: Final = ("p", "c", "e", "o")  # the deck's order within a rank
# Between manilhas the suit decides: ♣ (zap) > ♥ (copas) > ♠ (espadilha) > ♦ (pica-fumo).
MANILHA_SUIT_ORDER: Final = {"o": 0, "e": 1, "c": 2, "p": 3}
# FENACEF's manilha velha: 4♣ 7♥ A♠ 7♦ (strongest first); no vira is turned.
FIXED_MANILHAS: Final = ("4p", "7c", "Ae", "7o")

DECK: Final = tuple(rank + suit for rank in RANKS for suit in SUITS)
_CARDS: Final = frozenset(DECK)

SUIT_NAMES: Final = {"p": "paus", "c": "copas", "e": "espadas", "o": "ouros"}
SUIT_SYMBOLS: Final = {"p": "♣", "c": "♥", "e": "♠", "o": "♦"}
RANK_NAMES: Final = {"Q": "dama", "J": "valete", "K": "rei", "A": "ás"}

VARIABLE, FIXED = "variable", "fixed"  # scoring.rules.MANILHA_CHOICES


def is_card(value: object) -> bool:
    """Whether ``value`` is a card's notation (``"7p"``)."""
    return isinstance(value, str) and value in _CARDS


def manilha_rank(vira: str) -> str:
    """The rank of the four manilhas a vira makes: the next rank, circular (vira 3 → manilha 4)."""
    return RANKS[(RANKS.index(vira[0]) + 1) % len(RANKS)]


@cache
def strengths(vira: str | None) -> dict[str, int]:
    """Each card's strength in a mão: common cards 0–9 by rank (suits equal), manilhas 10–13 by suit.

    ``vira`` None means fixed manilhas (FENACEF, ``FIXED_MANILHAS``); otherwise the manilhas are the four
    cards of the rank after the vira.
    """
    table = {card: RANKS.index(card[0]) for card in DECK}
    if vira is None:
        for i, card in enumerate(reversed(FIXED_MANILHAS)):
            table[card] = 10 + i
    else:
        rank = manilha_rank(vira)
        for suit, order in MANILHA_SUIT_ORDER.items():
            table[rank + suit] = 10 + order
    return table


def is_manilha(card: str, vira: str | None) -> bool:
    return strengths(vira)[card] >= 10


def card_label(card: str) -> str:
    """The card for people: ``7♣``, ``A♥``."""
    return card[0] + SUIT_SYMBOLS[card[1]]
