"""The walk of DOMAIN §7.2 that the Nível and the online ranking (§9.5) share (``scoring.ranking.walk_step``), as
properties over any sequence of results: a win never lowers the score, a loss never raises it, an abandonment
never leaves more than a plain loss, and the fold (``score_walk``) is the steps one after the other."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ranking import WALK_START, Walk, player_level, player_score, score_walk, walk_step

# (won, abandoned): an abandonment is a loss (the flag is ignored on a win)
results = st.lists(st.tuples(st.booleans(), st.booleans()), max_size=120)


@settings(max_examples=400, deadline=None)
@given(results)
def test_a_win_never_lowers_and_a_loss_never_raises(seq: list[tuple[bool, bool]]) -> None:
    walk = WALK_START
    for won, abandoned in seq:
        after = walk_step(walk, won=won, abandoned=abandoned)
        if won:
            assert after.score >= walk.score
        else:
            assert after.score <= walk.score
        assert after.score >= 0
        assert after.played == walk.played + 1
        assert after.won == walk.won + won
        assert after.abandoned == walk.abandoned + (abandoned and not won)
        walk = after


@settings(max_examples=300, deadline=None)
@given(results)
def test_the_fold_is_the_steps_in_order(seq: list[tuple[bool, bool]]) -> None:
    walk = WALK_START
    expected = []
    for won, abandoned in seq:
        walk = walk_step(walk, won=won, abandoned=abandoned)
        expected.append(walk.score)
    assert score_walk(results=seq) == expected


@settings(max_examples=300, deadline=None)
@given(results)
def test_an_abandonment_costs_at_least_a_plain_loss(seq: list[tuple[bool, bool]]) -> None:
    walk = WALK_START
    for won, abandoned in seq:
        walk = walk_step(walk, won=won, abandoned=abandoned)
    plain = walk_step(walk, won=False, abandoned=False)
    abandoned_step = walk_step(walk, won=False, abandoned=True)
    assert abandoned_step.score <= plain.score


@settings(max_examples=200, deadline=None)
@given(results)
def test_the_score_never_passes_the_candidate_against_the_result(seq: list[tuple[bool, bool]]) -> None:
    """After a win the score is at least the formula's S; after a loss at most S (§7.2's max / min)."""
    walk = WALK_START
    for won, abandoned in seq:
        walk = walk_step(walk, won=won, abandoned=abandoned)
        candidate = player_score(played=walk.played, won=walk.won, walkovers_lost=walk.abandoned)
        assert walk.score >= candidate if won else walk.score <= candidate


def test_by_hand() -> None:
    # a first loss stays at 0 (the walk starts there), ten wins climb to the formula's 785
    assert walk_step(WALK_START, won=False, abandoned=False) == Walk(played=1, won=0, abandoned=0, score=0)
    path = score_walk(results=[(True, False)] * 10)
    assert path == sorted(path) and path[-1] == player_score(played=10, won=10, walkovers_lost=0) == 785
    assert player_level(score=path[-1]) == "Espadilha"
    # an abandonment after them drops to S of 10 wins in 11 with one abandonment
    after = walk_step(Walk(played=10, won=10, abandoned=0, score=785), won=False, abandoned=True)
    assert after.score == player_score(played=11, won=10, walkovers_lost=1) < 785
    # a win flagged as an abandonment is just a win
    assert walk_step(WALK_START, won=True, abandoned=True).abandoned == 0
