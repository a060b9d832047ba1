"""The súmula's rules (``scoring.sumula``): statuses from result, answers and signature; the buttons a
referee's screen enables at a score, which must be exactly the entries ``mao_gain`` accepts."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.jogo import JogoEntry, PartidaEntry, jogo_evaluate
from scoring.partida import MAO_DE_FERRO, MAO_DE_ONZE, NORMAL, NORMAL_VALUES, RAN_VALUES, Mao, mao_gain
from scoring.rules import PRESETS, settings_build
from scoring.sumula import (
    ACCEPTED,
    AWAITING,
    CONFIRMED,
    CONTEST,
    CONTESTED,
    HOMOLOGATED,
    IN_PROGRESS,
    SCHEDULED,
    counts,
    mao_kind,
    mao_options,
    status_fits_result,
    sumula_status,
)

SCORES = st.tuples(st.integers(0, 11), st.integers(0, 11))
SETTINGS = st.sampled_from(
    [settings_build(preset=p, overrides={"mao_de_ferro_value": f})[0] for p in PRESETS for f in (1, 3)]
)


def _result(*scores):
    entry = JogoEntry(best_of=3, partidas=tuple(PartidaEntry(score=s) for s in scores))
    return jogo_evaluate(entry=entry, settings=PRESETS["fenacef"])[0]


def test_statuses_follow_result_answers_and_signature():
    assert sumula_status(result=None, answers=(None, None), signed=False) == SCHEDULED
    assert sumula_status(result=_result((12, 3)), answers=(None, None), signed=False) == IN_PROGRESS
    decided = _result((12, 3), (12, 5))
    assert sumula_status(result=decided, answers=(None, None), signed=False) == AWAITING
    assert sumula_status(result=decided, answers=(ACCEPTED, None), signed=False) == AWAITING
    assert sumula_status(result=decided, answers=(ACCEPTED, CONTEST), signed=False) == CONTESTED
    assert sumula_status(result=decided, answers=(ACCEPTED, ACCEPTED), signed=False) == CONFIRMED
    assert sumula_status(result=decided, answers=(CONTEST, None), signed=True) == HOMOLOGATED
    assert [s for s in (SCHEDULED, IN_PROGRESS, AWAITING, CONTESTED, CONFIRMED, HOMOLOGATED) if counts(s)] == [
        CONFIRMED,
        HOMOLOGATED,
    ]


ANSWERS = st.tuples(*[st.sampled_from([None, ACCEPTED, CONTEST])] * 2)


@given(st.sampled_from([0, 1, "both"]), ANSWERS)
def test_a_walkover_waits_for_no_answer_of_an_absent_dupla(absent, answers):
    """Issue 41 item 16: a WO waited for the absent dupla's confirmation, so the referee had to sign "sem a
    confirmação". Only the present dupla confirms a WO (nobody, when both were absent); a contest still holds it."""
    result = jogo_evaluate(entry=JogoEntry(best_of=3, walkover=absent), settings=PRESETS["fenacef"])[0]
    present = [side for side in (0, 1) if absent not in (side, "both")]
    status = sumula_status(result=result, answers=answers, signed=False)
    if CONTEST in answers:
        assert status == CONTESTED
    elif all(answers[side] == ACCEPTED for side in present):
        assert status == CONFIRMED
    else:
        assert status == AWAITING
    # a jogo played waits for both, whatever a walkover would need
    played = sumula_status(result=_result((12, 3), (12, 5)), answers=answers, signed=False)
    assert (played == CONFIRMED) == (answers == (ACCEPTED, ACCEPTED))


@pytest.mark.parametrize(
    "status, scores, problem",
    [
        ("scheduled", [], False),
        ("scheduled", [(12, 3)], True),
        ("in_progress", [(12, 3)], False),
        ("in_progress", [], True),
        ("in_progress", [(12, 3), (12, 4)], True),
        ("confirmed", [(12, 3)], True),
        ("awaiting_confirmation", [(12, 3), (12, 4)], False),
        ("homologated", [(12, 3), (12, 4)], False),
    ],
)
def test_a_files_status_must_fit_its_result(status, scores, problem):
    result = _result(*scores) if scores else None
    assert (status_fits_result(status=status, result=result) is not None) is problem


@given(score=SCORES, settings=SETTINGS)
def test_the_buttons_are_exactly_what_the_rules_accept(score, settings):
    options = mao_options(score=score, settings=settings)
    assert options is not None  # below 12 on both sides the partida goes on

    def ok(mao):
        return mao_gain(score=score, mao=mao, settings=settings)[1] is None

    for to in (0, 1):
        assert set(options.played) == {v for v in NORMAL_VALUES if ok(Mao(to=to, points=v))}
        assert set(options.ran) == {v for v in RAN_VALUES if ok(Mao(to=to, points=v, how="ran"))}
        assert set(options.penalty) == {v for v in NORMAL_VALUES if ok(Mao(to=to, points=v, how="penalty", reason="r"))}
    refusers = {side for side in (0, 1) if ok(Mao(to=1 - side, how="refused"))}
    assert refusers == ({options.refuse_by} if options.refuse_by is not None else set())
    # and what the regulations say: no truco in a mão de onze or de ferro, only the decision of the dupla on 11
    if options.situation == NORMAL:
        assert options.played == NORMAL_VALUES and options.refuse_by is None
    elif options.situation == MAO_DE_ONZE:
        assert options.played == (3,) and options.ran == () and options.refuse_by == score.index(11)
    else:
        assert options.situation == MAO_DE_FERRO and options.played == (settings.mao_de_ferro_value,)
        assert options.ran == () and options.refuse_by is None


def test_no_buttons_once_the_partida_has_ended():
    assert mao_options(score=(12, 4), settings=PRESETS["aabb"]) is None


@pytest.mark.parametrize(
    "how,to,before,kind",
    [
        ("penalty", 0, (11, 11), "penalty"),  # what was recorded comes before the score it was recorded at
        ("refused", 1, (11, 4), "refused"),
        ("ran", 0, (3, 2), "ran"),
        ("played", None, (11, 3), "tie"),
        ("played", 1, (11, 11), "mao_de_ferro"),
        ("played", 0, (2, 11), "mao_de_onze"),
        ("played", 0, (10, 10), "played"),
    ],
)
def test_mao_kind_tells_what_a_recorded_mao_was(how, to, before, kind):
    assert mao_kind(how=how, to=to, before=before) == kind
