"""The equipe ranking (DOMAIN §7.3) in the circuit's files (issue 45): after the atletas' table in ranking.csv (an
empty line, then its own header), under it in ranking.pdf, and as the "Equipes" sheet of ranking.xlsx, with the
figures of tests/circuits/test_circuit_teams.py worked out by hand; a circuit whose etapas name no equipe keeps
its CSV as it was."""

import csv
import io

import pypdfium2
import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.printing import assert_pdf
from tests.support.xlsx import records, workbook
from tournaments.circuits.file import circuit_import
from tournaments.models import Player

pytestmark = pytest.mark.django_db

FERAS, ZAP = "Feras do Truco", "Clube Zap"


def with_teams(data, teams):
    for player in data["players"]:
        if player["key"] in teams:
            player["team"] = teams[player["key"]]
    return data


@pytest.fixture
def circuit(load_file):
    """Feras: p1, p2, p3, p5, p7 (the best 4 count); Zap: p6, p8, and p4 from the second etapa on.
    etapa 1 (weight 1): d1 (p1, p2) 100, d2 (p3, p4) 75, d3 (p5, p6) 60, d4 (p7, p8) 50;
    etapa 2 (weight 2): d2 200, d1 150, d4 120, d3 100. So p1, p2 250; p3, p4 275; p5, p6 160; p7, p8 170."""
    first = {"p1": FERAS, "p2": FERAS, "p3": FERAS, "p4": FERAS, "p5": FERAS, "p7": FERAS, "p6": ZAP, "p8": ZAP}
    second = {**first, "p4": ZAP, "p8": ""}
    one = load_file(with_teams(etapa_file("etapa-1", date="2025-03-01"), first))
    load_file(with_teams(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")), second))
    circuit_import(data=circuit_file(etapas=["etapa-1", {"tournament": "etapa-2", "weight": 2}]))
    return {
        k: Player.objects.get(tournament=one, key=k).atleta.name for k in ("p1", "p2", "p3", "p4", "p6", "p7", "p8")
    }


def test_the_csv_ends_with_the_equipe_ranking(client, circuit):
    text = client.get("/circuitos/liga-teste/ranking.csv").content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text), delimiter=";"))
    blank = lines.index([])
    assert len(lines[1:blank]) == 8  # the atletas' table as before
    assert lines[blank + 1] == ["Ranking de equipes"]
    assert lines[blank + 2] == ["Posição", "Equipe", "Pontos", "Atleta 1", "Atleta 2", "Atleta 3", "Atleta 4"]
    feras, zap = lines[blank + 3 :]
    # Feras: p3 275 + p1 250 + p2 250 + p7 170 = 945 (p5's 160 is the fifth); Zap: p4 275 + p8 170 + p6 160 = 605
    assert feras[:3] == ["1", FERAS, "945"] and feras[3] == circuit["p3"]
    assert set(feras[3:]) == {circuit[k] for k in ("p1", "p2", "p3", "p7")}
    assert zap[:3] == ["2", ZAP, "605"] and zap[3] == circuit["p4"] and zap[6] == ""
    assert set(zap[3:6]) == {circuit[k] for k in ("p4", "p6", "p8")}


def test_a_circuit_without_equipes_keeps_its_csv(client, load_file):
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    circuit_import(data=circuit_file(etapas=["etapa-1"]))
    text = client.get("/circuitos/liga-teste/ranking.csv").content.decode("utf-8-sig")
    assert "Ranking de equipes" not in text and len(text.splitlines()) == 9
    data = client.get("/circuitos/liga-teste/ranking.pdf").content
    pdf = pypdfium2.PdfDocument(io.BytesIO(data))
    assert "Ranking de equipes" not in "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def test_the_pdf_prints_the_equipe_ranking(client, circuit):
    response = client.get("/circuitos/liga-teste/ranking.pdf")
    assert_pdf(response, "liga-teste-ranking.pdf")
    pdf = pypdfium2.PdfDocument(io.BytesIO(response.content))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Ranking de equipes" in text
    teams = text[text.index("Ranking de equipes") :]
    assert FERAS in teams and "945" in teams and ZAP in teams and "605" in teams
    assert teams.index(FERAS) < teams.index(ZAP)
    assert f"{circuit['p3']} (275)" in teams and f"{circuit['p7']} (170)" in teams


def test_the_workbook_has_the_equipes(client, circuit):
    book = workbook(client.get("/circuitos/liga-teste/ranking.xlsx").content)
    equipes = records(book["Equipes"])
    assert [(e["Posição"], e["Equipe"], e["Pontos"]) for e in equipes] == [(1, FERAS, 945), (2, ZAP, 605)]
    feras, zap = equipes
    assert (feras["Atleta 1"], feras["Pontos do atleta 1"]) == (circuit["p3"], 275)
    assert sum(feras[f"Pontos do atleta {n}"] for n in range(1, 5)) == 945
    assert zap["Atleta 4"] is None and zap["Pontos do atleta 4"] is None
    ranking = records(book["Ranking"])
    assert {r["Atleta"]: r["Equipe"] for r in ranking}[circuit["p4"]] == ZAP  # its equipe in the latest etapa
