"""Articles of the regulations (docs/regulamentos.md) that no other pure-rules test proves on its own.

Each test names the article it proves; the table in docs/regulamentos.md points here.
"""

import pytest

from scoring.jogo import WALKOVER_BOTH, JogoEntry, PartidaEntry, jogo_evaluate
from scoring.partida import MAO_DE_FERRO, MAO_DE_ONZE, Mao, partida_from_maos, situation
from scoring.ranking import LEVELS, player_level, player_score, ranking_compute
from scoring.rules import PRESETS, settings_build
from scoring.tournament import (
    GROUPS,
    KNOCKOUT,
    DuplaInfo,
    GroupSpec,
    JogoRecord,
    StageSpec,
    group_best_of,
    knockout_best_of,
    tournament_compute,
)

FENACEF = PRESETS["fenacef"]
ONLINE = PRESETS["online"]


def result(*scores, best_of=3, walkover=None):
    entry = JogoEntry(best_of=best_of, partidas=tuple(PartidaEntry(score=s) for s in scores), walkover=walkover)
    res, errors = jogo_evaluate(entry=entry, settings=FENACEF)
    assert errors == [], errors
    return res


def info(*keys, disqualified=()):
    return [DuplaInfo(key=k, players=(f"{k}-1", f"{k}-2"), disqualified=k in disqualified) for k in keys]


# --- FENACEF Art.3 a, Art.4 §2; AABB Art.4: best-of per stage and round ----------------------------------


@pytest.mark.parametrize(
    "preset,groups,rounds",
    [
        ("fenacef", 3, [5, 5, 5, 5]),  # FENACEF Art.3 a and Art.4 §2: 3 in the groups, first to 3 wins in the knockout
        ("aabb", 3, [5, 3, 3, 3]),  # AABB Art.4: best of 5 in the first phase, best of 3 after
        ("online", 3, [3, 3, 3, 3]),  # DOMAIN §6 (Online has no tournament format of its own)
    ],
)
def test_best_of_of_each_stage_and_round_comes_from_the_preset(preset, groups, rounds):
    settings = PRESETS[preset]
    ko = StageSpec(key="mata", kind=KNOCKOUT)
    assert group_best_of(stage=StageSpec(key="grupos", kind=GROUPS), settings=settings) == groups
    assert [knockout_best_of(stage=ko, round_number=r, settings=settings) for r in (1, 2, 3, 4)] == rounds
    # the file may still override a round (INTERCHANGE best_of_rounds), which wins over the preset
    custom = StageSpec(key="mata", kind=KNOCKOUT, best_of_rounds={2: 7})
    assert knockout_best_of(stage=custom, round_number=2, settings=settings) == 7


# --- FENACEF Art.6 §3-§4: the average is taken over every jogo played, walkovers excluded -------------------


def test_average_counts_every_jogo_of_the_event_except_walkovers():
    groups = StageSpec(
        key="g",
        kind=GROUPS,
        best_of=3,
        per_group=2,
        groups=(GroupSpec("A", ("a", "b", "c")), GroupSpec("B", ("x", "y", "z"))),
    )
    ko = StageSpec(key="k", kind=KNOCKOUT, best_of=3, draw_method="fixed", draw_order=("a", "y", "x", "b"))
    jogos = [
        JogoRecord("g", ("a", "b"), result((12, 5), (12, 7)), group="A"),
        JogoRecord("g", ("a", "c"), result(walkover=1), group="A"),  # c absent: no pontos-partida
        JogoRecord("g", ("b", "c"), result((12, 0), (3, 12), (12, 10)), group="A"),
        JogoRecord("g", ("x", "y"), result((12, 9), (12, 9)), group="B"),
        JogoRecord("g", ("x", "z"), result((12, 1), (12, 1)), group="B"),
        JogoRecord("g", ("y", "z"), result((12, 2), (12, 2)), group="B"),
        JogoRecord("k", ("a", "y"), result((12, 11), (10, 12), (12, 4)), round=1, position=1),
    ]
    view = tournament_compute(
        settings=FENACEF, duplas=info("a", "b", "c", "x", "y", "z"), stages=[groups, ko], jogos=jogos
    )
    a = view.stats["a"]
    # group: 24 for, 12 against; WO against c adds nothing; knockout semi-final: 34 for, 27 against
    assert (a.points_for, a.points_against) == (24 + 34, 12 + 27)
    assert a.average == round(58 / 39, 3)
    assert a.partidas_won == 2 + 2 + 2  # the WO counts as partidas won (DOMAIN §4), not as pontos-partida
    c = view.stats["c"]
    assert (c.points_for, c.points_against) == (22, 27)  # only the jogo it played


# --- FENACEF Art.36 §1: a disqualification has no retroactive effect ----------------------------------------


def test_disqualification_keeps_the_results_already_played():
    stage = StageSpec(key="rr", kind=GROUPS, best_of=3, per_group=0, groups=(GroupSpec("A", ("p", "q", "r", "s")),))
    jogos = [
        JogoRecord("rr", ("p", "q"), result((12, 3), (12, 3)), group="A"),
        JogoRecord("rr", ("p", "r"), result((12, 8), (5, 12), (12, 6)), group="A"),
        JogoRecord("rr", ("p", "s"), result((12, 0), (12, 0)), group="A"),
        JogoRecord("rr", ("q", "r"), result((12, 10), (12, 10)), group="A"),
        JogoRecord("rr", ("q", "s"), result((12, 9), (9, 12), (12, 9)), group="A"),
        JogoRecord("rr", ("r", "s"), result((12, 4), (12, 4)), group="A"),
    ]
    plain = tournament_compute(settings=FENACEF, duplas=info("p", "q", "r", "s"), stages=[stage], jogos=jogos)
    disq = tournament_compute(
        settings=FENACEF, duplas=info("p", "q", "r", "s", disqualified=("p",)), stages=[stage], jogos=jogos
    )

    def table(view):
        return [(r.rank, r.dupla, r.points, r.partidas_won, r.saldo) for r in view.stages[0].tables[0].rows]

    # the group table, the jogos won against the disqualified dupla and its own results all stand
    assert table(disq) == table(plain)
    assert [row[:3] for row in table(plain)] == [(1, "p", 8), (2, "q", 5), (3, "r", 4), (4, "s", 1)]
    assert disq.stats == plain.stats
    # only the places change: p takes none, the others move up
    assert [(c.place, c.dupla) for c in plain.classification] == [(1, "p"), (2, "q"), (3, "r"), (4, "s")]
    assert [(c.place, c.dupla, c.medal) for c in disq.classification] == [
        (1, "q", "gold"),
        (2, "r", "silver"),
        (3, "s", "bronze"),
        (None, "p", None),
    ]


# --- Truco Online, Mão de 11: the other dupla that reaches exactly 11 leads to the mão de ferro -------------


def _to(side, points=None, how="played"):
    return Mao(to=side, points=points, how=how)


def test_online_mao_de_onze_lost_to_a_dupla_on_eight_leads_to_the_mao_de_ferro():
    to_eight_and_eleven = [_to(1, 6), _to(1, 1), _to(1, 1), _to(0, 9), _to(0, 1), _to(0, 1)]
    score, errors = partida_from_maos(maos=to_eight_and_eleven, settings=ONLINE)
    assert errors == [] and score.score == (11, 8) and situation(score.score) == MAO_DE_ONZE
    # the dupla on 8 wins the accepted mão de onze: 3 points, 11 x 11, nobody has won yet
    score, errors = partida_from_maos(maos=to_eight_and_eleven + [_to(1)], settings=ONLINE)
    assert errors == [] and score.score == (11, 11) and not score.finished
    assert situation(score.score) == MAO_DE_FERRO
    # then the mão de ferro: no truco, and whoever wins it wins the partida
    _, errors = partida_from_maos(maos=to_eight_and_eleven + [_to(1), _to(1, 3)], settings=ONLINE)
    assert [e.place for e in errors] == ["maos[7]"] and "mão de ferro" in errors[0].message
    score, errors = partida_from_maos(maos=to_eight_and_eleven + [_to(1), _to(1)], settings=ONLINE)
    assert errors == [] and score.finished and score.winner == 1 and score.score == (11, 12)
    # from 9 or 10 the same win passes 12 and ends the partida at once
    for start in (9, 10):
        maos = [_to(1, 9)] + [_to(1, 1)] * (start - 9) + [_to(0, 9), _to(0, 1), _to(0, 1), _to(1)]
        score, errors = partida_from_maos(maos=maos, settings=ONLINE)
        assert errors == [] and score.finished and score.winner == 1 and score.score == (11, start + 3)


# --- Truco Online, Ranking §1 and §4: what counts for the ranking -----------------------------------------


def test_ranking_counts_finished_jogos_and_walkovers_as_abandonment():
    duplas = info("d1", "d2", "d3", "d4")
    jogos = [
        JogoRecord("k", ("d1", "d2"), result((12, 5), (12, 7)), round=1, position=1),
        JogoRecord("k", ("d3", "d2"), result(walkover=1), round=1, position=2),  # d2 absent: abandono
        JogoRecord("k", ("d3", "d4"), result(walkover=WALKOVER_BOTH), round=1, position=3),  # both absent
        JogoRecord("k", ("d1", "d4"), result((12, 5)), round=1, position=4),  # not finished: ignored
    ]
    rows = {r.player: r for r in ranking_compute(duplas=duplas, jogos=jogos)}
    expected = {"d1": (1, 1, 0), "d2": (2, 0, 1), "d3": (2, 1, 1), "d4": (1, 0, 1)}
    for dupla, (played, won, abandoned) in expected.items():
        for player in (f"{dupla}-1", f"{dupla}-2"):  # both athletes of a dupla carry its jogos
            row = rows[player]
            assert (row.played, row.won, row.walkovers_lost) == (played, won, abandoned), player
            assert row.score == player_score(played=played, won=won, walkovers_lost=abandoned)
            assert row.level == player_level(score=row.score)
    # an abandonment costs: d3 (one win, one abandonment) is below d1 (one win, no abandonment)
    assert rows["d3-1"].score < rows["d1-1"].score
    assert rows["d4-1"].score == 0  # never below zero


def test_a_lost_jogo_never_raises_the_level():
    # Online Ranking §4: "apenas os jogadores vencedores recebem aumento de nível"
    order = [name for name, _ in LEVELS]
    for played in range(120):
        for won in range(played + 1):
            for abandoned in {0, (played - won) // 2, played - won}:
                before = player_level(score=player_score(played=played, won=won, walkovers_lost=abandoned))
                for extra_abandon in (0, 1):  # the loss on the pitch, or by walkover
                    after = player_level(
                        score=player_score(played=played + 1, won=won, walkovers_lost=abandoned + extra_abandon)
                    )
                    assert order.index(after) <= order.index(before), (played, won, abandoned, extra_abandon)


# --- FENACEF Art.8 and AABB Art.9 (baralho): the deck is the sujo, and a tournament cannot change it ---------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_deck_is_always_the_dirty_one(preset):
    assert PRESETS[preset].deck == "sujo"
    settings, errors = settings_build(preset=preset, overrides={"deck": "limpo"})
    assert settings is None and [e.place for e in errors] == ["settings.deck"]
    assert "não pode ser alterado" in errors[0].message
