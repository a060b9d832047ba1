"""End to end in headless Chromium: a visitor clicks through the public pages, on a desktop and on a phone.

Screenshots of every page go to /tmp/zap-shots/ (look at them when the layout changes).
"""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import VIEWPORTS
from tests.support.browser import shot as _shot
from tests.support.files import BIRTH, big_file, demo_file, edge_files, knockout_file, large_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def events(load_file):
    demo = load_file(demo_file(load_file))
    finished = load_file(knockout_file())
    return demo, finished


def _no_horizontal_page_scroll(page) -> None:
    """Wide content (tables, the bracket) scrolls inside its box; the page itself never does."""
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_visitor_clicks_through_an_event(browser, live_server, events, device):
    context = browser.new_context(
        viewport=VIEWPORTS[device], locale="pt-BR", is_mobile=device == "phone", has_touch=device == "phone"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    outside: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith(live_server.url) or r.url.startswith("data:") else outside.append(r.url),
    )
    try:
        page.goto(f"{live_server.url}/torneios/")
        assert page.get_by_role("heading", name="Torneios").is_visible()
        assert page.get_by_text("Copa Demo de Truco").is_visible()
        assert page.get_by_text("encerrado").first.is_visible()  # the AABB event is over
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-1-lista")

        page.get_by_text("Copa Demo de Truco").click()
        page.wait_for_url("**/torneios/copa-demo/")
        assert page.get_by_text("Bar Classe A").first.is_visible()
        assert page.get_by_text("27/04/2024").first.is_visible()
        assert page.get_by_text("FENACEF 2023").first.is_visible()
        assert page.get_by_text("melhor de 5").first.is_visible()
        assert BIRTH not in page.content() and "14/03/1987" not in page.content()
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-2-evento")

        page.get_by_role("navigation", name="Páginas do torneio").get_by_role("link", name="Classificação").click()
        page.wait_for_url("**/classificacao/")
        assert page.get_by_role("heading", name="Grupo A").is_visible()
        assert page.get_by_text("Os Zapeiros").first.is_visible()
        assert page.get_by_text("decidido por confronto direto").first.is_visible()
        assert page.get_by_text("decidido por sorteio").first.is_visible()
        assert page.get_by_text("classificada").first.is_visible()
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-3-classificacao")

        page.get_by_role("navigation", name="Páginas do torneio").get_by_role("link", name="Chave").click()
        page.wait_for_url("**/chave/")
        bracket = page.get_by_role("region", name="Chaveamento")
        assert bracket.get_by_role("heading", name="Final", exact=True).count() == 1
        assert bracket.get_by_role("heading", name="Quartas de final", exact=True).count() == 1
        assert bracket.get_by_text("folga").first.is_visible()
        assert bracket.get_by_text("melhor de 3").first.count() == 1
        assert page.locator(".bj-row.is-winner").first.is_visible()
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-4-chave")

        page.get_by_role("navigation", name="Páginas do torneio").get_by_role("link", name="Jogos").click()
        page.wait_for_url("**/jogos/")
        assert page.get_by_role("heading", name="Rodada 1").is_visible()
        assert page.get_by_text("12 x 7, 9 x 12, 12 x 3").first.is_visible()
        assert page.get_by_text(re.compile(r"partida 2: \S.* 6 x 1 \S")).is_visible()  # the partida being played, live
        assert page.get_by_text("WO").first.is_visible()
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-5-jogos")

        # the filter by dupla: htmx swaps the list in place (and the plain form works too)
        page.select_option("#f-dupla", label="Seis Nele")
        page.wait_for_url("**dupla=d4**")
        expect(page.locator("#jogos-lista .jogo")).to_have_count(3)
        assert page.locator("#jogos-lista").get_by_text("Jogos de").is_visible()
        assert page.locator(".topbar").count() == 1  # the partial came back, not a whole page
        _shot(page, f"{device}-6-jogos-filtro")

        page.goto(f"{live_server.url}/torneios/copa-demo/")
        with page.expect_navigation():
            page.get_by_role("link", name="Baixar os dados (JSON)").click()
        body = page.locator("body").inner_text()
        data = json.loads(body)
        assert data["tournament"]["slug"] == "copa-demo"
        assert BIRTH not in body and "pin" not in {k for d in data["duplas"] for k in d}
        assert all("birth_date" not in p and "email" not in p for p in data["players"])

        # the finished event: medals in the classification, the third-place jogo in the bracket
        page.goto(f"{live_server.url}/torneios/aabb-demo/")
        assert page.get_by_role("heading", name="Pódio").is_visible()
        _shot(page, f"{device}-7-evento-final")
        page.goto(f"{live_server.url}/torneios/aabb-demo/classificacao/")
        assert page.get_by_text("Classificação geral").is_visible()
        assert page.get_by_text("ouro").first.is_visible() and page.get_by_text("bronze").first.is_visible()
        _shot(page, f"{device}-7-classificacao-final-2")
        page.goto(f"{live_server.url}/torneios/aabb-demo/chave/")
        assert page.get_by_role("heading", name="Disputa de 3º lugar").is_visible()
        assert page.get_by_text("Campeã").is_visible()
        _shot(page, f"{device}-8-chave-final")

        page.goto(f"{live_server.url}/torneios/nao-existe/")
        assert page.get_by_role("heading", name="Página não encontrada").is_visible()
        _shot(page, f"{device}-9-404")
    finally:
        context.close()
    assert not errors, errors
    assert not outside, f"pedidos fora do site: {outside}"


def test_pages_of_unfinished_or_empty_events_render_on_a_phone(browser, live_server, load_file):
    slugs = [load_file(f).slug for f in edge_files()]
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pt-BR", is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for slug in slugs:
            for path in ("", "classificacao/", "chave/", "jogos/"):
                response = page.goto(f"{live_server.url}/torneios/{slug}/{path}")
                assert response.status == 200, (slug, path)
                assert page.locator("h1").first.is_visible()
                _no_horizontal_page_scroll(page)
                _shot(page, f"borda-{slug}-{(path.strip('/') or 'evento')}")
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_a_big_bracket_scrolls_inside_its_box(browser, live_server, load_file, device):
    slug = load_file(large_file(groups=8, size=4)).slug  # 16 in the knockout: 4 rounds
    context = browser.new_context(viewport=VIEWPORTS[device], locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/{slug}/chave/")
        bracket = page.get_by_role("region", name="Chaveamento")
        assert bracket.get_by_role("heading", name="Oitavas de final", exact=True).count() == 1
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-grande-chave")
        page.goto(f"{live_server.url}/torneios/{slug}/classificacao/")
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-grande-classificacao")
    finally:
        context.close()


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_a_big_event_is_browsed_in_parts_with_plain_links(browser, live_server, load_file, device):
    """160 duplas: one round of jogos, 16 groups, a section of the bracket at a time; on the phone without JavaScript."""
    live = load_file(big_file(live=True, slug="grande-ao-vivo")).slug
    done = load_file(big_file(slug="grande")).slug
    context = browser.new_context(viewport=VIEWPORTS[device], locale="pt-BR", java_script_enabled=device != "phone")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/torneios/{live}/jogos/")
        rounds = page.get_by_role("navigation", name="Rodadas")
        assert rounds.get_by_role("link", name="Rodada 3").get_attribute("aria-current") == "page"  # still being played
        assert page.get_by_role("heading", name="Rodada 3").is_visible()
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-grande-jogos")
        rounds.get_by_role("link", name="Rodada 1").click()
        page.wait_for_url("**/jogos/?rodada=1")
        assert page.locator("#jogos-lista .jogo").count() == 80
        page.get_by_role("navigation", name="Rodada anterior e seguinte").get_by_role("link", name="Rodada 2").click()
        page.wait_for_url("**/jogos/?rodada=2")
        assert page.get_by_role("heading", name="Rodada 2").is_visible()
        # the filter by dupla shows every jogo of that dupla (the plain form without JavaScript)
        page.select_option("#f-dupla", index=1)
        if device == "phone":
            page.get_by_role("button", name="Filtrar").click()
        page.wait_for_url("**dupla=**")
        expect(page.locator("#jogos-lista .jogo")).to_have_count(3)
        assert page.get_by_role("navigation", name="Rodadas").count() == 0

        page.goto(f"{live_server.url}/torneios/{done}/classificacao/")
        assert page.get_by_role("heading", name="Classificação geral").is_visible()
        assert page.locator(".classification li").count() == 8  # the top places; the whole list is its own page
        page.get_by_role("link", name="Ver a classificação geral completa (160 duplas)").click()
        page.wait_for_url("**/classificacao/?ver=geral")
        assert page.locator(".classification li").count() == 160
        page.goto(f"{live_server.url}/torneios/{done}/classificacao/")
        page.get_by_role("navigation", name="Páginas de grupos").get_by_role("link", name="Q–AF").click()
        page.wait_for_url("**/classificacao/?pagina=2")
        assert page.get_by_role("heading", name="Grupo Q", exact=True).is_visible()
        assert page.get_by_role("heading", name="Grupo A", exact=True).count() == 0
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-grande-classificacao-pagina-2")
        page.get_by_text("Ir direto para um grupo").click()
        page.locator("details.jump").get_by_role("link", name="AK", exact=True).click()
        page.wait_for_url("**/classificacao/?pagina=3#grupo-grupos-ak")
        heading = page.get_by_role("heading", name="Grupo AK", exact=True)
        assert heading.is_visible() and heading.bounding_box()["y"] < VIEWPORTS[device]["height"]  # scrolled to it

        page.goto(f"{live_server.url}/torneios/{done}/chave/")
        bracket = page.get_by_role("region", name="Chaveamento")
        assert bracket.get_by_role("heading", name="16-avos de final", exact=True).count() == 1
        assert bracket.get_by_role("heading", name="1ª rodada", exact=True).count() == 0
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-grande-chave-16-avos")
        page.get_by_role("navigation", name="Seções da chave").get_by_role(
            "link", name="Seção 3", exact=False
        ).first.click()
        page.wait_for_url("**/chave/?secao=3")
        assert page.get_by_role("heading", name="Seção 3").is_visible()
        assert bracket.get_by_role("heading", name="1ª rodada", exact=True).count() == 1
        _no_horizontal_page_scroll(page)
        _shot(page, f"{device}-grande-chave-secao-3")
        page.get_by_role("navigation", name="Seção anterior e seguinte").get_by_role("link", name="Seção 4").click()
        page.wait_for_url("**/chave/?secao=4")
        page.get_by_role("link", name="Fase final").click()
        page.wait_for_url("**/chave/")
        assert page.get_by_text("Campeã").is_visible()
    finally:
        context.close()
    assert not errors, errors
