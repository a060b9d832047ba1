"""Robot players: they see only what their seat sees (``views.view``) and take only legal actions.

Two levels: ``aleatorio`` takes any legal action; ``basico`` plays to win cheaply (the lowest card that takes
the rodada, the lowest card when its partner already takes it), asks truco with a strong hand, accepts or
raises by its hand's strength and runs with a weak one, decides the mão de onze by the strength of both hands
of its dupla, and always votes for more time.
"""

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from scoring.rules import RuleSettings

from .actions import Action, AnswerBet, AskBet, CastVote, DecideOnze, Event, PlayCard, Refusal
from .cards import strengths
from .deal import SEED_BYTES
from .rules import apply, may, partida_start
from .state import SEATS, Partida, dupla_of
from .views import view

ALEATORIO: Final = "aleatorio"
BASICO: Final = "basico"
LEVELS: Final = (ALEATORIO, BASICO)

View = Mapping[str, Any]


def robot_action(view: View, *, level: str, rng: random.Random) -> Action | None:
    """What the robot in ``view["seat"]`` does now, or None when it has nothing to do."""
    allowed = view["may"]
    if not allowed:
        return None
    if level == ALEATORIO:
        return rng.choice(legal_actions(view))
    if level == BASICO:
        return _basico(view, rng)
    raise ValueError(f"robot level {level!r}")


def legal_actions(view: View) -> list[Action]:
    """Every action the seat may take now, as the view tells it."""
    out: list[Action] = []
    allowed = view["may"]
    options = view["options"]
    if "play" in allowed:
        hand = view["hand"]
        if view["mao"]["kind"] == "mao_de_ferro":
            out.extend(PlayCard(slot=i) for i in range(len(hand)))
        else:
            out.extend(PlayCard(card=card) for card in hand)
            if options["closed"]:
                out.extend(PlayCard(card=card, closed=True) for card in hand)
    if "bet" in allowed:
        out.append(AskBet())
    if "answer" in allowed:
        out.extend([AnswerBet(accept=True), AnswerBet(accept=False)])
        if options["raise"] is not None:
            out.append(AnswerBet(accept="raise"))
    if "onze" in allowed:
        out.extend([DecideOnze(play=True), DecideOnze(play=False)])
    if "vote" in allowed:
        out.extend([CastVote(extend=True), CastVote(extend=False)])
    return out


def _table(view: View) -> dict[str, int]:
    return strengths(view["vira"])


def hand_strength(cards: list[str], table: Mapping[str, int]) -> float:
    """A rough worth of a hand: manilhas 3, a 3 two, a 2 one and a half, an ace one."""
    worth = {9: 2.0, 8: 1.5, 7: 1.0}
    total = 0.0
    for card in cards:
        value = table[card]
        total += 3.0 if value >= 10 else worth.get(value, 0.0)
    return total


def _rodadas_won(view: View) -> int:
    mine = dupla_of(view["seat"])
    return sum(1 for r in view["rodadas"] if r["winner"] == mine)


def _basico(view: View, rng: random.Random) -> Action:
    allowed = view["may"]
    if "vote" in allowed:
        return CastVote(extend=True)
    if "onze" in allowed:
        table = _table(view)
        both = list(view["hand"]) + list(view["partner_hand"] or [])
        return DecideOnze(play=hand_strength(both, table) >= 5.0)
    if view["mao"]["kind"] == "mao_de_ferro":
        return PlayCard(slot=rng.randrange(len(view["hand"])))
    table = _table(view)
    worth = hand_strength(list(view["hand"]), table) + 1.5 * _rodadas_won(view)
    if "answer" in allowed:
        if worth >= 5.5 and view["options"]["raise"] is not None:
            return AnswerBet(accept="raise")
        return AnswerBet(accept=worth >= 3.0)
    if "bet" in allowed and worth >= 4.5:
        return AskBet()
    return _card(view, table)


def _card(view: View, table: Mapping[str, int]) -> PlayCard:
    """The cheapest card that takes the rodada, or the cheapest card when it cannot (or its partner already does)."""
    seat = view["seat"]
    hand = sorted(view["hand"], key=lambda c: table[c])
    best_value, best_seat = -1, None
    for played_seat, played in enumerate(view["played"]):
        if played is not None and not played["closed"] and played["card"] is not None:
            value = table[played["card"]]
            if value > best_value:
                best_value, best_seat = value, played_seat
    if best_seat is not None and dupla_of(best_seat) == dupla_of(seat):
        return PlayCard(card=hand[0])
    for card in hand:
        if table[card] > best_value:
            return PlayCard(card=card)
    return PlayCard(card=hand[0], closed=bool(view["options"]["closed"]))


def robots_play(
    *, rules: RuleSettings, levels: Sequence[str], rng: random.Random, now: int = 0, think_ms: int = 1000
) -> tuple[Partida, list[Event]]:
    """A whole partida between four robots (``levels`` by seat), each acting ``think_ms`` after the last step:
    the final partida and every event. Seeds and choices come from ``rng`` (a seeded one replays the same)."""
    partida = partida_start(rules=rules, first=rng.randrange(SEATS), seed=rng.randbytes(SEED_BYTES), now=now)
    events: list[Event] = []
    while not partida.ended:
        now += think_ms
        seat = next(s for s in range(SEATS) if may(partida, s))  # in a vote, the first seat still to vote
        action = robot_action(view(partida, seat), level=levels[seat], rng=rng)
        assert action is not None
        outcome = apply(partida, seat, action, now=now, seed=rng.randbytes(SEED_BYTES))
        if isinstance(outcome, Refusal):  # pragma: no cover - robots only take legal actions
            raise AssertionError(f"robot refused: {outcome.message}")
        partida = outcome.partida
        events.extend(outcome.events)
    return partida, events
