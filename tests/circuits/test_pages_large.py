"""The circuit's ranking page over a large season, without the database: thousands of atletas in pages of 50,
a search among them, a disqualified result shown as DQ 0, and the time one page takes to make."""

import datetime
import time

from django.template.loader import render_to_string
from django.test import RequestFactory

from scoring.circuit import EtapaScore, Qualify
from tournaments.circuits.selectors import CircuitStanding, EtapaColumn, StandingRow, standing_page
from tournaments.public.circuit_view import PER_PAGE, ranking_csv, ranking_page_of

ATLETAS = 3000


def standing() -> CircuitStanding:
    etapas = tuple(
        EtapaColumn(
            key=f"etapa-{n}",
            name=f"Etapa {n}",
            date=datetime.date(2025, n, 1),
            weight=1,
            final=False,
            finished=True,
            published=True,
        )
        for n in range(1, 7)
    )
    rows = []
    for i in range(ATLETAS):
        results = {
            e.key: EtapaScore(
                etapa=e.key, place=None if (i == 5 and n == 0) else 1 + i % 40, points=100 - i % 40, counted=n < 4
            )
            for n, e in enumerate(etapas)
        }
        rows.append(
            StandingRow(
                rank=1 + i - i % 2,  # pairs share a rank
                key=f"a{i + 1}",
                name=f"Atleta Número {i + 1}" if i != 2500 else "Conceição Araújo",
                points=10_000 - i,
                etapas=6,
                places=(0, 0, 0),
                results=results,
                movement=(i % 5) - 2,
                qualify="qualified" if i < 16 else "alternate" if i < 20 else "out",
                tied_line="",
                team="",
            )
        )
    return CircuitStanding(
        circuit_name="Liga Grande",
        circuit_slug="liga-grande",
        version=1,
        etapas=etapas,
        after=None,
        counted=tuple(e.key for e in etapas),
        previous="etapa-5",
        rows=tuple(rows),
        teams=(),
        qualify=Qualify(top=16, min_etapas=0, alternates=4),
        count_best=4,
        points={},
    )


def ranking_page(*, standing, q, pagina):
    """The page the view makes of a ranking computed whole (as after an etapa): ``standing_page`` then the view's."""
    number = int(pagina) if pagina else 1
    return ranking_page_of(page=standing_page(standing=standing, q=q, page=number, per_page=PER_PAGE))


def render(page, s):
    request = RequestFactory().get("/circuitos/liga-grande/")
    return render_to_string("tournaments/circuit.html", {"page": page, "s": s}, request=request)


def test_thousands_of_atletas_in_pages(db):
    s = standing()
    started = time.perf_counter()
    page = ranking_page(standing=s, q="", pagina="1")
    html = render(page, s)
    assert time.perf_counter() - started < 1.5
    assert page.pages == ATLETAS // PER_PAGE and len(page.rows) == PER_PAGE
    assert html.count("linha de classificação para a final") == 1 and html.count("linha dos suplentes") == 1
    # atleta 6 was disqualified in etapa 1: DQ, 0 points
    row = html[html.index("<bdi>Atleta Número 6</bdi>") :]
    row = row[: row.index("</tr>")]
    assert "DQ</abbr></span> 0" in row
    assert "<s>" in row and "não conta" in row  # etapas 5 and 6 do not count (best 4)
    # the last page, a page past it, and a search ignoring accents and case
    assert ranking_page(standing=s, q="", pagina="60").rows[-1].row.key == f"a{ATLETAS}"
    assert ranking_page(standing=s, q="", pagina="999999").number == 60
    found = ranking_page(standing=s, q="conceicao ARAUJO", pagina=None)
    assert [v.row.name for v in found.rows] == ["Conceição Araújo"] and found.count == 1
    started = time.perf_counter()
    ranking_page(standing=s, q="numero 29", pagina="2")
    assert time.perf_counter() - started < 0.5


def test_the_csv_of_thousands(db):
    text = ranking_csv(standing=standing())
    lines = text.splitlines()
    assert len(lines) == ATLETAS + 1
    assert lines[6].split(";")[8] == "DQ"  # atleta 6, etapa 1
    assert lines[1].endswith(";classificado") and lines[17].endswith(";suplente") and lines[21].endswith(";")
