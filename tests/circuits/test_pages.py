"""The circuits' public pages (INTERCHANGE "Circuits, atletas and rankings"): /circuitos/, the ranking page with
figures worked out by hand (struck-through results, the qualification line, movement, ``?apos=``, search,
pages), ranking.json / .csv / .pdf, 404s, ETags, and no private data anywhere."""

import io
import json
import re

import pypdfium2
import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.printing import assert_pdf, pdf_text, save_png
from tournaments.circuits.file import circuit_file_export, circuit_import
from tournaments.circuits.services import circuit_exclude
from tournaments.models import Circuit, Player

pytestmark = pytest.mark.django_db


def with_contacts(data):
    """The etapa's players with a birth date, an e-mail and a phone: none of them may reach a public page."""
    for n, player in enumerate(data["players"], start=1):
        player.update(
            birth_date=f"19{70 + n}-0{n}-1{n}", email=f"atleta{n}@exemplo.com.br", phone=f"11 9{n}{n}{n}4-5678"
        )
    return data


@pytest.fixture
def etapas(load_file):
    # etapa 1: d1 1st, d2 2nd, d3 3rd, d4 4th; etapa 2: d2 1st, d1 2nd, d4 3rd, d3 4th
    one = load_file(with_contacts(etapa_file("etapa-1", date="2025-03-01")))
    two = load_file(with_contacts(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4"))))
    return one, two


@pytest.fixture
def season(etapas, load_file):
    """Three etapas, the third a final of weight 2; best 2 count; top 4 qualify (min 2 etapas), 2 alternates.
    etapa 3: d4 1st, d3 2nd, d2 3rd, d1 4th."""
    load_file(with_contacts(etapa_file("etapa-3", date="2025-05-10", order=("d4", "d1", "d3", "d2"))))
    return circuit_import(
        data=circuit_file(
            etapas=["etapa-1", "etapa-2", {"tournament": "etapa-3", "weight": 2, "final": True}],
            count_best=2,
            qualify={"top": 4, "min_etapas": 2, "alternates": 2},
        )
    )


def name_of(tournament, player_key):
    return Player.objects.get(tournament=tournament, key=player_key).atleta


def row_of(html: str, name: str) -> str:
    """The table row (<tr>…</tr>) naming this atleta."""
    for row in re.findall(r"<tr[^>]*>.*?</tr>", html, flags=re.S):
        if f"<bdi>{name}</bdi>" in row:
            return row
    raise AssertionError(f"{name} not in the table")


def private_data_absent(text: str, tournaments) -> None:
    seen = 0
    for t in tournaments:
        for p in Player.objects.filter(tournament=t):
            assert p.birth_date and p.email and p.phone  # the test's players have them all
            assert p.birth_date.strftime("%d/%m/%Y") not in text and p.birth_date.isoformat() not in text
            assert p.email not in text and p.phone not in text
            seen += 1
    assert seen >= 16
    assert "exemplo.com.br" not in text


def test_circuit_list_and_empty_state(client, etapas):
    body = client.get("/circuitos/").content.decode()
    assert "Nenhum circuito cadastrado ainda." in body
    circuit_import(data=circuit_file())
    body = client.get("/circuitos/").content.decode()
    assert "Liga de Teste" in body and "2 etapas" in body and 'href="/circuitos/liga-teste/"' in body


def test_ranking_page_figures(client, etapas):
    one, _two = etapas
    circuit_import(data=circuit_file())
    response = client.get("/circuitos/liga-teste/")
    assert response.status_code == 200
    html = response.content.decode()
    p1, p5 = name_of(one, "p1"), name_of(one, "p5")
    # p1: 100 + 75 = 175, rank 1 shared with p3; p5: 60 + 50 = 110, rank 5
    row = row_of(html, p1.name)
    assert "1º" in row and ">175<" in row and ">100<" in row and ">75<" in row
    assert f'href="/atletas/{p1.key}/"' in row
    row = row_of(html, p5.name)
    assert "5º" in row and ">110<" in row
    # the etapas link their tournament's page
    assert 'href="/torneios/etapa-1/"' in html and 'href="/torneios/etapa-2/"' in html
    # movement since etapa 1: p1 was 1st (shared by d1's two atletas), still 1st; p7 was 7th (4th place), now
    # 5th; p5 was 5th (3rd place), still 5th (shared with p7)
    assert "manteve a posição" in row_of(html, p1.name)
    p7 = name_of(one, "p7")
    assert "▲2" in row_of(html, p7.name) and "subiu 2" in row_of(html, p7.name)
    p5_row = row_of(html, p5.name)
    assert "manteve a posição" in p5_row and "▼" not in html
    private_data_absent(html, etapas)


def test_struck_through_results_and_qualification_marks(client, season, etapas):
    one, _two = etapas
    html = client.get("/circuitos/liga-teste/").content.decode()
    p7 = name_of(one, "p7")
    # p7 (d4): 50, 60, then 100 x 2 = 200: best 2 = 260, the 50 struck through and labelled for screen readers
    row = row_of(html, p7.name)
    assert ">260<" in row and "<s>50</s>" in row and "não conta" in row and ">200<" in row
    assert "peso 2" in html and ">final<" in html
    # qualification over etapas 1-2: d1's and d2's atletas (175 each) qualify; d3's and d4's tie across the
    # alternates' line. The final played reorders the ranking (p7 first): no line across the table then, the
    # marks say who qualified
    p1 = name_of(one, "p1")
    assert "classificado" in row_of(html, p1.name)
    assert "empatado na linha: aguarda sorteio" in row_of(html, p7.name)
    assert "linha de classificação para a final" not in html and "linha dos suplentes" not in html


def test_the_qualification_lines(client, etapas, load_file):
    one, _two = etapas
    load_file(with_contacts(etapa_file("etapa-3", date="2025-05-10", finished=False)))
    circuit_import(
        data=circuit_file(
            etapas=["etapa-1", "etapa-2", {"tournament": "etapa-3", "weight": 2, "final": True}],
            qualify={"top": 4, "min_etapas": 2, "alternates": 2},
        )
    )
    html = client.get("/circuitos/liga-teste/").content.decode()
    assert "em andamento" in html
    # d1's and d2's four atletas (175) qualify; d3's and d4's four (110) tie across the alternates' line (2)
    rows = re.findall(r"<tr[^>]*>.*?</tr>", html[html.index("<tbody>") :], flags=re.S)
    kinds = ["line" if "q-line" in r else "row" for r in rows]
    assert kinds == ["row"] * 4 + ["line"] + ["row"] * 4 + ["line"]
    assert "linha de classificação para a final" in rows[4] and "linha dos suplentes" in rows[9]
    assert "empatado na linha: aguarda sorteio" in row_of(html, name_of(one, "p7").name)
    data = client.get("/circuitos/liga-teste/ranking.pdf").content
    save_png(data, "circuit-ranking-lines")
    text = " ".join(pdf_text(data))
    assert "linha de classificação para a final" in text and "linha dos suplentes" in text


def test_after_an_etapa_and_movement(client, etapas):
    one, _two = etapas
    circuit_import(data=circuit_file())
    html = client.get("/circuitos/liga-teste/?apos=etapa-1").content.decode()
    p1, p3 = name_of(one, "p1"), name_of(one, "p3")
    # after etapa 1 alone: p1 100 (1st), p3 75 (3rd, behind d1's two atletas); no movement yet
    assert "1º" in row_of(html, p1.name) and ">100<" in row_of(html, p1.name)
    assert "3º" in row_of(html, p3.name) and ">75<" in row_of(html, p3.name)
    assert "▲" not in html and "▼" not in html
    assert 'value="etapa-1" selected' in html
    assert "depois deste ranking" in html  # etapa 2 has finished, but after this ranking
    # now: p3 175, up 2 places (3rd -> 1st)
    html = client.get("/circuitos/liga-teste/").content.decode()
    assert "▲2" in row_of(html, p3.name)


def test_search_pages_and_404s(client, etapas):
    one, _two = etapas
    circuit_import(data=circuit_file())
    p1 = name_of(one, "p1")
    # accents and case ignored
    html = client.get("/circuitos/liga-teste/", {"q": p1.name.upper()}).content.decode()
    assert f"<bdi>{p1.name}</bdi>" in html and "1 atleta encontrado" in html
    assert client.get("/circuitos/liga-teste/", {"q": "zzz ninguém"}).content.decode().count("<tbody>") == 0
    assert client.get("/circuitos/liga-teste/", {"pagina": "abc"}).status_code == 200
    assert client.get("/circuitos/liga-teste/", {"pagina": "999"}).status_code == 200
    assert client.get("/circuitos/nada/").status_code == 404
    assert client.get("/circuitos/liga-teste/", {"apos": "nada"}).status_code == 404
    assert client.get("/circuitos/liga-teste/ranking.csv", {"apos": "nada"}).status_code == 404
    assert client.get("/circuitos/liga-teste/ranking.pdf", {"apos": "nada"}).status_code == 404
    response = client.get("/circuitos/liga-teste/ranking.json", {"apos": "nada"})
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert client.get("/circuitos/nada/ranking.json").status_code == 404


def test_pages_of_a_hundred(client, etapas, monkeypatch):
    from tournaments.public import circuit_view

    monkeypatch.setattr(circuit_view, "PER_PAGE", 3)
    circuit_import(data=circuit_file())
    html = client.get("/circuitos/liga-teste/", {"apos": "etapa-1", "pagina": "2"}).content.decode()
    assert "página 2 de 3" in html
    assert 'href="?apos=etapa-1&amp;pagina=1"' in html and 'href="?apos=etapa-1&amp;pagina=3"' in html
    assert "página 3 de 3" in client.get("/circuitos/liga-teste/", {"pagina": "99"}).content.decode()


def test_a_long_season_folds_its_etapas(client, etapas, load_file):
    def fold(html: str) -> str:
        return re.search(r"<details class=\"circuit-etapa-fold\"[^>]*>\s*<summary>[^<]*</summary>", html).group(0)

    circuit_import(data=circuit_file())
    assert " open>" in fold(client.get("/circuitos/liga-teste/").content.decode())  # two etapas: shown
    slugs = []
    for n in range(3, 10):
        load_file(etapa_file(f"etapa-{n}", date=f"2025-0{n}-01", finished=n < 5))
        slugs.append(f"etapa-{n}")
    circuit_import(data=circuit_file(slug="liga-longa", etapas=slugs))
    html = client.get("/circuitos/liga-longa/").content.decode()
    assert " open" not in fold(html) and "7 etapas</summary>" in fold(html)  # the ranking stays near the top
    assert html.count('class="circuit-e"') == 7  # the list is still there, folded


def test_json_csv_and_pdf(client, season, etapas):
    one, _two = etapas
    response = client.get("/circuitos/liga-teste/ranking.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json; charset=utf-8"
    assert json.loads(response.content.decode("utf-8")) == circuit_file_export(circuit=season)
    assert "Fábio" in response.content.decode("utf-8")  # ensure_ascii=False: the accents as they are
    private_data_absent(response.content.decode("utf-8"), etapas)
    after = json.loads(client.get("/circuitos/liga-teste/ranking.json", {"apos": "etapa-1"}).content)
    assert after == circuit_file_export(circuit=season, after="etapa-1")

    response = client.get("/circuitos/liga-teste/ranking.csv")
    assert response["Content-Disposition"] == 'attachment; filename="liga-teste-ranking.csv"'
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")
    lines = body.decode("utf-8-sig").splitlines()
    assert lines[0] == (
        "Posição;Atleta;Código;Pontos;Etapas;1º;2º;3º;Etapa etapa-1;Etapa etapa-2;Etapa etapa-3;Classificação"
    )
    p7 = name_of(one, "p7")
    line = next(x for x in lines if p7.key in x)
    # p7: 50 (struck), 60, 200 -> 260, tied at the alternates' line
    assert line.split(";")[3:] == ["260", "3", "1", "0", "1", "50 (não conta)", "60", "200", "empatado"]
    private_data_absent(body.decode("utf-8-sig"), etapas)

    response = client.get("/circuitos/liga-teste/ranking.pdf")
    assert_pdf(response, "liga-teste-ranking.pdf")
    save_png(response.content, "circuit-ranking")
    pdf = pypdfium2.PdfDocument(io.BytesIO(response.content))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Liga de Teste" in text and p7.name in text and "(50)" in text
    private_data_absent(text, etapas)


def test_csv_formula_injection(client, load_file):
    data = etapa_file("etapa-1", date="2025-03-01")
    data["players"][0]["name"] = "=SOMA(A1:A9)"
    load_file(data)
    circuit_import(data=circuit_file(etapas=["etapa-1"]))
    text = client.get("/circuitos/liga-teste/ranking.csv").content.decode("utf-8-sig")
    assert ";'=SOMA(A1:A9);" in text


def test_etag_and_query_budget(client, etapas, django_assert_max_num_queries):
    circuit_import(data=circuit_file())
    with django_assert_max_num_queries(10):
        response = client.get("/circuitos/liga-teste/", {"apos": "etapa-1", "q": "a"})
    assert response.status_code == 200
    with django_assert_max_num_queries(10):
        response = client.get("/circuitos/liga-teste/")
    etag = response["ETag"]
    again = client.get("/circuitos/liga-teste/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert client.get("/circuitos/liga-teste/", {"q": "x"}, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_event_page_names_its_circuit(client, etapas, django_capture_on_commit_callbacks):
    assert "Etapa do circuito" not in client.get("/torneios/etapa-1/").content.decode()  # kept in the cache
    with django_capture_on_commit_callbacks(execute=True):
        circuit_import(data=circuit_file())
    html = client.get("/torneios/etapa-1/").content.decode()
    assert "Etapa do circuito <bdi>Liga de Teste</bdi>" in html
    assert '<a href="/circuitos/liga-teste/">ver ranking</a>' in html


def test_the_atleta_page_shows_circuit_points(client, season, etapas, django_assert_max_num_queries):
    one, _two = etapas
    p7 = name_of(one, "p7")
    client.get(f"/atletas/{p7.key}/")  # the states and the ranking kept
    with django_assert_max_num_queries(12):
        html = client.get(f"/atletas/{p7.key}/").content.decode()
    # p7: 50 in etapa 1 (not counted), 60 in etapa 2, 200 in the final (weight 2)
    assert html.count('href="/circuitos/liga-teste/"') == 3
    assert "<s>50 pontos</s> (não conta)" in html and ">60 pontos<" in html and ">200 pontos<" in html
    private_data_absent(html, etapas)


def test_the_tv_shows_the_circuit_ranking(client, season, etapas, load_file, admin_user):
    one, _two = etapas

    def slide() -> str:
        html = client.get("/torneios/etapa-2/tv/").content.decode()
        assert "Ranking do circuito · Liga de Teste" in html
        table = html[html.index("tv-circuit") :]
        return table[: table.index("</table>")]

    p7 = name_of(one, "p7")
    assert f"<bdi>{p7.name}</bdi></th><td>260</td>" in slide() and slide().count("<tr") == 9  # head + 8 atletas
    # the circuit changes, not this etapa: the TV's page is kept per the circuit's version too
    circuit_exclude(circuit=season, user=admin_user, atleta=p7, reason="desistiu")
    assert f"<bdi>{p7.name}</bdi>" not in slide() and slide().count("<tr") == 8
    load_file(etapa_file("solta", date="2025-06-01"))  # in no circuit
    assert "Ranking do circuito" not in client.get("/torneios/solta/tv/").content.decode()


def test_made_up_parameters_and_methods(client, etapas):
    circuit_import(data=circuit_file())
    assert client.get("/circuitos/liga-teste/", {"apos": "\x00"}).status_code == 400  # the site refuses NUL
    for apos in ("../etapa-1", "etapa-1 ' or 1=1", "x" * 500):
        assert client.get("/circuitos/liga-teste/", {"apos": apos}).status_code == 404, apos
    assert client.get("/circuitos/liga-teste/", {"q": "ção" * 100, "pagina": "-3"}).status_code == 200
    assert client.head("/circuitos/liga-teste/").status_code == 200
    assert client.post("/circuitos/liga-teste/").status_code == 405
    assert client.post("/circuitos/").status_code == 405


@pytest.mark.parametrize("after", [None, "etapa-1"])
def test_a_search_shows_each_atletas_real_rank(client, etapas, after):
    """Issue 41 item 10, the circuit page's search: each row found keeps its rank in the whole ranking (as it stands
    from the rows by part, and as it stood after an etapa), on every page of the search."""
    from tournaments.circuits.selectors import circuit_page

    circuit = circuit_import(data=circuit_file())
    whole = circuit_page(circuit=circuit, after=after, per_page=100)
    real = {r.key: r.rank for r in whole.rows}
    assert len(set(real.values())) > 1  # ranks to tell apart
    for letter in "abcdefghilmnorstuvz":
        first = circuit_page(circuit=circuit, after=after, q=letter, per_page=2)
        for number in range(1, first.pages + 1):
            for row in circuit_page(circuit=circuit, after=after, q=letter, page=number, per_page=2).rows:
                assert row.rank == real[row.key], (letter, number, row.name)
    # the page shows it: p5 (110 points, 5th) found alone or with others
    one, _two = etapas
    p5 = name_of(one, "p5")
    params = {"q": p5.name.split()[-1]} | ({"apos": after} if after else {})
    html = client.get("/circuitos/liga-teste/", params).content.decode()
    assert f"{real[p5.key]}º" in row_of(html, p5.name)


def spreadsheet_value(cell: str) -> float | None:
    """A cell as a spreadsheet reads it: a number (``(50)`` in accounting form is -50; ``1.234,5`` Brazilian), or
    None for text, which a sum leaves out."""
    m = re.fullmatch(r"(\()?(-?[\d.]+(?:,\d+)?)(\))?", cell.strip())
    if m is None or bool(m.group(1)) != bool(m.group(3)):
        return None
    value = float(m.group(2).replace(".", "").replace(",", "."))
    return -value if m.group(1) else value


def test_the_csv_sums_right_in_a_spreadsheet(client, season, etapas):
    """Issue 41 item 12: a sum of an atleta's etapa columns gives their points (an uncounted result was written
    "(50)", which spreadsheets read as -50)."""
    import csv

    lines = list(
        csv.reader(
            io.StringIO(client.get("/circuitos/liga-teste/ranking.csv").content.decode("utf-8-sig")), delimiter=";"
        )
    )
    head = lines[0]
    first, last = head.index("3º") + 1, head.index("Classificação")
    assert last - first == 3  # a column per etapa
    struck = 0
    for line in lines[1:]:
        values = [spreadsheet_value(c) for c in line[first:last]]
        assert sum(v for v in values if v is not None) == int(line[head.index("Pontos")]), line
        struck += sum(1 for c in line[first:last] if c and spreadsheet_value(c) is None and c != "DQ")
    assert struck  # best 2 of 3: some results do not count


def test_the_rules_are_said_with_plurals(client, season):
    """Issue 41 item 13: "com 2 suplentes", "com 1 suplente", never "suplente(s)"."""
    html = client.get("/circuitos/liga-teste/").content.decode()
    assert (
        "Classificam-se para a final os 4 primeiros (mínimo de 2 etapas jogadas, sem contar a final), com 2 suplentes."
        in html
    )
    Circuit.objects.filter(pk=season.pk).update(qualify_top=1, qualify_min_etapas=1, qualify_alternates=1, version=99)
    html = client.get("/circuitos/liga-teste/").content.decode()
    assert "Classifica-se para a final 1 atleta (mínimo de 1 etapa jogada, sem contar a final), com 1 suplente." in html
    Circuit.objects.filter(pk=season.pk).update(qualify_min_etapas=0, qualify_alternates=0, version=100)
    assert "Classifica-se para a final 1 atleta." in client.get("/circuitos/liga-teste/").content.decode()


def test_tied_atletas_are_in_the_portuguese_order_of_names(client, load_file):
    """Issue 41 item 13: "Fábio" before "Fernanda" (accents and case do not decide), as the ranking stands (SQL),
    as it stood after an etapa (Python), in the search and in the CSV."""
    data = etapa_file("etapa-1", date="2025-03-01")
    data["players"][4]["name"] = "Fernanda Lima"  # p5, beside p6 "Fábio Nunes" in d3: tied
    data["players"][0]["name"] = "álvaro Souza"  # p1, beside p2 "Bruno Lima" in d1
    load_file(data)
    circuit_import(data=circuit_file(etapas=["etapa-1"]))

    def order(html: str) -> list[str]:
        return re.findall(r'<th scope="row" class="c-dupla"><a [^>]*><bdi>([^<]+)</bdi>', html)

    for params in ({}, {"apos": "etapa-1"}, {"q": "a"}):
        names = order(client.get("/circuitos/liga-teste/", params).content.decode())
        assert names.index("Fábio Nunes") < names.index("Fernanda Lima"), (params, names)
        assert names.index("álvaro Souza") < names.index("Bruno Lima"), (params, names)
    text = client.get("/circuitos/liga-teste/ranking.csv").content.decode("utf-8-sig")
    assert text.index("Fábio Nunes") < text.index("Fernanda Lima") and text.index("álvaro") < text.index("Bruno")
