"""docs/regras.md §5.4 as changed: a dupla that loses by walkover keeps the place it reached, and its medal."""

import pytest

from tests.support.files import players
from tournaments.interchange.writer import tournament_export
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db


def knockout_file(third_place: str, jogos: list[dict]) -> dict:
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": f"Copa {third_place}",
            "date": "2024-04-27",
            "preset": "aabb",
            "settings": {"third_place": third_place},
        },
        "players": players(8),
        "duplas": [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 5)],
        "stages": [
            {
                "key": "mata",
                "kind": "knockout",
                "best_of": 3,
                "entrants": ["d1", "d2", "d3", "d4"],
                "draw": {"method": "fixed", "order": ["d1", "d2", "d3", "d4"]},
            }
        ],
        "jogos": jogos,
    }


def ko(a, b, **result):
    return {"stage": "mata", "duplas": [a, b], **result}


def medals(data) -> list[tuple]:
    t = tournament_import(data=data)
    return [(c["place"], c["dupla"], c["medal"]) for c in tournament_export(tournament=t)["classification"]]


def test_a_finalist_absent_from_the_final_is_second_with_silver():
    jogos = [
        ko("d1", "d2", partidas=[[12, 3], [12, 4]]),
        ko("d3", "d4", partidas=[[12, 3], [12, 4]]),
        ko("d1", "d3", walkover="d3"),
        ko("d2", "d4", partidas=[[12, 5], [12, 6]]),
    ]
    assert medals(knockout_file("match", jogos)) == [
        (1, "d1", "gold"),
        (2, "d3", "silver"),
        (3, "d2", "bronze"),
        (4, "d4", None),
    ]


def test_with_shared_third_place_an_absent_semi_final_loser_is_third_with_bronze():
    jogos = [
        ko("d1", "d2", walkover="d2"),
        ko("d3", "d4", partidas=[[12, 3], [12, 4]]),
        ko("d1", "d3", partidas=[[12, 3], [3, 12], [12, 4]]),
    ]
    assert medals(knockout_file("shared", jogos)) == [
        (1, "d1", "gold"),
        (2, "d3", "silver"),
        (3, "d2", "bronze"),
        (3, "d4", "bronze"),
    ]


def test_a_disqualified_dupla_still_takes_no_medal():
    data = knockout_file(
        "shared",
        [
            ko("d1", "d2", partidas=[[12, 3], [12, 4]]),
            ko("d3", "d4", partidas=[[12, 3], [12, 4]]),
            ko("d1", "d3", walkover="d3"),
        ],
    )
    data["duplas"][2].update(disqualified=True, disqualified_reason="conduta antidesportiva")
    t = tournament_import(data=data)
    out = tournament_export(tournament=t)
    assert [(c["place"], c["dupla"], c["medal"]) for c in out["classification"]] == [
        (1, "d1", "gold"),
        (2, "d2", "silver"),
        (2, "d4", "silver"),
        (None, "d3", None),
    ]
    assert out["duplas"][2]["disqualified_reason"] == "conduta antidesportiva"


def test_disqualified_reason_survives_the_round_trip_and_needs_a_disqualification():
    from scoring.errors import RuleViolation

    data = knockout_file("match", [])
    data["duplas"][0].update(disqualified=True, disqualified_reason="faltou a duas rodadas")
    first = tournament_export(tournament=tournament_import(data=data))
    again = tournament_export(tournament=tournament_import(data=first))
    assert first["duplas"] == again["duplas"]
    assert again["duplas"][0]["disqualified_reason"] == "faltou a duas rodadas"

    data = knockout_file("match", [])
    data["duplas"][1]["disqualified_reason"] = "sem desclassificação"
    with pytest.raises(RuleViolation) as exc:
        tournament_import(data=data)
    assert [str(e) for e in exc.value.errors] == [
        "duplas[1].disqualified_reason: só uma dupla desclassificada tem motivo de desclassificação"
    ]
