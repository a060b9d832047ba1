"""Articles of the regulations (docs/regulamentos.md) proven through the import and the public pages."""

import pytest
from django.urls import reverse

from scoring.errors import RuleViolation
from tests.support.files import base_file, players
from tournaments.interchange.writer import tournament_export
from tournaments.models import Tournament
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db


def import_errors(data) -> list[str]:
    with pytest.raises(RuleViolation) as exc:
        tournament_import(data=data)
    return [str(e) for e in exc.value.errors]


def without_best_of(data):
    for stage in data["stages"]:
        stage.pop("best_of", None)
    return data


# --- AABB Art.1: minimum age, counted on the day of the event --------------------------------------------


def test_min_age_is_counted_on_the_event_date():
    data = base_file(min_age=18)  # the event is on 2024-04-27
    data["players"][0]["birth_date"] = "2006-04-27"  # 18 on the very day: accepted
    assert tournament_import(data=data).duplas.count() == 4
    data = base_file(min_age=18)
    data["players"][2]["birth_date"] = "2006-04-28"  # 18 only the day after: refused, at the player
    errors = import_errors(data)
    assert len(errors) == 1
    assert errors[0].startswith("players[2].birth_date: ")
    assert "17 anos em 27/04/2024" in errors[0] and "a partir de 18 anos" in errors[0]
    assert Tournament.objects.count() == 1  # the refused file wrote nothing


# --- AABB Art.2: the limit of duplas ----------------------------------------------------------------------


def test_duplas_beyond_the_limit_are_refused():
    data = base_file(max_duplas=3)  # four duplas given
    errors = import_errors(data)
    assert "duplas: 4 duplas passam do limite de 3 do torneio" in errors
    assert tournament_import(data=base_file(max_duplas=4)).duplas.count() == 4


# --- FENACEF Art.35: no substitution; a dupla is its two athletes, each in one dupla only -----------------


def test_a_dupla_has_two_fixed_athletes_each_in_one_dupla_only():
    data = base_file()
    data["duplas"][1]["players"] = ["p1", "p4"]  # p1 already plays in d1
    errors = import_errors(data)
    assert any(e.startswith("duplas[1].players[0]: ") and "uma vez por torneio" in e for e in errors), errors
    data = base_file()
    data["players"] = players(9)
    data["duplas"][0]["players"] = ["p1", "p2", "p9"]  # a third athlete (a reserve) is not a dupla
    errors = import_errors(data)
    assert any(e.startswith("duplas[0].players: ") and "exatamente 2 atletas" in e for e in errors), errors


# --- FENACEF Art.3 a, Art.4 §2; AABB Art.4: the preset's best-of when the file gives none ------------------


def test_fenacef_groups_are_best_of_three_and_the_knockout_best_of_five():
    data = without_best_of(base_file())
    data["jogos"][0]["partidas"] = [[12, 7], [12, 3], [12, 0]]  # a third partida after 2 x 0
    errors = import_errors(data)
    assert errors[0].startswith("jogos[0].partidas[2]: ") and "melhor de 3" in errors[0]

    data = without_best_of(base_file())
    data["jogos"].append({"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 0], [12, 0]]})
    export = tournament_export(tournament=tournament_import(data=data))
    rounds = export["bracket"]["mata"]["rounds"]
    assert [j["best_of"] for r in rounds for j in r] == [5, 5, 5]
    slot = next(j for j in rounds[0] if "d4" in j["duplas"])
    assert slot["winner"] is None and slot["score"] == [2, 0]  # two partidas won do not end a best of 5


def test_aabb_knockout_is_best_of_five_first_then_three():
    data = base_file(preset="aabb")
    data["players"] = players(16)
    data["duplas"] = [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 9)]
    keys = [f"d{i}" for i in range(1, 9)]
    data["stages"] = [{"key": "mata", "kind": "knockout", "entrants": keys, "draw": {"method": "random", "seed": 3}}]
    data["jogos"] = []
    export = tournament_export(tournament=tournament_import(data=data))
    rounds = export["bracket"]["mata"]["rounds"]
    assert [{j["best_of"] for j in r} for r in rounds] == [{5}, {3}, {3}]
    # the draw by lot is recorded as its result (AABB Art.4: "decididos por sorteio")
    stage = export["stages"][0]
    assert stage["draw"]["method"] == "fixed" and sorted(stage["draw"]["order"]) == keys


# --- FENACEF Art.13 §ún and Art.28 §ún d: perda do jogo, 2 x 0 in the groups and 3 x 0 in the knockout ----


def test_perda_do_jogo_is_two_to_nothing_in_a_group_and_three_to_nothing_in_the_knockout():
    data = without_best_of(base_file())
    data["jogos"][1] = {
        "stage": "grupos",
        "group": "B",
        "duplas": ["d3", "d4"],
        "penalty": {"lost_by": "d3", "reason": "olhou as cartas ao cortar"},
    }
    data["jogos"].append(
        {"stage": "mata", "duplas": ["d1", "d3"], "penalty": {"lost_by": "d1", "reason": "atitude antidesportiva"}}
    )
    export = tournament_export(tournament=tournament_import(data=data))
    group_b = {r["dupla"]: r for r in export["standings"]["grupos"]["B"]}
    assert (group_b["d4"]["points"], group_b["d4"]["partidas_won"], group_b["d4"]["points_for"]) == (3, 2, 24)
    assert (group_b["d3"]["points"], group_b["d3"]["partidas_won"], group_b["d3"]["points_against"]) == (0, 0, 24)
    slot = next(j for j in export["bracket"]["mata"]["rounds"][0] if "d1" in j["duplas"])
    assert slot["winner"] == "d3"
    assert slot["score"] == ([0, 3] if slot["duplas"][0] == "d1" else [3, 0])


# --- FENACEF Art.8-9, AABB Art.9, general rules: the deck and the manilhas are printed with the rules ------


@pytest.mark.parametrize(
    "preset,manilha",
    [
        ("fenacef", "fixa (velha): 4♣ 7♥ A♠ 7♦"),
        ("aabb", "variável (vira)"),
        ("online", "variável (vira)"),
    ],
)
def test_the_event_page_states_the_manilha_and_the_deck(client, preset, manilha):
    t = tournament_import(data=base_file(preset=preset, slug=f"copa-{preset}"))
    html = client.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
    assert manilha in html
    assert "sujo (40 cartas)" in html
