"""/circuitos/<slug>/ranking.xlsx, opened with openpyxl: the ranking with each etapa's points as numbers (one that
does not count struck through, still a number), movement and qualification; the equipes; the points by etapa; the
etapas with their dates; ``?apos=``; the answer (type, file name, ETag and 304, 404s); no formula, no private data;
the link on the circuit page. Figures as tests/circuits/test_pages.py works them out by hand."""

import datetime as dt

import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.xlsx import XLSX_TYPE, all_text, assert_no_formula, records, table, widths_fit, workbook
from tournaments.circuits.file import circuit_import
from tournaments.models import Player

pytestmark = pytest.mark.django_db

URL = "/circuitos/liga-teste/ranking.xlsx"


def with_contacts(data):
    for n, player in enumerate(data["players"], start=1):
        player.update(
            birth_date=f"19{70 + n}-0{n}-1{n}", email=f"atleta{n}@exemplo.com.br", phone=f"11 9{n}{n}{n}4-5678"
        )
    return data


@pytest.fixture
def season(load_file):
    """etapa 1: d1 1st, d2 2nd, d3 3rd, d4 4th; etapa 2: d2, d3, d1, d4 (so d1 2nd… as test_pages); etapa 3, a
    final of weight 2: d4 1st, d3 2nd, d2 3rd, d1 4th. Best 2 count; top 4 qualify (min 2 etapas), 2 alternates."""
    tournaments = [
        load_file(with_contacts(etapa_file("etapa-1", date="2025-03-01"))),
        load_file(with_contacts(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))),
        load_file(with_contacts(etapa_file("etapa-3", date="2025-05-10", order=("d4", "d1", "d3", "d2")))),
    ]
    circuit_import(
        data=circuit_file(
            etapas=["etapa-1", "etapa-2", {"tournament": "etapa-3", "weight": 2, "final": True}],
            count_best=2,
            qualify={"top": 4, "min_etapas": 2, "alternates": 2},
        )
    )
    return tournaments


def atleta(tournament, key):
    return Player.objects.get(tournament=tournament, key=key).atleta


def test_the_ranking_workbook(client, season):
    one = season[0]
    response = client.get(URL)
    assert response.status_code == 200 and response["Content-Type"] == XLSX_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="liga-teste-ranking.xlsx"'
    book = workbook(response.content)
    assert book.sheetnames == ["Ranking", "Equipes", "Pontos por etapa", "Etapas"]

    ranking = book["Ranking"]
    assert "Contam os 2 melhores resultados" in ranking["A1"].value
    header, rows = table(ranking)
    assert header == [
        "Posição",
        "Atleta",
        "Código",
        "Equipe",
        "Pontos",
        "Etapas",
        "1º",
        "2º",
        "3º",
        "Etapa etapa-1",
        "Etapa etapa-2",
        "Etapa etapa-3",
        "Movimento",
        "Classificação para a final",
    ]
    assert len(rows) == 8
    p7 = atleta(one, "p7")
    row = next(r for r in rows if r[2] == p7.key)
    # p7 (d4): 50 (not counted), 60, 100 x 2 = 200: best 2 = 260; first after the final; tied at the alternates' line
    assert row[:2] == [1, p7.name] and row[4:12] == [260, 3, 1, 0, 1, 50, 60, 200]
    assert row[13] == "empatado na linha: aguarda sorteio"
    assert isinstance(row[12], int)  # places gained since etapa 2
    head_at = int(ranking.freeze_panes[1:]) - 1
    lines = {r[2]: ranking[head_at + 1 + i] for i, r in enumerate(rows)}
    for line in lines.values():  # the points are the etapas' numbers less the struck-through ones
        etapa_cells = line[9:12]
        assert line[4].value == sum(c.value for c in etapa_cells if isinstance(c.value, int) and not c.font.strike)
    struck, counted = lines[p7.key][9], lines[p7.key][10]
    assert struck.value == 50 and struck.data_type == "n" and struck.font.strike
    assert counted.value == 60 and not counted.font.strike
    p1 = atleta(one, "p1")
    assert next(r for r in rows if r[2] == p1.key)[13] == "classificado"

    by_etapa = records(book["Pontos por etapa"])
    assert len(by_etapa) == 8 * 3
    mine = [r for r in by_etapa if r["Código"] == p7.key]
    assert [(r["Etapa"], r["Colocação"], r["Pontos"], r["Conta"], r["Peso"]) for r in mine] == [
        ("Etapa etapa-1", 4, 50, "não", 1),
        ("Etapa etapa-2", 3, 60, "sim", 1),
        ("Etapa etapa-3", 1, 200, "sim", 2),
    ]
    assert mine[0]["Data"] == dt.datetime(2025, 3, 1)

    etapas = records(book["Etapas"])
    assert [(e["Nº"], e["Código"], e["Data"], e["Peso"], e["Final"], e["Terminada"]) for e in etapas] == [
        (1, "etapa-1", dt.datetime(2025, 3, 1), 1, "não", "sim"),
        (2, "etapa-2", dt.datetime(2025, 4, 5), 1, "não", "sim"),
        (3, "etapa-3", dt.datetime(2025, 5, 10), 2, "sim", "sim"),
    ]
    assert book["Etapas"]["D2"].number_format == "DD/MM/YYYY"
    equipes = book["Equipes"]
    assert table(equipes)[1] == [] and any(
        "Nenhuma equipe" in (c.value or "") for c in equipes["A"]
    )  # no etapa names one

    for ws in book.worksheets:
        widths_fit(ws, header=int(ws.freeze_panes[1:]) - 1)
    assert_no_formula(response.content)
    text = all_text(response.content)
    for t in season:
        for p in Player.objects.filter(tournament=t):
            assert p.email not in text and p.phone not in text and p.birth_date.strftime("%d/%m/%Y") not in text
    assert "exemplo.com.br" not in text


def test_after_an_etapa_and_the_answer(client, season):
    book = workbook(client.get(URL, {"apos": "etapa-1"}).content)
    header, rows = table(book["Ranking"])
    assert "Etapa etapa-2" not in header and len(rows) == 8
    assert rows[0][4] == 100  # d1's atletas after etapa 1
    response = client.get(URL)
    etag = response["ETag"]
    assert client.get(URL, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(URL, {"apos": "etapa-1"}, HTTP_IF_NONE_MATCH=etag).status_code == 200
    again = client.get(URL)  # kept for everyone: the same file
    assert again.content == response.content and again["Content-Type"] == XLSX_TYPE
    assert client.get(URL, {"apos": "nada"}).status_code == 404
    assert client.get("/circuitos/nao-existe/ranking.xlsx").status_code == 404
    assert client.post(URL).status_code == 405


def test_a_name_that_looks_like_a_formula(client, load_file):
    data = etapa_file("etapa-1", date="2025-03-01")
    data["players"][0]["name"] = "=SOMA(A1:A9)"
    load_file(data)
    circuit_import(data=circuit_file(etapas=["etapa-1"]))
    response = client.get(URL)
    assert_no_formula(response.content)
    ws = workbook(response.content)["Ranking"]
    cell = next(c for c in ws["B"] if c.value == "=SOMA(A1:A9)")
    assert cell.data_type == "s" and cell.quotePrefix


def test_the_circuit_page_links_the_workbook(client, season):
    html = client.get("/circuitos/liga-teste/").content.decode()
    assert 'href="/circuitos/liga-teste/ranking.xlsx"' in html
    html = client.get("/circuitos/liga-teste/", {"apos": "etapa-1"}).content.decode()
    assert 'href="/circuitos/liga-teste/ranking.xlsx?apos=etapa-1"' in html
