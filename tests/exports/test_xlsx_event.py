"""/torneios/<slug>/classificacao.xlsx, opened with openpyxl: the general classification, a sheet per group with
the tiebreak columns (figures worked out by hand from ``groups_file``), the comparison between groups, the bracket
round by round, every jogo with its partidas; real types, frozen headers, no formula, no private data; the answer
(type, file name, ETag and 304, kept per results version), a draft, the link on the standings page."""

import datetime as dt

import pytest

from tests.support.files import demo_file, groups_file, knockout_file, large_file
from tests.support.xlsx import XLSX_TYPE, all_text, assert_no_formula, records, table, widths_fit, workbook
from tournaments.exports.event import GROUP_SHEETS_MAX
from tournaments.models import Dupla, Player, Stage, Tournament
from tournaments.writes import tournament_rebuild

pytestmark = pytest.mark.django_db

URL = "/torneios/{}/classificacao.xlsx"


def get_book(client, slug):
    response = client.get(URL.format(slug))
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == XLSX_TYPE
    return workbook(response.content), response


def private_data_absent(body: bytes, tournament) -> None:
    text = all_text(body)
    seen = 0
    for p in Player.objects.filter(tournament=tournament):
        for value in (p.email, p.phone):
            if value:
                assert value not in text, value
                seen += 1
        if p.birth_date:
            assert p.birth_date.strftime("%d/%m/%Y") not in text and p.birth_date.isoformat() not in text
            seen += 1
    assert seen >= 10  # the file's players have contacts and birth dates
    assert "exemplo.com.br" not in text


def test_the_groups_with_their_tiebreaks(client, load_file):
    t = load_file(groups_file())
    book, response = get_book(client, "copa-demo")
    assert book.sheetnames == ["Classificação geral", "Grupo A", "Grupo B", "Entre grupos", "Chave", "Jogos"]
    # not finished: the general classification says so and lists nobody
    general = book["Classificação geral"]
    assert general["A1"].value.startswith("O torneio ainda não terminou")
    assert table(general)[1] == []

    head, rows = table(book["Grupo A"])
    assert head == [
        "Posição",
        "Dupla",
        "Código da dupla",
        "Pontos",
        "Jogos",
        "Vitórias",
        "Derrotas",
        "Partidas vencidas",
        "Partidas perdidas",
        "Pontos-partida pró",
        "Pontos-partida contra",
        "Saldo",
        "Average",
        "Classificada",
        "Desempate",
        "Aguarda sorteio",
    ]
    # d1: 2x0 d2, 2x1 d3 (12-7 9-12 12-3), 2x1 d4 (12-9 5-12 12-6): 3+2+2 = 7 points, 86 for, 62 against
    # d2 and d3 on 5 points and 4 partidas each: d2 beat d3 (head-to-head); d3's WO win gives partidas, no points
    assert [r[:13] for r in rows] == [
        [1, "Os Zapeiros", "d1", 7, 3, 3, 0, 6, 2, 86, 62, 24, 1.387],
        [2, "Manilha Velha", "d2", 5, 3, 2, 1, 4, 3, 68, 69, -1, 0.986],
        [3, "Truco Ladrão", "d3", 5, 3, 1, 2, 4, 4, 53, 64, -11, 0.828],
        [4, "Seis Nele", "d4", 1, 3, 0, 3, 1, 6, 41, 53, -12, 0.774],
    ]
    assert [r[13:] for r in rows] == [
        ["sim", None, None],
        ["sim", "decidido por confronto direto", None],
        ["sim", None, None],  # the best third of the two groups
        [None, None, None],
    ]
    assert all(isinstance(v, int) for r in rows for v in r[3:12]) and isinstance(rows[0][12], float)
    assert book["Grupo A"]["M2"].number_format == "0.000"
    # group B: a circular tie, every figure equal, ordered by the recorded sorteio
    group_b = records(book["Grupo B"])
    assert [(r["Posição"], r["Código da dupla"], r["Desempate"]) for r in group_b] == [
        (1, "d6", "decidido por sorteio"),
        (2, "d5", "decidido por sorteio"),
        (3, "d7", None),
    ]
    others = book["Entre grupos"]
    assert "a melhor dupla além das 2 primeiras de cada grupo se classifica" in others["A1"].value
    assert [(r["Grupo"], r["Código da dupla"], r["Classificada"]) for r in records(others)] == [
        ("A", "d3", "sim"),
        ("B", "d7", None),
    ]

    jogos = records(book["Jogos"])
    assert len(jogos) == 11  # 9 in the groups, the 2 knockout jogos made so far
    wo = next(j for j in jogos if j["Código do jogo"] == "j8")
    assert (wo["Situação"], wo["Observação"], wo["Vencedora"]) == ("WO", "WO: Seis Nele ausente", "Truco Ladrão")
    assert wo["Partidas A"] is None and wo["Placar das partidas"] is None
    d1_d3 = next(j for j in jogos if j["Dupla A"] == "Os Zapeiros" and j["Dupla B"] == "Truco Ladrão")
    assert (d1_d3["Fase"], d1_d3["Grupo"], d1_d3["Rodada"], d1_d3["Mesa"]) == (
        "Fase de grupos",
        "Grupo A",
        "Rodada 2",
        1,
    )
    assert (d1_d3["Partidas A"], d1_d3["Partidas B"]) == (2, 1)
    assert [d1_d3[f"P{n} {s}"] for n in (1, 2, 3) for s in "AB"] == [12, 7, 9, 12, 12, 3]
    assert d1_d3["Placar das partidas"] == "12 x 7 · 9 x 12 · 12 x 3" and d1_d3["Situação"] == "encerrado"

    bracket = records(book["Chave"])
    assert [(b["Rodada"], b["Jogo"], b["Situação"]) for b in bracket] == [
        ("Quartas de final", 1, "folga"),
        ("Quartas de final", 2, "a começar"),
        ("Quartas de final", 3, "folga"),
        ("Quartas de final", 4, "folga"),
        ("Semifinais", 1, "a definir"),
        ("Semifinais", 2, "a começar"),
        ("Final", 1, "a definir"),
    ]
    assert bracket[0]["Dupla A"] == "Os Zapeiros" and bracket[0]["Vencedora"] == "Os Zapeiros"
    assert bracket[1]["Melhor de"] == 5 and bracket[-1]["Melhor de"] == 3

    for ws in book.worksheets:
        header = table(ws)  # every sheet: a frozen bold header under a filter
        widths_fit(ws, header=int(ws.freeze_panes[1:]) - 1)
        assert header
    assert_no_formula(response.content)
    private_data_absent(response.content, t)


def test_a_finished_knockout(client, load_file):
    load_file(knockout_file(finished=True))
    book, _response = get_book(client, "aabb-demo")
    assert book.sheetnames == ["Classificação geral", "Chave", "Jogos"]
    general = records(book["Classificação geral"])
    assert [(g["Posição"], g["Medalha"], g["Dupla"], g["Jogador 1"], g["Jogador 2"]) for g in general] == [
        (1, "ouro", "Os Zapeiros", "Ana Souza", "Bruno Lima"),
        (2, "prata", "Manilha Velha", "Carla Dias", "Diego Alves"),
        (3, "bronze", "Truco Ladrão", "Elisa Rocha", "Fábio Nunes"),
        (4, None, "Seis Nele", "Gabi Torres", "Hugo Melo"),
    ]
    # the champion: 3x0 (12-3 12-5 12-0) then 2x0 (12-9 12-7): 60 for, 24 against
    champion = general[0]
    assert (champion["Jogos"], champion["Partidas vencidas"], champion["Pontos-partida pró"]) == (2, 5, 60)
    assert (champion["Pontos-partida contra"], champion["Saldo"], champion["Average"]) == (24, 36, 2.5)
    bracket = records(book["Chave"])
    assert [(b["Rodada"], b["Partidas A"], b["Partidas B"], b["Vencedora"], b["Situação"]) for b in bracket] == [
        ("Semifinais", 3, 0, "Os Zapeiros", "encerrado"),
        ("Semifinais", 3, 2, "Manilha Velha", "encerrado"),
        ("Final", 2, 0, "Os Zapeiros", "encerrado"),
        ("Disputa de 3º lugar", None, None, "Truco Ladrão", "WO"),
    ]
    five = next(j for j in records(book["Jogos"]) if j["Código do jogo"] == "j2")
    assert [five[f"P{n} A"] for n in range(1, 6)] == [12, 8, 12, 5, 12]


def test_a_jogo_in_progress_and_the_round_times(client, load_file):
    t = load_file(demo_file(load_file))
    Stage.objects.filter(tournament=t, key="grupos").update(round_times={"1": "14:30", "2": "depois do almoço"})
    tournament_rebuild(tournament=t)
    book, _response = get_book(client, "copa-demo")
    jogos = records(book["Jogos"])
    live = next(j for j in jogos if j["Situação"] == "em andamento")
    assert live["Placar das partidas"] == "12 x 7 · 6 x 1 (em andamento)" and live["Vencedora"] is None
    first = next(j for j in jogos if j["Rodada"] == "Rodada 1")
    assert first["Horário"] == dt.datetime(2024, 4, 27, 14, 30)
    assert book["Jogos"]["D2"].number_format == "DD/MM/YYYY HH:MM"
    second = next(j for j in jogos if j["Rodada"] == "Rodada 2")
    assert second["Horário"] == "depois do almoço"  # not a time: as the organizer typed it


def test_the_answer_is_kept_per_results_version(client, load_file):
    t = load_file(groups_file())
    _book, first = get_book(client, "copa-demo")
    assert first["Content-Disposition"] == 'attachment; filename="copa-demo-classificacao.xlsx"'
    assert first["X-Content-Type-Options"] == "nosniff"
    etag = first["ETag"]
    assert client.get(URL.format("copa-demo"), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.head(URL.format("copa-demo")).status_code == 200
    assert client.post(URL.format("copa-demo")).status_code == 405
    # a change the pages show: a new version, a new workbook
    Dupla.objects.filter(tournament=t, key="d1").update(name="Os Novos Zapeiros")
    tournament_rebuild(tournament=t)
    book, again = get_book(client, "copa-demo")
    assert again["ETag"] != etag
    assert records(book["Grupo A"])[0]["Dupla"] == "Os Novos Zapeiros"
    assert client.get(URL.format("nao-existe")).status_code == 404


def test_a_draft_is_its_staffs_alone(client, load_file, admin_user):
    t = load_file(groups_file())
    Tournament.objects.filter(pk=t.pk).update(published=False)
    assert client.get(URL.format("copa-demo")).status_code == 404
    client.force_login(admin_user)
    response = client.get(URL.format("copa-demo"))
    assert response.status_code == 200 and "private" in response["Cache-Control"]


def test_a_name_that_looks_like_a_formula(client, load_file):
    data = groups_file()
    data["duplas"][0]["name"] = '=HYPERLINK("http://mal.example";"clique")'
    data["players"][2]["name"] = "+5511999990000"
    load_file(data)
    _book, response = get_book(client, "copa-demo")
    assert_no_formula(response.content)
    ws = workbook(response.content)["Grupo A"]
    cell = ws["B2"]
    assert cell.value == data["duplas"][0]["name"] and cell.data_type == "s" and cell.quotePrefix


def test_many_groups_share_one_sheet(client, load_file):
    groups = GROUP_SHEETS_MAX + 4
    load_file(large_file(groups=groups, size=4))
    book, _response = get_book(client, "copa-grande")
    assert book.sheetnames[:2] == ["Classificação geral", "Grupos"]
    rows = records(book["Grupos"])
    assert len(rows) == groups * 4
    assert len({r["Grupo"] for r in rows}) == groups
    assert all(r["Posição"] in (1, 2, 3, 4) for r in rows)


def test_the_standings_page_links_the_workbook(client, load_file):
    load_file(groups_file())
    html = client.get("/torneios/copa-demo/classificacao/").content.decode()
    assert 'href="/torneios/copa-demo/classificacao.xlsx"' in html
