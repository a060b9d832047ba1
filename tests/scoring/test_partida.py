"""A partida to 12 (docs/regras.md §3): mão by mão (``mao_gain``, ``partida_from_maos``) and final scores
(``final_score_error``).

The key test (``test_final_score_check_matches_exhaustive_search``) walks every running score a
súmula can reach, trying every possible entry through ``mao_gain``, and checks that the quick-entry
check accepts exactly the terminal scores found. ``test_mao_gain_matches_the_rules_table`` checks
``mao_gain`` itself against an independent transcription of the table in docs/regras.md §3, so the search
does not simply trust the code it compares with.
"""

import functools
import itertools
from collections import deque

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from scoring.partida import (
    MAO_DE_FERRO,
    MAO_DE_ONZE,
    NORMAL,
    Mao,
    PartidaScore,
    final_score_error,
    is_finished,
    mao_gain,
    partida_from_maos,
    perda_da_partida_score,
    situation,
)
from scoring.rules import PRESETS, settings_build

PRESET_NAMES = tuple(PRESETS)
VARIANTS = [(p, ferro, tie) for p in PRESET_NAMES for ferro in (1, 3) for tie in ("opponent", "nobody")]


def rules(preset="fenacef", ferro=None, tie=None):
    overrides = {}
    if ferro is not None:
        overrides["mao_de_ferro_value"] = ferro
    if tie is not None:
        overrides["mao_de_onze_tie"] = tie
    s, errors = settings_build(preset=preset, overrides=overrides)
    assert errors == [] and s is not None
    return s


FENACEF = rules("fenacef")
ONLINE = rules("online")
FERRO3 = rules("fenacef", ferro=3)

# Every entry a súmula could carry (also malformed ones), for the exhaustive searches.
ALL_TO = (0, 1, None)
ALL_POINTS = (None, *range(13))
ALL_HOW = ("played", "ran", "refused", "penalty")
ALL_REASONS = ("", "xingou o adversário")
ALL_MAOS = tuple(
    Mao(to=t, points=p, how=h, reason=r) for t, p, h, r in itertools.product(ALL_TO, ALL_POINTS, ALL_HOW, ALL_REASONS)
)


def gain(score, mao, s=FENACEF):
    got, problem = mao_gain(score=score, mao=mao, settings=s)
    assert (got is None) != (problem is None), "exactly one of gain and problem"
    return got, problem


def ok(score, mao, s=FENACEF):
    got, problem = gain(score, mao, s)
    assert problem is None, problem
    return got


def refused(score, mao, s=FENACEF):
    got, problem = gain(score, mao, s)
    assert got is None, f"{mao} at {score} should be refused, got {got}"
    assert isinstance(problem, str) and problem
    return problem


def play(maos, s=FENACEF):
    return partida_from_maos(maos=maos, settings=s)


def to(side, points=None, how="played", reason=""):
    return Mao(to=side, points=points, how=how, reason=reason)


def ones(n, side):
    return [to(side, 1)] * n


def reach(a, b):
    """Mãos that bring a fresh partida to a x b (both ≤ 11), never finishing it.

    1-point mãos up to 10; from there a dupla reaches 11 by a point, or by the other dupla
    refusing its mão de onze.
    """
    maos = ones(min(a, 10), 0) + ones(min(b, 10), 1)
    if a == 11:
        maos.append(to(0, 1))
    if b == 11:
        maos.append(to(1, 1, "refused") if a == 11 else to(1, 1))
    return maos


# --- an independent transcription of docs/regras.md §3 -----------------------------------------


def expected_gain(score, mao, s):
    """The points docs/regras.md §3 gives for ``mao`` at ``score``, or None where the entry is not valid."""
    a, b = score
    if max(a, b) >= 12:
        return None
    t, p, how, reason = mao.to, mao.points, mao.how, mao.reason

    def give(side, pts):
        return (pts, 0) if side == 0 else (0, pts)

    ferro = a == 11 and b == 11
    onze = (a == 11) != (b == 11)
    other = (1 if a == 11 else 0) if onze else None
    if how == "penalty":
        if not reason.strip() or t not in (0, 1):
            return None
        allowed = {1, s.mao_de_ferro_value} if ferro else {1, 3} if onze else {1, 3, 6, 9, 12}
        return give(t, p) if p in allowed else None
    if t is None:  # three tied rounds
        if how != "played" or p not in (None, 0):
            return None
        if onze and s.mao_de_onze_tie == "opponent":
            return give(other, 3)
        return (0, 0)
    if ferro:
        if how != "played" or p not in (None, s.mao_de_ferro_value):
            return None
        return give(t, s.mao_de_ferro_value)
    if onze:
        if how == "refused":
            return give(other, 1) if t == other and p in (None, 1) else None
        if how == "played" and p in (None, 3):
            return give(t, 3)
        return None
    if how == "played" and p in (1, 3, 6, 9, 12):
        return give(t, p)
    if how == "ran" and p in (1, 3, 6, 9):
        return give(t, p)
    return None


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(map(str, v)))
def test_mao_gain_matches_the_rules_table(variant):
    s = rules(*variant)
    for a, b in itertools.product(range(12), repeat=2):
        for mao in ALL_MAOS + (to(0, 13), to(1, -1), to(0, 2), to(1, 5, "ran"), to(0, 12, "ran")):
            got, problem = gain((a, b), mao, s)
            assert got == expected_gain((a, b), mao, s), (a, b, mao, problem)


def test_mao_gain_refuses_malformed_entries():
    assert "desconhecido" in refused((0, 0), to(0, 1, how="truco"))
    for bad_to in (2, -1, "0", True, 1.0):
        refused((0, 0), Mao(to=bad_to, points=1))
    for bad_points in ("3", 3.0, True):
        refused((0, 0), to(0, bad_points))


def test_mao_gain_survives_a_reason_that_is_not_text():
    refused((0, 0), Mao(to=0, points=1, how="penalty", reason=None))
    refused((0, 0), Mao(to=0, points=1, how="penalty", reason=5))


# --- the key test: the final-score check is exactly the reachable set ------------------------


@functools.cache
def terminal_scores(preset, ferro, tie):
    """Every final score some valid sequence of mãos reaches, by breadth-first search from 0 x 0."""
    s = rules(preset, ferro, tie)
    seen = {(0, 0)}
    queue = deque([(0, 0)])
    finals = set()
    while queue:
        score = queue.popleft()
        for mao in ALL_MAOS:
            got, problem = mao_gain(score=score, mao=mao, settings=s)
            if problem is not None:
                continue
            assert min(got) >= 0 and (got[0] == 0 or got[1] == 0), (score, mao, got)
            nxt = (score[0] + got[0], score[1] + got[1])
            if nxt in seen:
                continue
            seen.add(nxt)
            if is_finished(nxt):
                finals.add(nxt)
            else:
                queue.append(nxt)
    # every non-final score of the partida was reachable
    assert {x for x in seen if not is_finished(x)} == set(itertools.product(range(12), repeat=2))
    return frozenset(finals)


def hand_computed_finals(ferro):
    """docs/regras.md §3 consequences: loser ≤ 10 → winner 12..22; loser on 11 → 12, 13 or 11 + ferro."""
    out = set()
    for loser in range(11):
        out |= {(w, loser) for w in range(12, 23)}
    out |= {(w, 11) for w in {12, 13, 11 + ferro}}
    return out | {(b, a) for a, b in out}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "-".join(map(str, v)))
def test_final_score_check_matches_exhaustive_search(variant):
    _preset, ferro, _tie = variant
    s = rules(*variant)
    finals = terminal_scores(*variant)
    assert finals == hand_computed_finals(ferro)
    for a, b in itertools.product(range(31), repeat=2):
        problem = final_score_error(score=(a, b), settings=s)
        assert (problem is None) == ((a, b) in finals), (a, b, problem)
        if problem is not None:
            assert f"{a} x {b}" in problem


@hsettings(max_examples=300, deadline=None)
@given(variant=st.sampled_from(VARIANTS), a=st.integers(0, 30), b=st.integers(0, 30))
def test_final_score_check_property(variant, a, b):
    s = rules(*variant)
    assert (final_score_error(score=(a, b), settings=s) is None) == ((a, b) in terminal_scores(*variant))


@st.composite
def valid_partida(draw):
    """A random valid súmula: each step picks one of the entries mao_gain accepts, until the end."""
    variant = draw(st.sampled_from(VARIANTS))
    s = rules(*variant)
    score, maos = (0, 0), []
    while not is_finished(score) and len(maos) < 200:
        options = [m for m in ALL_MAOS if mao_gain(score=score, mao=m, settings=s)[1] is None]
        # prefer progress so that the partida ends: skip the 0-point ties most of the time
        mao = draw(st.sampled_from(options))
        got, _ = mao_gain(score=score, mao=mao, settings=s)
        if got == (0, 0) and draw(st.integers(0, 3)):
            continue
        maos.append(mao)
        score = (score[0] + got[0], score[1] + got[1])
    return variant, s, maos, score


@hsettings(max_examples=150, deadline=None)
@given(valid_partida())
def test_every_valid_sumula_ends_on_an_accepted_final_score(case):
    variant, s, maos, score = case
    result, errors = play(maos, s)
    assert errors == []
    assert result.score == score
    if result.finished:
        assert final_score_error(score=score, settings=s) is None
        assert score in terminal_scores(*variant)
        assert result.winner == (0 if score[0] > score[1] else 1)
        # one more entry, whatever it is, is refused at its own index
        _, errors = play(maos + [to(0, 1)], s)
        assert [e.place for e in errors] == [f"maos[{len(maos)}]"]


# --- concrete final scores -------------------------------------------------------------


@pytest.mark.parametrize(
    "score",
    [
        (12, 12),
        (24, 3),
        (22, 11),
        (3, 24),
        (11, 22),
        (23, 0),
        (15, 11),
        (14, 11),
        (11, 11),
        (11, 0),
        (0, 0),
        (13, 12),
        (30, 30),
    ],
)
def test_impossible_final_scores_are_refused(score):
    assert final_score_error(score=score, settings=FENACEF) is not None


@pytest.mark.parametrize(
    "score",
    [(22, 10), (12, 11), (13, 11), (14, 8), (10, 22), (11, 12), (11, 13), (8, 14), (12, 0), (0, 12), (14, 10), (21, 4)],
)
def test_possible_final_scores_are_accepted(score):
    for s in (FENACEF, ONLINE, FERRO3, rules("aabb")):
        assert final_score_error(score=score, settings=s) is None


def test_fourteen_to_eleven_only_with_mao_de_ferro_worth_three():
    for preset in PRESET_NAMES:
        assert final_score_error(score=(14, 11), settings=rules(preset, ferro=1)) is not None
        assert final_score_error(score=(11, 14), settings=rules(preset, ferro=1)) is not None
        assert final_score_error(score=(14, 11), settings=rules(preset, ferro=3)) is None
        assert final_score_error(score=(11, 14), settings=rules(preset, ferro=3)) is None
    # and a súmula gets there through the mão de ferro
    result, errors = play(reach(11, 11) + [to(0)], FERRO3)
    assert errors == [] and result.score == (14, 11) and result.finished


def test_final_score_messages_name_the_rule():
    assert "12" in final_score_error(score=(11, 5), settings=FENACEF)
    assert "termina" in final_score_error(score=(11, 5), settings=FENACEF)
    assert "acaba" in final_score_error(score=(12, 12), settings=FENACEF)
    assert "maior mão vale 12" in final_score_error(score=(24, 3), settings=FENACEF)
    assert "11" in final_score_error(score=(22, 11), settings=FENACEF)
    assert "12 ou 13" in final_score_error(score=(22, 11), settings=FENACEF)
    assert "12, 13 ou 14" in final_score_error(score=(15, 11), settings=FERRO3)


@pytest.mark.parametrize(
    "score", [(-1, 12), (12, -1), (12.0, 3), (True, 12), ("12", 3), (None, 12), (12,), (12, 3, 1), None, 12]
)
def test_malformed_final_scores_are_refused_not_crashing(score):
    problem = final_score_error(score=score, settings=FENACEF)
    assert isinstance(problem, str) and "placar" in problem


def test_final_score_accepts_a_list():
    assert final_score_error(score=[12, 3], settings=FENACEF) is None


# --- the mão situations ------------------------------------------------------------------


def test_situations():
    assert situation((0, 0)) == NORMAL
    assert situation((10, 10)) == NORMAL
    assert situation((11, 3)) == MAO_DE_ONZE
    assert situation((3, 11)) == MAO_DE_ONZE
    assert situation((11, 11)) == MAO_DE_FERRO


@pytest.mark.parametrize("points", [1, 3, 6, 9, 12])
def test_normal_mao_values(points):
    assert ok((0, 0), to(0, points)) == (points, 0)
    assert ok((5, 7), to(1, points)) == (0, points)


@pytest.mark.parametrize("points", [None, 0, 2, 4, 5, 7, 8, 10, 11, 13])
def test_normal_mao_other_values_refused(points):
    problem = refused((0, 0), to(0, points))
    assert "1, 3, 6, 9 ou 12" in problem


def test_running_gives_the_value_before_the_refused_raise():
    for points in (1, 3, 6, 9):
        assert ok((4, 4), to(1, points, "ran")) == (0, points)
    for points in (None, 0, 2, 12):
        assert "corre" in refused((4, 4), to(1, points, "ran"))


def test_three_tied_rounds_in_a_normal_mao_score_nothing():
    assert ok((4, 4), to(None)) == (0, 0)
    assert ok((4, 4), to(None, 0)) == (0, 0)
    refused((4, 4), to(None, 1))
    refused((4, 4), to(None, None, "ran"))
    refused((4, 4), to(None, None, "refused"))


def test_only_a_dupla_on_eleven_may_refuse():
    assert "11" in refused((4, 4), to(1, 1, "refused"))


def test_mao_de_onze_raise_or_run_is_refused():
    for side in (0, 1):
        assert "mão de onze" in refused((11, 5), to(side, 3, "ran"))
        assert "mão de onze" in refused((11, 5), to(side, 1, "ran"))
        for raised in (6, 9, 12):
            assert "mão de onze" in refused((11, 5), to(side, raised))
        refused((11, 5), to(side, 1))  # a played mão de onze is worth 3, not 1


def test_mao_de_onze_refused_gives_one_to_the_other_dupla():
    assert ok((11, 5), to(1, None, "refused")) == (0, 1)
    assert ok((11, 5), to(1, 1, "refused")) == (0, 1)
    assert ok((5, 11), to(0, None, "refused")) == (1, 0)
    problem = refused((11, 5), to(0, None, "refused"))  # the dupla on 11 cannot score by refusing
    assert "não está com 11" in problem
    refused((11, 5), to(1, 3, "refused"))


def test_mao_de_onze_accepted_is_worth_three_to_whoever_wins_it():
    assert ok((11, 5), to(0)) == (3, 0)
    assert ok((11, 5), to(1)) == (0, 3)
    assert ok((11, 5), to(1, 3)) == (0, 3)
    assert ok((9, 11), to(0, 3)) == (3, 0)


def test_mao_de_onze_three_tied_rounds_depend_on_the_preset():
    assert ok((11, 5), to(None), FENACEF) == (0, 3)
    assert ok((5, 11), to(None), FENACEF) == (3, 0)
    assert ok((11, 5), to(None), rules("aabb")) == (0, 3)
    assert ok((11, 5), to(None), ONLINE) == (0, 0)
    assert ok((11, 5), to(None), rules("fenacef", tie="nobody")) == (0, 0)
    assert ok((11, 5), to(None), rules("online", tie="opponent")) == (0, 3)
    # from 9 x 11 the other dupla reaches 12 by the tie alone
    result, errors = play(reach(9, 11) + [to(None)], FENACEF)
    assert errors == [] and result.score == (12, 11) and result.finished and result.winner == 0


@pytest.mark.parametrize("ferro", [1, 3])
def test_mao_de_ferro_is_worth_the_preset_value_and_decides_the_partida(ferro):
    s = rules("fenacef", ferro=ferro)
    assert ok((11, 11), to(0), s) == (ferro, 0)
    assert ok((11, 11), to(1, ferro), s) == (0, ferro)
    other = 3 if ferro == 1 else 1
    assert "mão de ferro" in refused((11, 11), to(0, other), s)
    assert "mão de ferro" in refused((11, 11), to(0, ferro, "ran"), s)
    assert "mão de ferro" in refused((11, 11), to(0, 1, "refused"), s)
    for side in (0, 1):
        result, errors = play(reach(11, 11) + [to(side)], s)
        assert errors == []
        assert result.finished and result.winner == side
        assert max(result.score) == 11 + ferro and min(result.score) == 11


@pytest.mark.parametrize("s", [FENACEF, ONLINE], ids=["opponent", "nobody"])
def test_mao_de_ferro_tie_scores_nothing_and_is_played_again(s):
    assert ok((11, 11), to(None), s) == (0, 0)
    result, errors = play(reach(11, 11) + [to(None), to(None), to(1)], s)
    assert errors == [] and result.score == (11, 12) and result.winner == 1


# --- penalties ---------------------------------------------------------------------------


def test_penalties_need_a_reason():
    for reason in ("", "   "):
        assert "motivo" in refused((0, 0), to(0, 1, "penalty", reason))
    assert ok((0, 0), to(0, 1, "penalty", "falou durante a mão")) == (1, 0)


def test_penalty_needs_a_beneficiary():
    assert "to" in refused((0, 0), to(None, 1, "penalty", "x"))


def test_penalty_in_a_normal_mao_is_one_point_or_the_value_in_dispute():
    for points in (1, 3, 6, 9, 12):
        assert ok((2, 2), to(1, points, "penalty", "x")) == (0, points)
    for points in (None, 0, 2, 4, 13):
        assert "penalidade" in refused((2, 2), to(1, points, "penalty", "x"))


def test_penalty_is_at_most_three_while_a_dupla_is_on_eleven():
    for score in ((11, 5), (5, 11)):
        assert ok(score, to(0, 1, "penalty", "x")) == (1, 0)
        assert ok(score, to(1, 3, "penalty", "x")) == (0, 3)
        for points in (6, 9, 12, 2):
            assert "11" in refused(score, to(0, points, "penalty", "x"))
    # mão de ferro: 1 or the value in dispute (the preset's value)
    assert ok((11, 11), to(0, 1, "penalty", "x")) == (1, 0)
    assert "mão de ferro" in refused((11, 11), to(0, 3, "penalty", "x"))
    assert ok((11, 11), to(0, 3, "penalty", "x"), FERRO3) == (3, 0)
    assert "mão de ferro" in refused((11, 11), to(0, 6, "penalty", "x"), FERRO3)


def test_penalty_can_end_the_partida():
    result, errors = play(reach(10, 3) + [to(0, 3, "penalty", "x")])
    assert errors == [] and result.score == (13, 3) and result.finished


def test_perda_da_partida_is_twelve_to_nothing_for_the_other_dupla():
    assert perda_da_partida_score(lost_by=0) == (0, 12)
    assert perda_da_partida_score(lost_by=1) == (12, 0)


# --- replaying a súmula ----------------------------------------------------------------------


def test_interchange_example_partida():
    maos = [to(0, 1), to(1, 3, "ran"), to(None), to(0, 1, "penalty", "trucou com 4 cartas")]
    result, errors = play(maos)
    assert errors == []
    assert result == PartidaScore(score=(2, 3), finished=False)
    assert result.winner is None


def test_a_full_partida():
    maos = [to(0, 3), to(1, 6), to(0, 6), to(1, 1, "ran"), to(None), to(1, 3), to(0, 3)]  # 12 x 10
    result, errors = play(maos)
    assert errors == []
    assert result.score == (12, 10) and result.finished and result.winner == 0


def test_no_entry_after_the_partida_ended():
    maos = [to(0, 12), to(1, 1)]
    result, errors = play(maos)
    assert result.score == (12, 0)
    assert [e.place for e in errors] == ["maos[1]"]
    assert "terminou" in errors[0].message and "12 x 0" in errors[0].message
    # several entries after the end: one error, at the first of them
    result, errors = play(reach(2, 0) + [to(1, 12), to(None), to(0, 1), to(0, 1)])
    assert result.score == (2, 12)
    assert [e.place for e in errors] == ["maos[3]"]


def test_errors_are_placed_at_the_offending_mao_and_replay_continues():
    maos = [to(0, 3), to(0, 2), to(1, 3), to(0, 7)]
    result, errors = play(maos)
    assert [e.place for e in errors] == ["maos[1]", "maos[3]"]
    assert result.score == (3, 3) and not result.finished
    assert all(e.message for e in errors)


def test_error_inside_mao_de_onze_is_placed():
    maos = reach(11, 4) + [to(0, 3, "ran")]
    _, errors = play(maos)
    assert [e.place for e in errors] == [f"maos[{len(maos) - 1}]"]
    assert "mão de onze" in errors[0].message


def test_reach_helper():
    for a, b in itertools.product(range(12), repeat=2):
        result, errors = play(reach(a, b))
        assert errors == [] and result.score == (a, b)


def test_a_fresh_partida():
    result, errors = play([])
    assert errors == [] and result == PartidaScore((0, 0), False)
