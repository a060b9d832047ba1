"""Group standings with tiebreaks and the comparison across groups (docs/regras.md §5.1-§5.2)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from scoring.jogo import WALKOVER_BOTH, JogoEntry, PartidaEntry, jogo_evaluate
from scoring.rules import PRESETS
from scoring.standings import (
    AVERAGE,
    DRAW,
    HEAD_TO_HEAD,
    INF,
    PARTIDAS_WON,
    POINTS,
    SALDO,
    DuplaStats,
    GroupJogo,
    average_key,
    average_value,
    cross_group_order,
    cut_is_decided,
    group_standings,
    rows_qualify,
    stats_collect,
)

S = PRESETS["fenacef"]
CP = S.class_points


def result(*scores, best_of=3, walkover=None):
    entry = JogoEntry(best_of=best_of, partidas=tuple(PartidaEntry(score=s) for s in scores), walkover=walkover)
    res, errors = jogo_evaluate(entry=entry, settings=S)
    assert errors == [], errors
    return res


def j(a, b, *scores, best_of=3):
    return GroupJogo(duplas=(a, b), result=result(*scores, best_of=best_of))


def wo(a, b, absent):
    """WO; ``absent`` is the absent dupla's key or 'both'."""
    side = WALKOVER_BOTH if absent == WALKOVER_BOTH else (0 if absent == a else 1)
    return GroupJogo(duplas=(a, b), result=result(walkover=side))


def table(duplas, jogos, draws=()):
    rows, used = group_standings(duplas=duplas, jogos=jogos, points=CP, draws=draws)
    return rows, used


def view(rows):
    return [(r.rank, r.dupla, r.decided_by, r.tied) for r in rows]


# --- stats ------------------------------------------------------------------------------


def test_stats_of_played_jogos():
    jogos = [j("A", "B", (12, 5), (7, 12), (12, 10)), j("C", "A", (12, 0), (12, 0))]
    stats = stats_collect(duplas=["A", "B", "C"], jogos=jogos, points=CP)
    assert stats["A"] == DuplaStats(
        dupla="A",
        points=2,
        jogos=2,
        won=1,
        lost=1,
        partidas_won=2,
        partidas_lost=3,
        points_for=31,
        points_against=27 + 24,
    )
    assert stats["A"].saldo == -20 and stats["A"].average == round(31 / 51, 3)
    assert stats["B"] == DuplaStats(
        dupla="B", points=1, jogos=1, won=0, lost=1, partidas_won=1, partidas_lost=2, points_for=27, points_against=31
    )
    assert stats["C"].points == 3 and stats["C"].average == INF and stats["C"].saldo == 24


def test_walkover_counts_partidas_but_not_saldo_or_average():
    jogos = [wo("A", "B", "B"), j("A", "C", (12, 6), (6, 12), (12, 9)), wo("B", "C", WALKOVER_BOTH)]
    stats = stats_collect(duplas="ABC", jogos=jogos, points=CP)
    a = stats["A"]
    assert (a.points, a.jogos, a.won, a.partidas_won, a.partidas_lost) == (5, 2, 2, 4, 1)
    assert (a.points_for, a.points_against, a.saldo) == (30, 27, 3)
    assert a.average == round(30 / 27, 3)
    b = stats["B"]  # absent twice: 0 points, jogos counted as lost, no pontos-partida at all
    assert (b.points, b.jogos, b.won, b.lost, b.partidas_won, b.partidas_lost) == (0, 2, 0, 2, 0, 2)
    assert (b.points_for, b.points_against, b.average) == (0, 0, None)
    c = stats["C"]
    assert (c.points, c.partidas_won, c.partidas_lost, c.points_for, c.points_against) == (1, 1, 2, 27, 30)


def test_unfinished_jogos_do_not_count():
    jogos = [GroupJogo(("A", "B"), result((12, 0))), j("A", "C", (12, 0), (12, 0))]
    stats = stats_collect(duplas="ABC", jogos=jogos, points=CP)
    assert stats["B"] == DuplaStats(dupla="B")
    assert stats["A"].points_for == 24 and stats["A"].jogos == 1


def test_average_values_and_keys():
    assert average_value(30, 27) == 1.111
    assert average_value(10, 0) == INF
    assert average_value(0, 0) is None
    assert average_value(0, 12) == 0.0
    keys = [average_key(10, 0), average_key(1000, 1), average_key(1, 1), average_key(0, 5), average_key(0, 0)]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == len(keys)
    assert average_key(6, 4) == average_key(3, 2)  # exact, not rounded
    assert average_key(1000, 999) > average_key(1001, 1000)


# --- hand-computed tables --------------------------------------------------------------

# A 6-dupla group where every criterion decides something (each jogo's scores below):
#   pts  partidas  saldo
# C 10   9         +69   partidas_won over A and F
# A 10   8          -1   head_to_head over F (A beat F), although F's saldo is better
# F 10   8         +31   points over B
# B  5   4          +3   B, E, D: the mini-table is a cycle (3 each) → saldo
# E  5   4         -43
# D  5   4         -59
SIX = [
    j("A", "B", (6, 12), (12, 11), (6, 12)),
    j("A", "C", (0, 12), (12, 11), (6, 12)),
    j("A", "D", (12, 11), (12, 0)),
    j("A", "E", (12, 6), (6, 12), (12, 11)),
    j("A", "F", (12, 0), (12, 11)),
    j("B", "C", (0, 12), (6, 12)),
    j("B", "D", (12, 0), (12, 0)),
    j("B", "E", (6, 12), (11, 12)),
    j("B", "F", (6, 12), (11, 12)),
    j("C", "D", (12, 0), (11, 12), (12, 6)),
    j("C", "E", (12, 0), (11, 12), (12, 0)),
    j("C", "F", (0, 12), (12, 0), (6, 12)),
    j("D", "E", (12, 11), (12, 0)),
    j("D", "F", (0, 12), (12, 6), (0, 12)),
    j("E", "F", (11, 12), (0, 12)),
]


def test_every_criterion_table():
    rows, used = table("ABCDEF", SIX)
    assert used == []
    assert [(r.dupla, r.points, r.partidas_won, r.saldo) for r in rows] == [
        ("C", 10, 9, 69),
        ("A", 10, 8, -1),
        ("F", 10, 8, 31),
        ("B", 5, 4, 3),
        ("E", 5, 4, -43),
        ("D", 5, 4, -59),
    ]
    assert view(rows) == [
        (1, "C", PARTIDAS_WON, False),
        (2, "A", HEAD_TO_HEAD, False),
        (3, "F", POINTS, False),
        (4, "B", SALDO, False),
        (5, "E", SALDO, False),
        (6, "D", None, False),
    ]


def test_three_way_tie_broken_by_mini_table_then_two_restart_at_head_to_head():
    # A, B, C: 5 points and 4 partidas each. Among them A takes 5 mini-table points, B and C 2 each;
    # B and C start again at head-to-head and B beat C. Saldo would give C, B, A.
    jogos = [
        j("A", "B", (12, 11), (12, 11)),  # A 3, B 0
        j("B", "C", (12, 11), (0, 12), (12, 11)),  # B 2, C 1
        j("A", "C", (12, 11), (0, 12), (12, 11)),  # A 2, C 1
        j("D", "A", (12, 0), (12, 0)),  # D 3, A 0
        j("B", "D", (12, 11), (12, 11)),  # B 3
        j("C", "D", (12, 0), (12, 0)),  # C 3
    ]
    rows, _ = table("ABCD", jogos)
    assert [(r.dupla, r.points, r.partidas_won, r.saldo) for r in rows] == [
        ("A", 5, 4, -32),
        ("B", 5, 4, -10),
        ("C", 5, 4, 44),
        ("D", 3, 2, -2),
    ]
    assert view(rows) == [
        (1, "A", HEAD_TO_HEAD, False),
        (2, "B", HEAD_TO_HEAD, False),
        (3, "C", POINTS, False),
        (4, "D", None, False),
    ]


def test_mini_table_shrinking_four_to_three_restarts_with_a_mini_table_of_the_three():
    # A, B, C, D: 7 points and 6 partidas each (E lost to all but A).
    # Mini-table of the four: A 6, B 4, C 4, D 4 → A first. B, C, D start again among themselves:
    # B 4, C 3, D 2 (their points against A no longer count) → B, C, D.
    jogos = [
        j("A", "B", (12, 0), (12, 0)),  # A 3, B 0
        j("A", "C", (12, 0), (0, 12), (12, 0)),  # A 2, C 1
        j("A", "D", (12, 0), (0, 12), (0, 12)),  # D 2, A 1
        j("B", "C", (12, 0), (0, 12), (12, 0)),  # B 2, C 1
        j("C", "D", (12, 0), (0, 12), (12, 0)),  # C 2, D 1
        j("B", "D", (12, 0), (0, 12), (12, 0)),  # B 2, D 1
        j("A", "E", (12, 0), (0, 12), (0, 12)),  # E 2, A 1
        j("B", "E", (12, 0), (12, 0)),
        j("C", "E", (12, 0), (12, 0)),
        j("D", "E", (12, 0), (12, 0)),
    ]
    rows, _ = table("ABCDE", jogos)
    assert [(r.dupla, r.points, r.partidas_won) for r in rows] == [
        ("A", 7, 6),
        ("B", 7, 6),
        ("C", 7, 6),
        ("D", 7, 6),
        ("E", 2, 2),
    ]
    assert view(rows) == [
        (1, "A", HEAD_TO_HEAD, False),
        (2, "B", HEAD_TO_HEAD, False),
        (3, "C", HEAD_TO_HEAD, False),
        (4, "D", POINTS, False),
        (5, "E", None, False),
    ]


def test_two_duplas_that_met_more_than_once():
    twice = [j("A", "B", (12, 0), (12, 0)), j("A", "B", (0, 12), (0, 12)), j("A", "B", (12, 0), (12, 11))]
    rows, _ = table("AB", twice)
    assert view(rows) == [(1, "A", POINTS, False), (2, "B", None, False)]
    rows, _ = table("AB", twice[:2])  # one jogo each, same points and partidas, saldo 0: a tie
    assert view(rows) == [(1, "A", None, True), (1, "B", None, True)]
    rows2, _ = table("AB", twice[1::-1])
    assert view(rows2) == view(rows)


def test_three_way_cycle_not_separated_by_mini_table_goes_to_saldo():
    jogos = [
        j("A", "B", (12, 0), (12, 0)),  # A +24
        j("B", "C", (12, 10), (12, 10)),  # B +4
        j("C", "A", (12, 6), (12, 6)),
    ]  # C +12
    rows, _ = table("ABC", jogos)
    assert [(r.dupla, r.saldo) for r in rows] == [("A", 12), ("C", 8), ("B", -20)]
    assert view(rows) == [(1, "A", SALDO, False), (2, "C", SALDO, False), (3, "B", None, False)]


def test_tie_after_saldo_shares_the_rank_until_the_sorteio():
    jogos = [
        j("A", "B", (12, 5), (12, 5)),
        j("B", "C", (12, 5), (12, 5)),
        j("C", "A", (12, 5), (12, 5)),
        j("A", "D", (12, 0), (12, 0)),
        j("B", "D", (12, 0), (12, 0)),
        j("C", "D", (12, 0), (12, 0)),
    ]
    rows, used = table("ABCD", jogos)
    assert used == []
    assert view(rows) == [(1, "A", None, True), (1, "B", None, True), (1, "C", POINTS, True), (4, "D", None, False)]
    assert rows_qualify(rows, 2)[0].qualified is False  # the tie straddles the cut
    assert [r.qualified for r in rows_qualify(rows, 3)] == [True, True, True, False]
    assert not cut_is_decided(rows, 1) and not cut_is_decided(rows, 2)
    assert cut_is_decided(rows, 3) and cut_is_decided(rows, 4)

    rows, used = table("ABCD", jogos, draws=[("C", "A", "B")])
    assert used == [frozenset("ABC")]
    assert view(rows) == [(1, "C", DRAW, False), (2, "A", DRAW, False), (3, "B", POINTS, False), (4, "D", None, False)]
    assert [r.qualified for r in rows_qualify(rows, 2)] == [True, True, False, False]
    assert cut_is_decided(rows, 2)


def test_two_tied_duplas_that_did_not_meet_go_to_saldo_then_sorteio():
    jogos = [wo("A", "B", WALKOVER_BOTH), j("A", "C", (12, 5), (12, 5)), j("B", "C", (12, 6), (12, 4))]
    rows, _ = table("ABC", jogos)
    assert [(r.dupla, r.points, r.partidas_won, r.saldo) for r in rows] == [
        ("A", 3, 2, 14),
        ("B", 3, 2, 14),
        ("C", 0, 0, -28),
    ]
    assert view(rows) == [(1, "A", None, True), (1, "B", POINTS, True), (3, "C", None, False)]
    rows, used = table("ABC", jogos, draws=[["B", "A"]])
    assert used == [frozenset("AB")]
    assert view(rows) == [(1, "B", DRAW, False), (2, "A", POINTS, False), (3, "C", None, False)]


def test_two_tied_duplas_separated_by_saldo():
    jogos = [wo("A", "B", WALKOVER_BOTH), j("A", "C", (12, 5), (12, 5)), j("B", "C", (12, 6), (12, 5))]
    rows, _ = table("ABC", jogos)
    assert view(rows) == [(1, "A", SALDO, False), (2, "B", POINTS, False), (3, "C", None, False)]


def five_level(scores):
    """Five duplas in a cycle, every jogo won 2 x 1: each beats the next two (A beats B and C, … E beats A and B).

    Everybody ends on 6 points and 6 partidas, and the mini-table of the five is level, so saldo comes
    next. ``scores`` gives the loser's points in the three partidas of each jogo, in the order of CYCLE.
    """
    return [j(w, l, (12, x), (y, 12), (12, z)) for (w, l), (x, y, z) in zip(CYCLE, scores, strict=False)]


CYCLE = [
    ("A", "B"),
    ("A", "C"),
    ("B", "C"),
    ("B", "D"),
    ("C", "D"),
    ("C", "E"),
    ("D", "E"),
    ("D", "A"),
    ("E", "A"),
    ("E", "B"),
]


def test_saldo_splits_five_then_the_pair_that_met_restarts_at_head_to_head():
    # DOMAIN §5.1: saldo orders A, B, C; D and E stay level on saldo and start again at head-to-head:
    # D beat E, so D is ahead ("confronto direto após saldo"), no sorteio.
    jogos = five_level(
        [
            (5, 5, 11),
            (0, 10, 5),
            (0, 0, 11),
            (5, 10, 11),
            (0, 10, 5),
            (11, 5, 0),
            (10, 5, 5),
            (0, 5, 11),
            (5, 0, 10),
            (11, 0, 5),
        ]
    )
    rows, used = table("ABCDE", jogos)
    assert used == []
    assert {(r.points, r.partidas_won) for r in rows} == {(6, 6)}
    assert [(r.dupla, r.saldo) for r in rows] == [("A", 15), ("B", 10), ("C", 5), ("D", -15), ("E", -15)]
    assert view(rows) == [
        (1, "A", SALDO, False),
        (2, "B", SALDO, False),
        (3, "C", SALDO, False),
        (4, "D", HEAD_TO_HEAD, False),
        (5, "E", None, False),
    ]
    assert [r.decided_after for r in rows] == [None, None, None, SALDO, None]
    # the same jogos written the other way round and in another order give the same table
    again, _ = table("EDCBA", [flip(g) for g in reversed(jogos)])
    assert view(again) == view(rows)


def test_three_left_level_by_saldo_are_ordered_by_their_mini_table():
    # Saldo puts A first and E last; B, C and D stay level on saldo and start again at head-to-head with
    # their own mini-table: B beat C and D (2 + 2), C beat D (1 + 2), D lost both (1 + 1).
    jogos = five_level(
        [
            (0, 11, 0),
            (11, 5, 5),
            (0, 11, 0),
            (10, 5, 11),
            (0, 5, 5),
            (10, 10, 0),
            (10, 10, 0),
            (11, 5, 10),
            (5, 0, 5),
            (10, 5, 11),
        ]
    )
    rows, _used = table("ABCDE", jogos)
    assert [(r.dupla, r.saldo) for r in rows] == [("A", 26), ("B", 0), ("C", 0), ("D", 0), ("E", -26)]
    assert view(rows) == [
        (1, "A", SALDO, False),
        (2, "B", HEAD_TO_HEAD, False),
        (3, "C", HEAD_TO_HEAD, False),
        (4, "D", SALDO, False),
        (5, "E", None, False),
    ]
    assert [r.decided_after for r in rows] == [None, SALDO, SALDO, None, None]


def test_after_saldo_a_pair_that_did_not_meet_goes_to_the_sorteio():
    # A live table: A, B and C have each beaten D and not yet met. Saldo puts C last; A and B, level on
    # saldo, start again at head-to-head, which cannot separate duplas that did not meet: they await
    # the sorteio.
    jogos = [j("A", "D", (12, 0), (12, 0)), j("B", "D", (12, 0), (12, 0)), j("C", "D", (12, 6), (12, 6))]
    rows, used = table("ABCD", jogos)
    assert used == []
    assert view(rows) == [(1, "A", None, True), (1, "B", SALDO, True), (3, "C", POINTS, False), (4, "D", None, False)]
    rows, used = table("ABCD", jogos, draws=[["B", "A"]])
    assert used == [frozenset("AB")]
    assert view(rows) == [(1, "B", DRAW, False), (2, "A", SALDO, False), (3, "C", POINTS, False), (4, "D", None, False)]
    assert rows[0].decided_after is None  # the sorteio is the next criterion after saldo, not a restart


def test_sorteio_that_does_not_match_a_tied_block_is_not_used():
    jogos = [wo("A", "B", WALKOVER_BOTH), j("A", "C", (12, 5), (12, 5)), j("B", "C", (12, 6), (12, 4))]
    for draw in (["A", "C"], ["A", "B", "C"], ["A"], ["B", "B", "A"], ["A", "B", "B"]):
        rows, used = table("ABC", jogos, draws=[draw])
        assert used == []
        assert view(rows) == [(1, "A", None, True), (1, "B", POINTS, True), (3, "C", None, False)]


def test_walkover_winner_beats_the_absent_dupla_head_to_head():
    # A and B: 3 points, 2 partidas each. A won their jogo by WO, B has the better saldo.
    jogos = [wo("A", "B", "B"), j("C", "A", (12, 0), (12, 0)), j("B", "C", (12, 0), (12, 0))]
    rows, _ = table("ABC", jogos)
    # with three duplas it is a cycle of the mini-table → saldo (the WO gives A no pontos-partida)
    assert [(r.dupla, r.points, r.partidas_won, r.saldo) for r in rows] == [
        ("B", 3, 2, 24),
        ("C", 3, 2, 0),
        ("A", 3, 2, -24),
    ]
    assert view(rows) == [(1, "B", SALDO, False), (2, "C", SALDO, False), (3, "A", None, False)]
    # with a fourth dupla that A and B both beat, A and B tie on 6 points and 4 partidas: A won the WO
    jogos2 = [
        wo("A", "B", "B"),
        j("A", "C", (0, 12), (0, 12)),
        j("B", "C", (12, 0), (12, 0)),
        j("A", "D", (12, 0), (12, 0)),
        j("B", "D", (12, 0), (12, 0)),
        j("D", "C", (12, 11), (12, 11)),
    ]
    rows, _ = table("ABCD", jogos2)
    assert [(r.dupla, r.points) for r in rows[:2]] == [("A", 6), ("B", 6)]
    assert rows[0].decided_by == HEAD_TO_HEAD and rows[0].saldo < rows[1].saldo


def test_group_with_no_jogos_is_one_tie():
    rows, _ = table("BAC", [])
    assert view(rows) == [(1, "A", None, True), (1, "B", None, True), (1, "C", None, True)]


def test_rows_read_like_their_stats():
    rows, _ = table("ABCDEF", SIX)
    assert rows[0].points == 10 and rows[0].saldo == 69 and rows[0].average == round(147 / 78, 3)
    with pytest.raises(AttributeError):
        rows[0].nonexistent


# --- property: the order in which jogos are given does not matter --------------------------

OUTCOMES = ["20", "21", "12", "02", "wo0", "wo1", "both"]


@st.composite
def round_robins(draw):
    n = draw(st.integers(2, 6))
    duplas = [f"d{i}" for i in range(n)]
    jogos = []
    for a, b in itertools.combinations(duplas, 2):
        kind = draw(st.sampled_from(OUTCOMES))
        if kind.startswith("wo"):
            jogos.append(wo(a, b, a if kind == "wo0" else b))
        elif kind == "both":
            jogos.append(wo(a, b, WALKOVER_BOTH))
        else:
            sides = {"20": [0, 0], "21": [0, 1, 0], "12": [1, 0, 1], "02": [1, 1]}[kind]
            loser_pts = st.sampled_from([0, 5, 10, 11])
            scores = [(12, draw(loser_pts)) if s == 0 else (draw(loser_pts), 12) for s in sides]
            jogos.append(j(a, b, *scores))
    return duplas, jogos


def flip(g):
    """The same jogo written with the duplas the other way round."""
    res, errors = jogo_evaluate(
        entry=JogoEntry(
            best_of=3,
            partidas=tuple(PartidaEntry(score=(p.score[1], p.score[0])) for p in g.result.partidas),
            walkover=g.result.walkover if g.result.walkover in (None, WALKOVER_BOTH) else 1 - g.result.walkover,
        ),
        settings=S,
    )
    assert not errors
    return GroupJogo(duplas=(g.duplas[1], g.duplas[0]), result=res)


def full(rows):
    return [(r.rank, r.dupla, r.decided_by, r.tied, r.stats) for r in rows]


@hsettings(max_examples=300, deadline=None)
@given(data=st.data(), rr=round_robins())
def test_standings_do_not_depend_on_the_order_of_jogos(data, rr):
    duplas, jogos = rr
    base, _ = table(duplas, jogos)
    shuffled = data.draw(st.permutations(jogos))
    flips = data.draw(st.lists(st.booleans(), min_size=len(jogos), max_size=len(jogos)))
    shuffled = [flip(g) if f else g for g, f in zip(shuffled, flips, strict=False)]
    order = data.draw(st.permutations(duplas))
    again, _ = table(order, shuffled)
    assert full(again) == full(base)
    check_invariants(base, jogos)


def mini_table(block, jogos):
    """Classification points of each dupla of ``block`` in the jogos among them (a WO counts too)."""
    members = {r.dupla for r in block}
    among = [g for g in jogos if set(g.duplas) <= members]
    return {d: s.points for d, s in stats_collect(duplas=members, jogos=among, points=CP).items()}


def check_invariants(rows, jogos):
    assert rows[-1].decided_by is None
    for _i, r in enumerate(rows):
        block = [x for x in rows if x.rank == r.rank]
        first = rows.index(block[0])
        assert r.rank == first + 1  # a shared rank is the position of the first of the block
        assert (len(block) > 1) == r.tied
        if r.tied:
            s = block[0]
            assert (r.points, r.partidas_won, r.saldo) == (s.points, s.partidas_won, s.saldo)
            # only a block that neither head-to-head nor saldo can shrink awaits the sorteio (DOMAIN §5.1)
            assert len(set(mini_table(block, jogos).values())) == 1
    for upper, lower in zip(rows, rows[1:], strict=False):
        key_u, key_l = (upper.points, upper.partidas_won), (lower.points, lower.partidas_won)
        assert key_u >= key_l
        if upper.rank == lower.rank:
            assert upper.decided_by is None
            continue
        expected = POINTS if upper.points != lower.points else PARTIDAS_WON if key_u != key_l else None
        if expected:
            assert upper.decided_by == expected
        else:
            assert upper.decided_by in (HEAD_TO_HEAD, SALDO, DRAW)
            if upper.decided_by == SALDO:
                assert upper.saldo > lower.saldo


# --- across groups (docs/regras.md §5.2) -------------------------------------------------------


def st_(dupla, points, partidas_won, pf, pa):
    return DuplaStats(dupla=dupla, points=points, partidas_won=partidas_won, points_for=pf, points_against=pa)


def test_cross_group_points_first():
    rows, _ = cross_group_order(candidates=[(st_("x", 4, 4, 50, 60), 4), (st_("y", 6, 4, 10, 90), 3)])
    assert view(rows) == [(1, "y", POINTS, False), (2, "x", None, False)]


def test_cross_group_equal_sizes_partidas_then_saldo():
    a = st_("a", 6, 5, 100, 90)  # saldo +10, average 1.111
    b = st_("b", 6, 4, 200, 100)  # saldo +100, best average
    c = st_("c", 6, 4, 150, 130)  # saldo +20
    d = st_("d", 6, 4, 130, 110)  # saldo +20
    rows, _ = cross_group_order(candidates=[(a, 4), (b, 4), (c, 4), (d, 4)])
    assert view(rows) == [
        (1, "a", PARTIDAS_WON, False),
        (2, "b", SALDO, False),
        (3, "c", None, True),
        (3, "d", None, True),
    ]
    rows, used = cross_group_order(candidates=[(a, 4), (b, 4), (c, 4), (d, 4)], draws=[["d", "c"]])
    assert used == [frozenset("cd")]
    assert view(rows) == [
        (1, "a", PARTIDAS_WON, False),
        (2, "b", SALDO, False),
        (3, "d", DRAW, False),
        (4, "c", None, False),
    ]


def test_cross_group_different_sizes_use_average():
    a = st_("a", 6, 5, 100, 90)  # more partidas, average 1.111
    b = st_("b", 6, 4, 120, 100)  # average 1.2
    c = st_("c", 6, 3, 24, 0)  # inf
    d = st_("d", 6, 6, 0, 0)  # 0 ÷ 0: last (e.g. only walkovers)
    e = st_("e", 6, 2, 60, 50)  # average 1.2 too → tie after average
    rows, _ = cross_group_order(candidates=[(a, 4), (b, 3), (c, 4), (d, 4), (e, 3)])
    assert [r.dupla for r in rows] == ["c", "b", "e", "a", "d"]
    assert view(rows) == [
        (1, "c", AVERAGE, False),
        (2, "b", None, True),
        (2, "e", AVERAGE, True),
        (4, "a", AVERAGE, False),
        (5, "d", None, False),
    ]
    rows, _ = cross_group_order(candidates=[(a, 4), (b, 3), (c, 4), (d, 4), (e, 3)], draws=[["e", "b"]])
    assert [r.dupla for r in rows] == ["c", "e", "b", "a", "d"]
    assert rows[1].decided_by == DRAW


def test_cross_group_inf_above_every_finite_average():
    huge = st_("huge", 3, 2, 10_000, 1)
    inf = st_("inf", 3, 2, 1, 0)
    rows, _ = cross_group_order(candidates=[(huge, 3), (inf, 4)])
    assert [r.dupla for r in rows] == ["inf", "huge"] and rows[0].decided_by == AVERAGE


def test_cross_group_zero_over_zero_ranks_last_even_below_zero_average():
    zero = st_("zero", 3, 2, 0, 50)
    none = st_("none", 3, 2, 0, 0)
    rows, _ = cross_group_order(candidates=[(none, 3), (zero, 4)])
    assert [r.dupla for r in rows] == ["zero", "none"]
    assert rows[1].average is None and rows[0].average == 0.0


def test_cross_group_equal_sizes_do_not_use_average():
    a = st_("a", 6, 4, 50, 10)  # average 5, saldo 40
    b = st_("b", 6, 4, 300, 200)  # average 1.5, saldo 100
    rows, _ = cross_group_order(candidates=[(a, 4), (b, 4)])
    assert [r.dupla for r in rows] == ["b", "a"] and rows[0].decided_by == SALDO
    rows, _ = cross_group_order(candidates=[(a, 4), (b, 5)])
    assert [r.dupla for r in rows] == ["a", "b"] and rows[0].decided_by == AVERAGE


@given(st.integers(0, 5000), st.integers(1, 5000), st.integers(0, 5000), st.integers(1, 5000))
def test_average_key_orders_exactly_like_the_fractions(a, b, c, d):
    from fractions import Fraction

    from scoring.standings import average_key

    exact = Fraction(a, b), Fraction(c, d)
    keys = average_key(a, b), average_key(c, d)
    assert (keys[0] == keys[1]) == (exact[0] == exact[1])
    assert (keys[0] < keys[1]) == (exact[0] < exact[1])
