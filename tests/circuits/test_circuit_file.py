"""The circuit file (INTERCHANGE "Circuits, atletas and rankings"): import_circuit over etapas on the site, the
computed ranking with figures worked out by hand, export_circuit, and bad files refused whole."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.circuits.support import circuit_file, etapa_file
from tournaments.circuits.file import circuit_file_export, circuit_import
from tournaments.circuits.services import CircuitRefused
from tournaments.management.commands.import_circuit import Command as ImportCircuit
from tournaments.models import Circuit, CircuitAudit, CircuitEtapa, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def etapas(load_file):
    # etapa 1: d1 1st, d2 2nd, d3 3rd, d4 4th; etapa 2: d2 1st, d1 2nd, d4 3rd, d3 4th
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    two = load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    return one, two


def atleta(tournament, player_key):
    return Player.objects.get(tournament=tournament, key=player_key).atleta.key


def test_import_ranks_by_points_with_the_default_table(etapas):
    one, _two = etapas
    circuit = circuit_import(data=circuit_file())
    data = circuit_file_export(circuit=circuit)
    by_atleta = {row["athlete"]: row for row in data["ranking"]}
    p1, p3, p5, p7 = (atleta(one, k) for k in ("p1", "p3", "p5", "p7"))
    # p1: 100 + 75 = 175 (one 1st, one 2nd); p3: 75 + 100 = 175 (the same): shared rank 1
    assert by_atleta[p1]["points"] == by_atleta[p3]["points"] == 175
    assert by_atleta[p1]["rank"] == by_atleta[p3]["rank"] == 1
    assert by_atleta[p1]["places"] == {"1": 1, "2": 1, "3": 0}
    # p5: 60 + 50 = 110; p7: 50 + 60 = 110: shared rank 5 (four atletas ahead)
    assert by_atleta[p5]["points"] == by_atleta[p7]["points"] == 110
    assert by_atleta[p5]["rank"] == by_atleta[p7]["rank"] == 5
    assert [r["etapa"] for r in by_atleta[p1]["results"]] == ["etapa-1", "etapa-2"]
    assert by_atleta[p1]["results"][0] == {"etapa": "etapa-1", "place": 1, "points": 100, "counted": True}
    assert len(data["ranking"]) == 8 and {a["key"] for a in data["athletes"]} == set(by_atleta)
    assert data["circuit"]["slug"] == "liga-teste" and data["etapas"] == [
        {"tournament": "etapa-1"},
        {"tournament": "etapa-2"},
    ]
    assert all(r["qualified"] is False and r["alternate"] is False for r in data["ranking"])


def test_weight_best_n_and_qualification(etapas, load_file):
    one, _two = etapas
    # etapa 3: d4 1st, d3 2nd, d2 3rd, d1 4th
    load_file(etapa_file("etapa-3", date="2025-05-10", order=("d4", "d1", "d3", "d2")))
    circuit = circuit_import(
        data=circuit_file(
            etapas=["etapa-1", "etapa-2", {"tournament": "etapa-3", "weight": 2, "final": True}],
            count_best=2,
            qualify={"top": 4, "min_etapas": 2, "alternates": 2},
        )
    )
    data = circuit_file_export(circuit=circuit)
    by_atleta = {row["athlete"]: row for row in data["ranking"]}
    p1, p3, p5, p7 = (atleta(one, k) for k in ("p1", "p3", "p5", "p7"))
    # p7 (d4): 50, 60, then 100 x 2 = 200 in the final; best 2: 200 + 60 = 260, the 50 struck through
    assert by_atleta[p7]["points"] == 260
    assert [r["counted"] for r in by_atleta[p7]["results"]] == [False, True, True]
    # p1 (d1): 100, 75, then 50 x 2 = 100: best 2 = 200 (etapas 1 and 3; the 75 struck through)
    assert by_atleta[p1]["points"] == 200
    assert [r["counted"] for r in by_atleta[p1]["results"]] == [True, False, True]
    # qualification over etapas 1-2 only (the final is left out): d1's and d2's four atletas tie at 175 with
    # one 1st and one 2nd each, all inside the top 4; d3's and d4's four tie at 110 across the alternates' line
    # (2 places): tied until a sorteio, neither qualified nor alternate yet
    assert by_atleta[p1]["qualified"] and by_atleta[p3]["qualified"]
    assert not by_atleta[p5]["alternate"] and not by_atleta[p7]["alternate"]
    assert not by_atleta[p5]["qualified"]


def test_export_circuit_command_and_after(etapas):
    circuit_import(data=circuit_file())
    out = io.StringIO()
    call_command("export_circuit", "liga-teste", stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == "truco-circuito" and len(data["ranking"]) == 8
    out = io.StringIO()
    call_command("export_circuit", "liga-teste", "--apos", "etapa-1", stdout=out)
    after = json.loads(out.getvalue())
    assert [r["points"] for r in after["ranking"]][:3] == [100, 100, 75]
    assert all(len(r["results"]) == 1 for r in after["ranking"])


def test_import_command_prints_the_slug_last(etapas, tmp_path):
    path = tmp_path / "liga.json"
    path.write_text(json.dumps(circuit_file()), encoding="utf-8")
    out = io.StringIO()
    call_command("import_circuit", str(path), stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == "liga-teste"
    assert CircuitEtapa.objects.filter(circuit__slug="liga-teste").count() == 2
    assert CircuitAudit.objects.filter(circuit__slug="liga-teste", action="import").count() == 1


def test_bad_file_refused_whole_naming_each_place(etapas):
    bad = circuit_file(
        etapas=["etapa-1", "etapa-1", "nao-existe", {"tournament": "etapa-2", "weight": 0}],
        points={"1": 100, "3": 60, "2-4": 50, "others": -1},
        count_best=0,
    )
    with pytest.raises(CircuitRefused) as refused:
        circuit_import(data=bad)
    places = [where for where, _message in refused.value.problems]
    assert "etapas[1].tournament" in places and "etapas[2].tournament" in places
    assert "etapas[3].weight" in places and "circuit.count_best" in places
    assert any(p.startswith("circuit.points") for p in places)
    assert not Circuit.objects.exists()


def test_a_tournament_in_another_circuit_is_refused(etapas):
    circuit_import(data=circuit_file())
    with pytest.raises(CircuitRefused) as refused:
        circuit_import(data=circuit_file(slug="outra-liga", etapas=["etapa-2"]))
    assert refused.value.problems[0][0] == "etapas[0].tournament"
    assert "já é etapa do circuito Liga de Teste" in refused.value.problems[0][1]
    assert Circuit.objects.count() == 1


def test_an_unfinished_etapa_does_not_count_until_it_finishes(load_file):
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", finished=False))
    circuit = circuit_import(data=circuit_file())
    data = circuit_file_export(circuit=circuit)
    assert all(len(r["results"]) == 1 for r in data["ranking"])


def _text(data) -> str:
    return json.dumps(data, ensure_ascii=False)


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


GOOD = _text(circuit_file())
BAD_FILES = [
    # (what, the file's bytes, the line the command must print)
    (
        "NUL in a name",
        _with(GOOD, '"Liga de Teste"', '"Liga\\u0000 de Teste"').encode(),
        "circuit.name: texto com caractere inválido (U+0000, caractere nulo) na posição 5",
    ),
    (
        "a 5,000-digit number",
        _with(GOOD, '"slug"', '"count_best": ' + "9" * 5000 + ', "slug"').encode(),
        "circuit.count_best: número grande demais (5000 algarismos)",
    ),
    (
        "deep nesting",
        _with(GOOD, '"etapas": [', '"extra": ' + "[" * 5000 + "]" * 5000 + ', "etapas": [').encode(),
        "aninhamento profundo demais (o máximo é 64 níveis)",
    ),
    ("NaN", _with(GOOD, '"slug"', '"count_best": NaN, "slug"').encode(), "circuit.count_best: NaN não é um número"),
    ("a repeated field", _with(GOOD, '"slug"', '"name": "De novo", "slug"').encode(), "circuit.name: campo repetido"),
    ("not UTF-8", GOOD.replace("Liga", "Líga").encode("latin-1"), "arquivo: não está em UTF-8"),
    (
        "too big",
        _with(GOOD, '"slug"', '"extra": "' + "x" * (1024 * 1024) + '", "slug"').encode(),
        "arquivo: grande demais",
    ),
    (
        "count_best beyond its column",
        _text(circuit_file(count_best=40000)).encode(),
        "circuit.count_best: deve ser um número inteiro de 1 a 32767",
    ),
    (
        "qualify beyond its columns",
        _text(circuit_file(qualify={"top": 70000, "alternates": 32768})).encode(),
        "circuit.qualify.top: deve ser um número inteiro de 1 a 32767",
    ),
    (
        "a weight beyond its column",
        _text(circuit_file(etapas=["etapa-1", {"tournament": "etapa-2", "weight": 40000}])).encode(),
        "etapas[1].weight: deve ser um número inteiro de 1 a 32767",
    ),
    (
        "a name beyond its column",
        _text(circuit_file(name="L" * 201)).encode(),
        "circuit.name: no máximo 200 caracteres",
    ),
    (
        "a place of 5,000 digits",
        _text(circuit_file(points={"1": 100, "2-" + "9" * 5000: 3})).encode(),
        'circuit.points.2-999999999999999999…: a chave deve ser uma colocação ("3"), uma faixa ("5-8") ou "others"',
    ),
    (
        "points no ranking holds",
        _text(circuit_file(points={"1": 2**40, "others": 0})).encode(),
        "circuit.points: com estes pontos e pesos um atleta poderia somar 2199023255552 pontos; o máximo é 2147483647",
    ),
    (
        "NUL in an etapa",
        _text(circuit_file(etapas=["etapa-1", "etapa\u0000-2"])).encode(),
        "etapas[1].tournament: texto com caractere inválido (U+0000, caractere nulo)",
    ),
    (
        "an etapa's address beyond its column",
        _text(circuit_file(etapas=["etapa-1", "e" * 500])).encode(),
        "etapas[1].tournament: endereço longo demais: 500 caracteres (máximo 120)",
    ),
    (
        "too many etapas",
        _text(circuit_file(etapas=[f"etapa-{i}" for i in range(201)])).encode(),
        "etapas: etapas demais: 201 (o máximo num arquivo de circuito é 200)",
    ),
]


@pytest.mark.parametrize("raw,line", [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES])
def test_import_circuit_refuses_what_no_column_holds_naming_the_place(etapas, tmp_path, raw, line):
    """Issue 41: the circuit file is read with the tournament file's hardened reader and each value is checked
    against its column: one line per problem naming its place, no traceback, nothing written (the same on SQLite
    and PostgreSQL, where a smallint beyond 32,767 or a NUL in a text would fail in the database)."""
    path = tmp_path / "liga.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError) as refused:
        call_command("import_circuit", str(path), stdout=io.StringIO())
    lines = str(refused.value).splitlines()
    assert any(text.startswith(line) or line in text for text in lines), lines
    assert len(lines) < 5 and all(len(text) < 300 for text in lines)  # one line per problem, each a line
    assert not Circuit.objects.exists() and not CircuitAudit.objects.exists()


def test_import_circuit_from_the_shell_exits_1_with_the_lines(etapas, tmp_path):
    """From the command line: exit status 1 and the problems alone on stderr (no exception, no traceback)."""
    path = tmp_path / "liga.json"
    path.write_bytes(_with(GOOD, '"Liga de Teste"', '"Liga\\u0000"').encode())
    command = ImportCircuit(stdout=io.StringIO(), stderr=io.StringIO())
    command._called_from_command_line = True
    with pytest.raises(SystemExit) as exited:
        command.handle(file=str(path), organizador=None)
    assert exited.value.code == 1
    assert command.stderr._out.getvalue().splitlines() == [
        "circuit.name: texto com caractere inválido (U+0000, caractere nulo) na posição 5"
    ]
    assert not Circuit.objects.exists()
