"""A player's optional ``"team"`` (their equipe or club) in the tournament file (INTERCHANGE, last section): read,
checked with its place, written back (public data: also in the public export), and kept on round trip."""

import copy
import json

import pytest

from tests.support.files import base_file, import_errors, nothing_written
from tournaments.interchange.writer import tournament_export
from tournaments.models import Player
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db


def test_team_is_read_trimmed_and_written_back_in_the_public_export():
    data = base_file()
    data["players"][0]["team"] = "  Feras   do Truco "
    data["players"][1]["team"] = "Clube Zap"
    data["players"][2]["team"] = ""  # empty: no equipe
    t = tournament_import(data=data)
    teams = dict(Player.objects.filter(tournament=t).values_list("key", "team"))
    assert teams["p1"] == "Feras do Truco" and teams["p2"] == "Clube Zap"
    assert teams["p3"] == "" and teams["p8"] == ""
    exported = tournament_export(tournament=t)  # the public export (no private data)
    rows = {p["key"]: p for p in exported["players"]}
    assert rows["p1"] == {"key": "p1", "name": "Atleta 1", "team": "Feras do Truco"}
    assert rows["p2"]["team"] == "Clube Zap"
    assert "team" not in rows["p3"] and "team" not in rows["p8"]
    assert "birth_date" not in json.dumps(exported)


def test_team_round_trips():
    data = base_file()
    for i, p in enumerate(data["players"]):
        if i % 3 == 0:
            p["team"] = f"Equipe {i}"
    exported = tournament_export(tournament=tournament_import(data=data))
    again = tournament_export(tournament=tournament_import(data=copy.deepcopy(exported)))
    exported["tournament"]["slug"] = again["tournament"]["slug"]
    assert again == exported
    assert [p.get("team") for p in again["players"]] == [
        "Equipe 0",
        None,
        None,
        "Equipe 3",
        None,
        None,
        "Equipe 6",
        None,
    ]


def test_private_export_keeps_the_team_with_the_private_fields():
    data = base_file()
    data["players"][0]["team"] = "Feras do Truco"
    exported = tournament_export(tournament=tournament_import(data=data), include_private=True)
    assert exported["players"][0]["team"] == "Feras do Truco"
    assert exported["players"][0]["birth_date"] == "1990-01-01"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (7, "deve ser um texto"),
        (["Feras"], "deve ser um texto"),
        ({"name": "Feras"}, "deve ser um texto"),
        (True, "deve ser um texto"),
        ("x" * 121, "texto longo demais: 121 caracteres (máximo 120)"),
    ],
)
def test_a_bad_team_is_refused_with_its_place_and_nothing_is_written(value, message):
    data = base_file()
    data["players"][3]["team"] = value
    errors = import_errors(data)
    assert f"players[3].team: {message}" in errors
    assert nothing_written()


def test_a_team_of_120_characters_is_taken():
    data = base_file()
    data["players"][3]["team"] = "x" * 120
    t = tournament_import(data=data)
    assert Player.objects.get(tournament=t, key="p4").team == "x" * 120
