"""Spreading a round's jogos over the mesas (scoring/mesas.py): no dupla twice at once, turns in order."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.draws import round_robin
from scoring.mesas import knockout_mesa, mesas_spread


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
    assert [knockout_mesa(position=p, third_place=False, mesas=4) for p in range(1, 9)] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert knockout_mesa(position=3, third_place=False) == 3
    assert knockout_mesa(position=1, third_place=True) == 2
    assert knockout_mesa(position=1, third_place=True, mesas=1) == 1


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
