"""Issue 12: a file the database cannot hold, or no real event needs, is refused cleanly by the reader.

Each cause seen crashing the import (values beyond the columns, JSON that parses badly, texts with NUL or
lone surrogates, wrong types, times with a UTC offset, sizes far beyond a real event) gets the same
placed message on SQLite and on PostgreSQL, and nothing is written.
"""

import copy
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from scoring.errors import RuleViolation
from tests.support.files import base_file, players
from tournaments import limits
from tournaments.interchange.jsonfile import tournament_file_parse
from tournaments.interchange.reader import plan_read
from tournaments.models import Dupla, Player, Stage, Tournament
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def knockout_file(order):
    """Four duplas straight into a knockout drawn in a fixed order."""
    data = base_file()
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": ["d1", "d2", "d3", "d4"],
            "draw": {"method": "fixed", "order": order},
        }
    ]
    data["jogos"] = []
    return data


def row_counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in apps.get_app_config("tournaments").get_models()}


def refused(data) -> list[str]:
    """The import's refusal, line by line; asserts that nothing was written."""
    before = row_counts()
    with pytest.raises(RuleViolation) as exc:
        tournament_import(data=data)
    assert row_counts() == before
    return [str(e) for e in exc.value.errors]


def parse_refused(raw) -> list[str]:
    with pytest.raises(RuleViolation) as exc:
        tournament_file_parse(raw=raw)
    return [str(e) for e in exc.value.errors]


# --- values beyond the columns, limits taken from the model fields ----------------------


def test_keys_longer_than_their_column_are_refused_with_the_columns_length():
    assert Player._meta.get_field("key").max_length == 60  # the limit comes from here
    data = base_file()
    data["players"][0]["key"] = "p" * 61
    data["duplas"][1]["key"] = "d" * 61
    lines = refused(data)
    assert "players[0].key: chave longa demais: 61 caracteres (máximo 60)" in lines
    assert "duplas[1].key: chave longa demais: 61 caracteres (máximo 60)" in lines
    data = base_file()
    data["stages"][0]["key"] = "s" * 61
    data["stages"][0]["groups"][0]["key"] = "g" * 61
    lines = refused(data)
    assert "stages[0].key: chave longa demais: 61 caracteres (máximo 60)" in lines
    data = base_file()
    data["stages"][0]["groups"][1]["key"] = "g" * 61
    assert refused(data) == ["stages[0].groups[1].key: chave longa demais: 61 caracteres (máximo 60)"]


def test_a_key_as_long_as_its_column_is_kept():
    data = base_file()
    long_key = "d" * 60
    data["duplas"][0]["key"] = long_key
    data["stages"][0]["groups"][0]["duplas"][0] = long_key
    data["jogos"][0]["duplas"][0] = long_key
    t = tournament_import(data=data)
    assert t.duplas.filter(key=long_key).exists()


def test_texts_longer_than_their_column_are_refused():
    data = base_file(name="N" * 201, venue="V" * 201)
    data["players"][0]["name"] = "A" * 201
    lines = refused(data)
    assert "tournament.name: texto longo demais: 201 caracteres (máximo 200)" in lines
    assert "tournament.venue: texto longo demais: 201 caracteres (máximo 200)" in lines
    data = base_file()
    data["players"][0]["phone"] = "9" * 41
    assert refused(data) == ["players[0].phone: texto longo demais: 41 caracteres (máximo 40)"]


def test_reasons_over_300_characters_are_refused_wherever_they_are():
    assert Dupla._meta.get_field("disqualified_reason").max_length == 300
    data = base_file()
    data["duplas"][3].update(disqualified=True, disqualified_reason="x" * 301)
    assert refused(data) == ["duplas[3].disqualified_reason: texto longo demais: 301 caracteres (máximo 300)"]
    data = base_file()
    data["jogos"][0] = {
        "stage": "grupos",
        "group": "A",
        "duplas": ["d1", "d2"],
        "penalty": {"lost_by": "d2", "reason": "x" * 301},
    }
    assert refused(data) == ["jogos[0].penalty.reason: motivo longo demais: 301 caracteres (máximo 300)"]
    data = base_file()
    data["jogos"][0]["partidas"][1] = {"penalty": {"lost_by": "d2", "reason": "x" * 301}}
    assert refused(data) == ["jogos[0].partidas[1].penalty.reason: motivo longo demais: 301 caracteres (máximo 300)"]
    data = base_file()
    data["jogos"][0]["partidas"][0] = {
        "maos": [{"to": 0, "points": 1, "how": "penalty", "reason": "x" * 301}, {"to": 0, "points": 12}]
    }
    assert refused(data) == ["jogos[0].partidas[0].maos[0].reason: motivo longo demais: 301 caracteres (máximo 300)"]


def test_a_reason_of_300_characters_is_kept():
    data = base_file()
    data["jogos"][0] = {
        "stage": "grupos",
        "group": "A",
        "duplas": ["d1", "d2"],
        "penalty": {"lost_by": "d2", "reason": "x" * 300},
    }
    t = tournament_import(data=data)
    assert t.jogos.get(dupla_a__key="d1", dupla_b__key="d2").penalty_reason == "x" * 300


@pytest.mark.parametrize(
    ("where", "value", "line"),
    [
        (
            ("duplas", 0, "seed"),
            2**31,
            "duplas[0].seed: a cabeça de chave deve ser um número inteiro entre 1 e 2147483647",
        ),
        (("duplas", 0, "seed"), 0, "duplas[0].seed: a cabeça de chave deve ser um número inteiro entre 1 e 2147483647"),
        (("jogos", 0, "mesa"), 2**31, "jogos[0].mesa: a mesa deve ser um número inteiro entre 1 e 2147483647"),
        (
            ("jogos", 0, "mesa"),
            2**63,
            "jogos[0].mesa: número fora do intervalo aceito (de -9223372036854775808 a 9223372036854775807)",
        ),
        (
            ("tournament", "max_duplas"),
            2**31,
            f"tournament.max_duplas: o limite de duplas deve ser um número inteiro entre 2 e {limits.MAX_DUPLAS}",
        ),
        (
            ("tournament", "min_age"),
            2**15,
            "tournament.min_age: a idade mínima deve ser um número inteiro entre 0 e 120",
        ),
        (
            ("stages", 1, "draw", "seed"),
            2**63,
            "stages[1].draw.seed: número fora do intervalo aceito (de -9223372036854775808 a 9223372036854775807)",
        ),
        (
            ("stages", 1, "draw", "seed"),
            1.5,
            (
                "stages[1].draw.seed: a semente do sorteio deve ser um número inteiro entre -9223372036854775808 e "
                "9223372036854775807"
            ),
        ),
        (("stages", 0, "best_of"), 32_769, "stages[0].best_of: melhor de 32769 passa do máximo de 15 partidas"),
        (("stages", 0, "best_of"), 17, "stages[0].best_of: melhor de 17 passa do máximo de 15 partidas"),
        (
            ("stages", 1, "best_of_rounds"),
            {"1": 32_769},
            "stages[1].best_of_rounds.1: melhor de 32769 passa do máximo de 15 partidas",
        ),
        (
            ("stages", 1, "best_of_rounds"),
            {"13": 3},
            "stages[1].best_of_rounds: rodada '13' inválida: use 1 para a primeira rodada, 2 para a seguinte… (no máximo 12)",
        ),
        (
            ("tournament", "settings"),
            {"best_of_groups": 32_769},
            "tournament.settings.best_of_groups: melhor de 32769 passa do máximo de 15 partidas",
        ),
        (
            ("tournament", "settings"),
            {"class_points": {"clean_win": 10**12}},
            "tournament.settings.class_points.clean_win: pontos classificatórios demais: 1000000000000 (o máximo é 100)",
        ),
    ],
)
def test_numbers_beyond_their_column_or_the_event_are_refused(where, value, line):
    data = base_file()
    node = data
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    assert refused(data) == [line]


def test_the_largest_values_the_columns_hold_are_kept():
    data = base_file(max_duplas=limits.MAX_DUPLAS)
    data["duplas"][0]["seed"] = 2**31 - 1
    data["jogos"][0]["mesa"] = 2**31 - 1
    data["stages"][1]["draw"] = {"method": "seeded", "seed": 2**63 - 1}
    t = tournament_import(data=data)
    assert t.duplas.get(key="d1").seed == 2**31 - 1
    assert t.jogos.get(dupla_a__key="d1", dupla_b__key="d2").mesa == 2**31 - 1
    assert Stage.objects.get(tournament=t, key="mata").draw_seed == 2**63 - 1


def test_pairing_seed_beyond_a_bigint_is_refused():
    data = base_file()
    data["players"] += players(10)[8:]
    data["registrations"] = [{"players": ["p9"]}, {"players": ["p10"]}]
    data["pairing"] = {"seed": 2**63}
    assert refused(data) == [
        ("pairing.seed: número fora do intervalo aceito (de -9223372036854775808 a 9223372036854775807)")
    ]


# --- wrong types and forms ----------------------------------------------------------


@pytest.mark.parametrize("item", [["d1"], {"key": "d1"}, 3, True])
def test_draw_order_items_that_are_not_keys_are_refused(item):
    lines = refused(knockout_file(["d1", item, "d3", "d4"]))
    assert lines == ["stages[0].draw.order: a ordem da chave lista chaves de duplas (textos), com null para bye"]


def test_a_fixed_draw_order_of_keys_still_imports():
    t = tournament_import(data=knockout_file(["d1", "d2", "d3", "d4"]))
    assert {frozenset((j.dupla_a.key, j.dupla_b.key)) for j in t.jogos.all()} == {
        frozenset(("d1", "d2")),
        frozenset(("d3", "d4")),
    }


@pytest.mark.parametrize("value", ["14:00+03:00", "14:00Z", "14:00:00-03:00", "14:00:00.5", "T14:00", "1400", "14h"])
def test_start_time_is_a_local_time_of_day(value):
    assert refused(base_file(start_time=value)) == [
        f"tournament.start_time: horário inválido {value!r}: use HH:MM (hora local, sem fuso horário)"
    ]


def test_start_time_hh_mm_is_kept():
    t = tournament_import(data=base_file(start_time="14:30"))
    t.refresh_from_db()
    assert t.start_time.strftime("%H:%M") == "14:30"


@pytest.mark.parametrize(("field", "text"), [("name", "Ana\x00Souza"), ("name", "Ana\ud800"), ("key", "p\udc001")])
def test_texts_with_nul_or_lone_surrogates_are_refused_with_their_place(field, text):
    data = base_file()
    data["players"][3][field] = text
    lines = refused(data)
    assert len(lines) == 1 and lines[0].startswith(f"players[3].{field}: texto com caractere inválido (U+")


def test_a_field_name_with_a_nul_is_refused():
    data = base_file()
    data["tournament"]["ven\x00ue"] = "Bar"
    assert refused(data)[0].startswith("tournament: nome de campo com caractere inválido")


def test_python_data_too_deep_or_too_big_is_refused_without_recursion():
    deep: list = []
    node = deep
    for _ in range(5_000):
        node.append([])
        node = node[0]
    data = base_file()
    data["extra"] = deep
    lines = refused(data)
    assert len(lines) == 1 and lines[0].endswith(
        f"aninhamento profundo demais (o máximo é {limits.JSON_MAX_DEPTH} níveis)"
    )
    data = base_file()
    data["version"] = 10**5000  # no repr of it may be attempted
    assert refused(data) == ["version: número fora do intervalo aceito (de -9223372036854775808 a 9223372036854775807)"]


def test_plan_read_keeps_its_signature_and_reports_without_raising():
    plan, errors = plan_read([1, 2])
    assert plan is None and [str(e) for e in errors] == [
        "arquivo: deve ser um objeto JSON (com format, version, tournament…)"
    ]
    plan, errors = plan_read(base_file())
    assert plan is not None and errors == []


# --- JSON that parses badly -------------------------------------------------------------


def test_parse_reads_utf8_with_or_without_bom():
    text = json.dumps(base_file(name="Copa São João"), ensure_ascii=False)
    assert tournament_file_parse(raw=text.encode("utf-8")) == json.loads(text)
    assert tournament_file_parse(raw=b"\xef\xbb\xbf" + text.encode("utf-8")) == json.loads(text)
    assert tournament_file_parse(raw="\ufeff" + text) == json.loads(text)


def test_parse_refuses_bad_utf8_and_bad_json_with_their_position():
    assert parse_refused(b'{"a": "\xff"}') == ["arquivo: não está em UTF-8 (byte 7 inválido)"]
    assert parse_refused('{"format": "truco-torneio",\n "version": 1,,}') == [
        "JSON inválido na linha 2, coluna 15: esperava o nome de um campo entre aspas duplas"
    ]


def test_duplicate_keys_are_refused_naming_the_key_and_its_place():
    text = '{"format": "truco-torneio", "version": 1, "tournament": {"name": "A", "name": "B", "preset": "aabb"}}'
    assert parse_refused(text) == ["tournament.name: campo repetido neste objeto: cada campo aparece uma vez"]


def test_giant_integers_are_refused_with_their_place():
    text = '{"format": "truco-torneio", "version": 1, "tournament": {"max_duplas": ' + "9" * 5_000 + "}}"
    assert parse_refused(text) == ["tournament.max_duplas: número grande demais (5000 algarismos)"]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(constant):
    text = '{"format": "truco-torneio", "version": ' + constant + "}"
    assert parse_refused(text) == [f"version: {constant} não é um número aceito; use um número finito"]
    assert parse_refused('{"version": 1e999}') == ["version: número fora do intervalo aceito; use um número finito"]


@pytest.mark.parametrize("depth", [limits.JSON_MAX_DEPTH + 1, 1_000, 100_000])
def test_nesting_too_deep_is_refused(depth):
    text = '{"format": "truco-torneio", "extra": ' + "[" * depth + "]" * depth + "}"
    lines = parse_refused(text)
    assert len(lines) == 1 and lines[0].endswith(
        f"aninhamento profundo demais (o máximo é {limits.JSON_MAX_DEPTH} níveis)"
    )


def test_escaped_nul_and_lone_surrogates_are_refused_with_their_place():
    text = json.dumps(base_file()).replace('"Atleta 4"', '"Atleta\\u0000 4"').replace('"Atleta 5"', '"Atleta \\ud800"')
    assert parse_refused(text) == [
        "players[3].name: texto com caractere inválido (U+0000, caractere nulo) na posição 7",
        "players[4].name: texto com caractere inválido (U+D800, metade de um par substituto UTF-16) na posição 8",
    ]


def test_parse_refuses_a_file_over_the_size_limit():
    raw = b" " * (limits.FILE_MAX_BYTES + 1)
    assert parse_refused(raw) == [
        (
            f"arquivo: grande demais: {limits.FILE_MAX_BYTES + 1} bytes; o máximo é 16 MiB "
            f"({limits.FILE_MAX_BYTES} bytes)"
        )
    ]


def test_problems_listed_are_capped():
    text = json.dumps({"x": ["\\u0000"] * 1000}).replace("\\\\u0000", "\\u0000")
    lines = parse_refused(text)
    assert len(lines) == limits.JSON_MAX_PROBLEMS + 1
    assert (
        lines[-1] == f"arquivo: mais {1000 - limits.JSON_MAX_PROBLEMS} problemas como estes; corrija os listados "
        "e importe de novo"
    )


# --- sizes beyond a real event: refused at once -------------------------------------------


def _quick(data) -> list[str]:
    started = time.perf_counter()
    lines = refused(data)
    assert time.perf_counter() - started < 10, "a file beyond the limits is refused before any heavy work"
    return lines


def one_group_file(n: int) -> dict:
    """``n`` duplas in one group, no result yet."""
    data = base_file()
    data["players"] = players(2 * n)
    data["duplas"] = [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, n + 1)]
    data["stages"] = [
        {
            "key": "grupos",
            "kind": "groups",
            "best_of": 1,
            "groups": [{"key": "A", "duplas": [f"d{i}" for i in range(1, n + 1)]}],
            "qualify": {"per_group": 1},
        }
    ]
    data["jogos"] = []
    return data


def test_a_group_bigger_than_the_limit_is_refused_at_once():
    n = 600
    data = one_group_file(n)
    assert _quick(data) == [
        (
            f"stages[0].groups[0].duplas: duplas num grupo demais: {n} (o máximo num arquivo de "
            f"torneio é {limits.MAX_GROUP_DUPLAS})"
        )
    ]


def test_a_group_at_the_limit_imports():
    n = limits.MAX_GROUP_DUPLAS
    data = one_group_file(n)
    t = tournament_import(data=data)
    assert t.jogos.count() == n * (n - 1) // 2


def test_too_many_people_are_refused_at_once():
    data = base_file()
    data["players"] = players(limits.MAX_PLAYERS + 1)
    data["registrations"] = [{"players": [f"p{i}"]} for i in range(1, limits.MAX_REGISTRATIONS + 2)]
    data["duplas"] = [
        {"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, limits.MAX_DUPLAS + 2)
    ]
    assert _quick(data) == [
        f"players: atletas demais: {limits.MAX_PLAYERS + 1} (o máximo num arquivo de torneio é {limits.MAX_PLAYERS})",
        (
            f"registrations: inscrições demais: {limits.MAX_REGISTRATIONS + 1} (o máximo num arquivo de torneio é "
            f"{limits.MAX_REGISTRATIONS})"
        ),
        f"duplas: duplas demais: {limits.MAX_DUPLAS + 1} (o máximo num arquivo de torneio é {limits.MAX_DUPLAS})",
    ]


def test_too_many_partidas_maos_and_jogos_are_refused_at_once():
    data = base_file()
    data["jogos"][0]["partidas"] = [[12, 0]] * (limits.MAX_BEST_OF + 1)
    data["jogos"][1] = {
        "stage": "grupos",
        "group": "B",
        "duplas": ["d3", "d4"],
        "partidas": [{"maos": [{"to": None}] * (limits.MAX_MAOS_PER_PARTIDA + 1)}],
    }
    assert _quick(data) == [
        (
            f"jogos[0].partidas: partidas num jogo demais: {limits.MAX_BEST_OF + 1} (o máximo num arquivo de torneio é "
            f"{limits.MAX_BEST_OF})"
        ),
        (
            f"jogos[1].partidas[0].maos: mãos numa partida demais: {limits.MAX_MAOS_PER_PARTIDA + 1} (o máximo num "
            f"arquivo de torneio é {limits.MAX_MAOS_PER_PARTIDA})"
        ),
    ]
    data = base_file()
    data["jogos"] = [data["jogos"][1]] * (limits.MAX_JOGOS + 1)
    assert _quick(data) == [
        (f"jogos: jogos demais: {limits.MAX_JOGOS + 1} (o máximo num arquivo de torneio é {limits.MAX_JOGOS})")
    ]


def test_stages_that_would_schedule_too_many_jogos_are_refused():
    n = limits.MAX_DUPLAS
    data = base_file()
    data["players"] = players(2 * n)
    data["duplas"] = [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, n + 1)]
    groups = [{"key": f"G{g}", "duplas": [f"d{i}" for i in range(g * 16 + 1, g * 16 + 17)]} for g in range(n // 16)]
    stage = {"kind": "groups", "best_of": 1, "groups": groups, "qualify": {"per_group": 1}}
    data["stages"] = [{"key": "fase1", **stage}, {"key": "fase2", **copy.deepcopy(stage)}]
    data["jogos"] = []
    scheduled = 2 * (n // 16) * 120
    assert _quick(data) == [
        (f"stages: as fases dão até {scheduled} jogos; o máximo num arquivo de torneio é {limits.MAX_JOGOS}")
    ]


# --- the command ---------------------------------------------------------------------


def test_command_refuses_a_parse_problem_with_placed_lines(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"format": "truco-torneio", "format": "x", "version": ' + "1" * 5000 + "}", encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path))
    assert str(exc.value).splitlines() == [
        "format: campo repetido neste objeto: cada campo aparece uma vez",
        "version: número grande demais (5000 algarismos)",
    ]
    assert not Tournament.objects.exists()


def test_command_refuses_values_beyond_the_columns_with_exit_status_1(tmp_path):
    data = base_file(start_time="14:00+03:00")
    data["duplas"][0]["seed"] = 2**31
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = io.StringIO()
    before = row_counts()
    with pytest.raises(SystemExit) as exc:
        call_command("import_tournament", str(path), stderr=err)
    assert exc.value.code == 1
    assert err.getvalue().splitlines() == [
        "tournament.start_time: horário inválido '14:00+03:00': use HH:MM (hora local, sem fuso horário)",
        "duplas[0].seed: a cabeça de chave deve ser um número inteiro entre 1 e 2147483647",
    ]
    assert row_counts() == before


def test_command_from_the_shell_prints_only_the_problems(tmp_path):
    """A real process: exit status 1, one placed line per problem, no traceback nor exception name."""
    path = tmp_path / "t.json"
    path.write_text('{"a": [' + "[" * 5000 + "]" * 5000 + '], "b": "x\\u0000", "b": 1}', encoding="utf-8")
    env = {
        **os.environ,
        "DEBUG": "1",
        "SECRET_KEY": "test-only-" + "k" * 50,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
    }
    proc = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(path)], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        (
            f"JSON inválido na linha 1, coluna {7 + limits.JSON_MAX_DEPTH - 1}: aninhamento profundo demais "
            f"(o máximo é {limits.JSON_MAX_DEPTH} níveis)"
        )
    ]
    path.write_text('{"b": "x\\u0000", "b": 1}', encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", "-"],
        input=path.read_text(),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == ["b: campo repetido neste objeto: cada campo aparece uma vez"]
