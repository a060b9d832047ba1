"""Robots take only legal actions, seeing only their seat's view; "básico" beats "aleatório"."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.truco import random_walk, rules
from truco.actions import AnswerBet, AskBet, CastVote, DecideOnze, PlayCard, Refusal
from truco.robots import ALEATORIO, BASICO, legal_actions, robots_play
from truco.rules import apply
from truco.views import view


def _universe(p):
    """Every action anyone could send now, legal or not."""
    cards = [c for hand in p.mao.hands for c in hand]
    out = [PlayCard(card=c, closed=closed) for c in cards for closed in (False, True)]
    out += [PlayCard(slot=i) for i in range(-1, 4)] + [PlayCard(slot=0, closed=True)]
    out += [AskBet(), AnswerBet(accept=True), AnswerBet(accept=False), AnswerBet(accept="raise")]
    out += [DecideOnze(play=True), DecideOnze(play=False), CastVote(extend=True), CastVote(extend=False)]
    return out


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), score=st.tuples(st.integers(0, 11), st.integers(0, 11)))
def test_the_view_offers_exactly_the_actions_the_rules_accept(seed, score):
    for item in random_walk(random.Random(seed), patience=0.97, score=score):
        if isinstance(item, Refusal):
            continue
        p = item.before
        now = (p.deadline or 10**13) - 1
        for seat in range(4):
            offered = set(legal_actions(view(p, seat)))
            for action in _universe(p):
                accepted = not isinstance(apply(p, seat, action, now=now, seed=bytes(32)), Refusal)
                assert accepted == (action in offered), (seat, action, p.phase)


def test_robots_of_both_levels_finish_partidas_in_every_preset_with_legal_actions_only():
    rng = random.Random(11)
    for preset in ("online", "fenacef", "aabb"):
        for levels in ([ALEATORIO] * 4, [BASICO] * 4, [BASICO, ALEATORIO] * 2):
            partida, events = robots_play(rules=rules(preset), levels=levels, rng=rng)
            assert partida.ended and max(partida.score) >= 12 and events


def test_basico_beats_aleatorio_most_of_the_time():
    rng = random.Random(2026)
    wins = 0
    n = 200
    for i in range(n):
        basico = i % 2
        levels = [BASICO if seat % 2 == basico else ALEATORIO for seat in range(4)]
        partida, _ = robots_play(rules=rules(), levels=levels, rng=rng)
        wins += partida.winner == basico
    assert wins / n > 0.75
