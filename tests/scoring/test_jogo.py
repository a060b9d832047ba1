"""A jogo (docs/regras.md §3-§4): best of N, walkovers, perda da partida / do jogo, classification points;
and the rule presets (docs/regras.md §6, scoring/rules.py)."""

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from scoring.jogo import (
    WALKOVER_BOTH,
    JogoEntry,
    JogoResult,
    PartidaEntry,
    class_points,
    jogo_evaluate,
    jogo_summary,
    partida_evaluate,
)
from scoring.partida import Mao, PartidaScore
from scoring.rules import (
    PRESETS,
    ClassPoints,
    best_of_error,
    settings_as_dict,
    settings_build,
    settings_overrides,
    wins_needed,
)

FENACEF = PRESETS["fenacef"]
POINTS = FENACEF.class_points


def sc(a, b):
    return PartidaEntry(score=(a, b))


def evaluate(best_of=3, partidas=(), **kw):
    return jogo_evaluate(entry=JogoEntry(best_of=best_of, partidas=tuple(partidas), **kw), settings=FENACEF)


def good(best_of=3, partidas=(), **kw):
    result, errors = evaluate(best_of, partidas, **kw)
    assert errors == [], errors
    return result


# --- best of N -----------------------------------------------------------------------------


def test_wins_needed_is_half_rounded_up():
    assert [wins_needed(n) for n in (1, 3, 5, 7, 9)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("value", [0, -1, 2, 4, True, 3.0, "3", None])
def test_best_of_must_be_odd_positive(value):
    assert best_of_error(value) is not None
    result, errors = evaluate(best_of=value)
    assert [e.place for e in errors] == ["best_of"]
    assert not result.finished


def test_best_of_three_ends_two_to_nothing():
    r = good(3, [sc(12, 5), sc(12, 7)])
    assert r.finished and r.has_result and r.winner == 0
    assert r.partidas_won == (2, 0)
    assert r.points_for == (24, 12)
    assert jogo_summary(r) == "2 x 0"


def test_best_of_three_two_to_one():
    r = good(3, [sc(12, 5), sc(3, 12), sc(10, 13)])
    assert r.finished and r.winner == 1 and r.partidas_won == (1, 2)
    assert r.points_for == (25, 30)


@pytest.mark.parametrize("best_of", [1, 3, 5, 7])
def test_best_of_n_ends_at_half_rounded_up_and_refuses_more(best_of):
    need = wins_needed(best_of)
    partidas = [sc(0, 12)] * need + [sc(12, 0)]
    result, errors = evaluate(best_of, partidas)
    assert [e.place for e in errors] == [f"partidas[{need}]"]
    assert "terminou" in errors[0].message and f"melhor de {best_of}" in errors[0].message
    assert result.finished and result.winner == 1 and result.partidas_won == (0, need)
    assert len(result.partidas) == need  # the extra partida does not count


def test_best_of_five_alternating_goes_to_the_fifth():
    partidas = [sc(12, 0), sc(0, 12), sc(12, 0), sc(0, 12)]
    r = good(5, partidas)
    assert not r.finished and r.winner is None and r.partidas_won == (2, 2)
    r = good(5, partidas + [sc(11, 13)])
    assert r.finished and r.winner == 1 and r.partidas_won == (2, 3)
    _, errors = evaluate(5, partidas + [sc(11, 13), sc(12, 0)])
    assert [e.place for e in errors] == ["partidas[5]"]


def test_a_jogo_in_progress():
    r = good(3, [sc(12, 5)])
    assert not r.finished and r.started and r.winner is None and r.partidas_won == (1, 0)
    r = good(3, [])
    assert not r.finished and not r.started
    # an unfinished partida (mãos still being entered) is the last one
    r = good(3, [sc(12, 5), PartidaEntry(maos=(Mao(to=1, points=3),))])
    assert not r.finished and r.partidas_won == (1, 0)
    assert r.partidas[-1] == PartidaScore((0, 3), False)


def test_an_unfinished_partida_cannot_be_followed_by_another():
    unfinished = PartidaEntry(maos=(Mao(to=0, points=1),))
    _, errors = evaluate(3, [sc(12, 5), unfinished, sc(12, 3)])
    assert [e.place for e in errors] == ["partidas[1]"]
    assert "não terminou" in errors[0].message


def test_impossible_partida_scores_are_placed_at_the_partida():
    _, errors = evaluate(3, [sc(12, 5), sc(12, 12)])
    assert [e.place for e in errors] == ["partidas[1]"]
    assert "12 x 12" in errors[0].message


def test_mao_errors_are_placed_inside_the_partida():
    maos = (Mao(to=0, points=12), Mao(to=1, points=1))
    _, errors = evaluate(3, [sc(12, 5), PartidaEntry(maos=maos)])
    assert [e.place for e in errors] == ["partidas[1].maos[1]"]
    assert "terminou" in errors[0].message


def test_mixed_score_and_mao_partidas():
    maos = tuple([Mao(to=1, points=12)])
    r = good(3, [sc(12, 5), PartidaEntry(maos=maos), sc(13, 11)])
    assert r.finished and r.winner == 0 and r.partidas_won == (2, 1)
    assert r.points_for == (25, 28)


def test_an_empty_partida_is_an_error():
    _, errors = evaluate(3, [PartidaEntry()])
    assert [e.place for e in errors] == ["partidas[0]"]
    assert "vazia" in errors[0].message


# --- perda da partida ------------------------------------------------------------------------


def test_perda_da_partida_is_recorded_twelve_to_nothing():
    r = good(3, [sc(12, 5), PartidaEntry(lost_by=0, reason="ofendeu o árbitro"), sc(12, 9)])
    assert r.partidas_won == (2, 1) and r.winner == 0
    assert [p.score for p in r.partidas] == [(12, 5), (0, 12), (12, 9)]


@pytest.mark.parametrize("reason", ["", "  ", None])
def test_perda_da_partida_needs_a_reason(reason):
    _result, errors = partida_evaluate(entry=PartidaEntry(lost_by=1, reason=reason), settings=FENACEF)
    assert [e.place for e in errors] == ["penalty.reason"]
    assert "motivo" in errors[0].message
    _, errors = evaluate(3, [PartidaEntry(lost_by=1, reason=reason)])
    assert [e.place for e in errors] == ["partidas[0].penalty.reason"]


def test_perda_da_partida_needs_a_side():
    _, errors = evaluate(3, [PartidaEntry(lost_by=2, reason="x")])
    assert [e.place for e in errors] == ["partidas[0].penalty.lost_by"]


# --- walkover -------------------------------------------------------------------------------


@pytest.mark.parametrize("best_of", [1, 3, 5])
@pytest.mark.parametrize("absent", [0, 1])
def test_walkover_is_won_by_half_rounded_up_with_no_pontos_partida(best_of, absent):
    r = good(best_of, walkover=absent)
    need = wins_needed(best_of)
    present = 1 - absent
    assert r.finished and r.winner == present and r.walkover == absent
    assert r.partidas_won == ((need, 0) if present == 0 else (0, need))
    assert r.partidas == () and r.points_for == (0, 0)
    assert class_points(result=r, points=POINTS) == ((3, 0) if present == 0 else (0, 3))
    assert jogo_summary(r) == "WO"


def test_both_absent():
    r = good(3, walkover=WALKOVER_BOTH)
    assert r.finished and r.winner is None and r.partidas_won == (0, 0) and r.points_for == (0, 0)
    assert class_points(result=r, points=POINTS) == (0, 0)
    assert jogo_summary(r) == "WO duplo"


def test_walkover_with_partidas_or_penalty_is_an_error():
    _, errors = evaluate(3, [sc(12, 0)], walkover=1)
    assert [e.place for e in errors] == ["walkover"]
    _, errors = evaluate(3, walkover=0, lost_by=1, reason="x")
    assert [e.place for e in errors] == ["walkover"]


@pytest.mark.parametrize("value", [2, "d1", True, -1])
def test_walkover_must_name_a_side(value):
    _, errors = evaluate(3, walkover=value)
    assert [e.place for e in errors] == ["walkover"]


# --- perda do jogo ----------------------------------------------------------------------------


@pytest.mark.parametrize("best_of", [3, 5])
@pytest.mark.parametrize("lost_by", [0, 1])
def test_perda_do_jogo(best_of, lost_by):
    r = good(best_of, lost_by=lost_by, reason="abandonou a mesa")
    need = wins_needed(best_of)
    winner = 1 - lost_by
    assert r.finished and r.winner == winner and r.lost_by == lost_by and r.walkover is None
    assert r.partidas_won == ((need, 0) if winner == 0 else (0, need))
    assert [p.score for p in r.partidas] == [(12, 0) if winner == 0 else (0, 12)] * need
    assert all(p.finished for p in r.partidas)
    assert r.points_for == ((12 * need, 0) if winner == 0 else (0, 12 * need))
    assert class_points(result=r, points=POINTS) == ((3, 0) if winner == 0 else (0, 3))


@pytest.mark.parametrize("reason", ["", " ", None])
def test_perda_do_jogo_needs_a_reason(reason):
    _, errors = evaluate(3, lost_by=0, reason=reason)
    assert [e.place for e in errors] == ["penalty.reason"]
    assert "motivo" in errors[0].message


def test_perda_do_jogo_needs_a_side():
    _, errors = evaluate(3, lost_by="d1", reason="x")
    assert [e.place for e in errors] == ["penalty.lost_by"]


# --- classification points ------------------------------------------------------------------


@pytest.mark.parametrize(
    "partidas,expected",
    [
        ([sc(12, 5), sc(12, 7)], (3, 0)),
        ([sc(5, 12), sc(7, 12)], (0, 3)),
        ([sc(12, 5), sc(5, 12), sc(12, 7)], (2, 1)),
        ([sc(12, 5), sc(5, 12), sc(7, 12)], (1, 2)),
    ],
)
def test_class_points_default_table(partidas, expected):
    assert class_points(result=good(3, partidas), points=POINTS) == expected


def test_class_points_best_of_five_and_one():
    assert class_points(result=good(5, [sc(12, 0)] * 3), points=POINTS) == (3, 0)
    assert class_points(result=good(5, [sc(0, 12), sc(12, 0), sc(12, 0), sc(0, 12), sc(0, 12)]), points=POINTS) == (
        1,
        2,
    )
    assert class_points(result=good(1, [sc(0, 12)]), points=POINTS) == (0, 3)


def test_class_points_of_an_unfinished_jogo_are_zero():
    assert class_points(result=good(3, [sc(12, 5)]), points=POINTS) == (0, 0)
    assert class_points(result=JogoResult(best_of=3), points=POINTS) == (0, 0)


def test_class_points_follow_the_settings():
    custom = ClassPoints(clean_win=4, clean_loss=0, close_win=3, close_loss=1, walkover_win=2, walkover_loss=-1)
    assert class_points(result=good(3, [sc(12, 5), sc(12, 7)]), points=custom) == (4, 0)
    assert class_points(result=good(3, [sc(12, 5), sc(5, 12), sc(5, 12)]), points=custom) == (1, 3)
    assert class_points(result=good(3, walkover=0), points=custom) == (-1, 2)
    assert class_points(result=good(3, walkover=WALKOVER_BOTH), points=custom) == (0, 0)


@st.composite
def finished_jogos(draw):
    best_of = draw(st.sampled_from([1, 3, 5, 7]))
    need = wins_needed(best_of)
    winner = draw(st.sampled_from([0, 1]))
    loser_wins = draw(st.integers(0, need - 1))
    sides = [winner] * (need - 1) + [1 - winner] * loser_wins
    sides = draw(st.permutations(sides)) + [winner]  # the winner takes the last partida
    partidas = [sc(12, draw(st.integers(0, 10))) if s == 0 else sc(draw(st.integers(0, 10)), 12) for s in sides]
    return best_of, partidas, winner, loser_wins


@hsettings(max_examples=200, deadline=None)
@given(finished_jogos())
def test_finished_jogos_property(case):
    best_of, partidas, winner, loser_wins = case
    r = good(best_of, partidas)
    need = wins_needed(best_of)
    assert r.finished and r.winner == winner
    assert r.partidas_won[winner] == need and r.partidas_won[1 - winner] == loser_wins
    cp = class_points(result=r, points=POINTS)
    assert cp[winner] == (3 if loser_wins == 0 else 2) and cp[1 - winner] == (0 if loser_wins == 0 else 1)
    _, errors = evaluate(best_of, partidas + [sc(12, 0)])
    assert [e.place for e in errors] == [f"partidas[{len(partidas)}]"]


# --- presets (docs/regras.md §6) -----------------------------------------------------------------


def test_preset_table():
    f, a, o = PRESETS["fenacef"], PRESETS["aabb"], PRESETS["online"]
    assert (f.format, f.best_of_groups, f.best_of_first_knockout, f.best_of_later_knockout) == (
        "groups_knockout",
        3,
        5,
        5,
    )
    assert (a.format, a.best_of_first_knockout, a.best_of_later_knockout) == ("knockout", 5, 3)
    assert (o.best_of_groups, o.best_of_first_knockout, o.best_of_later_knockout) == (3, 3, 3)
    assert (f.manilha, a.manilha, o.manilha) == ("fixed", "variable", "variable")
    assert {p.deck for p in PRESETS.values()} == {"sujo"}
    assert (f.mao_de_onze_tie, a.mao_de_onze_tie, o.mao_de_onze_tie) == ("opponent", "opponent", "nobody")
    assert {p.mao_de_ferro_value for p in PRESETS.values()} == {1}
    assert (f.third_place, a.third_place, o.third_place) == ("average", "match", "match")
    for p in PRESETS.values():
        assert p.class_points == ClassPoints(3, 0, 2, 1, 3, 0)


def test_settings_build_defaults_and_overrides():
    s, errors = settings_build(preset="aabb")
    assert errors == [] and s == PRESETS["aabb"]
    s, errors = settings_build(
        preset="aabb",
        overrides={
            "mao_de_onze_tie": "nobody",
            "mao_de_ferro_value": 3,
            "third_place": "shared",
            "best_of_groups": 5,
            "class_points": {"close_loss": 0},
        },
    )
    assert errors == []
    assert (s.mao_de_onze_tie, s.mao_de_ferro_value, s.third_place, s.best_of_groups) == ("nobody", 3, "shared", 5)
    assert s.class_points == ClassPoints(3, 0, 2, 0, 3, 0)
    assert settings_overrides(s) == {
        "mao_de_onze_tie": "nobody",
        "mao_de_ferro_value": 3,
        "third_place": "shared",
        "best_of_groups": 5,
        "class_points": {"close_loss": 0},
    }
    assert settings_as_dict(s)["class_points"]["close_loss"] == 0


@pytest.mark.parametrize(
    "overrides,place",
    [
        ({"mao_de_ferro_value": 2}, "settings.mao_de_ferro_value"),
        ({"mao_de_ferro_value": True}, "settings.mao_de_ferro_value"),
        ({"mao_de_ferro_value": 1.0}, "settings.mao_de_ferro_value"),
        ({"mao_de_ferro_value": 3.0}, "settings.mao_de_ferro_value"),
        ({"mao_de_onze_tie": "both"}, "settings.mao_de_onze_tie"),
        ({"third_place": "coin"}, "settings.third_place"),
        ({"best_of_groups": 4}, "settings.best_of_groups"),
        ({"best_of_first_knockout": 3.0}, "settings.best_of_first_knockout"),
        ({"deck": "limpo"}, "settings.deck"),
        ({"preset": "online"}, "settings.preset"),
        ({"colour": "red"}, "settings.colour"),
        ({"class_points": {"draw": 1}}, "settings.class_points.draw"),
        ({"class_points": {"clean_win": -1}}, "settings.class_points.clean_win"),
        ({"class_points": {"clean_win": 2.5}}, "settings.class_points.clean_win"),
        ({"class_points": 3}, "settings.class_points"),
    ],
)
def test_settings_build_refuses_bad_overrides(overrides, place):
    s, errors = settings_build(preset="fenacef", overrides=overrides)
    assert s is None
    assert [e.place for e in errors] == [place]
    assert all(e.message for e in errors)


def test_settings_build_unknown_preset_and_bad_overrides_object():
    s, errors = settings_build(preset="cbt")
    assert s is None and [e.place for e in errors] == ["preset"] and "fenacef" in errors[0].message
    s, errors = settings_build(preset="fenacef", overrides=["x"])
    assert s is None and [e.place for e in errors] == ["settings"]


@hsettings(max_examples=200, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    overrides=st.fixed_dictionaries(
        {},
        optional={
            "format": st.sampled_from(["groups_knockout", "knockout"]),
            "best_of_groups": st.sampled_from([1, 3, 5]),
            "best_of_first_knockout": st.sampled_from([1, 3, 5, 7]),
            "best_of_later_knockout": st.sampled_from([1, 3, 5]),
            "manilha": st.sampled_from(["fixed", "variable"]),
            "mao_de_onze_tie": st.sampled_from(["opponent", "nobody"]),
            "mao_de_ferro_value": st.sampled_from([1, 3]),
            "third_place": st.sampled_from(["match", "average", "shared"]),
            "class_points": st.fixed_dictionaries(
                {}, optional={"clean_win": st.integers(0, 5), "close_loss": st.integers(0, 5)}
            ),
        },
    ),
)
def test_settings_overrides_round_trip(preset, overrides):
    s, errors = settings_build(preset=preset, overrides=overrides)
    assert errors == []
    again, errors = settings_build(preset=preset, overrides=settings_overrides(s))
    assert errors == [] and again == s
    for name, value in overrides.items():
        if name != "class_points":
            assert getattr(s, name) == value and type(getattr(s, name)) is type(value)
