"""Building partidas of the card engine for tests: a table with chosen hands, actions that must pass, and a
random driver that plays, times out and misbehaves like people do."""

import random
from collections.abc import Iterator
from dataclasses import dataclass

from scoring.rules import PRESETS, RuleSettings, settings_build
from truco.actions import Action, AnswerBet, AskBet, CastVote, DecideOnze, Event, PlayCard, Refusal
from truco.deal import Deal, deal
from truco.robots import legal_actions
from truco.rules import Step, apply, expire, may, partida_at, presence
from truco.state import Partida
from truco.views import view

ZERO_SEED = bytes(32)
# Four kings and no manilha (vira 4♦): each seat holds one suit's K, A and 2.
KINGS_HANDS = ["Kp Ap 2p", "Kc Ac 2c", "Ke Ae 2e", "Ko Ao 2o"]


def rules(preset: str = "online", **overrides) -> RuleSettings:
    settings, errors = settings_build(preset=preset, overrides=overrides or None)
    assert settings is not None, errors
    return settings


def table(
    hands: list[str],
    vira: str | None = "4o",
    *,
    first: int = 0,
    score: tuple[int, int] = (0, 0),
    preset: str = "online",
    now: int = 0,
    **overrides,
) -> Partida:
    """A partida at ``score`` with the hands given by seat as "Kp 3c 7e" (and the vira; vira "4o" makes the
    5s manilhas, so hands without 5s hold none)."""
    dealt = Deal(hands=tuple(tuple(h.split()) for h in hands), vira=vira)
    return partida_at(rules=rules(preset, **overrides), score=score, first=first, dealt=dealt, seed=ZERO_SEED, now=now)


def step(partida: Partida, seat: int, action: Action, *, now: int = 1000, seed: bytes = ZERO_SEED) -> Step:
    """The step ``action`` causes; fails the test on a refusal."""
    outcome = apply(partida, seat, action, now=now, seed=seed)
    assert not isinstance(outcome, Refusal), outcome.message
    return outcome


def refused(partida: Partida, seat: int, action: Action, *, now: int = 1000) -> Refusal:
    outcome = apply(partida, seat, action, now=now, seed=ZERO_SEED)
    assert isinstance(outcome, Refusal), f"{action} by seat {seat} was accepted"
    return outcome


def play(partida: Partida, seat: int, card: str, *, closed: bool = False, now: int = 1000) -> Partida:
    return step(partida, seat, PlayCard(card=card, closed=closed), now=now).partida


def bet(partida: Partida, seat: int, now: int = 1000) -> Partida:
    return step(partida, seat, AskBet(), now=now).partida


def answer(partida: Partida, seat: int, accept, now: int = 1000) -> Partida:
    return step(partida, seat, AnswerBet(accept=accept), now=now).partida


def onze(partida: Partida, seat: int, play_it: bool, now: int = 1000) -> Partida:
    return step(partida, seat, DecideOnze(play=play_it), now=now).partida


def vote(partida: Partida, seat: int, extend: bool, now: int = 1000) -> Partida:
    return step(partida, seat, CastVote(extend=extend), now=now).partida


def plays(partida: Partida, cards: str, *, now: int = 1000) -> Partida:
    """Each seat in turn plays the next card of ``cards`` ("Kp 3c 7e* 4o": a * plays it closed)."""
    for card in cards.split():
        partida = play(partida, partida.mao.turn, card.rstrip("*"), closed=card.endswith("*"), now=now)
    return partida


@dataclass
class Walk:
    """One step of a random walk: the partida before and after, what was done, and the events."""

    before: Partida
    after: Partida
    kind: str  # "action", "expiry", "presence"
    seat: int | None
    action: Action | None
    events: tuple[Event, ...]


def random_walk(
    rng: random.Random,
    *,
    preset: str = "online",
    patience: float = 0.9,
    score: tuple[int, int] = (0, 0),
    **overrides,
) -> Iterator[Walk | Refusal]:
    """A whole partida played at random from ``score``: mostly legal actions, sometimes a clock running out
    (``1 - patience`` of the steps), a seat leaving or coming back, and now and then an illegal action (yielded
    as its refusal). Yields every step until the partida ends."""
    now = 1_000_000
    settings = rules(preset, **overrides)
    first, seed = rng.randrange(4), rng.randbytes(32)
    dealt = deal(seed=seed, first=first, with_vira=settings.manilha != "fixed")
    partida = partida_at(rules=settings, score=score, first=first, dealt=dealt, seed=seed, now=now)
    while not partida.ended:
        roll = rng.random()
        seed = rng.randbytes(32)
        if roll > patience and partida.deadline is not None:
            now = partida.deadline + rng.randrange(0, 2000)
            outcome = expire(partida, now=now, seed=seed)
            assert outcome is not None
            yield Walk(partida, outcome.partida, "expiry", None, None, outcome.events)
            partida = outcome.partida
            continue
        now += rng.randrange(1, 3000)
        if partida.deadline is not None and now >= partida.deadline:
            now = partida.deadline - 1
        if roll < 0.03:
            seat = rng.randrange(4)
            moved = presence(partida, seat, present=not partida.present[seat], now=now)
            if moved is not None:
                yield Walk(partida, moved.partida, "presence", seat, None, moved.events)
                partida = moved.partida
            continue
        if roll < 0.10:
            seat = rng.randrange(4)
            action = rng.choice(_any_actions(partida, rng))
            outcome = apply(partida, seat, action, now=now, seed=seed)
            if isinstance(outcome, Refusal):
                yield outcome
                continue
        else:
            seat = rng.choice([s for s in range(4) if may(partida, s)])
            action = rng.choice(legal_actions(view(partida, seat)))
            outcome = apply(partida, seat, action, now=now, seed=seed)
            assert not isinstance(outcome, Refusal), (action, outcome.message)
        yield Walk(partida, outcome.partida, "action", seat, action, outcome.events)
        partida = outcome.partida


def _any_actions(partida: Partida, rng: random.Random) -> list[Action]:
    """Actions of every kind, legal or not: cards anyone holds or nobody does, closed or by slot."""
    held = [card for hand in partida.mao.hands for card in hand] or ["4p"]
    return [
        PlayCard(card=rng.choice(held)),
        PlayCard(card=rng.choice(held), closed=True),
        PlayCard(card="3p"),
        PlayCard(slot=rng.randrange(-1, 4)),
        AskBet(),
        AnswerBet(accept=True),
        AnswerBet(accept=False),
        AnswerBet(accept="raise"),
        DecideOnze(play=rng.random() < 0.5),
        CastVote(extend=rng.random() < 0.5),
    ]


ONLINE = PRESETS["online"]
