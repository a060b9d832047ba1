"""Event day in headless Chromium: the event page before, after the draw, during and after the event, on a phone
(390×844) and a laptop (1366×900); a playing dupla's page found through "Encontre sua dupla"; the TV mode
cycling its slides at 1920×1080; the tabs on a narrow phone; the bracket's Final on a laptop; the bracket of a
knockout under way on a phone (a jogo at its mesa, one awaiting confirmation) and a dupla knocked out.

Screenshots go to /tmp/zap-shots/event-day-*.png. One Chromium for the module (``browser``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.event_states import _answer, _jogos, knockout_live_make, live_line
from tests.support.files import big_file, large_file
from tournaments.models import Jogo, Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    1366: {"viewport": {"width": 1366, "height": 900}},
}


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    from tournaments.caching import pages_clear

    pages_clear()
    yield
    pages_clear()


def _context(browser, width: int, **extra):
    return browser.new_context(locale="pt-BR", **AXE_CONTEXT, **SIZES[width], **extra)


def _no_horizontal_scroll(page, where: str) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"{where}: a página rola na horizontal ({overflow}px)"


def _watch(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _check(page, where: str, name: str, errors: list[str]) -> None:
    _no_horizontal_scroll(page, where)
    assert_no_axe_violations(page, where)
    shot(page, name)
    assert not errors, (where, errors)


def _main(page):
    return page.locator("main")


# --- the event page, state by state --------------------------------------------------------------------


def test_before_the_draw(browser, live_server, event_before):
    t = event_before
    waiting = list(Registration.objects.filter(tournament=t).select_related("player1").order_by("order"))[-2:]
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        errors = _watch(page)
        try:
            page.goto(f"{live_server.url}/torneios/{t.slug}/")
            main = _main(page)
            expect(page.get_by_role("heading", level=1, name="Copa Primavera de Truco")).to_be_visible()
            expect(main.get_by_role("link", name="Inscreva-se")).to_be_visible()
            expect(main.get_by_role("heading", name="Inscrições", exact=True)).to_be_visible()
            expect(main.get_by_role("heading", name="9 inscrições aceitas")).to_be_visible()
            expect(main.get_by_text("Diego Pereira e Elisa Melo")).to_be_visible()
            expect(main.get_by_role("heading", name="Lista de espera")).to_be_visible()
            for r in waiting:
                expect(main.get_by_text(r.player1.name, exact=True)).to_be_visible()
            expect(main.get_by_text("nenhuma dupla formada ainda · limite de 5 duplas")).to_be_visible()
            expect(main.get_by_role("link", name="Baixar os dados (JSON)")).to_be_visible()
            expect(main.get_by_role("heading", name="Agora")).to_have_count(0)
            expect(main.get_by_text("Atualizado às")).to_have_count(0)
            _check(page, f"antes, {width}px", f"event-day-before-{width}-evento", errors)
        finally:
            context.close()


def test_after_the_draw(browser, live_server, event_drawn):
    t = event_drawn
    first = list(Jogo.objects.filter(tournament=t, round=1).select_related("dupla_a", "dupla_b").order_by("mesa"))
    left = Registration.objects.select_related("player1").get(tournament=t, status=Registration.WAITING)
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        errors = _watch(page)
        try:
            page.goto(f"{live_server.url}/torneios/{t.slug}/")
            main = _main(page)
            called = main.locator("section", has=page.get_by_role("heading", name="Primeiros jogos: Rodada 1"))
            expect(called).to_be_visible()
            expect(called.locator("li.now-jogo")).to_have_count(len(first))
            for jogo in first:
                card = called.locator("li.now-jogo", has_text=jogo.dupla_a.display_name)
                expect(card).to_contain_text(re.compile(rf"Mesa\s*{jogo.mesa}\b"))
                expect(card).to_contain_text(jogo.dupla_b.display_name)
                expect(card).to_contain_text("a jogar")
            expect(main.get_by_text("6 duplas formadas · limite de 8 duplas")).to_be_visible()
            draws = main.locator("section", has=page.get_by_role("heading", name="Sorteios"))
            expect(draws.get_by_text("Formação das duplas")).to_be_visible()
            expect(draws.get_by_text("20240615")).to_be_visible()
            expect(draws.get_by_text("4242")).to_be_visible()
            expect(draws.get_by_text("Elisa Melo e Fábio Barbosa")).to_be_visible()
            expect(main.get_by_role("heading", name="Agora")).to_have_count(0)
            _check(page, f"sorteado, {width}px", f"event-day-drawn-{width}-evento", errors)
        finally:
            context.close()
    # the one the pairing draw left without a partner is shown on the waiting list (docs/regras.md §2 step 3)
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/{t.slug}/")
        registrations = _main(page).locator("section", has=page.get_by_role("heading", name="Inscrições", exact=True))
        expect(registrations.get_by_role("heading", name="Lista de espera")).to_be_visible()
        expect(registrations.get_by_text(left.player1.name, exact=True)).to_be_visible()
    finally:
        context.close()


def test_during_the_event(browser, live_server, event_during):
    t = event_during
    live = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=t, status=Jogo.IN_PROGRESS)
    url = f"{live_server.url}/torneios/{t.slug}/"
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        errors = _watch(page)
        try:
            page.goto(url)
            main = _main(page)
            expect(main.get_by_role("heading", name="Agora")).to_be_visible()
            in_play = main.locator("section", has=page.get_by_role("heading", name="1 jogo na mesa"))
            expect(in_play).to_be_visible()
            expect(in_play).to_contain_text(re.compile(rf"Mesa\s*{live.mesa}\b"))
            expect(in_play.get_by_text(live.dupla_a.display_name)).to_be_visible()
            expect(in_play.get_by_text(live_line(live, 2, 3, 4))).to_be_visible()
            expect(main.get_by_role("heading", name="Próximos jogos: Rodada 2")).to_be_visible()
            expect(main.get_by_role("heading", name="Últimos resultados")).to_be_visible()
            expect(main.get_by_text("provisório: contestado")).to_be_visible()
            expect(main.get_by_text(re.compile(r"Atualizado às \d\d:\d\d"))).to_be_visible()
            _check(page, f"durante, {width}px", f"event-day-during-{width}-evento", errors)
        finally:
            context.close()
    # the block is polled (every 10 s while a jogo is at a mesa): after a poll it still shows the jogos
    context = _context(browser, 1366)
    page = context.new_page()
    try:
        page.goto(url)
        with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true", timeout=20_000) as polled:
            pass
        assert polled.value.status == 200
        page.wait_for_load_state("networkidle")
        main = _main(page)
        expect(main.get_by_role("heading", name="Agora")).to_be_visible()
        expect(main.get_by_text(live_line(live, 2, 3, 4))).to_be_visible()
        expect(main.locator("#agora[hx-get]")).to_have_count(1)  # and keeps polling
    finally:
        context.close()


def test_after_the_event(browser, live_server, event_after):
    t = event_after
    final = (
        Jogo.objects.select_related("dupla_a")
        .filter(tournament=t, group__isnull=True, third_place=False)
        .order_by("-round")
        .first()
    )
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        errors = _watch(page)
        try:
            page.goto(f"{live_server.url}/torneios/{t.slug}/")
            main = _main(page)
            podium = main.locator("section", has=page.get_by_role("heading", name="Pódio"))
            expect(podium).to_be_visible()
            expect(podium.locator("li")).to_have_count(3)
            expect(podium.locator("li").first).to_contain_text("1º · ouro")
            expect(podium.locator("li").first).to_contain_text(final.dupla_a.display_name)
            expect(main.get_by_role("link", name="Classificação final", exact=True)).to_be_visible()
            expect(main.get_by_role("heading", name="Agora")).to_have_count(0)
            expect(main.get_by_text("Atualizado às")).to_have_count(0)
            _check(page, f"depois, {width}px", f"event-day-after-{width}-evento", errors)
            main.get_by_role("link", name="Classificação final", exact=True).click()
            page.wait_for_url("**/classificacao/?ver=geral")
            expect(page.get_by_role("heading", name="Classificação geral")).to_be_visible()
            expect(page.locator("ol.classification > li")).to_have_count(8)
        finally:
            context.close()


# --- a dupla at the table, found by its name ------------------------------------------------------------


def test_a_playing_dupla_finds_its_page(browser, live_server, event_during):
    t = event_during
    live = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=t, status=Jogo.IN_PROGRESS)
    me = live.dupla_b
    player = me.player1.name
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        errors = _watch(page)
        try:
            page.goto(f"{live_server.url}/torneios/{t.slug}/")
            page.get_by_role("link", name="Encontre sua dupla").click()
            page.wait_for_url("**/duplas/")
            page.get_by_label("Encontre sua dupla").fill(player.lower())
            page.get_by_role("button", name="Buscar").click()
            page.wait_for_url("**/duplas/?q=*")
            found = page.locator("main ul.dupla-list > li")
            expect(found).to_have_count(1)
            expect(page.get_by_role("status")).to_contain_text("1 dupla encontrada")
            _check(page, f"busca de dupla, {width}px", f"event-day-during-{width}-busca", errors)
            found.get_by_role("link").click()
            page.wait_for_url(f"**/duplas/{me.key}/")
            card = page.locator("section.next-jogo")
            expect(card.get_by_role("heading", name="Jogando agora")).to_be_visible()
            expect(card.locator(".mesa-n")).to_have_text(str(live.mesa))
            expect(card).to_contain_text(f"contra {live.dupla_a.display_name}")
            expect(card.get_by_text("partida 2: 4 x 3")).to_be_visible()
            expect(page.locator("tr.is-me")).to_contain_text(me.display_name)
            _check(page, f"página da dupla, {width}px", f"event-day-during-{width}-dupla", errors)
        finally:
            context.close()


# --- the TV mode ---------------------------------------------------------------------------------------

VISIBLE = "els => els.map((e) => e.getClientRects().length > 0)"  # laid out: not display:none


def _tv_page(browser, url: str):
    """The TV page at 1920×1080, a slide every 3 seconds instead of 12 (tv.js reads the body's data-seconds)."""
    context = browser.new_context(locale="pt-BR", viewport={"width": 1920, "height": 1080}, **AXE_CONTEXT)
    page = context.new_page()

    def quick(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace('data-seconds="12"', 'data-seconds="3"'))

    page.route(url, quick)
    return context, page


def test_the_tv_cycles_its_slides(browser, live_server, event_during):
    url = f"{live_server.url}/torneios/{event_during.slug}/tv/"
    context, page = _tv_page(browser, url)
    errors = _watch(page)
    try:
        page.goto(url)
        slides = page.locator(".tv-slide")
        count = slides.count()
        assert count >= 4
        expect(slides.first.get_by_role("heading", name="Jogos nas mesas")).to_be_visible()
        expect(slides.first.get_by_text(re.compile(r"partida 2: \S.* 3 x 4 \S"))).to_be_visible()  # each dupla named
        # one slide at a time: the others are not shown at all
        assert slides.evaluate_all("els => els.map((e) => e.hidden)") == [False] + [True] * (count - 1)
        shown = slides.evaluate_all(VISIBLE)
        shot(page, "event-day-during-1920-tv-1")
        _no_horizontal_scroll(page, "tv")
        expect(slides.nth(1)).to_have_js_property("hidden", False, timeout=8_000)
        expect(slides.nth(1).get_by_role("heading", name=re.compile("^Próximos jogos"))).to_be_visible()
        expect(slides.first).to_be_hidden()
        shot(page, "event-day-during-1920-tv-2")
        assert_no_axe_violations(page, "tv")
        assert not errors, errors
        assert shown == [True] + [False] * (count - 1), f"slides mostrados ao mesmo tempo: {shown}"
    finally:
        context.close()


def test_the_tv_of_a_finished_event_shows_one_slide_at_a_time(browser, live_server, event_after):
    url = f"{live_server.url}/torneios/{event_after.slug}/tv/"
    context, page = _tv_page(browser, url)
    try:
        page.goto(url)
        slides = page.locator(".tv-slide")
        expect(slides.first.get_by_role("heading", name="Classificação final")).to_be_visible()
        expect(slides.first.get_by_text("ouro")).to_be_visible()
        assert slides.count() == 2
        shown = slides.evaluate_all(VISIBLE)
        shot(page, "event-day-after-1920-tv-1")
        expect(slides.nth(1)).to_have_js_property("hidden", False, timeout=8_000)
        expect(slides.nth(1).get_by_text("Campeã", exact=False).first).to_be_visible()
        expect(slides.first).to_be_hidden()
        assert shown == [True, False], f"slides mostrados ao mesmo tempo: {shown}"
    finally:
        context.close()


# --- narrow phone: the tabs; laptop: the bracket's Final -------------------------------------------------


def test_the_tabs_fit_a_narrow_phone(browser, live_server, event_during):
    context = browser.new_context(
        locale="pt-BR", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        for path in ("", "classificacao/", "jogos/"):
            page.goto(f"{live_server.url}/torneios/{event_during.slug}/{path}")
            tabs = page.get_by_role("navigation", name="Páginas do torneio")
            for name in ("Evento", "Classificação", "Chave", "Jogos"):
                tab = tabs.get_by_role("link", name=name, exact=True)
                expect(tab).to_be_visible()
                box = tab.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (path, name, box)
            _no_horizontal_scroll(page, f"abas, 360px, {path or 'evento'}")
        shot(page, "event-day-during-360-abas")
    finally:
        context.close()


@pytest.mark.parametrize("size", ["16", "160"])
def test_the_final_fits_a_laptop_screen(browser, live_server, load_file, size):
    data = large_file(groups=8, size=4, slug="chave-16") if size == "16" else big_file(slug="chave-160")
    t = load_file(data)
    context = browser.new_context(locale="pt-BR", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/{t.slug}/chave/")
        bracket = page.get_by_role("region", name="Chaveamento")
        final = bracket.locator("section.b-round", has=page.get_by_role("heading", name="Final", exact=True))
        expect(final).to_have_count(1)
        box = final.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1366, box
        inner = bracket.evaluate("el => el.scrollWidth - el.clientWidth")
        assert inner <= 1, f"a chave rola por dentro ({inner}px)"
        _no_horizontal_scroll(page, f"chave de {size}")
        shot(page, f"event-day-bracket-{size}-1366")
    finally:
        context.close()


# --- a knockout under way on a phone: the bracket live, a dupla knocked out ------------------------------------


def test_the_bracket_shows_a_live_jogo_and_a_provisional_result_on_a_phone(browser, live_server):
    t = knockout_live_make()
    live, awaiting, contested, _later = _jogos(t, round=1)
    context = _context(browser, 390)
    page = context.new_page()
    errors = _watch(page)
    try:
        page.goto(f"{live_server.url}/torneios/{t.slug}/chave/")
        quarters = page.locator("section.b-round", has=page.get_by_role("heading", name="Quartas de final"))
        at_table = quarters.locator("article.bj", has_text=live.dupla_a.display_name)
        expect(at_table.locator(".pill")).to_have_text("em andamento")
        expect(at_table.locator(".bj-score")).to_have_text(["1", "0"])
        expect(at_table.get_by_text(live_line(live, 2, 3, 4))).to_be_visible()
        waiting = quarters.locator("article.bj", has_text=awaiting.dupla_a.display_name)
        expect(waiting.locator(".pill")).to_have_text("provisório: aguarda confirmação")
        expect(waiting.locator(".bj-score")).to_have_text(["3", "0"])
        expect(waiting.locator(".is-winner")).to_have_count(0)
        expect(quarters.locator("article.bj", has_text=contested.dupla_a.display_name).locator(".pill")).to_have_text(
            "provisório: contestado"
        )
        semis = page.locator("section.b-round", has=page.get_by_role("heading", name="Semifinais"))
        expect(semis.locator(".bj-row.is-empty")).to_have_count(4)  # nobody moved on
        _check(page, "chave ao vivo, 390px", "event-day-knockout-390-chave", errors)
        # once confirmed, the loser's page says where and by whom it went out
        _answer(t, awaiting, awaiting.dupla_a)
        _answer(t, awaiting, awaiting.dupla_b)
        page.goto(f"{live_server.url}/torneios/{t.slug}/duplas/{awaiting.dupla_b.key}/")
        card = page.locator("section.next-jogo")
        expect(card.get_by_role("heading", name="Fora da disputa")).to_be_visible()
        expect(card).to_contain_text(f"Eliminada nas quartas de final por {awaiting.dupla_a.display_name}.")
        _check(page, "dupla eliminada, 390px", "event-day-knockout-390-eliminada", errors)
    finally:
        context.close()
