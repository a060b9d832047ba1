"""The shared workbook (``tournaments/exports/xlsx.py``), read back with openpyxl: real types, the frozen bold
header under a filter, widths that fit, sheet names Excel accepts, and no cell a spreadsheet would run as a formula,
whatever the text (hypothesis)."""

import datetime as dt
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.xlsx import assert_no_formula, header_row, table, widths_fit, workbook
from tournaments.exports.xlsx import (
    DATE_FORMAT,
    DATETIME_FORMAT,
    Column,
    Sheet,
    Struck,
    safe_text,
    sheet_title,
    workbook_bytes,
)

DANGEROUS = ["=SOMA(A1:A9)", "+55 11 99999-0000", "-2+3", "@SUM(1)", "\tTab", "\r=1", '=HYPERLINK("http://x")']


def one_sheet(rows, columns=None, notes=()):
    columns = columns or [Column(f"Coluna {i}") for i in range(1, max(len(r) for r in rows) + 1)]
    return workbook_bytes(sheets=[Sheet(title="Teste", columns=columns, rows=rows, notes=notes)], title="Teste")


def test_values_keep_their_types():
    when = dt.datetime(2025, 3, 1, 14, 30)
    body = one_sheet(
        [["Ana", 3, 1.5, dt.date(2025, 3, 1), when, Struck(50), None, True]],
        columns=[Column("Nome"), Column("Pontos"), Column("Average", decimal=True)]
        + [Column(h) for h in ("Data", "Quando", "Riscado", "Vazio", "Sim")],
    )
    ws = workbook(body)["Teste"]
    header, rows = table(ws)
    assert header == ["Nome", "Pontos", "Average", "Data", "Quando", "Riscado", "Vazio", "Sim"]
    name, points, average, date, moment, struck, empty, yes = ws[2]
    assert (name.value, name.data_type) == ("Ana", "s") and not name.quotePrefix
    assert (points.value, points.data_type) == (3, "n") and isinstance(points.value, int)
    assert average.value == 1.5 and average.number_format == "0.000"
    assert date.is_date and date.value == dt.datetime(2025, 3, 1) and date.number_format == DATE_FORMAT
    assert moment.is_date and moment.value == when and moment.number_format == DATETIME_FORMAT
    assert struck.value == 50 and struck.data_type == "n" and struck.font.strike
    assert empty.value is None
    assert yes.value == 1


def test_the_header_is_frozen_bold_and_filtered_under_the_notes():
    body = one_sheet([["a", 1], ["b", 2]], notes=["Uma nota sobre a tabela."])
    ws = workbook(body)["Teste"]
    assert ws["A1"].value == "Uma nota sobre a tabela." and ws["A1"].font.i
    assert header_row(ws) == 2 and ws.freeze_panes == "A3"
    assert ws.auto_filter.ref == "A2:B4"
    header, rows = table(ws)
    assert rows == [["a", 1], ["b", 2]]


def test_widths_fit_the_longest_value():
    long = "Dupla com um nome bem comprido mesmo"
    body = one_sheet([[long, 12345678901], ["x", 1]], columns=[Column("Dupla"), Column("N")])
    ws = workbook(body)["Teste"]
    widths_fit(ws, header=1)
    assert ws.column_dimensions["A"].width == len(long) + 2
    assert ws.column_dimensions["B"].width == len("12345678901") + 2
    huge = one_sheet([["x" * 500]], columns=[Column("Texto")])
    assert workbook(huge)["Teste"].column_dimensions["A"].width == 60  # capped


def test_formulas_are_written_as_text_with_the_quote_prefix():
    body = one_sheet([[text] for text in DANGEROUS], columns=[Column("=Cabeçalho")])
    assert_no_formula(body)
    ws = workbook(body)["Teste"]
    assert ws["A1"].value == "=Cabeçalho" and ws["A1"].data_type == "s"
    for n, text in enumerate(DANGEROUS, start=2):
        cell = ws[f"A{n}"]
        assert cell.value == text and cell.data_type == "s" and cell.quotePrefix, (text, cell.value)
    safe = one_sheet([["Ana = Bia"], ["1 + 1"]])
    assert not any(c.quotePrefix for row in workbook(safe)["Teste"].iter_rows() for c in row)


def test_markup_and_control_characters():
    body = one_sheet([["<b>Ana & Bia</b>", "a\x00b\x07c", "  espaços  ", "linha 1\nlinha 2"]])
    ws = workbook(body)["Teste"]
    assert [c.value for c in ws[2]] == ["<b>Ana & Bia</b>", "abc", "  espaços  ", "linha 1\nlinha 2"]
    assert safe_text("a\x0bb") == "ab"


def test_sheet_titles_excel_accepts():
    used: set[str] = set()
    assert sheet_title("Grupo A", used) == "Grupo A"
    assert sheet_title("grupo a", used) == "grupo a (2)"  # Excel ignores case
    assert sheet_title("Fase [1]: A/B?*", used) == "Fase -1-- A-B--"
    long = sheet_title("x" * 40, used)
    assert len(long) == 31 and len(sheet_title("x" * 40, used)) == 31
    assert sheet_title("", used) == "Planilha"
    titles = ["Grupo A", "Grupo A", "G" * 40, "G" * 40]
    body = workbook_bytes(sheets=[Sheet(title=t, columns=[Column("c")], rows=[[1]]) for t in titles])
    names = workbook(body).sheetnames
    assert len({n.casefold() for n in names}) == 4 and all(len(n) <= 31 for n in names)


def test_an_empty_workbook_is_still_a_file():
    assert workbook(workbook_bytes(sheets=[])).sheetnames == ["Planilha"]
    ws = workbook(one_sheet([[]], columns=[Column("Nada")]))["Teste"]
    assert table(ws) == (["Nada"], [])


TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=40)
@given(texts=st.lists(TEXT | st.sampled_from(DANGEROUS), min_size=1, max_size=8))
def test_any_text_reads_back_as_typed_and_never_as_a_formula(texts):
    body = one_sheet([[t] for t in texts], columns=[Column("Texto")])
    assert_no_formula(body)
    ws = workbook(body)["Teste"]
    for n, text in enumerate(texts, start=2):
        expected = safe_text(text)
        cell = ws[f"A{n}"]
        assert (cell.value or "") == expected, (text, cell.value)
        if expected:
            assert cell.data_type == "s"
            assert cell.quotePrefix == (expected[0] in "=+-@\t\r"), text


@settings(max_examples=40)
@given(numbers=st.lists(st.integers(-(10**12), 10**12) | st.floats(-1e9, 1e9, allow_nan=False), max_size=10))
def test_numbers_read_back_as_numbers(numbers):
    body = one_sheet([numbers or [0]], columns=[Column(c) for c in string.ascii_uppercase[: max(1, len(numbers))]])
    row = [c.value for c in workbook(body)["Teste"][2]]
    assert row == (numbers or [0])
