"""Spreading a round's jogos over the mesas (scoring/mesas.py): no dupla twice at once, turns in order."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.bracket import bracket_build
from scoring.bracket_draw import random_order, seeded_order
from scoring.draws import round_robin
from scoring.mesas import knockout_mesas, mesas_spread


def test_ten_jogos_on_four_mesas_take_three_turns_in_order():
    jogos = [(f"a{i}", f"b{i}") for i in range(10)]
    slots = mesas_spread(jogos=jogos, mesas=4)
    assert [(s.mesa, s.turn) for s in slots] == [
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2),
        (1, 3),
        (2, 3),
    ]


def test_without_a_number_every_jogo_has_its_own_mesa():
    slots = mesas_spread(jogos=[("a", "b"), ("c", "d"), ("e", "f")], mesas=None, busy={2})
    assert [(s.mesa, s.turn) for s in slots] == [(1, 1), (3, 1), (4, 1)]


def test_busy_mesas_are_left_free_in_the_first_turn():
    slots = mesas_spread(jogos=[("a", "b"), ("c", "d"), ("e", "f")], mesas=2, busy={1})
    assert [(s.mesa, s.turn) for s in slots] == [(2, 1), (1, 2), (2, 2)]


def test_a_dupla_twice_in_the_list_waits_for_the_next_turn():
    slots = mesas_spread(jogos=[("a", "b"), ("a", "c"), ("d", "e")], mesas=4)
    assert [(s.mesa, s.turn) for s in slots] == [(1, 1), (1, 2), (2, 2)]


def test_zero_mesas_is_refused():
    with pytest.raises(ValueError):
        mesas_spread(jogos=[("a", "b")], mesas=0)


def test_knockout_mesas_take_turns_and_the_third_place_sits_beside_the_final():
    order = [f"d{i}" for i in range(16)]
    by_slot = knockout_mesas(order=order, mesas=4)
    assert [by_slot[(1, p)] for p in range(1, 9)] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert knockout_mesas(order=order, mesas=None)[(1, 3)] == 3
    assert by_slot[(4, 1)] == 1 and by_slot[(4, 0)] == 2
    assert knockout_mesas(order=order, mesas=1)[(4, 0)] == 1
    assert (1, 0) not in knockout_mesas(order=["a", "b"], mesas=4)  # a final alone has no third place


def test_twelve_duplas_on_four_mesas_use_every_mesa_once_in_the_first_round():
    """Issue 41 item 15: the byes of 12 duplas (positions 1, 3, 5 and 7 of round 1 hold one) took mesas 1
    and 3, and the four jogos went to mesas 2 and 4 twice each."""
    order = seeded_order(entrants=[f"d{i}" for i in range(1, 13)])
    by_slot = knockout_mesas(order=order, mesas=4)
    first = sorted((p, m) for (r, p), m in by_slot.items() if r == 1)
    assert [m for _p, m in first] == [1, 2, 3, 4]
    assert [by_slot[(2, p)] for p in range(1, 5)] == [1, 2, 3, 4]


def test_a_slot_that_only_byes_feed_is_no_jogo():
    order = ["a", None, None, None, "b", "c", "d", "e"]
    assert knockout_mesas(order=order, mesas=2) == {(1, 3): 1, (1, 4): 2, (2, 2): 1, (3, 1): 1, (3, 0): 2}


def test_no_mesas_is_refused_in_a_bracket_too():
    with pytest.raises(ValueError):
        knockout_mesas(order=["a", "b"], mesas=0)


@given(st.integers(2, 80), st.one_of(st.none(), st.integers(1, 12)), st.one_of(st.none(), st.integers(0, 99)))
def test_each_knockout_round_fills_the_mesas_before_any_takes_a_second_jogo(duplas, mesas, seed):
    """For any number of duplas and mesas: each round's real jogos (the bracket's slots that are no bye) use
    min(jogos, mesas) distinct mesas in the first turn, and no mesa holds two jogos more than another."""
    entrants = [f"d{i}" for i in range(duplas)]
    order = seeded_order(entrants=entrants) if seed is None else random_order(entrants=entrants, seed=seed)
    by_slot = knockout_mesas(order=order, mesas=mesas)
    rounds = (len(order) - 1).bit_length()
    bracket = bracket_build(order=order, best_of_for_round=[3] * rounds, results={}, third_place_match=False)
    for jogos in bracket.rounds:
        real = [j.position for j in jogos if not j.bye]
        assert {p for (r, p) in by_slot if r == jogos[0].round and p} == set(real)  # 0: the third place
        given_mesas = [by_slot[(jogos[0].round, p)] for p in sorted(real)]
        per_mesa = Counter(given_mesas)
        if mesas is None:
            assert sorted(given_mesas) == list(range(1, len(real) + 1))
            continue
        assert all(1 <= m <= mesas for m in given_mesas)
        first_turn = given_mesas[: min(len(real), mesas)]
        assert len(set(first_turn)) == min(len(real), mesas)
        assert max(per_mesa.values()) - min(per_mesa.values()) <= 1
        assert len(per_mesa) == min(len(real), mesas)


@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)).filter(lambda p: p[0] != p[1]), max_size=60),
    st.one_of(st.none(), st.integers(1, 12)),
    st.sets(st.integers(1, 12), max_size=4),
)
def test_no_dupla_plays_twice_in_a_turn_no_mesa_holds_two_and_order_is_kept(jogos, mesas, busy):
    slots = mesas_spread(jogos=jogos, mesas=mesas, busy=busy)
    assert len(slots) == len(jogos)
    seen: dict[int, set] = {}
    for (a, b), slot in zip(jogos, slots, strict=False):
        here = seen.setdefault(slot.turn, set())
        assert a not in here and b not in here
        here.update((a, b))
        if mesas is not None:
            assert 1 <= slot.mesa <= mesas
        if slot.turn == 1:
            assert slot.mesa not in busy
    assert all(n == 1 for n in Counter((s.turn, s.mesa) for s in slots).values())
    assert [s.turn for s in slots] == sorted(s.turn for s in slots)


@given(st.integers(2, 12), st.integers(1, 6))
def test_a_round_robin_round_fits_in_one_turn_when_there_are_mesas_enough(n, mesas):
    for pairs in round_robin(duplas=[f"d{i}" for i in range(n)]):
        slots = mesas_spread(jogos=pairs, mesas=mesas)
        assert max(s.turn for s in slots) == -(-len(pairs) // mesas)
