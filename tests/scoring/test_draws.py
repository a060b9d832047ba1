"""Pairing draw, groups draw and round-robin schedule (scoring/draws.py)."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draws import PairingResult, groups_draw, pairing_draw, round_robin

# --- strategies -----------------------------------------------------------------


@st.composite
def registration_lists(draw):
    """Registrations of 1 or 2 distinct players each, keys p0, p1, ... in arrival order."""
    sizes = draw(st.lists(st.sampled_from([1, 2]), max_size=40))
    players = iter(f"p{i}" for i in itertools.count())
    return [[next(players) for _ in range(size)] for size in sizes]


capacities = st.none() | st.integers(min_value=0, max_value=25)


# --- pairing_draw: concrete examples ----------------------------------------------


def test_pairs_only_keep_arrival_order_and_need_no_draw():
    result = pairing_draw(registrations=[["a", "b"], ["c", "d"], ["e", "f"]], seed=1, max_duplas=None)
    assert result == PairingResult(duplas=(("a", "b"), ("c", "d"), ("e", "f")), waiting_list=())


def test_two_individuals_become_one_dupla_after_the_registered_pairs():
    result = pairing_draw(registrations=[["x"], ["a", "b"], ["y"]], seed=3, max_duplas=None)
    assert result.duplas[0] == ("a", "b")
    assert set(result.duplas[1]) == {"x", "y"}
    assert result.waiting_list == ()


def test_capacity_skips_a_pair_that_does_not_fit_but_takes_a_later_individual():
    # max 2 duplas = 4 places: i1 (1), pair (3), pair2 does not fit (would be 5),
    # i2 fits (4), i3 does not fit.
    registrations = [["i1"], ["a", "b"], ["c", "d"], ["i2"], ["i3"]]
    result = pairing_draw(registrations=registrations, seed=0, max_duplas=2)
    assert result.duplas[0] == ("a", "b")
    assert set(result.duplas[1]) == {"i1", "i2"}
    assert result.waiting_list == ("c", "d", "i3")


def test_odd_one_out_joins_the_waiting_list_in_arrival_order():
    registrations = [["i1"], ["i2"], ["a", "b"], ["i3"], ["c", "d"]]
    result = pairing_draw(registrations=registrations, seed=5, max_duplas=3)
    # 6 places: i1, i2, a+b, i3 accepted (5); c+d does not fit; one of i1..i3 is left over.
    assert result.duplas[0] == ("a", "b")
    drawn = set(result.duplas[1])
    (odd,) = {"i1", "i2", "i3"} - drawn
    arrival = ["i1", "i2", "a", "b", "i3", "c", "d"]
    assert list(result.waiting_list) == sorted([odd, "c", "d"], key=arrival.index)


def test_the_draw_is_random_shuffle_of_the_individuals_in_arrival_order():
    individuals = [f"p{i}" for i in range(9)]
    shuffled = list(individuals)
    random.Random(2024).shuffle(shuffled)
    result = pairing_draw(registrations=[[p] for p in individuals], seed=2024, max_duplas=None)
    assert result.duplas == tuple(zip(shuffled[0:8:2], shuffled[1:8:2], strict=False))
    assert result.waiting_list == (shuffled[8],)


def test_recorded_draw_replays_identically():
    # Pinned result: a recorded seed must keep producing the same duplas.
    result = pairing_draw(registrations=[["a"], ["b"], ["c"], ["d"], ["e"]], seed=7, max_duplas=None)
    assert result == PairingResult(duplas=(("e", "a"), ("d", "b")), waiting_list=("c",))


def test_zero_capacity_puts_everyone_on_the_waiting_list():
    result = pairing_draw(registrations=[["a"], ["b", "c"]], seed=1, max_duplas=0)
    assert result == PairingResult(duplas=(), waiting_list=("a", "b", "c"))


@pytest.mark.parametrize(
    "registrations",
    [
        [[]],
        [["a", "b", "c"]],
        [["a"], ["a"]],
        [["a", "b"], ["c", "b"]],
        [["a", "a"]],
    ],
)
def test_bad_registrations_are_refused(registrations):
    with pytest.raises(ValueError):
        pairing_draw(registrations=registrations, seed=1, max_duplas=None)


def test_negative_capacity_is_refused():
    with pytest.raises(ValueError):
        pairing_draw(registrations=[["a"]], seed=1, max_duplas=-1)


def test_error_message_is_portuguese():
    with pytest.raises(ValueError, match="já está inscrito"):
        pairing_draw(registrations=[["a"], ["b", "a"]], seed=1, max_duplas=None)


# --- pairing_draw: properties -------------------------------------------------------


@given(registrations=registration_lists(), seed=st.integers(), max_duplas=capacities)
def test_pairing_draw_is_reproducible(registrations, seed, max_duplas):
    first = pairing_draw(registrations=registrations, seed=seed, max_duplas=max_duplas)
    again = pairing_draw(registrations=[list(r) for r in registrations], seed=seed, max_duplas=max_duplas)
    assert first == again


@given(registrations=registration_lists(), seed=st.integers(), max_duplas=capacities)
def test_pairing_draw_invariants(registrations, seed, max_duplas):
    result = pairing_draw(registrations=registrations, seed=seed, max_duplas=max_duplas)
    arrival = [p for r in registrations for p in r]
    in_duplas = [p for d in result.duplas for p in d]

    # every player exactly once, in a dupla or waiting
    assert sorted(in_duplas + list(result.waiting_list)) == sorted(arrival)
    assert all(len(d) == 2 for d in result.duplas)
    # capacity respected
    if max_duplas is not None:
        assert len(result.duplas) <= max_duplas
    # waiting list in order of arrival
    assert list(result.waiting_list) == sorted(result.waiting_list, key=arrival.index)

    pairs = [tuple(r) for r in registrations if len(r) == 2]
    accepted_pairs = [p for p in pairs if p[0] not in result.waiting_list]
    # pairs stay together: fully accepted or fully waiting, listed first in arrival order
    for a, b in pairs:
        assert (a in result.waiting_list) == (b in result.waiting_list)
    assert list(result.duplas[: len(accepted_pairs)]) == accepted_pairs

    # acceptance walk: a registration is waiting iff it did not fit when it arrived,
    # except for at most one individual left over by the draw
    remaining = None if max_duplas is None else 2 * max_duplas
    accepted_individuals = []
    for r in registrations:
        fits = remaining is None or len(r) <= remaining
        if fits:
            if remaining is not None:
                remaining -= len(r)
            if len(r) == 1:
                accepted_individuals.append(r[0])
            else:
                assert r[0] not in result.waiting_list
        else:
            assert all(p in result.waiting_list for p in r)
    drawn = [p for d in result.duplas[len(accepted_pairs) :] for p in d]
    assert sorted(drawn) == sorted(set(accepted_individuals) - set(result.waiting_list))
    left_over = [p for p in accepted_individuals if p in result.waiting_list]
    assert len(left_over) == len(accepted_individuals) % 2


# --- groups_draw ----------------------------------------------------------------------


def snake_group(index: int, group_count: int) -> int:
    lap, offset = divmod(index, group_count)
    return offset if lap % 2 == 0 else group_count - 1 - offset


def test_seeds_are_spread_in_snake_order():
    duplas = [f"d{i}" for i in range(1, 13)]
    seeded = ["d1", "d2", "d3", "d4", "d5", "d6"]
    groups = groups_draw(duplas=duplas, group_count=3, seed=11, seeded=seeded)
    assert [g[:2] for g in groups] == [["d1", "d6"], ["d2", "d5"], ["d3", "d4"]]
    assert [len(g) for g in groups] == [4, 4, 4]


def test_extra_duplas_go_to_the_first_groups_without_seeds():
    groups = groups_draw(duplas=[f"d{i}" for i in range(10)], group_count=3, seed=1)
    assert [len(g) for g in groups] == [4, 3, 3]


def test_groups_draw_matches_a_shuffle_dealt_round_robin_without_seeds():
    duplas = [f"d{i}" for i in range(8)]
    shuffled = list(duplas)
    random.Random(99).shuffle(shuffled)
    groups = groups_draw(duplas=duplas, group_count=2, seed=99)
    assert groups == [shuffled[0::2], shuffled[1::2]]


@pytest.mark.parametrize(
    ("duplas", "group_count", "seeded"),
    [
        (["a", "b", "c", "d"], 0, ()),
        (["a", "b", "c", "d"], 3, ()),  # a group would have 1 dupla
        (["a", "b", "c"], 2, ()),
        (["a", "b", "a", "d"], 1, ()),
        (["a", "b", "c", "d"], 2, ("x",)),
        (["a", "b", "c", "d"], 2, ("a", "a")),
    ],
)
def test_bad_groups_draws_are_refused(duplas, group_count, seeded):
    with pytest.raises(ValueError):
        groups_draw(duplas=duplas, group_count=group_count, seed=1, seeded=seeded)


@st.composite
def group_draw_inputs(draw):
    n = draw(st.integers(min_value=2, max_value=64))
    duplas = [f"d{i}" for i in range(n)]
    group_count = draw(st.integers(min_value=1, max_value=n // 2))
    seeded = draw(st.lists(st.sampled_from(duplas), unique=True, max_size=n))
    seed = draw(st.integers())
    return duplas, group_count, seeded, seed


@given(group_draw_inputs())
def test_groups_draw_properties(inputs):
    duplas, group_count, seeded, seed = inputs
    groups = groups_draw(duplas=duplas, group_count=group_count, seed=seed, seeded=seeded)
    assert len(groups) == group_count
    assert sorted(d for g in groups for d in g) == sorted(duplas)
    sizes = [len(g) for g in groups]
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= 2
    for i, key in enumerate(seeded):
        assert key in groups[snake_group(i, group_count)]
    if len(seeded) <= group_count:
        assert all(sum(key in g for key in seeded) <= 1 for g in groups)
    assert groups == groups_draw(duplas=duplas, group_count=group_count, seed=seed, seeded=seeded)


# --- round_robin ------------------------------------------------------------------------


def test_round_robin_four_duplas():
    assert round_robin(duplas=["a", "b", "c", "d"]) == [
        [("a", "d"), ("b", "c")],
        [("c", "a"), ("d", "b")],
        [("a", "b"), ("c", "d")],
    ]


def test_round_robin_three_duplas_one_rests_each_round():
    rounds = round_robin(duplas=["a", "b", "c"])
    assert rounds == [[("b", "c")], [("c", "a")], [("a", "b")]]


def test_round_robin_trivial_and_duplicates():
    assert round_robin(duplas=[]) == []
    assert round_robin(duplas=["a"]) == []
    with pytest.raises(ValueError):
        round_robin(duplas=["a", "b", "a"])


@settings(max_examples=60)
@given(n=st.integers(min_value=2, max_value=40))
def test_round_robin_properties(n):
    duplas = [f"d{i}" for i in range(n)]
    rounds = round_robin(duplas=duplas)
    assert len(rounds) == (n if n % 2 else n - 1)

    met = [frozenset(jogo) for rnd in rounds for jogo in rnd]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert set(met) == {frozenset(p) for p in itertools.combinations(duplas, 2)}

    rests = dict.fromkeys(duplas, 0)
    for rnd in rounds:
        playing = [d for jogo in rnd for d in jogo]
        assert len(playing) == len(set(playing))
        assert len(rnd) == n // 2
        for d in set(duplas) - set(playing):
            rests[d] += 1
    assert all(count == n % 2 for count in rests.values())
    assert rounds == round_robin(duplas=duplas)
