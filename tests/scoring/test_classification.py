"""General classification and medals (docs/regras.md §5.3-§5.4) through ``tournament_compute``."""

import pytest

from scoring.jogo import WALKOVER_BOTH, JogoEntry, PartidaEntry, jogo_evaluate
from scoring.rules import settings_build
from scoring.tournament import (
    GROUPS,
    KNOCKOUT,
    DuplaInfo,
    GroupSpec,
    JogoRecord,
    KnockoutStageView,
    StageSpec,
    tournament_compute,
)


def rules(third_place):
    s, errors = settings_build(preset="fenacef", overrides={"third_place": third_place})
    assert not errors
    return s


def result(*scores, best_of=3, walkover=None):
    entry = JogoEntry(best_of=best_of, partidas=tuple(PartidaEntry(score=s) for s in scores), walkover=walkover)
    res, errors = jogo_evaluate(entry=entry, settings=rules("match"))
    assert errors == [], errors
    return res


def win(loser_points=0, best_of=3):
    """The first dupla wins every partida 12 x loser_points."""
    return result(*[(12, loser_points)] * (best_of // 2 + 1), best_of=best_of)


def lose(winner_left_with=0, best_of=3):
    """The second dupla wins every partida, the first scoring ``winner_left_with``."""
    return result(*[(winner_left_with, 12)] * (best_of // 2 + 1), best_of=best_of)


def info(*keys, disqualified=()):
    return [DuplaInfo(key=k, players=(f"{k}-1", f"{k}-2"), disqualified=k in disqualified) for k in keys]


def places(view):
    return [(r.place, r.dupla, r.medal) for r in view.classification]


# --- groups, then a 4-dupla knockout ---------------------------------------------------------
#
# Group A: a1 > a2 > a3; group B: b1 > b2 > b3 (each winner 2 x 0).
# Semis (fixed draw a1-b2, b1-a2): a1 and a2 win; final: a2 beats a1.
# Knockout results are given in bracket order (the order of the bracket's duplas, as the importer
# and the selectors store them): tournament_compute reads a knockout result by (round, position).

GROUP_STAGE = StageSpec(
    key="grupos",
    kind=GROUPS,
    best_of=3,
    per_group=2,
    groups=(GroupSpec("A", ("a1", "a2", "a3")), GroupSpec("B", ("b1", "b2", "b3"))),
)
KO_STAGE = StageSpec(key="mata", kind=KNOCKOUT, best_of=3, draw_method="fixed", draw_order=("a1", "b2", "b1", "a2"))
DUPLAS = ("a1", "a2", "a3", "b1", "b2", "b3")


def group_jogos(a3_loses_by=0, b3_loses_by=0):
    return [
        JogoRecord("grupos", ("a1", "a2"), win(6), group="A"),
        JogoRecord("grupos", ("a1", "a3"), win(6), group="A"),
        JogoRecord("grupos", ("a2", "a3"), win(a3_loses_by), group="A"),
        JogoRecord("grupos", ("b1", "b2"), win(6), group="B"),
        JogoRecord("grupos", ("b1", "b3"), win(6), group="B"),
        JogoRecord("grupos", ("b2", "b3"), win(b3_loses_by), group="B"),
    ]


def knockout_jogos(b2_semi_points=0, b1_semi_points=0):
    return [
        JogoRecord("mata", ("a1", "b2"), win(b2_semi_points), round=1, position=1),
        JogoRecord("mata", ("b1", "a2"), lose(b1_semi_points), round=1, position=2),
        JogoRecord("mata", ("a1", "a2"), lose(10), round=2, position=1),
    ]


def compute(third_place, jogos, disqualified=()):
    return tournament_compute(
        settings=rules(third_place),
        duplas=info(*DUPLAS, disqualified=disqualified),
        stages=[GROUP_STAGE, KO_STAGE],
        jogos=jogos,
    )


def test_groups_qualify_and_the_bracket_is_built():
    view = compute("match", group_jogos())
    groups, ko = view.stages
    assert groups.decided and [d for d, _ in groups.qualifiers] == ["a1", "b1", "a2", "b2"]
    assert isinstance(ko, KnockoutStageView) and ko.order == ["a1", "b2", "b1", "a2"]
    assert not view.finished and view.classification == []


def test_third_place_match():
    third = JogoRecord("mata", ("b2", "b1"), win(), round=2, position=1, third_place=True)
    view = compute("match", group_jogos(a3_loses_by=11) + knockout_jogos() + [third])
    assert view.finished
    # a3: 12 + 22 for, 48 against (0.708); b3: 12 for, 48 against (0.25)
    assert places(view) == [
        (1, "a2", "gold"),
        (2, "a1", "silver"),
        (3, "b2", "bronze"),
        (4, "b1", None),
        (5, "a3", None),
        (6, "b3", None),
    ]
    assert view.classification[0].players == ("a2-1", "a2-2")


def test_third_place_match_must_be_played_before_the_end():
    view = compute("match", group_jogos() + knockout_jogos())
    assert not view.finished and view.classification == []
    ko = view.stage("mata")
    assert ko.bracket.third_place is not None and ko.bracket.third_place.duplas == ("b2", "b1")


def test_third_place_by_average():
    # b1 lost its semi 11x12, 11x12; b2 lost 0x12, 0x12 → b1's average is better
    view = compute("average", group_jogos() + knockout_jogos(b1_semi_points=11))
    assert view.finished
    assert view.stage("mata").bracket.third_place is None
    assert places(view)[:4] == [(1, "a2", "gold"), (2, "a1", "silver"), (3, "b1", "bronze"), (4, "b2", None)]


def test_third_place_shared():
    view = compute("shared", group_jogos() + knockout_jogos(b1_semi_points=11))
    assert view.finished
    assert places(view) == [
        (1, "a2", "gold"),
        (2, "a1", "silver"),
        (3, "b1", "bronze"),
        (3, "b2", "bronze"),
        (5, "a3", None),
        (5, "b3", None),
    ]


def test_knockout_duplas_precede_group_eliminated_ones_whatever_their_average():
    # a3 and b3 lost their group jogos 11x12 only; b1 and b2 were crushed in the semis
    jogos = [
        JogoRecord("grupos", ("a1", "a2"), win(6), group="A"),
        JogoRecord("grupos", ("a1", "a3"), win(11), group="A"),
        JogoRecord("grupos", ("a2", "a3"), win(11), group="A"),
        JogoRecord("grupos", ("b1", "b2"), win(6), group="B"),
        JogoRecord("grupos", ("b1", "b3"), win(11), group="B"),
        JogoRecord("grupos", ("b2", "b3"), win(11), group="B"),
    ] + knockout_jogos()
    view = compute("average", jogos)
    stats = view.stats
    assert stats["a3"].average > stats["b2"].average
    assert [r.dupla for r in view.classification][-2:] in (["a3", "b3"], ["b3", "a3"])
    assert [r.place for r in view.classification][-2:] == [5, 5]  # same average: shared place


def test_group_eliminated_ordered_by_average():
    view = compute("average", group_jogos(a3_loses_by=5, b3_loses_by=11) + knockout_jogos())
    assert [(r.place, r.dupla) for r in view.classification][4:] == [(5, "b3"), (6, "a3")]


def test_disqualified_dupla_gets_no_place_and_the_others_move_up():
    third = JogoRecord("mata", ("b2", "b1"), win(), round=2, position=1, third_place=True)
    view = compute("match", group_jogos(a3_loses_by=11) + knockout_jogos() + [third], disqualified=("a1",))
    assert places(view) == [
        (1, "a2", "gold"),
        (2, "b2", "silver"),
        (3, "b1", "bronze"),
        (4, "a3", None),
        (5, "b3", None),
        (None, "a1", None),
    ]


def test_disqualified_semi_finalist_with_shared_third_place():
    view = compute("shared", group_jogos() + knockout_jogos(b1_semi_points=11), disqualified=("b2",))
    assert places(view)[:4] == [(1, "a2", "gold"), (2, "a1", "silver"), (3, "b1", "bronze"), (4, "a3", None)]
    assert places(view)[-1] == (None, "b2", None)


# --- an 8-dupla knockout only: round reached, ties by average -----------------------------


def test_knockout_only_round_reached_then_average():
    keys = [f"d{i}" for i in range(1, 9)]
    stage = StageSpec(
        key="ko", kind=KNOCKOUT, best_of=3, entrants=tuple(keys), draw_method="fixed", draw_order=tuple(keys)
    )
    jogos = [
        # quarter-finals: losers d2 (0), d4 (11), d6 (5), d8 (5)
        JogoRecord("ko", ("d1", "d2"), win(0), round=1, position=1),
        JogoRecord("ko", ("d3", "d4"), win(11), round=1, position=2),
        JogoRecord("ko", ("d5", "d6"), win(5), round=1, position=3),
        JogoRecord("ko", ("d7", "d8"), win(5), round=1, position=4),
        # semi-finals: losers d3, d7
        JogoRecord("ko", ("d1", "d3"), win(10), round=2, position=1),
        JogoRecord("ko", ("d5", "d7"), win(2), round=2, position=2),
        JogoRecord("ko", ("d1", "d5"), lose(11), round=3, position=1),
    ]
    view = tournament_compute(settings=rules("average"), duplas=info(*keys), stages=[stage], jogos=jogos)
    assert view.finished
    # d3: 24+20 for, 22+24 against → 0.957; d7: 24+4 for, 10+24 against → 0.824
    assert places(view) == [
        (1, "d5", "gold"),
        (2, "d1", "silver"),
        (3, "d3", "bronze"),
        (4, "d7", None),
        (5, "d4", None),
        (6, "d6", None),
        (6, "d8", None),
        (8, "d2", None),
    ]


def test_knockout_with_a_walkover_semi():
    keys = ["w", "x", "y", "z"]
    stage = StageSpec(
        key="ko", kind=KNOCKOUT, best_of=3, entrants=tuple(keys), draw_method="fixed", draw_order=tuple(keys)
    )
    jogos = [
        JogoRecord("ko", ("w", "x"), result(walkover=1), round=1, position=1),  # x absent: average 0 ÷ 0
        JogoRecord("ko", ("y", "z"), win(3), round=1, position=2),
        JogoRecord("ko", ("w", "y"), win(3), round=2, position=1),
    ]
    view = tournament_compute(settings=rules("average"), duplas=info(*keys), stages=[stage], jogos=jogos)
    assert places(view) == [(1, "w", "gold"), (2, "y", "silver"), (3, "z", "bronze"), (4, "x", None)]


def _four_ko(jogos, third_place):
    keys = ["w", "x", "y", "z"]
    stage = StageSpec(
        key="ko", kind=KNOCKOUT, best_of=3, entrants=tuple(keys), draw_method="fixed", draw_order=tuple(keys)
    )
    return tournament_compute(settings=rules(third_place), duplas=info(*keys), stages=[stage], jogos=jogos)


@pytest.mark.parametrize("third_place", ["shared", "average"])
def test_both_absent_in_the_final(third_place):
    view = _four_ko(
        [
            JogoRecord("ko", ("w", "x"), win(3), round=1, position=1),
            JogoRecord("ko", ("y", "z"), win(3), round=1, position=2),
            JogoRecord("ko", ("w", "y"), result(walkover=WALKOVER_BOTH), round=2, position=1),
        ],
        third_place,
    )
    assert view.finished
    place = {r.dupla: r.place for r in view.classification}
    assert set(place) == {"w", "x", "y", "z"}
    assert max(place["w"], place["y"]) < min(place["x"], place["z"])


def test_both_absent_in_a_semi_with_a_third_place_match():
    view = _four_ko(
        [
            JogoRecord("ko", ("w", "x"), result(walkover=WALKOVER_BOTH), round=1, position=1),
            JogoRecord("ko", ("y", "z"), win(3), round=1, position=2),
        ],
        "match",
    )
    assert view.stage("ko").bracket.final.winner == "y"
    assert view.finished


# --- a single round robin -----------------------------------------------------------------


def test_single_round_robin_uses_its_table():
    stage = StageSpec(key="rr", kind=GROUPS, best_of=3, per_group=0, groups=(GroupSpec("A", ("p", "q", "r")),))
    jogos = [
        JogoRecord("rr", ("q", "p"), win(0), group="A"),
        JogoRecord("rr", ("q", "r"), win(0), group="A"),
        JogoRecord("rr", ("r", "p"), win(0), group="A"),
    ]
    view = tournament_compute(settings=rules("average"), duplas=info("p", "q", "r"), stages=[stage], jogos=jogos)
    assert view.finished
    assert places(view) == [(1, "q", "gold"), (2, "r", "silver"), (3, "p", "bronze")]


def test_single_round_robin_with_a_tie_awaiting_the_sorteio():
    stage = StageSpec(key="rr", kind=GROUPS, best_of=3, per_group=1, groups=(GroupSpec("A", ("p", "q", "r")),))
    jogos = [
        JogoRecord("rr", ("p", "q"), win(0), group="A"),
        JogoRecord("rr", ("p", "r"), win(0), group="A"),
        JogoRecord("rr", ("q", "r"), result(walkover=WALKOVER_BOTH), group="A"),
    ]
    view = tournament_compute(settings=rules("average"), duplas=info("p", "q", "r"), stages=[stage], jogos=jogos)
    rows = view.stages[0].tables[0].rows
    assert [(r.rank, r.dupla, r.tied) for r in rows] == [(1, "p", False), (2, "q", True), (2, "r", True)]
    # silver and bronze must not be given alphabetically: wait for the sorteio, or share the place
    assert not view.finished or [r.place for r in view.classification] == [1, 2, 2]


def test_single_round_robin_after_the_sorteio():
    stage = StageSpec(
        key="rr",
        kind=GROUPS,
        best_of=3,
        per_group=1,
        groups=(GroupSpec("A", ("p", "q", "r")),),
        sorteios=(("A", ("r", "q")),),
    )
    jogos = [
        JogoRecord("rr", ("p", "q"), win(0), group="A"),
        JogoRecord("rr", ("p", "r"), win(0), group="A"),
        JogoRecord("rr", ("q", "r"), result(walkover=WALKOVER_BOTH), group="A"),
    ]
    view = tournament_compute(settings=rules("average"), duplas=info("p", "q", "r"), stages=[stage], jogos=jogos)
    assert view.finished
    assert places(view) == [(1, "p", "gold"), (2, "r", "silver"), (3, "q", "bronze")]


def test_knockout_results_recorded_the_other_way_round_read_the_same():
    forward = _four_ko(
        [
            JogoRecord("ko", ("w", "x"), win(3), round=1, position=1),
            JogoRecord("ko", ("y", "z"), lose(5), round=1, position=2),
            JogoRecord("ko", ("w", "z"), lose(7), round=2, position=1),
        ],
        "shared",
    )
    backward = _four_ko(
        [
            JogoRecord("ko", ("x", "w"), lose(3), round=1, position=1),
            JogoRecord("ko", ("z", "y"), win(5), round=1, position=2),
            JogoRecord("ko", ("z", "w"), win(7), round=2, position=1),
        ],
        "shared",
    )
    assert forward.stage("ko").bracket.final.winner == "z"
    assert (
        places(backward)
        == places(forward)
        == [(1, "z", "gold"), (2, "w", "silver"), (3, "x", "bronze"), (3, "y", "bronze")]
    )
    assert backward.stage("ko").bracket.rounds[0][0].score == (2, 0)


@pytest.mark.parametrize("third_place", ["match", "average"])
def test_duplas_absent_from_their_semi_final_keep_the_place_they_reached(third_place):
    # Both duplas of a semi-final absent: y goes through to the final as on a bye and is champion. The
    # three others were all knocked out in the semi-finals; z played, so its average ranks it first; w
    # and x (0 ÷ 0) share the next place, and absent duplas keep a place's medal (DOMAIN §5.4).
    view = _four_ko(
        [
            JogoRecord("ko", ("w", "x"), result(walkover=WALKOVER_BOTH), round=1, position=1),
            JogoRecord("ko", ("y", "z"), win(3), round=1, position=2),
        ],
        third_place,
    )
    assert view.finished
    assert places(view) == [(1, "y", "gold"), (2, "z", "silver"), (3, "w", "bronze"), (3, "x", "bronze")]


def test_duplas_absent_from_their_semi_final_share_the_place_with_shared_third_place():
    view = _four_ko(
        [
            JogoRecord("ko", ("w", "x"), result(walkover=WALKOVER_BOTH), round=1, position=1),
            JogoRecord("ko", ("y", "z"), win(3), round=1, position=2),
        ],
        "shared",
    )
    # nobody lost the final, so the three semi-final losers share the place after the champion
    assert places(view) == [(1, "y", "gold"), (2, "w", "silver"), (2, "x", "silver"), (2, "z", "silver")]


def test_finalist_absent_from_the_final_is_second_with_silver():
    for third_place in ("match", "shared", "average"):
        jogos = [
            JogoRecord("ko", ("w", "x"), win(3), round=1, position=1),
            JogoRecord("ko", ("y", "z"), win(5), round=1, position=2),
            JogoRecord("ko", ("w", "y"), result(walkover=1), round=2, position=1),  # y absent from the final
        ]
        if third_place == "match":
            jogos.append(JogoRecord("ko", ("x", "z"), win(4), round=2, position=1, third_place=True))
        view = _four_ko(jogos, third_place)
        assert view.finished, third_place
        rows = places(view)
        assert rows[:2] == [(1, "w", "gold"), (2, "y", "silver")], third_place
        assert [medal for _, _, medal in rows[2:]].count("bronze") == (2 if third_place == "shared" else 1)


def test_shared_third_place_absent_semifinal_loser_keeps_bronze():
    view = _four_ko(
        [
            JogoRecord("ko", ("w", "x"), result(walkover=1), round=1, position=1),  # x absent from its semi-final
            JogoRecord("ko", ("y", "z"), win(3), round=1, position=2),
            JogoRecord("ko", ("w", "y"), win(3), round=2, position=1),
        ],
        "shared",
    )
    assert view.finished
    assert places(view) == [(1, "w", "gold"), (2, "y", "silver"), (3, "x", "bronze"), (3, "z", "bronze")]
