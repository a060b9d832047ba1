"""Issue 21: a tournament file with lists beyond the limits is refused before its full, checked parse."""

import json

import pytest

from scoring.errors import RuleViolation
from tests.support.files import base_file, players
from tournaments import limits
from tournaments.interchange import jsonfile
from tournaments.interchange.reader import plan_read

pytestmark = pytest.mark.django_db


@pytest.fixture
def objects_built(monkeypatch):
    """How many objects the checked parse built (its ``object_pairs_hook``)."""
    built = []
    original = jsonfile._object

    def counting(pairs):
        built.append(1)
        return original(pairs)

    monkeypatch.setattr(jsonfile, "_object", counting)
    return built


def _oversized() -> dict:
    data = base_file()
    data["players"] = players(limits.MAX_PLAYERS + 1)
    data["jogos"] = [data["jogos"][1]] * (limits.MAX_JOGOS + 1)
    return data


def test_oversized_lists_are_refused_without_the_checked_parse(objects_built):
    data = _oversized()
    with pytest.raises(RuleViolation) as exc:
        jsonfile.tournament_file_parse(raw=json.dumps(data).encode())
    assert objects_built == []
    lines = [str(e) for e in exc.value.errors]
    assert lines == [str(e) for e in plan_read(data)[1]]  # the same messages the reader gives
    assert lines == [
        f"players: atletas demais: {limits.MAX_PLAYERS + 1} (o máximo num arquivo de torneio é {limits.MAX_PLAYERS})",
        f"jogos: jogos demais: {limits.MAX_JOGOS + 1} (o máximo num arquivo de torneio é {limits.MAX_JOGOS})",
    ]


def test_nested_sizes_are_refused_before_the_checked_parse_too(objects_built):
    data = base_file()
    data["jogos"][1]["partidas"] = [{"maos": [{"to": None}] * (limits.MAX_MAOS_PER_PARTIDA + 1)}]
    with pytest.raises(RuleViolation) as exc:
        jsonfile.tournament_file_parse(raw="\ufeff" + json.dumps(data))
    assert objects_built == []
    assert [str(e) for e in exc.value.errors] == [
        (
            f"jogos[1].partidas[0].maos: mãos numa partida demais: {limits.MAX_MAOS_PER_PARTIDA + 1} (o máximo num "
            f"arquivo de torneio é {limits.MAX_MAOS_PER_PARTIDA})"
        )
    ]


def test_a_file_within_the_limits_gets_the_checked_parse(objects_built):
    data = base_file()
    assert jsonfile.tournament_file_parse(raw=json.dumps(data).encode()) == data
    assert objects_built


@pytest.mark.parametrize(
    "raw, problem",
    [
        (b'{"players": [1, 2], "players": 3}', "players: campo repetido neste objeto: cada campo aparece uma vez"),
        ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "aninhamento profundo demais"),
        ('{"a": ' + "1" * 5000 + "}", "número grande demais (5000 algarismos)"),
        (b'{"a": "\xff"}', "não está em UTF-8"),
        (b'{"a": [1, 2,]}', "JSON inválido na linha 1"),
    ],
)
def test_what_the_plain_parser_cannot_read_is_named_by_the_checked_parse(raw, problem):
    with pytest.raises(RuleViolation) as exc:
        jsonfile.tournament_file_parse(raw=raw)
    assert problem in " ".join(str(e) for e in exc.value.errors)
