"""The capacity rule, the identity of a person and the age (scoring.registration), docs/regras.md §2 step 2."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.draws import pairing_draw
from scoring.registration import (
    Arrival,
    Placement,
    Withdrawal,
    age_on,
    name_key,
    person_key,
    places_assign,
    places_replay,
)

ACCEPT = Placement(accepted=True)


def wait(n: int) -> Placement:
    return Placement(accepted=False, waiting_position=n)


def test_in_order_of_arrival_each_that_fits_is_accepted():
    # 4 places: individual, pair, individual (full), then everybody waits in order of arrival
    assert places_assign([1, 2, 1, 1, 2], 4) == [ACCEPT, ACCEPT, ACCEPT, wait(1), wait(2)]


def test_a_pair_that_finds_one_place_waits_while_a_later_individual_takes_it():
    assert places_assign([1, 1, 1, 2, 1], 4) == [ACCEPT, ACCEPT, ACCEPT, wait(1), ACCEPT]


def test_no_limit_accepts_everybody_and_zero_places_none():
    assert places_assign([2, 1, 2], None) == [ACCEPT] * 3
    assert places_assign([1, 2], 0) == [wait(1), wait(2)]
    assert places_assign([1], -3) == [wait(1)]  # more duplas formed than the limit: no place


def test_a_registration_has_one_or_two_players():
    with pytest.raises(ValueError, match="inscrição 2"):
        places_assign([1, 3], 10)


sizes = st.lists(st.sampled_from([1, 2]), max_size=40)
places = st.one_of(st.none(), st.integers(min_value=0, max_value=60))


@given(sizes, places)
def test_capacity_rule_properties(sizes, places):
    out = places_assign(sizes, places)
    assert len(out) == len(sizes)
    accepted = sum(s for s, p in zip(sizes, out, strict=False) if p.accepted)
    if places is None:
        assert all(p.accepted for p in out)
        return
    assert accepted <= places
    # whoever waits did not fit in what was left at its turn
    used = 0
    for size, p in zip(sizes, out, strict=False):
        if p.accepted:
            used += size
        else:
            assert size > places - used
    # the waiting list is numbered 1, 2, … in order of arrival
    assert [p.waiting_position for p in out if not p.accepted] == list(range(1, sum(not p.accepted for p in out) + 1))
    assert all(p.waiting_position is None for p in out if p.accepted)


@given(sizes, st.integers(min_value=0, max_value=30))
def test_the_pairing_draw_accepts_exactly_the_same_registrations(sizes, max_duplas):
    regs, n = [], 0
    for size in sizes:
        regs.append([f"p{n + i}" for i in range(size)])
        n += size
    out = places_assign(sizes, 2 * max_duplas)
    result = pairing_draw(registrations=regs, seed=7, max_duplas=max_duplas)
    in_dupla = {p for d in result.duplas for p in d}
    for reg, placement in zip(regs, out, strict=False):
        if not placement.accepted:
            assert not in_dupla & set(reg)
    # every accepted player is in a dupla, but for one odd individual left over by the draw
    accepted_players = {p for reg, pl in zip(regs, out, strict=False) if pl.accepted for p in reg}
    assert len(accepted_players - in_dupla) <= 1


def test_name_key_ignores_case_accents_and_spaces():
    assert name_key("  JOSÉ  da Conceição ") == name_key("jose da conceicao") == "jose da conceicao"
    assert name_key("Ana") != name_key("Anna")
    assert person_key("Ana Souza", date(1990, 1, 2)) == person_key("ana  SOUZA", date(1990, 1, 2))
    assert person_key("Ana Souza", date(1990, 1, 2)) != person_key("Ana Souza", date(1990, 1, 3))


@pytest.mark.parametrize(
    ("birth", "day", "age"),
    [
        (date(2006, 6, 10), date(2024, 6, 10), 18),  # birthday on the day: already 18
        (date(2006, 6, 11), date(2024, 6, 10), 17),
        (date(2004, 2, 29), date(2022, 2, 28), 17),
        (date(2004, 2, 29), date(2022, 3, 1), 18),
    ],
)
def test_age_on_a_day(birth, day, age):
    assert age_on(birth, day) == age


def test_replay_the_first_that_fits_moves_up():
    events = [Arrival("a", 1), Arrival("b", 1), Arrival("pair", 2), Arrival("c", 1), Withdrawal("a")]
    assert places_replay(events, 2) == {"b": ACCEPT, "c": ACCEPT, "pair": wait(1)}
    assert places_replay(events + [Withdrawal("b")], 2) == {"c": ACCEPT, "pair": wait(1)}
    assert places_replay(events + [Withdrawal("b"), Withdrawal("c")], 2) == {"pair": ACCEPT}
    # freed places go down the list: the pair first, then an individual
    events = [
        Arrival("x", 2),
        Arrival("y", 2),
        Arrival("p", 2),
        Arrival("i", 1),
        Arrival("j", 1),
        Withdrawal("x"),
        Withdrawal("y"),
    ]
    assert places_replay(events, 4) == {"p": ACCEPT, "i": ACCEPT, "j": ACCEPT}
    # a waiting registration that withdraws leaves the list; a withdrawal before its arrival cancels it
    assert places_replay([Arrival("a", 2), Arrival("b", 2), Arrival("c", 1), Withdrawal("b")], 2) == {
        "a": ACCEPT,
        "c": wait(1),
    }
    assert places_replay([Withdrawal("a"), Arrival("a", 1)], None) == {}


@st.composite
def histories(draw):
    n = draw(st.integers(min_value=0, max_value=25))
    events, present = [], []
    for i in range(n):
        events.append(Arrival(i, draw(st.sampled_from([1, 2]))))
        present.append(i)
        if present and draw(st.booleans()) and draw(st.booleans()):
            gone = draw(st.sampled_from(present))
            present.remove(gone)
            events.append(Withdrawal(gone))
    return events


@given(histories(), places)
def test_replay_properties(events, places):
    sizes = {e.key: e.size for e in events if isinstance(e, Arrival)}
    out = places_replay(events, places)
    if not any(isinstance(e, Withdrawal) for e in events):
        assert [out[e.key] for e in events] == places_assign([e.size for e in events], places)
    if places is None:
        assert all(p.accepted for p in out.values())
        return
    used = sum(sizes[k] for k, p in out.items() if p.accepted)
    assert used <= places
    # nobody waiting fits in the places left, and the list is numbered in order of arrival
    waiting = sorted((p.waiting_position, k) for k, p in out.items() if not p.accepted)
    assert all(sizes[k] > places - used for _, k in waiting)
    assert [pos for pos, _ in waiting] == list(range(1, len(waiting) + 1))
    assert [k for _, k in waiting] == sorted(k for _, k in waiting)
    # a withdrawal never sends anyone accepted back to the waiting list
    for cut in range(1, len(events) + 1):
        if isinstance(events[cut - 1], Withdrawal):
            before = places_replay(events[: cut - 1], places)
            after = places_replay(events[:cut], places)
            assert all(after[k].accepted for k, p in before.items() if p.accepted and k in after)
