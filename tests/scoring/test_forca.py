"""The circuit's força for seeding (scoring/forca.py, DOMAIN §7.3): OpenSkill Plackett-Luce, mu − 3 sigma per atleta."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.forca import ForcaJogo, dupla_forca, forca_prior, forca_ratings

ATLETAS = [f"a{i}" for i in range(8)]


@st.composite
def jogo(draw):
    four = draw(st.permutations(ATLETAS))[:4]
    return ForcaJogo(duplas=((four[0], four[1]), (four[2], four[3])), winner=draw(st.sampled_from([0, 1, None])))


def test_one_jogo_by_hand():
    ratings = forca_ratings(jogos=[ForcaJogo(duplas=(("a", "b"), ("c", "d")), winner=1)])
    # the model's prior is mu 25, sigma 25/3 (ordinal 0); one win moves both winners up alike, the losers down
    assert forca_prior().ordinal == pytest.approx(0.0)
    assert ratings["c"] == ratings["d"] and ratings["a"] == ratings["b"]
    assert ratings["c"].mu > 25 > ratings["a"].mu
    assert ratings["c"].ordinal > 0 > ratings["a"].ordinal
    assert ratings["c"].jogos == 1
    assert dupla_forca(ratings=ratings, atletas=("c", "d")) == pytest.approx(2 * ratings["c"].ordinal)
    # a newcomer counts as the prior (0)
    assert dupla_forca(ratings=ratings, atletas=("c", "zz")) == pytest.approx(ratings["c"].ordinal)


def test_a_jogo_without_winner_is_left_out_and_bad_jogos_are_refused():
    assert forca_ratings(jogos=[ForcaJogo(duplas=(("a", "b"), ("c", "d")), winner=None)]) == {}
    with pytest.raises(ValueError):
        forca_ratings(jogos=[ForcaJogo(duplas=(("a", "b"), ("b", "d")), winner=0)])
    with pytest.raises(ValueError):
        forca_ratings(jogos=[ForcaJogo(duplas=(("a", "b"), ("c", "d")), winner=2)])


@settings(max_examples=60, deadline=None)
@given(history=st.lists(jogo(), max_size=12), last=jogo())
def test_winning_never_lowers_an_ordinal_compared_with_losing(history, last):
    won_side = ForcaJogo(duplas=last.duplas, winner=0)
    lost_side = ForcaJogo(duplas=last.duplas, winner=1)
    won = forca_ratings(jogos=[*history, won_side])
    lost = forca_ratings(jogos=[*history, lost_side])
    for key in last.duplas[0]:
        assert won[key].ordinal >= lost[key].ordinal
    for key in last.duplas[1]:
        assert lost[key].ordinal >= won[key].ordinal


@settings(max_examples=40, deadline=None)
@given(history=st.lists(jogo(), max_size=12))
def test_deterministic_for_the_same_input(history):
    assert forca_ratings(jogos=history) == forca_ratings(jogos=list(history))
    played = {k for j in history if j.winner is not None for d in j.duplas for k in d}
    assert set(forca_ratings(jogos=history)) == played
