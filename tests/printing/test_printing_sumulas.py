"""The printed súmulas (tournaments/printing/): the desk's blank batch (/organizar/<slug>/imprimir/sumulas.pdf)
and the public filled súmula of one jogo (/torneios/<slug>/jogos/<key>/sumula.pdf).

The PDFs are read back with pypdf (text) and pypdfium2 + zxing-cpp (QR codes).
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.support.printing import (
    FOOTER_WHEN,
    assert_pdf,
    birth_forms,
    cup_with_births,
    flat,
    fonts_used,
    footer_pages,
    page_jogo_keys,
    pdf_pages,
    pdf_text,
    qr_texts,
    save_png,
    with_pins,
)
from tests.support.sumula import PIN, answer, api, cup_file, jogo_between, jogo_duplas, play, post, sign, staff_user
from tournaments.models import Jogo, Mesa, StaffRole
from tournaments.roles import role_grant
from tournaments.selectors import tournament_state_cache_clear
from tournaments.synthetic import synthetic_tournament

pytestmark = pytest.mark.django_db

SITE = "https://truco.exemplo.org"
PLAYERS = {
    "d1": ("Ana Souza", "Bruno Lima"),
    "d2": ("Carla Dias", "Davi Reis"),
    "d3": ("Elisa Melo", "Fábio Nunes"),
    "d4": ("Gabi Rocha", "Hugo Alves"),
}


def batch_url(slug: str, query: str = "") -> str:
    return f"/organizar/{slug}/imprimir/sumulas.pdf" + (f"?{query}" if query else "")


def sheet_url(slug: str, key: str, query: str = "") -> str:
    return f"/torneios/{slug}/jogos/{key}/sumula.pdf" + (f"?{query}" if query else "")


def jogos_of(tournament) -> list[Jogo]:
    return list(Jogo.objects.filter(tournament=tournament).select_related("dupla_a", "dupla_b").order_by("id"))


# --- the blank batch -------------------------------------------------------------------------------------------


def test_blank_batch_has_one_page_per_scheduled_jogo_with_what_the_table_needs(cup, ref, settings):
    settings.SITE_URL = SITE
    data = assert_pdf(ref.get(batch_url(cup.slug)), "copa-sumula-sumulas.pdf")
    texts = pdf_text(data)
    jogos = jogos_of(cup)
    assert len(jogos) == 6 and len(texts) == 6  # the final does not exist yet: nothing to print for it
    assert footer_pages(texts) == [(n, 6) for n in range(1, 7)]
    by_key = {j.key: j for j in jogos}
    seen = []
    for text, key in zip(texts, page_jogo_keys(data), strict=True):
        seen.append(key)
        jogo = by_key[key]
        page = flat(text)
        for phrase in (
            "Copa da Súmula",
            "28/11/2026",
            "SÚMULA DE JOGO",
            "Fase de grupos",
            f"Grupo A · Rodada {jogo.round}",
            "melhor de 3",
            "Dupla A",
            "Dupla B",
            "árbitro",
            "coordenador técnico",
            "jogador 1 · dupla A",
            "jogador 2 · dupla B",
            "Lembretes do regulamento",
            "Partida de 12 pontos",
            "Mão de onze",
            "Mão de ferro",
            "Partida 1",
            "Partida 2",
            "Partida 3",
            "Vencedora:",
            "súmula digital: aponte a câmera",
        ):
            assert phrase in page, (key, phrase)
        assert "Partida 4" not in page  # best of 3: three grids
        for side in (jogo.dupla_a.key, jogo.dupla_b.key):
            for player in PLAYERS[side]:
                assert player in page, (key, player)
        others = set(PLAYERS) - {jogo.dupla_a.key, jogo.dupla_b.key}
        assert not any(p in page for d in others for p in PLAYERS[d])
        assert "Copa da Súmula · gerado em" in page and FOOTER_WHEN.search(page)
        assert "1ª via" not in page and "Observações" in page  # blank: nothing filled in
    assert sorted(seen) == sorted(by_key)
    assert qr_texts(data, 0) == [f"{SITE}/torneios/copa-sumula/jogos/{seen[0]}/"]
    assert qr_texts(data, 5) == [f"{SITE}/torneios/copa-sumula/jogos/{seen[5]}/"]
    save_png(data, "sumula-em-branco")


def test_blank_batch_is_set_in_dejavu_with_accents_and_suits(cup, ref):
    data = assert_pdf(ref.get(batch_url(cup.slug)))
    assert b"DejaVu" in data and b"/FontFile2" in data
    used = fonts_used(data)  # the page's own text and the shared form's
    assert {"DejaVuSans", "DejaVuSans-Bold"} <= used and all(f.startswith("DejaVuSans") for f in used), used
    for text in pdf_text(data):
        page = flat(text)
        for phrase in (
            "Copa da Súmula",
            "SÚMULA DE JOGO",
            "Mão de onze",
            "Três rodadas empatadas",
            "4♣ 7♥ A♠ 7♦",
            "☐ A",
        ):
            assert phrase in page, phrase
    assert "2. Fábio Nunes" in " ".join(pdf_text(data))  # d3's second player, in the dupla box


def test_knockout_batch_prints_the_final_then_the_third_place_jogo(load_file, client):
    data = synthetic_tournament(duplas=8)
    data["jogos"] = data["jogos"][:-2]  # the final and the third-place jogo are drawn, not played
    tournament = load_file(data)
    client.force_login(staff_user(tournament, "arbitro-mata"))
    final = Jogo.objects.get(tournament=tournament, stage__key="mata", status=Jogo.SCHEDULED, third_place=False)
    third = Jogo.objects.get(tournament=tournament, stage__key="mata", status=Jogo.SCHEDULED, third_place=True)
    data = assert_pdf(client.get(batch_url(tournament.slug, "stage=mata")))
    texts = [flat(t) for t in pdf_text(data)]
    assert page_jogo_keys(data) == [final.key, third.key]
    assert "Eliminatória" in texts[0] and "Final" in texts[0] and "Disputa de 3º lugar" not in texts[0]
    assert "Disputa de 3º lugar" in texts[1]
    for text in texts:  # the synthetic final and third-place jogo are best of 5: five grids
        assert "melhor de 5" in text and "Partida 5" in text and "Partida 6" not in text
    assert pdf_pages(assert_pdf(client.get(batch_url(tournament.slug, f"stage=mata&round={final.round}")))) == 2


def test_the_qr_code_follows_site_url(cup, ref, j1, settings):
    for site in ("https://truco.exemplo.org", "http://zap.local:8000"):
        settings.SITE_URL = site
        data = assert_pdf(ref.get(batch_url(cup.slug, "stage=grupos&round=1")))
        assert page_jogo_keys(data)[0] == j1
        assert qr_texts(data, 0) == [f"{site}/torneios/copa-sumula/jogos/{j1}/"]


def test_stage_and_round_narrow_the_batch(cup, ref):
    jogos = jogos_of(cup)
    for round_number in (1, 2, 3):
        response = ref.get(batch_url(cup.slug, f"stage=grupos&round={round_number}"))
        data = assert_pdf(response, f"copa-sumula-sumulas-grupos-rodada-{round_number}.pdf")
        texts = pdf_text(data)
        expected = {j.key for j in jogos if j.round == round_number}
        assert len(expected) == 2 and set(page_jogo_keys(data)) == expected
        assert all(f"Grupo A · Rodada {round_number}" in flat(t) for t in texts)
        assert footer_pages(texts) == [(1, 2), (2, 2)]
    whole_stage = assert_pdf(ref.get(batch_url(cup.slug, "stage=grupos")), "copa-sumula-sumulas-grupos.pdf")
    assert pdf_pages(whole_stage) == 6
    only_round = assert_pdf(ref.get(batch_url(cup.slug, "round=2")), "copa-sumula-sumulas-rodada-2.pdf")
    assert set(page_jogo_keys(only_round)) == {j.key for j in jogos if j.round == 2}


@pytest.mark.parametrize(
    "preset, manilha, not_there",
    [
        ("fenacef", "4♣ 7♥ A♠ 7♦", "variável (vira)"),
        ("aabb", "variável (vira)", "4♣ 7♥ A♠ 7♦"),
    ],
)
def test_reminders_follow_the_preset(load_file, client, preset, manilha, not_there):
    tournament = load_file(cup_file(f"copa-{preset}", preset))
    client.force_login(staff_user(tournament, f"arbitro-{preset}"))
    texts = pdf_text(assert_pdf(client.get(batch_url(tournament.slug, "stage=grupos&round=1"))))
    for text in texts:
        page = flat(text)
        assert f"Manilha: {'fixa (velha): ' if preset == 'fenacef' else ''}{manilha}" in page
        assert not_there not in page
        assert "Baralho: sujo (40 cartas)" in page
        assert "Quem corre dá à outra dupla o valor de antes do pedido" in page


SIGNING = "Assinaturas: os atletas conferem e assinam; o árbitro e o coordenador técnico assinam depois"


@pytest.mark.parametrize("preset, cited", [("fenacef", "(FENACEF Art. 38)"), ("aabb", None), ("online", None)])
def test_the_signature_line_cites_only_the_events_own_regulation(load_file, client, preset, cited):
    """FENACEF's regulation has an article on signing the súmula (Art. 38); AABB-SP's and Truco Online's have none:
    their sheets cite no article, and never another regulation's."""
    tournament = load_file(cup_file(f"copa-{preset}", preset))
    client.force_login(staff_user(tournament, f"arbitro-{preset}"))
    blank = assert_pdf(client.get(batch_url(tournament.slug, "stage=grupos&round=1")))
    key = jogo_between(tournament, "d1", "d4")
    filled = assert_pdf(Client().get(sheet_url(tournament.slug, key)))
    for page in [flat(t) for t in pdf_text(blank) + pdf_text(filled)]:
        assert SIGNING in page
        if cited:
            assert f"{SIGNING} {cited}" in page, page
        else:
            assert "FENACEF" not in page and "Art." not in page, page
    if preset == "aabb":
        save_png(blank, "sumula-em-branco-aabb")


def test_pages_follow_round_then_mesa_and_jogos_without_mesa_come_last(cup, ref):
    jogos = jogos_of(cup)
    mesas = [73, 3, None, 8, None, None]  # in jogo id order
    for jogo, mesa in zip(jogos, mesas, strict=False):
        Jogo.objects.filter(pk=jogo.pk).update(mesa=mesa)
        jogo.mesa = mesa
    tournament_state_cache_clear()
    expected = [j.key for j in sorted(jogos, key=lambda j: (j.round, j.mesa is None, j.mesa or 0, j.id))]
    assert expected != [j.key for j in jogos]  # the mesas really reorder the pages
    data = assert_pdf(ref.get(batch_url(cup.slug)))
    texts = pdf_text(data)
    assert page_jogo_keys(data) == expected
    by_key = {j.key: j for j in jogos}
    for text, key in zip(texts, expected, strict=True):
        jogo = by_key[key]
        page = flat(text)
        if jogo.mesa is None:
            assert "—" in page  # the mesa box, left to be filled in
        else:
            assert "—" not in page and re.search(rf"(?<!\d){jogo.mesa}(?!\d)", page)
    assert re.search(r"(?<!\d)73(?!\d)", flat(texts[expected.index(jogos[0].key)]))


def test_a_jogo_at_the_table_is_no_longer_in_the_blank_batch(cup, ref, j1):
    assert post(ref, api(cup.slug, j1, "maos"), {"id": "m1", "to": 0, "points": 1}).status_code == 201
    data = assert_pdf(ref.get(batch_url(cup.slug)))
    keys = page_jogo_keys(data)
    assert len(keys) == 5 and j1 not in keys
    assert footer_pages(pdf_text(data))[-1] == (5, 5)
    first_round = page_jogo_keys(assert_pdf(ref.get(batch_url(cup.slug, "round=1"))))
    assert len(first_round) == 1 and j1 not in first_round
    page = ref.get(f"/organizar/{cup.slug}/arbitragem/").content.decode()  # where a referee finds the batches
    assert "5 súmulas" in page and "Rodada 1</a> · 1 súmula<" in page


@pytest.mark.parametrize(
    "query, words",
    [
        ("stage=nada", ["stage", "“nada”", "grupos", "final"]),
        ("stage=GRUPOS", ["stage", "GRUPOS"]),
        ("stage=grupos&round=abc", ["round", "“abc”"]),
        ("round=0", ["round", "“0”"]),
        ("round=-1", ["round"]),
        ("round=1.5", ["round"]),
        ("round=%D9%A3", ["round"]),  # an Arabic-Indic digit: not a round number here
    ],
)
def test_a_bad_stage_or_round_is_a_400_page_naming_the_parameter(cup, ref, query, words):
    response = ref.get(batch_url(cup.slug, query))
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "Não foi possível imprimir" in body
    message = re.search(r"<p>([^<]*)</p>", body[body.index("Não foi possível imprimir") :]).group(1)
    assert message.startswith(words[0] + ":"), message
    for word in words:
        assert word in message, (word, message)
    assert f'href="/organizar/{cup.slug}/arbitragem/"' in body  # back to where a referee prints the batches


def test_the_error_page_leads_an_organizer_back_to_the_printing_page(cup, client):
    client.force_login(staff_user(cup, "comissao-impressao", StaffRole.ORGANIZER))
    body = client.get(batch_url(cup.slug, "stage=nada")).content.decode()
    assert f'href="/organizar/{cup.slug}/imprimir/"' in body


def test_the_error_page_escapes_what_was_asked_for(cup, ref):
    response = ref.get(batch_url(cup.slug, "stage=%3Cb%3Ex%3C/b%3E"))
    assert response.status_code == 400
    body = response.content.decode()
    assert "stage: a fase “&lt;b&gt;x&lt;/b&gt;” não existe" in body and "<b>x</b>" not in body


@pytest.mark.parametrize("query", ["stage=final", "stage=grupos&round=9"])
def test_nothing_scheduled_prints_one_page_saying_so(cup, ref, query):
    texts = pdf_text(assert_pdf(ref.get(batch_url(cup.slug, query))))
    assert len(texts) == 1
    page = flat(texts[0])
    assert "Nenhum jogo a imprimir" in page and "Não há jogos agendados nesta seleção." in page
    assert "página 1 de 1" in page and "SÚMULA DE JOGO" not in page


def test_the_jogos_own_referee_is_named_over_the_referee_line(cup, ref, j1):
    zeca = staff_user(cup, "zeca.apito")
    zeca.first_name, zeca.last_name = "José", "Apitador"
    zeca.save()
    Jogo.objects.filter(tournament=cup, key=j1).update(referee=zeca)
    tournament_state_cache_clear()
    data = assert_pdf(ref.get(batch_url(cup.slug, "round=1")))
    by_key = {key: flat(t) for t, key in zip(pdf_text(data), page_jogo_keys(data), strict=True)}
    assert "José Apitador" in by_key[j1]
    assert not any("José Apitador" in text for key, text in by_key.items() if key != j1)


def test_a_jogo_without_its_own_referee_names_its_mesas_referee(cup, ref, j1):
    rita = staff_user(cup, "rita")
    rita.first_name, rita.last_name = "Rita", "Bandeira"
    rita.save()
    jogo = Jogo.objects.get(tournament=cup, key=j1)
    assert jogo.referee_id is None and jogo.mesa is not None
    Mesa.objects.create(tournament=cup, number=jogo.mesa, referee=rita)
    tournament_state_cache_clear()
    # the referee desk counts the jogo as Rita's (Jogo.referee: "Vazio: o árbitro da mesa")
    data = assert_pdf(ref.get(batch_url(cup.slug, "round=1")))
    by_key = {key: flat(t) for t, key in zip(pdf_text(data), page_jogo_keys(data), strict=True)}
    assert "Rita Bandeira" in by_key[j1]


def _no_jogos(data: dict) -> dict:
    """A synthetic tournament file with no jogo played: the importer schedules every group jogo."""
    data["jogos"] = []
    return data


def test_a_batch_costs_the_same_queries_for_a_small_and_a_big_tournament(load_file, client):
    small = load_file(_no_jogos(synthetic_tournament(duplas=8, seed=1)))
    big = load_file(_no_jogos(synthetic_tournament(duplas=32, seed=2)))
    user = staff_user(small, "arbitro-dos-dois")
    role_grant(tournament=big, user=user, role=StaffRole.REFEREE)
    client.force_login(user)
    counts, pages = {}, {}
    for name, tournament in (("small", small), ("big", big), ("small again", small)):
        tournament_state_cache_clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(batch_url(tournament.slug))
        pages[name] = pdf_pages(assert_pdf(response))
        counts[name] = len(queries)
    assert pages == {"small": 12, "big": 48, "small again": 12}  # groups of 4: 6 jogos each
    assert counts["small"] == counts["big"] == counts["small again"], counts
    # a narrower batch reads no more
    tournament_state_cache_clear()
    with CaptureQueriesContext(connection) as queries:
        assert_pdf(client.get(batch_url(big.slug, "stage=grupos&round=2")))
    assert len(queries) == counts["big"]


# --- the filled súmula ---------------------------------------------------------------------------------------

FIRST_PARTIDA = [  # d1 (A) x d4 (B): 3x0 truco, 3x1 correu, 4x1 penalty, tie, 10x1 seis, 11x1, 14x1 mão de onze
    {"to": 0, "points": 3},
    {"to": 1, "points": 1, "how": "ran"},
    {"to": 0, "points": 1, "how": "penalty", "reason": "falou durante a mão"},
    {"to": None},
    {"to": 0, "points": 6},
    {"to": 0, "points": 1},
    {"to": 0, "points": 3},
]


def _first_partida(client, slug: str, key: str) -> None:
    for n, mao in enumerate(FIRST_PARTIDA):
        response = post(client, api(slug, key, "maos"), {"id": f"a{n}"} | mao)
        assert response.status_code == 201, response.content
    assert response.json()["partidas"][0]["score"] == [14, 1]


def test_filled_sumula_has_every_mao_the_answers_and_the_signature(cup, ref, j1, settings):
    settings.SITE_URL = SITE
    anonymous = Client()
    _first_partida(ref, cup.slug, j1)
    live = flat(pdf_text(assert_pdf(anonymous.get(sheet_url(cup.slug, j1)), f"copa-sumula-sumula-{j1}.pdf"))[0])
    assert "1ª via · em andamento" in live and "A 1 x 0 B · em andamento" in live

    play(ref, cup.slug, j1, [0], "p2")  # partida 2: four truco mãos, 12 x 0
    assert answer(anonymous, cup.slug, j1, "d1").status_code == 200
    assert answer(anonymous, cup.slug, j1, "d4", accept=False, reason="a penalidade foi injusta").status_code == 200
    signed = sign(ref, cup.slug, j1, reason="penalidade mantida pelo árbitro")
    assert signed.status_code == 200 and signed.json()["status"] == "homologated"

    data = assert_pdf(anonymous.get(sheet_url(cup.slug, j1)), f"copa-sumula-sumula-{j1}.pdf")
    texts = pdf_text(data)
    assert len(texts) == 1
    page = flat(texts[0])
    for phrase in (
        "1ª via · homologada",
        "A 2 x 0 B · vencedora: dupla A, Ana Souza / Bruno Lima",
        "Partida 1, mão 3: penalidade de 1 a favor da dupla A: falou durante a mão",
        "Dupla A confirmou pelo PIN em",
        "Dupla B contestou pelo PIN em",
        ": a penalidade foi injusta",
        "Homologada pelo árbitro em",
        "Decisão: penalidade mantida pelo árbitro",
        "Grupo A · Rodada 1",
        "melhor de 3",
        "Ana Souza",
        "Hugo Alves",
        "página 1 de 1",
    ):
        assert phrase in page, phrase
    # mão by mão: the running totals of A and B and what the mão was
    assert "3 0 truco 3 1 correu 4 1 penalidade 4 1 empate 10 1 seis 11 1 14 1 mão de onze" in page, page
    assert "3 0 truco 6 0 truco 9 0 truco 12 0 truco" in page
    assert re.search(r"confirmou pelo PIN em \d{2}/\d{2}/\d{4} às \d{2}:\d{2}\.", page)
    assert qr_texts(data) == [f"{SITE}/torneios/copa-sumula/jogos/{j1}/"]
    save_png(data, "sumula-preenchida")


def test_a_sumula_signed_by_the_organizer_says_so(cup, client, j1):
    organizer = staff_user(cup, "comissao", StaffRole.ORGANIZER)
    client.force_login(organizer)
    assert post(client, api(cup.slug, j1, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    assert answer(client, cup.slug, j1, "d1").status_code == 200
    assert answer(client, cup.slug, j1, "d4").status_code == 200
    assert sign(client, cup.slug, j1).status_code == 200
    page = flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, j1))))[0])
    assert "Homologada pela organização em" in page and "Homologada pelo árbitro" not in page
    assert "Decisão:" not in page
    assert "Dupla A confirmou pelo PIN" in page and "Dupla B confirmou pelo PIN" in page
    assert "resultado anotado sem as mãos" in page  # partidas entered as scores
    assert "comissao" not in page


def test_a_scheduled_jogo_prints_its_empty_filled_sheet(cup, j1):
    page = flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, j1))))[0])
    assert "1ª via · a jogar" in page and "Ana Souza" in page and "Observações" in page


def test_a_correction_prints_the_new_via_and_the_earlier_one_on_request(cup, ref, j1):
    anonymous = Client()
    assert post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 0], [12, 0]]}).status_code == 200
    answer(anonymous, cup.slug, j1, "d1")
    answer(anonymous, cup.slug, j1, "d4")
    fixed = post(
        ref,
        api(cup.slug, j1, "correcao"),
        {"reason": "placar anotado trocado", "partidas": [[5, 12], [12, 10], [0, 12]]},
    )
    assert fixed.status_code == 200 and fixed.json()["via"] == 2

    current = flat(pdf_text(assert_pdf(anonymous.get(sheet_url(cup.slug, j1)), f"copa-sumula-sumula-{j1}.pdf"))[0])
    assert "2ª via — substitui a 1ª: placar anotado trocado" in current
    assert "A 1 x 2 B · vencedora: dupla B, Gabi Rocha / Hugo Alves" in current
    assert "confirmou pelo" not in current  # the new via waits for its confirmations
    assert "Dupla A ainda não confirmou." in current and "Dupla B ainda não confirmou." in current

    first = assert_pdf(anonymous.get(sheet_url(cup.slug, j1, "via=1")), f"copa-sumula-sumula-{j1}-via-1.pdf")
    earlier = flat(pdf_text(first)[0])
    assert re.search(r"1ª via — substituída pela 2ª via em \d{2}/\d{2}/\d{4} às \d{2}:\d{2}", earlier), earlier
    assert "A 2 x 0 B · vencedora: dupla A, Ana Souza / Bruno Lima" in earlier
    assert "Dupla A confirmou pelo PIN" in earlier and "Dupla B confirmou pelo PIN" in earlier
    assert "placar anotado trocado" not in earlier
    save_png(first, "sumula-via-anterior")

    same = flat(pdf_text(assert_pdf(anonymous.get(sheet_url(cup.slug, j1, "via=2"))))[0])
    assert "2ª via — substitui a 1ª" in same
    for query in ("via=3", "via=9", "via=0", "via=abc", "via=-1"):
        assert anonymous.get(sheet_url(cup.slug, j1, query)).status_code == 404, query


def test_unknown_jogo_or_tournament_is_404(cup):
    anonymous = Client()
    assert anonymous.get(sheet_url(cup.slug, "zz99")).status_code == 404
    assert anonymous.get(sheet_url("nao-existe", "j1")).status_code == 404
    assert anonymous.post(sheet_url(cup.slug, "j1")).status_code == 405


def test_the_filled_sumula_names_its_referee(cup, ref, j1):
    """Issue 41 item 17: the filled súmula left the referee's line blank. It names the jogo's referee (its mesa's
    here), by the full name as the blank sheet does, and the signer when the jogo has no referee."""
    rita = staff_user(cup, "rita")
    rita.first_name, rita.last_name = "Rita", "Bandeira"
    rita.save()
    jogo = Jogo.objects.get(tournament=cup, key=j1)
    Mesa.objects.create(tournament=cup, number=jogo.mesa, referee=rita)
    assert post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    page = flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, j1))))[0])
    assert "Rita Bandeira" in page and "rita" not in page
    other = jogo_between(cup, "d2", "d3")
    signer = Jogo.objects.get(tournament=cup, key=other)
    assert signer.referee_id is None and not Mesa.objects.filter(tournament=cup, number=signer.mesa).exists()
    ref_user = get_user_model().objects.get(username="arbitro")
    ref_user.first_name, ref_user.last_name = "Tião", "Apito"
    ref_user.save()
    assert post(ref, api(cup.slug, other, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    assert "Tião Apito" not in flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, other))))[0])
    for dupla in jogo_duplas(cup, other):
        assert answer(Client(), cup.slug, other, dupla).status_code == 200
    assert sign(ref, cup.slug, other).status_code == 200
    assert "Tião Apito" in flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, other))))[0])


def test_walkover_and_loss_of_the_jogo_are_written_out(cup, ref, j1):
    other = jogo_between(cup, "d2", "d3")
    assert post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d4"}).status_code == 200
    assert (
        post(
            ref, api(cup.slug, other, "resultado"), {"penalty": {"lost_by": "d2", "reason": "ofendeu o árbitro"}}
        ).status_code
        == 200
    )
    walkover = flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, j1))))[0])
    assert "WO: Gabi Rocha / Hugo Alves ausente · vencedora: Ana Souza / Bruno Lima" in walkover
    lost = flat(pdf_text(assert_pdf(Client().get(sheet_url(cup.slug, other))))[0])
    assert "Perda do jogo por Carla Dias / Davi Reis: ofendeu o árbitro" in lost
    assert "vencedora: Elisa Melo / Fábio Nunes" in lost


def test_public_sheets_never_print_pins_birth_dates_or_account_names(load_file, client):
    tournament = with_pins(load_file(cup_with_births("copa-privada")))
    referee = get_user_model().objects.create_user(
        "zeca.apito", password="senha-do-teste-1", first_name="Zeca", last_name="Apito"
    )
    role_grant(tournament=tournament, user=referee, role=StaffRole.REFEREE)
    client.force_login(referee)
    key = jogo_between(tournament, "d1", "d4")
    _first_partida(client, tournament.slug, key)
    play(client, tournament.slug, key, [0], "p2")
    anonymous = Client()
    assert answer(anonymous, tournament.slug, key, "d1").status_code == 200
    assert answer(anonymous, tournament.slug, key, "d4", accept=False, reason="contestamos").status_code == 200
    assert sign(client, tournament.slug, key, reason="mantido").status_code == 200

    urls = [
        sheet_url(tournament.slug, key),
        f"/torneios/{tournament.slug}/chave.pdf",
        f"/torneios/{tournament.slug}/classificacao.pdf",
    ]
    forbidden = [PIN[d] for d in PIN] + [f"{PIN[d][:3]} {PIN[d][3:]}" for d in PIN]
    forbidden += ["zeca"]  # the username (it may be an e-mail address); the full name signs the filled súmula
    births = [p["birth_date"] for p in cup_with_births()["players"]]
    forbidden += [form for iso in births for form in birth_forms(iso)]
    forbidden += [str(1960 + i) for i in range(1, 9)]  # not even the year of birth
    for url in urls:
        data = assert_pdf(anonymous.get(url))
        text = " ".join(pdf_text(data))
        assert "Copa da Súmula" in text
        for secret in forbidden:
            assert secret not in text, (url, secret)
            assert secret.encode() not in data, (url, secret)  # nor in the metadata
    sheet = flat(pdf_text(anonymous.get(urls[0]).content)[0])
    assert "Homologada pelo árbitro" in sheet and "contestou" in sheet  # who signed: by role only
    assert sheet.count("Zeca Apito") == 1  # on the referee's line only
    for url in urls[1:]:
        assert "Zeca" not in " ".join(pdf_text(anonymous.get(url).content))


def test_every_observation_is_printed_even_when_there_are_many(cup, ref, j1):
    reasons = ["falou durante a mão", "mostrou as cartas ao parceiro", "jogou fora da vez"]
    for n, (to, reason) in enumerate(zip((0, 1, 0), reasons, strict=False)):
        response = post(
            ref, api(cup.slug, j1, "maos"), {"id": f"pen{n}", "to": to, "points": 1, "how": "penalty", "reason": reason}
        )
        assert response.status_code == 201
    play(ref, cup.slug, j1, [0, 0], "fim")
    anonymous = Client()
    assert answer(anonymous, cup.slug, j1, "d1").status_code == 200
    contest = answer(anonymous, cup.slug, j1, "d4", accept=False, reason="a terceira penalidade foi injusta")
    assert contest.status_code == 200
    assert sign(ref, cup.slug, j1, reason="mantido após ouvir as duplas").status_code == 200
    page = flat(pdf_text(assert_pdf(anonymous.get(sheet_url(cup.slug, j1))))[0])
    for reason in reasons:
        assert reason in page
    assert "a terceira penalidade foi injusta" in page
    assert "Homologada pelo árbitro" in page and "mantido após ouvir as duplas" in page
