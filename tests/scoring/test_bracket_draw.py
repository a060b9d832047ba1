"""Bracket slot orders (scoring/bracket_draw.py)."""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.bracket_draw import (
    bracket_size,
    crossed_order,
    fixed_order_errors,
    random_order,
    seeded_order,
    standard_seed_positions,
)


def keys(n: int) -> list[str]:
    return [f"d{i}" for i in range(1, n + 1)]


def first_round(order):
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)]


def same_group_meetings(order, group_of) -> int:
    return sum(1 for a, b in first_round(order) if a is not None and b is not None and group_of[a] == group_of[b])


def check_bracket_shape(order, entrants):
    n = len(entrants)
    assert len(order) == bracket_size(n)
    placed = [k for k in order if k is not None]
    assert sorted(placed) == sorted(entrants)
    assert order.count(None) == len(order) - n
    assert (None, None) not in first_round(order)


# --- bracket_size ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (16, 16), (17, 32), (1024, 1024), (1025, 2048)]
)
def test_bracket_size_values(n, size):
    assert bracket_size(n) == size


@pytest.mark.parametrize("n", [-1, 0, 1])
def test_bracket_size_needs_two_duplas(n):
    with pytest.raises(ValueError):
        bracket_size(n)


@given(st.integers(min_value=2, max_value=10**6))
def test_bracket_size_is_the_smallest_power_of_two(n):
    size = bracket_size(n)
    assert size & (size - 1) == 0
    assert size // 2 < n <= size


# --- standard_seed_positions ------------------------------------------------------------


def test_standard_positions_literal_values():
    assert standard_seed_positions(2) == [1, 2]
    assert standard_seed_positions(4) == [1, 4, 2, 3]
    assert standard_seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert standard_seed_positions(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12, 100])
def test_standard_positions_need_a_power_of_two(size):
    with pytest.raises(ValueError):
        standard_seed_positions(size)


@pytest.mark.parametrize("exponent", range(1, 13))
def test_standard_positions_structure(exponent):
    size = 2**exponent
    positions = standard_seed_positions(size)
    assert sorted(positions) == list(range(1, size + 1))
    # first round: seed i meets seed size + 1 - i
    assert all(a + b == size + 1 for a, b in first_round(positions))
    # every aligned block of b slots (a sub-bracket) holds exactly one of the
    # best size/b seeds: the best seeds meet as late as possible
    block = 2
    while block <= size:
        for start in range(0, size, block):
            best = [s for s in positions[start : start + block] if s <= size // block]
            assert len(best) == 1
        block *= 2


# --- seeded_order ----------------------------------------------------------------------------


def test_seeded_order_five_entrants():
    assert seeded_order(entrants=["a", "b", "c", "d", "e"]) == ["a", None, "d", "e", "b", None, "c", None]


def test_seeded_order_refuses_duplicates():
    with pytest.raises(ValueError):
        seeded_order(entrants=["a", "b", "a"])
    with pytest.raises(ValueError):
        seeded_order(entrants=["a"])


@settings(max_examples=150)
@given(n=st.integers(min_value=2, max_value=4096))
def test_seeded_order_shape_and_byes_against_best_seeds(n):
    entrants = keys(n)
    order = seeded_order(entrants=entrants)
    check_bracket_shape(order, entrants)
    byes = len(order) - n
    seed_of = {k: i for i, k in enumerate(entrants, start=1)}
    for a, b in first_round(order):
        if a is None or b is None:
            opponent = a if b is None else b
            assert seed_of[opponent] <= byes


# --- random_order ----------------------------------------------------------------------------


def test_random_order_is_the_seeded_order_of_a_recorded_shuffle():
    entrants = keys(6)
    shuffled = list(entrants)
    random.Random(42).shuffle(shuffled)
    assert random_order(entrants=entrants, seed=42) == seeded_order(entrants=shuffled)
    assert entrants == keys(6)  # the caller's list is not touched


@settings(max_examples=150)
@given(n=st.integers(min_value=2, max_value=4096), seed=st.integers())
def test_random_order_shape_and_reproducible(n, seed):
    entrants = keys(n)
    order = random_order(entrants=entrants, seed=seed)
    check_bracket_shape(order, entrants)
    assert order == random_order(entrants=entrants, seed=seed)


def test_random_order_depends_on_the_seed():
    entrants = keys(16)
    assert len({tuple(random_order(entrants=entrants, seed=s)) for s in range(20)}) > 1


# --- fixed_order_errors ---------------------------------------------------------------------


def test_valid_fixed_orders():
    assert fixed_order_errors(order=["a", "b"], known={"a", "b"}) == []
    assert fixed_order_errors(order=["a", None, "c", "b"], known={"a", "b", "c", "x"}) == []


def test_fixed_order_length_must_be_a_power_of_two():
    errors = fixed_order_errors(order=["a", "b", "c"], known={"a", "b", "c"})
    assert len(errors) == 1 and "potência de 2" in errors[0]
    assert any("potência de 2" in e for e in fixed_order_errors(order=[], known=set()))


def test_fixed_order_unknown_and_repeated_duplas():
    errors = fixed_order_errors(order=["a", "zz", "b", "a"], known={"a", "b"})
    assert errors == ["posição 2: dupla desconhecida 'zz'", "posição 4: a dupla 'a' aparece mais de uma vez"]


def test_fixed_order_bye_against_bye():
    errors = fixed_order_errors(order=["a", "b", None, None], known={"a", "b"})
    assert len(errors) == 1 and "bye contra bye" in errors[0] and "jogo 2" in errors[0]


def test_fixed_order_needs_two_duplas():
    errors = fixed_order_errors(order=["a", None], known={"a"})
    assert len(errors) == 1 and "pelo menos 2 duplas" in errors[0]


def test_fixed_order_rejects_values_that_are_not_keys():
    errors = fixed_order_errors(order=["a", ["b"], "c", 4], known={"a", "c"})
    assert [e.split(":")[0] for e in errors] == ["posição 2", "posição 4"]


def test_fixed_order_reports_every_problem():
    errors = fixed_order_errors(order=[None, None, "q", "q", "a", None], known={"a"})
    assert errors == [
        "a chave deve ter um número de posições que seja potência de 2 (2, 4, 8, 16, …); tem 6",
        "posição 3: dupla desconhecida 'q'",
        "posição 4: dupla desconhecida 'q'",
        "jogo 1 da primeira rodada (posições 1 e 2): bye contra bye",
    ]


def test_fixed_order_accepts_every_drawn_order():
    entrants = keys(11)
    for seed in range(5):
        assert fixed_order_errors(order=random_order(entrants=entrants, seed=seed), known=set(entrants)) == []


# --- crossed_order ---------------------------------------------------------------------------


def test_crossed_order_swaps_conflicting_runners_up():
    # winners wA, wB; runners-up ranked rB then rA: seeded order pits A v A and B v B
    entrants = [("wA", "A"), ("wB", "B"), ("rB", "B"), ("rA", "A")]
    assert seeded_order(entrants=[k for k, _ in entrants]) == ["wA", "rA", "wB", "rB"]
    assert crossed_order(entrants=entrants) == ["wA", "rB", "wB", "rA"]


def test_crossed_order_moves_a_bye_when_that_avoids_a_conflict():
    entrants = [("a", "A"), ("b", "B"), ("c", "B")]
    assert seeded_order(entrants=["a", "b", "c"]) == ["a", None, "b", "c"]
    assert crossed_order(entrants=entrants) == ["a", "c", "b", None]


def test_crossed_order_single_conflict_becomes_a_swap_of_neighbours():
    # seeds 4 and 5 are from the same group; standard order is 1 8 4 5 2 7 3 6
    groups = {1: "A", 2: "B", 3: "C", 4: "D", 5: "D", 6: "F", 7: "G", 8: "H"}
    entrants = [(f"s{i}", groups[i]) for i in range(1, 9)]
    assert crossed_order(entrants=entrants) == ["s1", "s8", "s4", "s6", "s2", "s7", "s3", "s5"]


def test_crossed_order_keeps_unavoidable_conflicts():
    # everybody from one group: nothing to avoid, plain seeded order
    entrants = [(k, "A") for k in keys(6)]
    assert crossed_order(entrants=entrants) == seeded_order(entrants=keys(6))


def test_crossed_order_refuses_duplicates():
    with pytest.raises(ValueError):
        crossed_order(entrants=[("a", "A"), ("a", "B")])


@settings(max_examples=100)
@given(n=st.integers(min_value=2, max_value=1024))
def test_crossed_order_without_conflicts_is_the_seeded_order(n):
    entrants = [(k, f"g{k}") for k in keys(n)]
    assert crossed_order(entrants=entrants) == seeded_order(entrants=keys(n))


@st.composite
def group_qualifiers(draw):
    """Groups of 4, 2 qualifiers each: all winners (ranked), then all runners-up (ranked)."""
    group_count = draw(st.integers(min_value=2, max_value=256))
    groups = [f"G{i}" for i in range(group_count)]
    winners = draw(st.permutations(groups))
    runners = draw(st.permutations(groups))
    return [(f"1{g}", g) for g in winners] + [(f"2{g}", g) for g in runners]


@settings(max_examples=150)
@given(group_qualifiers())
def test_crossed_order_never_pairs_group_mates_when_two_qualify_per_group(entrants):
    order = crossed_order(entrants=entrants)
    check_bracket_shape(order, [k for k, _ in entrants])
    assert same_group_meetings(order, dict(entrants)) == 0


def max_matching(tops, bottoms, allowed) -> int:
    """Independent reference: simple augmenting-path maximum matching."""
    owner = {}

    def augment(t, seen):
        for b in bottoms:
            if allowed(t, b) and b not in seen:
                seen.add(b)
                if b not in owner or augment(owner[b], seen):
                    owner[b] = t
                    return True
        return False

    return sum(augment(t, set()) for t in tops)


@settings(max_examples=300)
@given(
    groups=st.lists(st.sampled_from("ABCD"), min_size=2, max_size=40),
)
def test_crossed_order_is_a_minimal_conflict_rearrangement(groups):
    entrants = [(f"d{i}", g) for i, g in enumerate(groups, start=1)]
    group_of = dict(entrants)
    n = len(entrants)
    order = crossed_order(entrants=entrants)
    base = seeded_order(entrants=[k for k, _ in entrants])
    check_bracket_shape(order, [k for k, _ in entrants])

    half = len(order) // 2
    seed_of = {k: i for i, (k, _) in enumerate(entrants, start=1)}
    # the top half of the seeds keeps its slots
    for slot, key in enumerate(base):
        if key is not None and seed_of[key] <= half:
            assert order[slot] == key
    # as few same-group meetings as any arrangement of the bottom half allows
    tops = [k for k, _ in entrants[:half]]
    bottoms = [k for k, _ in entrants[half:]] + [None] * (len(order) - n)
    bottoms = list(enumerate(bottoms))  # byes made distinct

    def allowed(top, bottom):
        return bottom[1] is None or group_of[bottom[1]] != group_of[top]

    best = half - max_matching(tops, bottoms, allowed)
    assert same_group_meetings(order, group_of) == best
    if same_group_meetings(base, group_of) == 0:
        assert order == base


@pytest.mark.parametrize(
    "make_group",
    [
        lambda i, n: "A",
        lambda i, n: "A" if i < n // 2 else "B",
        lambda i, n: "A" if i < int(n * 0.3) else "B",
        lambda i, n: "ABC"[min(2, i * 3 // max(1, int(n * 0.3)))],
        lambda i, n: "ABC"[i % 3],
        lambda i, n: str(i // 4),
    ],
)
@pytest.mark.parametrize("n", [640, 736, 784, 1024])
def test_crossed_order_is_fast_for_big_brackets(make_group, n):
    entrants = [(f"d{i}", make_group(i, n)) for i in range(n)]
    started = time.perf_counter()
    order = crossed_order(entrants=entrants)
    assert time.perf_counter() - started < 2.0
    check_bracket_shape(order, [k for k, _ in entrants])
