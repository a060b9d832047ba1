"""Player ranking (scoring/ranking.py, docs/regras.md §7)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.ranking import LEVELS, UNRANKED_LEVEL, player_level, player_score, wilson_lower_bound

# --- wilson_lower_bound ----------------------------------------------------------------


def test_wilson_all_won():
    # p = 1: the bound is 1 / (1 + z²/G) = 10 / 13.8416
    assert wilson_lower_bound(won=10, played=10) == pytest.approx(0.722460, abs=1e-6)


def test_wilson_half_won():
    # p = 0.5, G = 4: (0.5 + 0.4802 - 1.96 * sqrt(0.0625 + 0.060025)) / 1.9604
    assert wilson_lower_bound(won=2, played=4) == pytest.approx(0.150036, abs=1e-6)


def test_wilson_nothing_played_or_nothing_won():
    assert wilson_lower_bound(won=0, played=0) == 0.0
    assert wilson_lower_bound(won=0, played=7) == 0.0


def test_wilson_other_z():
    # z = 0 is the plain win rate
    assert wilson_lower_bound(won=3, played=4, z=0.0) == pytest.approx(0.75)


@given(played=st.integers(min_value=1, max_value=2000), data=st.data())
def test_wilson_lies_below_the_win_rate_and_grows_with_wins(played, data):
    won = data.draw(st.integers(min_value=0, max_value=played))
    bound = wilson_lower_bound(won=won, played=played)
    assert 0.0 <= bound <= won / played
    if won < played:
        assert wilson_lower_bound(won=won + 1, played=played) > bound


@pytest.mark.parametrize(("won", "played"), [(-1, 3), (1, -1), (4, 3)])
def test_wilson_bad_counts(won, played):
    with pytest.raises(ValueError):
        wilson_lower_bound(won=won, played=played)


# --- player_score: hand-computed examples ------------------------------------------------


def test_score_ten_won_of_ten():
    # 1000 * 0.722460 + 60 * log10(11) = 722.460 + 62.484 = 784.94, no damping at G = 10
    assert player_score(played=10, won=10, walkovers_lost=0) == 785


def test_score_two_won_of_four_with_one_walkover():
    # (150.036 + 60 * log10(5) - 400 * 1/4) * 4/10 = (150.036 + 41.938 - 100) * 0.4 = 36.79
    assert player_score(played=4, won=2, walkovers_lost=1) == 37


def test_score_half_won_of_ten():
    # WLB = (0.5 + 0.19208 - 1.96 * sqrt(0.025 + 0.009604)) / 1.38416 = 0.236590
    # 236.590 + 62.484 = 299.07
    assert player_score(played=10, won=5, walkovers_lost=0) == 299


def test_score_twenty_won_of_twenty():
    # 1000 / 1.19208 + 60 * log10(21) = 838.870 + 79.333 = 918.20
    assert player_score(played=20, won=20, walkovers_lost=0) == 918


def test_score_nothing_played():
    assert player_score(played=0, won=0, walkovers_lost=0) == 0


def test_score_never_below_zero():
    # 0 + 60 * log10(2) - 400 = -381.9, clamped
    assert player_score(played=1, won=0, walkovers_lost=1) == 0


def test_score_rounds_to_nearest():
    # 36.79 rounds up (see above); this one rounds down:
    # WLB = (0.7 + 0.19208 - 1.96 * sqrt(0.021 + 0.009604)) / 1.38416 = 0.396773
    # 396.773 + 62.484 - 400 * 3/10 = 339.26
    assert player_score(played=10, won=7, walkovers_lost=3) == 339


@pytest.mark.parametrize(
    ("played", "won", "walkovers_lost"),
    [(-1, 0, 0), (3, -1, 0), (3, 0, -1), (3, 4, 0), (3, 2, 2), (0, 0, 1)],
)
def test_score_bad_counts(played, won, walkovers_lost):
    with pytest.raises(ValueError):
        player_score(played=played, won=won, walkovers_lost=walkovers_lost)


# --- player_score: properties ---------------------------------------------------------------


@st.composite
def records(draw):
    played = draw(st.integers(min_value=0, max_value=500))
    won = draw(st.integers(min_value=0, max_value=played))
    walkovers_lost = draw(st.integers(min_value=0, max_value=played - won))
    return played, won, walkovers_lost


@given(records())
def test_score_is_a_non_negative_int_with_a_ceiling(record):
    played, won, walkovers_lost = record
    score = player_score(played=played, won=won, walkovers_lost=walkovers_lost)
    assert isinstance(score, int)
    assert 0 <= score <= round(1000 + 60 * math.log10(played + 1))


@given(records())
def test_score_does_not_decrease_with_one_more_win(record):
    played, won, walkovers_lost = record
    if won + walkovers_lost < played:  # a lost jogo (not WO) can become a win
        before = player_score(played=played, won=won, walkovers_lost=walkovers_lost)
        after = player_score(played=played, won=won + 1, walkovers_lost=walkovers_lost)
        assert after >= before


@given(records())
def test_score_does_not_increase_when_a_loss_was_a_walkover(record):
    played, won, walkovers_lost = record
    if won + walkovers_lost < played:
        assert player_score(played=played, won=won, walkovers_lost=walkovers_lost + 1) <= player_score(
            played=played, won=won, walkovers_lost=walkovers_lost
        )


@given(st.integers(min_value=1, max_value=9))
def test_damping_scales_the_first_ten_jogos(played):
    raw = 1000 * wilson_lower_bound(won=played, played=played) + 60 * math.log10(played + 1)
    assert player_score(played=played, won=played, walkovers_lost=0) == int(raw * played / 10 + 0.5)


# --- player_level ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "level"),
    [
        (0, "Fichinha"),
        (349, "Fichinha"),
        (350, "Blefador"),
        (499, "Blefador"),
        (500, "Coringa"),
        (649, "Coringa"),
        (650, "Pica-Fumo"),
        (754, "Pica-Fumo"),
        (755, "Espadilha"),
        (899, "Espadilha"),
        (900, "Escopeta"),
        (974, "Escopeta"),
        (975, "ZAP"),
        (5000, "ZAP"),
    ],
)
def test_level_thresholds(score, level):
    assert player_level(score=score) == level


def test_no_account_is_marreco():
    assert UNRANKED_LEVEL == "Marreco"
    assert player_level(score=None) == "Marreco"


def test_negative_score_is_refused():
    with pytest.raises(ValueError):
        player_level(score=-1)


@given(st.integers(min_value=0, max_value=3000))
def test_level_is_the_highest_threshold_reached(score):
    names = [name for name, _ in LEVELS]
    level = player_level(score=score)
    index = names.index(level)
    assert LEVELS[index][1] <= score
    if index + 1 < len(LEVELS):
        assert score < LEVELS[index + 1][1]


def test_examples_levels():
    assert player_level(score=player_score(played=10, won=10, walkovers_lost=0)) == "Espadilha"
    assert player_level(score=player_score(played=20, won=20, walkovers_lost=0)) == "Escopeta"
    assert player_level(score=player_score(played=100, won=100, walkovers_lost=0)) == "ZAP"
