"""The wall sheets and the ceremony (tournaments/printing/): chave.pdf, classificacao.pdf (public) and the desk's
medalhas.pdf and certificados.pdf; what every PDF of the site shares (fonts, footer, accents)."""

import datetime as dt
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pypdf
import pytest
from django.test import Client
from django.utils import timezone

from tests.support.printing import (
    FOOTER_WHEN,
    assert_pdf,
    birth_forms,
    decide,
    final_of,
    flat,
    fonts_used,
    footer_pages,
    group_results,
    groups_only_file,
    knockout4_file,
    pdf_pages,
    pdf_text,
    play_final,
    save_png,
    with_pins,
)
from tests.support.sumula import answer, api, jogo_duplas, post, staff_user
from tournaments import presenters
from tournaments.models import Jogo, StaffRole
from tournaments.printing.bracket import ROUNDS_PER_PAGE, bracket_plan
from tournaments.printing.medals import Event, Placed, certificates_pdf
from tournaments.printing.page import Footer
from tournaments.selectors import tournament_state_get
from tournaments.synthetic import synthetic_tournament

pytestmark = pytest.mark.django_db

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
PODIUM = [
    ("Ana Souza", "Bruno Lima", "ouro"),
    ("Carla Dias", "Davi Reis", "prata"),
    ("Elisa Melo", "Fábio Nunes", "bronze"),
]


def demo(load_file, name: str):
    return load_file(json.loads((DEMO_DIR / f"{name}.json").read_text(encoding="utf-8")))


def sheet(client, slug: str, name: str, filename: str | None = None) -> bytes:
    return assert_pdf(client.get(f"/torneios/{slug}/{name}.pdf"), filename)


def desk_sheet(client, slug: str, name: str, filename: str | None = None) -> bytes:
    return assert_pdf(client.get(f"/organizar/{slug}/imprimir/{name}.pdf"), filename)


@pytest.fixture
def finished(cup, ref):
    """The cup played to the end: d1 > d2 > d3 > d4 in the group, d1 beats d2 in the final (2 x 1)."""
    group_results(ref, cup)
    play_final(ref, cup)
    return cup


# --- chave.pdf ------------------------------------------------------------------------------------------------


def test_chave_before_the_draw_then_drawn_then_with_the_champion(cup, ref):
    anonymous = Client()
    waiting = pdf_text(sheet(anonymous, cup.slug, "chave", "copa-sumula-chave.pdf"))
    assert len(waiting) == 1
    assert "Eliminatória" in waiting[0] and "a chave será sorteada quando a fase anterior terminar" in flat(waiting[0])

    group_results(ref, cup)
    final = final_of(cup)
    drawn = flat(pdf_text(sheet(anonymous, cup.slug, "chave"))[0])
    assert "Eliminatória — chave" in drawn and "Final" in drawn and "melhor de 3" in drawn
    assert "Ana Souza / Bruno Lima" in drawn and "Carla Dias / Davi Reis" in drawn
    assert f"mesa {final.mesa}" in drawn and not re.search(rf"\b{final.key}\b", drawn)  # the key is no name
    assert "Elisa Melo" not in drawn and "Campeã" not in drawn  # the bracket is the final only; not played yet

    play_final(ref, cup)  # a new result: the cached sheet is made again
    data = sheet(anonymous, cup.slug, "chave", "copa-sumula-chave.pdf")
    texts = pdf_text(data)
    assert len(texts) == 1 and footer_pages(texts) == [(1, 1)]
    done = flat(texts[0])
    assert "Ana Souza / Bruno Lima 2 Carla Dias / Davi Reis 1" in done  # each place with its partidas won
    assert "Campeã Ana Souza / Bruno Lima" in done
    assert "Pódio 1º · Ana Souza / Bruno Lima 2º · Carla Dias / Davi Reis 3º · Elisa Melo / Fábio Nunes" in done
    save_png(data, "chave-pequena")


def test_chave_is_cached_until_a_result_changes_it(cup, ref):
    anonymous = Client()
    first = sheet(anonymous, cup.slug, "chave")
    assert sheet(anonymous, cup.slug, "chave") == first  # the same bytes (footer time included)
    group_results(ref, cup)
    assert sheet(anonymous, cup.slug, "chave") != first


def _expected_pages(entrants: int) -> tuple[int, list[tuple[int, int]]]:
    """Pages of a bracket of ``entrants`` (a power of two), computed from the sheet's rule itself: up to five rounds
    a page, the first-round places cut in sections of 32; later rounds again five a page."""
    rounds = entrants.bit_length() - 1
    pages, levels, first = 0, [], 1
    while first <= rounds:
        last = min(first + ROUNDS_PER_PAGE - 1, rounds)
        jogos_in_last = entrants >> last  # jogos of the round ``last``: one per page
        levels.append((first, last))
        pages += jogos_in_last
        first = last + 1
    return pages, levels


def test_bracket_plan_cuts_a_big_bracket_in_sections():
    def stages(rounds: int) -> list[SimpleNamespace]:  # what bracket_plan reads of a BracketStage: its rounds
        return [SimpleNamespace(rounds=[None] * rounds)]

    assert _expected_pages(128) == (5, [(1, 5), (6, 7)])
    assert _expected_pages(2048) == (64 + 2 + 1, [(1, 5), (6, 10), (11, 11)])
    for entrants in (2, 4, 8, 16, 32, 64, 128, 256, 2048):
        plan = bracket_plan(stages(entrants.bit_length() - 1))
        pages, levels = _expected_pages(entrants)
        assert len(plan) == pages, entrants
        assert [(p.first, p.last) for p in plan] == [lv for lv in levels for _ in range(entrants >> lv[1])]
        assert all(p.index < p.parts for p in plan)
    [waiting] = bracket_plan([SimpleNamespace(rounds=[])])  # not drawn yet: one page that says so
    assert (waiting.first, waiting.last, waiting.parts) == (0, 0, 1)
    assert bracket_plan([]) == []


def test_a_big_bracket_is_split_into_sections_that_point_to_each_other(load_file):
    tournament = load_file(synthetic_tournament(duplas=256))
    stages = presenters.bracket_present(tournament_state_get(tournament=tournament), whole=True).stages
    assert [len(s.rounds) for s in stages] == [7]  # 128 qualifiers: 7 rounds
    assert len(stages[0].rounds[0].jogos) == 64
    data = sheet(Client(), tournament.slug, "chave", f"{tournament.slug}-chave.pdf")
    texts = [flat(t) for t in pdf_text(data)]
    assert len(texts) == len(bracket_plan(stages)) == _expected_pages(128)[0] == 5
    assert footer_pages(texts) == [(n, 5) for n in range(1, 6)]
    for n, text in enumerate(texts[:4], start=1):
        assert f"Seção {n} de 4 · 1ª rodada a Quartas de final" in text
        assert "o vencedor segue na página 5" in text
        assert f"Semifinais, jogo {(n - 1) // 2 + 1}" in text
        assert "1ª rodada" in text and "Oitavas de final" in text and "Final" not in text
    last = texts[4]
    assert "Seção" not in last and "Semifinais a Final" in last
    assert "de: p. 1 / p. 2" in last and "de: p. 3 / p. 4" in last
    assert "Campeã" in last and "Pódio" in last and "Disputa de 3º lugar" in last
    assert "o vencedor segue" not in last
    # every first-round jogo is on exactly one section page, in bracket order, named by its duplas (no key)
    jogos = stages[0].rounds[0].jogos
    for n, text in enumerate(texts[:4]):
        printed = [j for j in jogos if all(re.search(rf"\b{re.escape(s.dupla.name)}\b", text) for s in j.slots)]
        assert printed == jogos[16 * n : 16 * (n + 1)], n
        assert not re.search(r"\bj\d+\b", text)
    save_png(data, "chave-grande-secao-1", page=0)
    save_png(data, "chave-grande-final", page=4)


def test_a_big_bracket_not_played_yet_says_where_each_place_comes_from(load_file):
    data = synthetic_tournament(duplas=256, seed=3)
    data["jogos"] = [j for j in data["jogos"] if j["stage"] != "mata"]  # groups played, knockout drawn only
    tournament = load_file(data)
    assert Jogo.objects.filter(tournament=tournament, stage__key="mata", status=Jogo.SCHEDULED).count() == 64
    texts = [flat(t) for t in pdf_text(sheet(Client(), tournament.slug, "chave"))]
    assert len(texts) == 5
    last = texts[4]
    for page in (1, 2, 3, 4):
        assert f"vencedor da página {page}" in last
    assert "Campeã" not in last


def test_a_tournament_without_knockout_has_a_one_page_chave(load_file):
    tournament = load_file(groups_only_file())
    texts = pdf_text(sheet(Client(), tournament.slug, "chave", "so-grupos-chave.pdf"))
    assert len(texts) == 1
    page = flat(texts[0])
    assert "Este torneio não tem fase eliminatória." in page and "página 1 de 1" in page
    assert "Copa Só de Grupos" in page


# --- classificacao.pdf ----------------------------------------------------------------------------------------

HEADERS = {"#", "Dupla", "P", "J", "V", "D", "PV", "PP", "PF", "PC", "Saldo", "Average"}


def test_classificacao_before_anything_is_played(cup):
    texts = pdf_text(sheet(Client(), cup.slug, "classificacao", "copa-sumula-classificacao.pdf"))
    assert len(texts) == 1
    page = flat(texts[0])
    assert "Classificação geral" not in page
    assert "Grupo A · 0 de 6 jogos encerrados" in page
    # nothing played: no ranks and no tie flags (every dupla would be "1º" and "tied" on zeros)
    assert "empate: aguarda sorteio" not in page and "1º" not in page
    assert "Há duplas empatadas em tudo" not in page
    assert "None" not in page and "—" in page  # no average yet: a dash, not a Python value
    assert HEADERS <= {line.strip() for line in texts[0].splitlines()}


def test_classificacao_of_the_finished_cup(finished):
    data = sheet(Client(), finished.slug, "classificacao", "copa-sumula-classificacao.pdf")
    texts = pdf_text(data)
    assert len(texts) == 1
    page = flat(texts[0])
    assert (
        "Classificação geral Lugar Dupla e atletas Medalha 1º Ana Souza / Bruno Lima ouro "
        "2º Carla Dias / Davi Reis prata 3º Elisa Melo / Fábio Nunes bronze 4º Gabi Rocha / Hugo Alves"
    ) in page
    assert page.index("Classificação geral") < page.index("Grupo A · grupo encerrado")
    assert HEADERS <= {line.strip() for line in texts[0].splitlines()}
    assert page.count("✓ classificada") == 2 + 1  # two qualified duplas, and the legend
    assert "Ana Souza / Bruno Lima ✓ classificada 9 3 3 0 6 0" in page  # P J V D PV PP of the group winner
    assert "Gabi Rocha / Hugo Alves 0 3 0 3 0 6" in page
    save_png(data, "classificacao")


def test_classificacao_of_the_fenacef_demo_tells_the_tiebreaks_and_keeps_birth_dates_out(load_file):
    tournament = demo(load_file, "fenacef-2023")
    data = sheet(Client(), tournament.slug, "classificacao", "fenacef-2023-classificacao.pdf")
    texts = pdf_text(data)
    assert len(texts) == 2 and footer_pages(texts) == [(1, 2), (2, 2)]
    whole = flat(" ".join(texts))
    for group in "ABCD":
        assert f"Grupo {group} · grupo encerrado" in whole
    for note in ("decidido por confronto direto", "decidido por partidas vencidas", "decidido por sorteio"):
        assert note in whole
    assert "Dupla Espadilha Élcio Magalhães e Marlene Queiroz ✓ classificada · decidido por confronto direto" in whole
    assert whole.count("✓ classificada") == 8 + 1
    assert "1º Manoel Messias Farias / Dalva Nascimento ouro" in whole
    assert "2º Dupla Espadilha · Élcio Magalhães e Marlene Queiroz prata" in whole
    assert "Zap & Copas" in whole and "&amp;" not in whole
    players = json.loads((DEMO_DIR / "fenacef-2023.json").read_text(encoding="utf-8"))["players"]
    assert all(p.get("birth_date") for p in players)
    for player in players:
        for form in birth_forms(player["birth_date"]):
            assert form not in whole, (player["name"], form)


def test_classificacao_of_a_knockout_only_tournament(load_file):
    tournament = demo(load_file, "aabb-2024")
    page = flat(pdf_text(sheet(Client(), tournament.slug, "classificacao"))[0])
    assert "Classificação geral" in page and "1º Luciana Gomes / Gérson Nogueira ouro" in page
    assert "Grupo" not in page and "não tem fase de grupos" not in page

    unplayed = json.loads((DEMO_DIR / "aabb-2024.json").read_text(encoding="utf-8"))
    unplayed["tournament"]["slug"] = "aabb-sem-jogos"
    unplayed["jogos"] = []
    empty = load_file(unplayed)
    texts = pdf_text(sheet(Client(), empty.slug, "classificacao"))
    assert len(texts) == 1 and "Este torneio não tem fase de grupos." in flat(texts[0])


# --- medalhas.pdf and certificados.pdf ------------------------------------------------------------------------


def test_medal_list_of_the_finished_cup(finished, client):
    client.force_login(staff_user(finished, "comissao", StaffRole.ORGANIZER))
    data = desk_sheet(client, finished.slug, "medalhas", "copa-sumula-medalhas.pdf")
    texts = pdf_text(data)
    assert len(texts) == 1
    page = flat(texts[0])
    assert "Lista de medalhas" in page
    assert "A separar: 2 medalhas de ouro, 2 medalhas de prata, 2 medalhas de bronze." in page
    blocks = [
        f"{place}º lugar medalha de {medal} {a} entregue {b} entregue"
        for place, (a, b, medal) in enumerate(PODIUM, start=1)
    ]
    assert " ".join(blocks) in page
    assert "Gabi Rocha" not in page and "Hugo Alves" not in page  # 4th: no medal
    save_png(data, "medalhas")


def _boxes_and_labels(data: bytes, label: str) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """On page 1: the (x, y) of every small square drawn (the boxes to tick) and of every ``label`` written."""
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(io.BytesIO(data))
    page = reader.pages[0]
    boxes = [
        (float(x), float(y))
        for operands, operator in ContentStream(page.get_contents(), reader).operations
        if operator == b"re"
        for x, y, w, h in [operands]
        if 8 <= float(w) <= 14 and abs(float(w) - float(h)) < 0.5
    ]
    labels: list[tuple[float, float]] = []

    def visit(text, cm, tm, _font, _size):
        if text.strip() == label:
            labels.append((cm[0] * tm[4] + cm[4], cm[3] * tm[5] + cm[5]))

    page.extract_text(visitor_text=visit)
    return boxes, labels


def test_each_medal_box_has_its_label_beside_it(finished, client):
    """The box to tick and "entregue" side by side at the end of the athlete's row (the label was far from its
    box, small and grey, at the other end of the page)."""
    client.force_login(staff_user(finished, "comissao", StaffRole.ORGANIZER))
    data = desk_sheet(client, finished.slug, "medalhas")
    boxes, labels = _boxes_and_labels(data, "entregue")
    assert len(boxes) == len(labels) == 6, (boxes, labels)
    for (bx, by), (lx, ly) in zip(sorted(boxes, key=lambda b: -b[1]), sorted(labels, key=lambda t: -t[1]), strict=True):
        assert 0 < lx - (bx + 3.6 * 72 / 25.4) <= 3 * 72 / 25.4, (bx, lx)  # the label starts just after its box
        assert abs(ly - (by + 0.6 * 72 / 25.4)) <= 2, (by, ly)  # on the box's line


def test_certificates_of_the_finished_cup(finished, client):
    client.force_login(staff_user(finished, "comissao", StaffRole.ORGANIZER))
    data = desk_sheet(client, finished.slug, "certificados", "copa-sumula-certificados.pdf")
    texts = [flat(t) for t in pdf_text(data)]
    assert len(texts) == 2 * 4  # one per athlete of the four placed duplas
    assert footer_pages(texts) == [(n, 8) for n in range(1, 9)]
    athletes = [a for row in PODIUM for a in row[:2]] + ["Gabi Rocha", "Hugo Alves"]
    partners = {athlete: athletes[i ^ 1] for i, athlete in enumerate(athletes)}  # 0-1, 2-3…: the same dupla
    for n, (text, athlete) in enumerate(zip(texts, athletes, strict=False)):
        place = n // 2 + 1
        assert text.startswith("Copa da Súmula CERTIFICADO Certificamos que " + athlete), text
        assert f"em dupla com {partners[athlete]}, no torneio Copa da Súmula, realizado em 28/11/2026." in text
        if place <= 3:
            assert f"conquistou o {place}º lugar, com medalha de {PODIUM[place - 1][2]}," in text
        else:
            assert "participou e classificou-se em 4º lugar" in text and "medalha" not in text
        assert "Comissão organizadora" in text and "Coordenação técnica" in text
    save_png(data, "certificados")


def test_before_the_end_the_ceremony_sheets_say_the_classification_is_not_defined(cup, client):
    client.force_login(staff_user(cup, "comissao", StaffRole.ORGANIZER))
    medals = pdf_text(desk_sheet(client, cup.slug, "medalhas"))
    assert len(medals) == 1
    page = flat(medals[0])
    assert "A classificação final ainda não está definida" in page
    assert "1º lugar medalha de ouro" in page and "A separar" not in page and "Ana Souza" not in page
    certificates = pdf_text(desk_sheet(client, cup.slug, "certificados"))
    assert len(certificates) == 1
    page = flat(certificates[0])
    assert "A classificação final ainda não está definida" in page and "CERTIFICADO" not in page


def test_a_shared_third_place_gives_bronze_to_both_semifinal_losers(load_file, client):
    tournament = with_pins(load_file(knockout4_file()))
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    semis = list(Jogo.objects.filter(tournament=tournament).order_by("position"))
    assert len(semis) == 2
    decide(client, tournament, semis[0].key, "d1")
    decide(client, tournament, semis[1].key, "d2")
    decide(client, tournament, Jogo.objects.get(tournament=tournament, round=2).key, "d1")
    page = flat(pdf_text(desk_sheet(client, tournament.slug, "medalhas"))[0])
    assert "A separar: 2 medalhas de ouro, 2 medalhas de prata, 4 medalhas de bronze." in page
    assert page.count("3º lugar medalha de bronze") == 2
    certificates = [flat(t) for t in pdf_text(desk_sheet(client, tournament.slug, "certificados"))]
    assert len(certificates) == 8
    assert sum("conquistou o 3º lugar, com medalha de bronze" in t for t in certificates) == 4
    chave = flat(pdf_text(sheet(client, tournament.slug, "chave"))[0])
    assert "3º · Elisa Melo / Fábio Nunes 3º · Gabi Rocha / Hugo Alves" in chave


def test_a_dupla_absent_from_every_jogo_gets_no_certificate(load_file, client):
    """Issue 41 item 16: a dupla that lost its every jogo by WO got a "participou… 4º lugar" certificate. It
    keeps its place in the classification, but it did not take part: no certificate."""
    tournament = with_pins(load_file(knockout4_file(third_place="match")))
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    first, second = Jogo.objects.filter(tournament=tournament).order_by("position")
    decide(client, tournament, first.key, first.dupla_a.key)

    def walkover(key: str, absent: str) -> None:
        body = {"walkover": absent, "walkover_reason": "não compareceu"}
        assert post(client, api(tournament.slug, key, "resultado"), body).json()["status"] == "awaiting_confirmation"
        present = next(d for d in jogo_duplas(tournament, key) if d != absent)
        assert answer(client, tournament.slug, key, present).json()["status"] == "confirmed"

    absent = second.dupla_b
    walkover(second.key, absent.key)
    decide(client, tournament, Jogo.objects.get(tournament=tournament, round=2, third_place=False).key, "d1")
    walkover(Jogo.objects.get(tournament=tournament, third_place=True).key, absent.key)
    place = presenters.classification_present(tournament_state_get(tournament=tournament))[3]
    assert (place.place, place.dupla.key) == (4, absent.key)  # it keeps its place
    certificates = [flat(t) for t in pdf_text(desk_sheet(client, tournament.slug, "certificados"))]
    assert len(certificates) == 6
    assert not any(absent.player1.name in t or absent.player2.name in t for t in certificates)
    assert sum("participou e classificou-se" in t for t in certificates) == 0


def test_long_names_print_whole_on_the_podium_and_in_the_walkover_result(load_file):
    """Issue 41 item 17: chave.pdf's champion and podium and the WO súmula's result box cut long names with …
    while the page had room: they take more lines and smaller type first."""
    longest = "Associação Recreativa dos Amigos do Truco da Vila Madalena e Adjacências " * 3  # 219 characters
    names = {"d1": longest[:180].strip(), "d4": longest[20:190].strip()}
    names |= {
        "d2": "Grêmio Esportivo Zap e Copas do Bairro Alto de Pinheiros",
        "d3": "Dupla Espadilha Matadora de Santo Amaro",
    }
    data = knockout4_file(third_place="match")
    for dupla in data["duplas"]:
        dupla["name"] = names[dupla["key"]]
    data["jogos"] = [
        {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 3], [12, 4]]},
        {"stage": "mata", "duplas": ["d2", "d3"], "walkover": "d3", "walkover_reason": "não compareceu"},
        {"stage": "mata", "duplas": ["d1", "d2"], "partidas": [[12, 3], [12, 4]]},
        {"stage": "mata", "duplas": ["d4", "d3"], "walkover": "d3"},
    ]
    tournament = load_file(data)
    anonymous = Client()
    chave = flat(pdf_text(sheet(anonymous, tournament.slug, "chave"))[0])
    podium = chave.split("Campeã")[1].split("Disputa de 3º lugar")[0]
    assert "…" not in podium
    assert podium.count(names["d1"]) == 2 and f"2º · {names['d2']}" in podium and f"3º · {names['d4']}" in podium
    walkover = Jogo.objects.get(tournament=tournament, dupla_a__key="d2", round=1)
    page = flat(pdf_text(assert_pdf(anonymous.get(f"/torneios/{tournament.slug}/jogos/{walkover.key}/sumula.pdf")))[0])
    assert page.count(f"WO: {names['d3']} ausente · vencedora: {names['d2']}") == 2  # the result box, the notes


def test_fenacef_demo_ceremony(load_file, client):
    tournament = demo(load_file, "fenacef-2023")
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    medals = flat(pdf_text(desk_sheet(client, tournament.slug, "medalhas"))[0])
    assert "2º lugar medalha de prata Dupla Espadilha Élcio Magalhães entregue Marlene Queiroz entregue" in medals
    assert "Mista, a partir de 18 anos · 14/10/2023 · Ginásio da APCEF" in medals
    certificates = pdf_text(desk_sheet(client, tournament.slug, "certificados"))
    assert len(certificates) == 2 * 18
    third = flat(certificates[4])
    assert "Raul Pimentel" in third and "na dupla Zap & Copas" in third and "(Mista, a partir de 18 anos)" in third
    assert "realizado em 14/10/2023 em Ginásio da APCEF." in third


def test_a_certificate_names_the_partner_even_when_both_have_the_same_name():
    event = Event(name="Copa dos Homônimos", category="", when="01/12/2026", venue="")
    placed = [
        Placed(
            place=1,
            medal="gold",
            dupla="José da Silva / José da Silva",
            has_name=False,
            athletes=("José da Silva", "José da Silva"),
        )
    ]
    data = certificates_pdf(
        event=event, placed=placed, finished=True, footer=Footer.now(event.name), title="Certificados"
    )
    texts = [flat(t) for t in pdf_text(data)]
    assert len(texts) == 2
    assert all("em dupla com José da Silva" in t for t in texts)


# --- the public pages link their sheets -----------------------------------------------------------------------


def test_public_pages_link_their_pdfs(cup, ref):
    anonymous = Client()
    slug = cup.slug
    assert f'href="/torneios/{slug}/chave.pdf"' in anonymous.get(f"/torneios/{slug}/chave/").content.decode()
    standings = anonymous.get(f"/torneios/{slug}/classificacao/").content.decode()
    assert f'href="/torneios/{slug}/classificacao.pdf"' in standings
    key = Jogo.objects.filter(tournament=cup).order_by("id").first().key
    jogo = anonymous.get(f"/torneios/{slug}/jogos/{key}/").content.decode()
    assert f'href="/torneios/{slug}/jogos/{key}/sumula.pdf"' in jogo
    # an earlier via links the PDF of that via
    assert post(ref, api(slug, key, "resultado"), {"partidas": [[12, 0], [12, 0]]}).status_code == 200
    answer(anonymous, slug, key, "d1")
    answer(anonymous, slug, key, "d4")
    assert post(ref, api(slug, key, "correcao"), {"reason": "x", "partidas": [[0, 12], [0, 12]]}).status_code == 200
    old = anonymous.get(f"/torneios/{slug}/jogos/{key}/?via=1").content.decode()
    assert f'href="/torneios/{slug}/jogos/{key}/sumula.pdf?via=1"' in old
    for href in re.findall(r'href="(/torneios/[^"]+\.pdf[^"]*)"', standings + jogo + old):
        assert_pdf(anonymous.get(href.replace("&amp;", "&")))


# --- what every sheet shares ----------------------------------------------------------------------------------


def test_every_sheet_is_a_pdf_with_dejavu_embedded_accents_and_the_footer(finished, client):
    organizer = staff_user(finished, "comissao", StaffRole.ORGANIZER)
    client.force_login(organizer)
    final = final_of(finished)
    urls = {
        "chave": f"/torneios/{finished.slug}/chave.pdf",
        "classificacao": f"/torneios/{finished.slug}/classificacao.pdf",
        "sumula": f"/torneios/{finished.slug}/jogos/{final.key}/sumula.pdf",
        "sumulas": f"/organizar/{finished.slug}/imprimir/sumulas.pdf",
        "medalhas": f"/organizar/{finished.slug}/imprimir/medalhas.pdf",
        "certificados": f"/organizar/{finished.slug}/imprimir/certificados.pdf",
    }
    accents = {
        "chave": "Eliminatória",
        "classificacao": "Classificação",
        "sumula": "SÚMULA",
        "sumulas": "Não há jogos agendados nesta seleção",
        "medalhas": "Fábio Nunes",
        "certificados": "Comissão organizadora",
    }
    for name, url in urls.items():
        data = assert_pdf(client.get(url))
        assert data.startswith(b"%PDF-"), name
        assert b"DejaVu" in data and b"/FontFile2" in data, name  # TrueType DejaVu, embedded
        used = fonts_used(data)  # every text is set in DejaVu, none in a standard (Latin-1 only) font
        assert used and all(font.startswith("DejaVuSans") for font in used), (name, used)
        texts = pdf_text(data)
        whole = " ".join(texts)
        assert accents[name] in whole, name
        assert "Súmula" in whole, name  # the tournament's name, in every footer
        assert footer_pages(texts) == [(n, len(texts)) for n in range(1, len(texts) + 1)], name
        for text in texts:
            assert "Copa da Súmula · gerado em" in flat(text) and FOOTER_WHEN.search(text), name
    assert pdf_pages(assert_pdf(client.get(urls["certificados"]))) == 8
    # "gerado em": the local time (America/Sao_Paulo) of the request, not UTC
    stamp = FOOTER_WHEN.search(pdf_text(assert_pdf(client.get(urls["sumula"])))[0]).group(0)
    made = dt.datetime.strptime(stamp, "gerado em %d/%m/%Y às %H:%M")
    now = timezone.localtime().replace(tzinfo=None)
    assert abs(now - made) < dt.timedelta(minutes=2), (stamp, now)


def test_the_champion_and_the_podium_are_printed_in_full(load_file):
    tournament = demo(load_file, "aabb-2024")
    page = flat(pdf_text(sheet(Client(), tournament.slug, "chave"))[0])
    assert "Campeã Luciana Gomes / Gérson Nogueira" in page
    assert "3º · Juliana Bragança / Fábio Henrique Martins" in page
