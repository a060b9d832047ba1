"""The circuit's season ranking (scoring/circuit.py, DOMAIN §7.3) and the Nível path (§7.2), hand-computed."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.circuit import (
    ALTERNATE,
    OUT,
    QUALIFIED,
    TIED,
    Etapa,
    Qualify,
    circuit_movement,
    circuit_qualify,
    circuit_ranking,
    points_table_parse,
    team_ranking,
)
from scoring.errors import RuleViolation
from scoring.ranking import player_score, score_walk

DEFAULT = points_table_parse(None)


def by_atleta(rows):
    return {row.atleta: row for row in rows}


# --- the points table ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "points"),
    [(1, 100), (2, 75), (3, 60), (4, 50), (5, 30), (8, 30), (9, 15), (16, 15), (17, 8), (32, 8), (33, 3), (250, 3)],
)
def test_default_table(place, points):
    assert DEFAULT.for_place(place) == points


def test_custom_table_without_others_gives_nothing_beyond():
    table = points_table_parse({"1": 10, "2-3": 5})
    assert [table.for_place(p) for p in (1, 2, 3, 4)] == [10, 5, 5, 0]


@pytest.mark.parametrize(
    ("raw", "where", "says"),
    [
        ({"1": 10, "3": 5}, "circuit.points.3", "faltam os pontos do 2º lugar"),
        ({"1": 10, "4-8": 5}, "circuit.points.4-8", "faltam os pontos do 2-3º lugar"),
        ({"1-4": 10, "3": 5}, "circuit.points.3", "colocação 3º aparece em mais de uma chave"),
        ({"1": 10, "primeiro": 5}, "circuit.points.primeiro", "uma colocação"),
        ({"1": 10, "5-2": 5}, "circuit.points.5-2", "uma faixa"),
        ({"1": -1}, "circuit.points.1", "0 ou mais"),
        ({"1": True}, "circuit.points.1", "número inteiro"),
        ({"1": 2.5}, "circuit.points.1", "número inteiro"),
        ({}, "circuit.points", "vazia"),
    ],
)
def test_bad_tables_are_refused_naming_the_key(raw, where, says):
    with pytest.raises(RuleViolation) as refused:
        points_table_parse(raw)
    assert any(e.place == where and says in e.message for e in refused.value.errors), refused.value.errors


def test_every_problem_of_a_table_at_once():
    with pytest.raises(RuleViolation) as refused:
        points_table_parse({"1": -3, "x": 1, "others": "muito"})
    assert sorted(e.place for e in refused.value.errors) == [
        "circuit.points.1",
        "circuit.points.others",
        "circuit.points.x",
    ]


# --- the ranking -----------------------------------------------------------------------------------------------


def test_shared_ranks_and_the_rank_after_them():
    etapa = Etapa(key="e1", places={"ana": 1, "bia": 1, "caio": 2, "davi": 2, "edu": 3, "fabi": 3})
    rows = circuit_ranking(etapas=[etapa], table=DEFAULT, names={"ana": "Ana", "bia": "Bia"})
    assert [(r.rank, r.atleta, r.points) for r in rows] == [
        (1, "ana", 100),
        (1, "bia", 100),
        (3, "caio", 75),
        (3, "davi", 75),
        (5, "edu", 60),
        (5, "fabi", 60),
    ]


def test_shared_third_gives_each_dupla_third_place_points():
    # two duplas share the 3rd place (no third-place jogo): four atletas with 60 and a 3rd place each
    etapa = Etapa(key="e1", places={"a": 1, "b": 1, "c": 2, "d": 2, "e": 3, "f": 3, "g": 3, "h": 3, "i": 5, "j": 5})
    rows = by_atleta(circuit_ranking(etapas=[etapa], table=DEFAULT))
    assert {a: rows[a].points for a in "efgh"} == dict.fromkeys("efgh", 60)
    assert {rows[a].rank for a in "efgh"} == {5}
    assert rows["e"].places == (0, 0, 1)
    assert rows["i"].rank == 9 and rows["i"].points == 30


def test_best_n_with_ties_counts_the_earlier_etapas_and_strikes_the_rest():
    etapas = [
        Etapa(key="e1", places={"ana": 5}),  # 30
        Etapa(key="e2", places={"ana": 1}),  # 100
        Etapa(key="e3", places={"ana": 6}),  # 30, struck: an earlier 30 counts
        Etapa(key="e4", places={"ana": 9}),  # 15, struck
    ]
    (row,) = circuit_ranking(etapas=etapas, table=DEFAULT, count_best=2)
    assert row.points == 130
    assert row.etapas == 4
    assert [(r.etapa, r.points, r.counted) for r in row.results] == [
        ("e1", 30, True),
        ("e2", 100, True),
        ("e3", 30, False),
        ("e4", 15, False),
    ]


def test_weights_multiply_and_round_down():
    etapas = [
        Etapa(key="e1", places={"ana": 9}, weight=Fraction(3, 2)),  # 15 × 1.5 = 22.5 → 22
        Etapa(key="final", places={"ana": 2}, weight=2, final=True),  # 75 × 2 = 150
        Etapa(key="e3", places={"ana": 3}, weight=Fraction(1, 3)),  # 60 / 3 = 20
    ]
    (row,) = circuit_ranking(etapas=etapas, table=DEFAULT)
    assert [r.points for r in row.results] == [22, 150, 20]
    assert row.points == 192


def test_disqualified_gets_zero_no_place_and_has_played():
    etapas = [
        Etapa(key="e1", places={"ana": 1, "bia": 2}),
        Etapa(key="e2", places={"bia": 1}, disqualified=frozenset({"ana"})),
    ]
    rows = by_atleta(circuit_ranking(etapas=etapas, table=DEFAULT))
    assert rows["ana"].results[1].place is None and rows["ana"].results[1].points == 0
    assert rows["ana"].etapas == 2 and rows["ana"].points == 100 and rows["ana"].places == (1, 0, 0)
    assert rows["bia"].points == 175 and rows["bia"].rank == 1 and rows["ana"].rank == 2


def test_equal_points_ranked_by_more_firsts_then_seconds_then_thirds():
    table = points_table_parse({"1": 10, "2": 6, "3": 4, "others": 2})
    etapas = [
        Etapa(key="e1", places={"x": 1, "y": 2, "z": 2, "w": 3}),
        Etapa(key="e2", places={"x": 7, "y": 2, "z": 3, "w": 3}),
        Etapa(key="e3", places={"z": 9, "w": 3}),
    ]
    rows = circuit_ranking(etapas=etapas, table=table)
    # x: 10 + 2 (one 1st); y: 6 + 6 (two 2nds); z: 6 + 4 + 2 (a 2nd, a 3rd); w: 4 + 4 + 4 (three 3rds)
    assert [(r.atleta, r.points, r.rank) for r in rows] == [("x", 12, 1), ("y", 12, 2), ("z", 12, 3), ("w", 12, 4)]


def test_an_etapa_counts_once_finished_and_excluded_atletas_are_out():
    etapas = [
        Etapa(key="e1", places={"ana": 1, "bia": 2}),
        Etapa(key="e2", places={"bia": 1, "ana": 2}, finished=False),
    ]
    rows = circuit_ranking(etapas=etapas, table=DEFAULT, excluded={"bia"})
    assert [(r.atleta, r.points, r.etapas) for r in rows] == [("ana", 100, 1)]


def test_the_ranking_after_each_etapa_and_movement():
    e1 = Etapa(key="e1", places={"ana": 1, "bia": 2, "caio": 3})
    e2 = Etapa(key="e2", places={"caio": 1, "bia": 2, "davi": 3})
    before = circuit_ranking(etapas=[e1], table=DEFAULT)
    after = circuit_ranking(etapas=[e1, e2], table=DEFAULT)
    # after e2: caio 160, bia 150, ana 100, davi 60
    assert [(r.atleta, r.points) for r in after] == [("caio", 160), ("bia", 150), ("ana", 100), ("davi", 60)]
    assert circuit_movement(before=before, after=after) == {"caio": 2, "bia": 0, "ana": -2, "davi": None}


# --- qualification ---------------------------------------------------------------------------------------------


def _season():
    # points over the etapas not marked final: a 200, b 175, c 150, d 150 (tied), e 100, f 100 (one etapa)
    return [
        Etapa(key="e1", places={"a": 1, "b": 2, "c": 2, "d": 2, "e": 1}),
        Etapa(key="e2", places={"a": 1, "b": 1, "c": 2, "d": 2, "e": 36, "f": 1}),
        Etapa(key="final", places={"f": 1, "e": 1}, final=True, weight=2),
    ]


def test_qualification_ties_at_the_line_until_a_sorteio():
    q = Qualify(top=3, min_etapas=2, alternates=1)
    states = circuit_qualify(etapas=_season(), table=DEFAULT, qualify=q)
    assert {a: (s.status, s.line) for a, s in states.items()} == {
        "a": (QUALIFIED, ""),
        "b": (QUALIFIED, ""),
        "c": (TIED, QUALIFIED),
        "d": (TIED, QUALIFIED),  # one qualifying place left for two: a sorteio
        "e": (OUT, ""),  # 103 points, but the tie fills the alternate's place
        "f": (OUT, ""),  # played one etapa of those that qualify
    }
    settled = circuit_qualify(etapas=_season(), table=DEFAULT, qualify=q, drawn=["d", "c"])
    assert {a: s.status for a, s in settled.items()} == {
        "a": QUALIFIED,
        "b": QUALIFIED,
        "d": QUALIFIED,
        "c": ALTERNATE,
        "e": OUT,
        "f": OUT,
    }


def test_qualification_alternates_and_a_tie_at_the_alternates_line():
    q = Qualify(top=2, alternates=1)
    states = circuit_qualify(etapas=_season(), table=DEFAULT, qualify=q)
    assert {a: (s.status, s.line) for a, s in states.items()} == {
        "a": (QUALIFIED, ""),
        "b": (QUALIFIED, ""),
        "c": (TIED, ALTERNATE),
        "d": (TIED, ALTERNATE),
        "e": (OUT, ""),
        "f": (OUT, ""),
    }


def test_qualification_ignores_the_final():
    q = Qualify(top=1)
    states = circuit_qualify(etapas=_season(), table=DEFAULT, qualify=q)
    assert states["a"].status == QUALIFIED and states["f"].status == OUT  # f's final (200) is not counted


# --- equipes ---------------------------------------------------------------------------------------------------


def test_team_ranking_sums_the_best_four():
    etapa = Etapa(key="e1", places={"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "x": 1, "y": 2, "z": 17})
    rows = circuit_ranking(etapas=[etapa], table=DEFAULT)
    teams = {
        "a": "Feras",
        "b": "Feras",
        "c": "Feras",
        "d": "Feras",
        "e": "Feras",
        "x": "Ases",
        "y": "Ases",
        "z": "Ases",
    }
    ranked = team_ranking(rows=rows, teams=teams)
    assert [(t.rank, t.team, t.points, t.atletas) for t in ranked] == [
        (1, "Feras", 100 + 75 + 60 + 50, ("a", "b", "c", "d")),
        (2, "Ases", 100 + 75 + 8, ("x", "y", "z")),
    ]


# --- properties ------------------------------------------------------------------------------------------------

ATLETAS = st.sampled_from(list("abcdefgh"))
ETAPA = st.builds(
    lambda key, places, weight: Etapa(key=key, places=places, weight=weight),
    st.just(""),
    st.dictionaries(ATLETAS, st.integers(min_value=1, max_value=40), max_size=8),
    st.integers(min_value=1, max_value=3),
)


@given(etapas=st.lists(ETAPA, max_size=6), best=st.one_of(st.none(), st.integers(min_value=1, max_value=4)))
def test_ranking_properties(etapas, best):
    etapas = [Etapa(key=f"e{i}", places=e.places, weight=e.weight) for i, e in enumerate(etapas)]
    rows = circuit_ranking(etapas=etapas, table=DEFAULT, count_best=best)
    assert {r.atleta for r in rows} == {a for e in etapas for a in e.places}
    for row in rows:
        points = sorted((r.points for r in row.results), reverse=True)
        assert row.points == sum(points[:best] if best else points)  # the best N, whatever the ties
        assert sum(r.counted for r in row.results) == min(len(row.results), best or len(row.results))
    keys = [(-r.points, -r.places[0], -r.places[1], -r.places[2]) for r in rows]
    assert keys == sorted(keys)
    for i, row in enumerate(rows):
        assert row.rank == (rows[i - 1].rank if i and keys[i] == keys[i - 1] else i + 1)


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=60))
def test_nivel_never_rises_on_a_loss_never_falls_on_a_win(jogos):
    path = score_walk(results=jogos)
    assert len(path) == len(jogos)
    previous = 0
    for (won, _walkover), score in zip(jogos, path, strict=True):
        assert score >= 0
        if won:
            assert score >= previous
        else:
            assert score <= previous
        previous = score


def test_nivel_path_by_hand():
    # a loss first stays at 0; a win then takes S of (G=2, W=1); a walkover loss can only lower it
    path = score_walk(results=[(False, False), (True, False), (False, True)])
    assert path[0] == 0
    assert path[1] == player_score(played=2, won=1, walkovers_lost=0)
    assert path[2] == min(path[1], player_score(played=3, won=1, walkovers_lost=1))
    # ten wins in a row climb every time: S rises with G while the win rate stays 1
    wins = score_walk(results=[(True, False)] * 10)
    assert wins == sorted(wins) and wins[-1] == player_score(played=10, won=10, walkovers_lost=0)


def test_an_equipe_typed_two_ways_is_one_equipe():
    from scoring.circuit import CircuitRow, team_ranking

    rows = [CircuitRow(rank=i + 1, atleta=f"a{i}", points=100 - 10 * i, etapas=1, places=(0, 0, 0)) for i in range(3)]
    teams = team_ranking(rows=rows, teams={"a0": "Feras do Truco", "a1": "FERAS  do truco", "a2": "Féras do Truco "})
    assert [(t.team, t.points, t.atletas) for t in teams] == [("Feras do Truco", 270, ("a0", "a1", "a2"))]
