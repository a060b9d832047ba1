"""Registration CSV (docs/contrato.md "Registration CSV"): reader, checks, all-or-nothing import, the command."""

import io
from datetime import date

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.support.registrations import csv_bytes, people, tournament_make
from tournaments.models import AuditEntry, Player, Registration
from tournaments.refusals import Refused
from tournaments.registrations.csv_import import csv_preview
from tournaments.registrations.csv_reader import MAX_BYTES, MAX_ROWS, csv_read
from tournaments.registrations.selectors import registration_rows
from tournaments.registrations.services import registrations_import_csv

pytestmark = pytest.mark.django_db


def problems_of(tournament, content: bytes) -> list[str]:
    return csv_preview(tournament=tournament, content=content).problems


def test_semicolon_separator_and_both_date_forms():
    t = tournament_make()
    content = csv_bytes(
        ["Ana Souza;14/03/1987;ana@exemplo.com;11 98888-7777;;;;", "Bruno Lima;1990-12-01;;;Carla Dias;02/02/1992;;"]
    )
    result = registrations_import_csv(tournament=t, content=content)
    assert len(result.registrations) == 2 and result.accepted == 2 and result.waiting == 0
    ana, bruno, carla = Player.objects.filter(tournament=t).order_by("order")
    assert (ana.name, ana.birth_date, ana.email, ana.phone) == (
        "Ana Souza",
        date(1987, 3, 14),
        "ana@exemplo.com",
        "11 98888-7777",
    )
    assert bruno.birth_date == date(1990, 12, 1) and carla.birth_date == date(1992, 2, 2)
    regs = list(Registration.objects.filter(tournament=t).order_by("order"))
    assert [r.order for r in regs] == [1, 2]
    assert regs[1].player2 == carla and all(r.source == Registration.CSV for r in regs)
    assert [p.key for p in (ana, bruno, carla)] == ["p1", "p2", "p3"]
    assert AuditEntry.objects.filter(tournament=t, action="registrations_import").count() == 1


def test_comma_separator_windows_1252_and_header_case_accents():
    t = tournament_make()
    content = "NOME,Nascimento,E-mail,Telefone\r\nJoão Conceição,05/05/1980,,\r\nÁgata Müller,1979-01-31,,\r\n"
    registrations_import_csv(tournament=t, content=content.encode("cp1252"))
    assert list(Player.objects.filter(tournament=t).values_list("name", flat=True)) == [
        "João Conceição",
        "Ágata Müller",
    ]
    read = csv_read(content.encode("cp1252"))
    assert (read.encoding, read.separator) == ("Windows-1252", ",")


def test_utf8_with_bom():
    t = tournament_make()
    content = "\ufeffnome;nascimento\nJosé Ávila;01/01/1970\n".encode("utf-8")
    read = csv_read(content)
    assert read.columns == ["nome", "nascimento"] and read.encoding == "UTF-8" and not read.problems
    registrations_import_csv(tournament=t, content=content)
    assert Player.objects.get(tournament=t).name == "José Ávila"


def test_under_age_is_reported_with_the_column_and_nothing_written():
    t = tournament_make()  # 15/06/2024, 18 years
    content = csv_bytes(people(2) + ["Kid Jovem;16/06/2006;;;;;;", "Par Ok;01/01/1990;;;Kid Par;2010-01-01;;"])
    problems = problems_of(t, content)
    assert problems == [
        (
            "linha 4: coluna nascimento: nascido(a) em 16/06/2006, tem 17 anos em 15/06/2024, dia do torneio; "
            "a idade mínima é 18 anos"
        ),
        (
            "linha 5: coluna parceiro_nascimento: nascido(a) em 01/01/2010, tem 14 anos em 15/06/2024, dia do torneio; "
            "a idade mínima é 18 anos"
        ),
    ]
    with pytest.raises(Refused):
        registrations_import_csv(tournament=t, content=content)
    assert not Player.objects.exists() and not Registration.objects.exists() and not AuditEntry.objects.exists()


def test_eighteen_on_the_tournament_day_is_old_enough():
    t = tournament_make()
    assert problems_of(t, csv_bytes(["Recém Adulto;15/06/2006;;;;;;"])) == []


def test_duplicate_reported_on_the_later_row_with_the_earlier_line():
    t = tournament_make()
    content = csv_bytes(
        people(2)
        + ["Ana Souza;14/03/1987;;;;;;"]
        + people(4, start=2)
        + ["ANA  SOUZA;1987-03-14;outro@exemplo.com;;;;;", "Outra Pessoa;01/01/1991;;;ana souza;14/03/1987;;"]
    )
    # header 1, rows 2-3, Ana on 4, rows 5-8, repeated Ana on 9, as partner on 10
    assert problems_of(t, content) == ["linha 9: já inscrito na linha 4", "linha 10: parceiro já inscrito na linha 4"]


def test_same_name_other_birth_date_is_another_person():
    t = tournament_make()
    assert problems_of(t, csv_bytes(["Ana Souza;14/03/1987;;;;;;", "Ana Souza;14/03/1988;;;;;;"])) == []


def test_duplicate_against_existing_registrations_and_withdrawn_ones_may_come_back():
    t = tournament_make()
    registrations_import_csv(
        tournament=t, content=csv_bytes(["Ana Souza;14/03/1987;;;;;;", "Bia Reis;01/01/1990;;;;;;"])
    )
    problems = problems_of(t, csv_bytes(["Ana Souza;14/03/1987;;;;;;"]))
    assert len(problems) == 1 and problems[0].startswith("linha 2: coluna nome: Ana Souza já está inscrito(a)")
    bia = Registration.objects.get(tournament=t, order=2)
    bia.status = Registration.WITHDRAWN
    bia.save()
    assert problems_of(t, csv_bytes(["Bia Reis;01/01/1990;;;;;;"])) == []


def test_beyond_the_limit_goes_to_the_waiting_list_pair_waits_individual_takes_the_place():
    t = tournament_make(max_duplas=2)  # 4 places
    content = csv_bytes(
        [
            "A Um;01/01/1990;;;;;;",
            "B Dois;01/01/1990;;;;;;",
            "C Tres;01/01/1990;;;;;;",
            "D Quatro;01/01/1990;;;E Cinco;01/01/1990;;",
            "F Seis;01/01/1990;;;;;;",
            "G Sete;01/01/1990;;;;;;",
        ]
    )
    preview = csv_preview(tournament=t, content=content)
    assert preview.ok and (preview.accepted, preview.waiting) == (4, 2)
    result = registrations_import_csv(tournament=t, content=content)
    assert (result.accepted, result.waiting) == (4, 2)
    rows = registration_rows(tournament=t)
    assert [(r.situation, r.waiting_position) for r in rows] == [
        ("accepted", None),
        ("accepted", None),
        ("accepted", None),
        ("waiting", 1),
        ("accepted", None),
        ("waiting", 2),
    ]


def test_every_bad_row_reported_with_its_line_and_nothing_written():
    t = tournament_make()
    content = csv_bytes(
        [
            "Boa Pessoa;01/01/1990;;;;;;",
            ";01/01/1990;x@exemplo.com;;;;;",  # 3: no name
            "Sem Data;;;;;;;",  # 4: birth date required (minimum age)
            "Data Ruim;31/02/1990;;;;;;",  # 5: not a day
            "Mail Ruim;01/01/1990;nao-e-email;;;;;",  # 6
            "Fone Ruim;01/01/1990;;abc;;;;",  # 7
            "Sem Parceiro;01/01/1990;;;;02/02/1990;;",  # 8: partner data without partner
            "Futuro;01/01/2990;;;;;;",  # 9
        ]
    )
    problems = problems_of(t, content)
    assert [p.split(":")[0] for p in problems] == [f"linha {n}" for n in range(3, 10)]
    assert problems[0] == "linha 3: coluna nome: obrigatório"
    assert problems[1] == "linha 4: coluna nascimento: obrigatória: o torneio tem idade mínima de 18 anos"
    assert problems[2].startswith("linha 5: coluna nascimento: “31/02/1990” não é uma data válida")
    assert problems[3].startswith("linha 6: coluna email:")
    assert problems[4].startswith("linha 7: coluna telefone:")
    assert problems[5] == "linha 8: coluna parceiro vazia, mas parceiro_nascimento preenchido"
    assert problems[6].startswith("linha 9: coluna nascimento: 01/01/2990 está no futuro")
    with pytest.raises(Refused) as exc:
        registrations_import_csv(tournament=t, content=content)
    assert exc.value.messages == problems
    assert Player.objects.count() == Registration.objects.count() == AuditEntry.objects.count() == 0


def test_unknown_columns_are_ignored_with_a_notice():
    t = tournament_make()
    content = b"nome;nascimento;camiseta;Cidade\nAna Souza;14/03/1987;M;Santos\n"
    preview = csv_preview(tournament=t, content=content)
    assert preview.ok and preview.notices == ["colunas ignoradas (não fazem parte do modelo): camiseta, Cidade"]
    result = registrations_import_csv(tournament=t, content=content)
    assert result.notices == preview.notices and len(result.registrations) == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "linha 1: o arquivo está vazio"),
        (b"nome;nascimento\n", "linha 2: nenhuma inscrição no arquivo"),
        (b"Ana;14/03/1987\n", "linha 1: a primeira linha deve ser o cabeçalho"),
        (b"nascimento;email\n01/01/1990;a@b.com\n", "linha 1: falta a coluna nome"),
        (b"nome\nAna\n", "linha 1: falta a coluna nascimento: o torneio tem idade mínima de 18 anos"),
        (b"nome;nome;nascimento\nA;B;01/01/1990\n", "linha 1: a coluna nome aparece duas vezes"),
        (
            b"nome;nascimento;parceiro_email\nA;01/01/1990;x@y.com\n",
            "linha 1: a coluna parceiro_email precisa da coluna parceiro",
        ),
        (b"nome;nascimento\n\x81\x8d\x8f;01/01/1990\n", "linha 2: o texto não está em UTF-8 nem em Windows-1252"),
        (b"nome;nascimento\nA;01/01/1990;x;y\n", "linha 2: 4 valores, mas o cabeçalho tem 2 colunas"),
    ],
)
def test_file_problems(content, expected):
    t = tournament_make()
    problems = problems_of(t, content)
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_blank_lines_keep_the_line_numbers_of_the_file():
    t = tournament_make()
    content = b"nome;nascimento\n\nAna;01/01/1990\n;\nAna;01/01/1990\n"
    assert problems_of(t, content) == ["linha 5: já inscrito na linha 3"]


def test_quoted_values_with_the_separator_and_line_breaks():
    t = tournament_make()
    content = b'nome;nascimento;email\n"Souza; Ana";01/01/1990;\n"Bia\nReis";01/01/1991;\nAna;01/01/1992;x\n'
    problems = problems_of(t, content)
    # the second row spans lines 3-4, so the third row starts on line 5
    assert problems == ["linha 5: coluna email: “x” não é um e-mail válido"]


def test_the_input_is_bounded():
    t = tournament_make(min_age=None, max_duplas=None)
    big = b"nome\n" + b"x" * (MAX_BYTES + 1)
    assert problems_of(t, big)[0].startswith("arquivo grande demais")
    many = ("nome\n" + "".join(f"P {i}\n" for i in range(MAX_ROWS + 1))).encode()
    assert problems_of(t, many) == [
        f"linha {MAX_ROWS + 2}: mais de {MAX_ROWS} inscrições num arquivo; divida-o em partes"
    ]


def test_no_birth_date_column_without_minimum_age_and_old_mac_line_endings():
    t = tournament_make(min_age=None)
    result = registrations_import_csv(tournament=t, content=b"nome,telefone\rAna,11 98888 7777\rBia,\r")
    assert len(result.registrations) == 2
    assert Player.objects.get(name="Ana").birth_date is None


def test_keys_and_order_continue_after_existing_ones():
    t = tournament_make()
    registrations_import_csv(tournament=t, content=csv_bytes(people(2)))
    Player.objects.filter(tournament=t, key="p2").update(key="p40")
    registrations_import_csv(tournament=t, content=csv_bytes(people(1, start=5)))
    assert sorted(Player.objects.filter(tournament=t).values_list("key", flat=True)) == ["p1", "p40", "p41"]
    assert list(Registration.objects.filter(tournament=t).values_list("order", flat=True)) == [1, 2, 3]


# --- the command -------------------------------------------------------------------------------------------


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_registrations", *args, stdout=out, stderr=err)
        return 0, out.getvalue(), err.getvalue()
    except CommandError as exc:
        return exc.returncode, out.getvalue(), err.getvalue() + str(exc)


def test_command_success_prints_a_summary(tmp_path):
    t = tournament_make(max_duplas=1)
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(csv_bytes(people(3)))
    status, out, err = run(t.slug, str(path))
    assert status == 0 and err == ""
    assert "3 inscrições adicionadas a aabb-2024: 2 aceitas, 1 na lista de espera" in out
    assert Registration.objects.filter(tournament=t).count() == 3


def test_command_problems_go_to_stderr_one_per_line_and_nothing_is_written(tmp_path):
    t = tournament_make()
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(csv_bytes(people(2) + ["Menor;01/01/2015;;;;;;", "Atleta 1;01/03/1990;;;;;;"]))
    status, out, err = run(t.slug, str(path))
    assert status != 0 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("linha 4: coluna nascimento:")
    assert lines[1] == "linha 5: já inscrito na linha 2"
    assert not Registration.objects.exists() and not Player.objects.exists()


def test_command_unknown_slug_and_missing_file(tmp_path):
    status, _, err = run("nao-existe", str(tmp_path / "x.csv"))
    assert status != 0 and "torneio não encontrado: 'nao-existe'" in err
    t = tournament_make()
    status, _, err = run(t.slug, str(tmp_path / "x.csv"))
    assert status != 0 and "não foi possível ler" in err
