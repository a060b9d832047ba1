"""The public pages the screenshot walk found wanting (walk review #12, #13, #25), in headless Chromium at 390 and
1366 px: the bracket's "Deslize para o lado" hint only where the bracket overflows, the bracket in the page's
column (aligned with the header) unless it has more rounds than the column holds; a dupla called to its mesa sees
that jogo once.

Screenshots go to /tmp/zap-shots/walk-*.png.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.desk import add_duplas, make_tournament
from tests.support.event_states import _jogos, knockout_live_make
from tests.support.files import big_file
from tournaments.calls import services as calls
from tournaments.draws import services as draws

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    1366: {"viewport": {"width": 1366, "height": 900}},
}
KNOCKOUT = {"kind": "knockout", "bracket_method": "seeded"}


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    from tournaments.caching import pages_clear

    pages_clear()
    yield
    pages_clear()


def _context(browser, width: int, **extra):
    return browser.new_context(locale="pt-BR", **AXE_CONTEXT, **SIZES[width], **extra)


def _sixteen():
    """A knockout of 16 duplas: Oitavas, Quartas de final, Semifinais, Final (four rounds, as the walk's event)."""
    t = make_tournament("chave-16", fmt=KNOCKOUT)
    add_duplas(t, 16)
    draws.competition_publish(tournament=t, user=None, seed=3)
    t.refresh_from_db()
    return t


def _overflows(page) -> bool:
    return page.evaluate("(b => b.scrollWidth > b.clientWidth + 1)(document.querySelector('.bracket'))")


def _left(page, selector: str) -> float:
    return page.locator(selector).first.bounding_box()["x"]


def test_the_bracket_hint_shows_only_where_the_bracket_overflows(browser, live_server):
    t = _sixteen()
    url = f"{live_server.url}/torneios/{t.slug}/chave/"
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        try:
            page.goto(url)
            expect(page.locator("section.b-round h4")).to_have_text(
                ["Oitavas de final", "Quartas de final", "Semifinais", "Final"]
            )
            hint = page.get_by_text("Deslize para o lado para ver todas as fases")
            if width == 390:
                assert _overflows(page)
                expect(hint).to_be_visible()
            else:
                # four rounds fit the page's column: no hint, and the bracket starts where the header does
                assert not _overflows(page)
                expect(hint).to_be_hidden()
                assert abs(_left(page, ".bracket") - _left(page, ".event-name")) <= 20
                assert abs(_left(page, "h2.page-title") - _left(page, ".event-name")) <= 1
            assert_no_axe_violations(page, f"chave de 16, {width}px")
            shot(page, f"walk-chave-16-{width}")
            assert not errors, errors
        finally:
            context.close()


def test_without_javascript_the_hint_stays_where_it_may_be_needed(browser, live_server):
    t = _sixteen()
    context = _context(browser, 390, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/{t.slug}/chave/")
        expect(page.get_by_text("Deslize para o lado para ver todas as fases")).to_be_visible()
    finally:
        context.close()


def test_a_bracket_of_more_rounds_takes_the_screen_width_and_the_hint_follows_it(browser, live_server, load_file):
    big = load_file(big_file(slug="chave-grande"))  # from the round of 32 on: five rounds, more than the column
    context = _context(browser, 1366)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/{big.slug}/chave/")
        expect(page.locator("section.b-round h4")).to_have_count(5)
        assert _left(page, ".bracket") < _left(page, ".event-name") - 50  # wider than the column
        hint = page.get_by_text("Deslize para o lado para ver todas as fases")
        if _overflows(page):
            expect(hint).to_be_visible()
        else:
            expect(hint).to_be_hidden()
        shot(page, "walk-chave-grande-1366")
    finally:
        context.close()


def test_a_dupla_called_to_its_mesa_sees_that_jogo_once(browser, live_server):
    t = knockout_live_make()
    later = _jogos(t, round=1)[3]
    calls.jogo_call(tournament=t, jogo_id=later.pk, user=get_user_model().objects.get(username="comissao-chave"))
    later.dupla_a.refresh_from_db()
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/d/{later.dupla_a.token}/")
            banner = page.locator(".sua-vez-banner")
            expect(banner).to_contain_text(f"Sua vez! Mesa {later.mesa}")
            expect(banner).to_contain_text("Quartas de final")
            expect(page.get_by_role("heading", name="Próximo jogo")).to_have_count(0)
            assert_no_axe_violations(page, f"sua vez, {width}px", include="main")
            shot(page, f"walk-sua-vez-{width}")
        finally:
            context.close()


def test_the_podium_is_followed_by_one_set_of_links(browser, live_server, event_after):
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/torneios/{event_after.slug}/")
            main = page.locator("main")
            expect(main.get_by_role("link", name="Chave", exact=True)).to_have_count(1)
            expect(main.get_by_role("link", name="Classificação final", exact=True)).to_have_count(1)
            shot(page, f"walk-podio-{width}")
        finally:
            context.close()


def test_the_sumula_and_the_dupla_page_read_plainly(browser, live_server):
    """The public súmula's mãos (#21: "Como foi a mão", "sem truco", "truco") and its title (#8: the jogo by its
    round, not its key); the dupla's súmula to confirm named by its round, without "1ª via" (#7)."""
    t = knockout_live_make()
    live, awaiting = _jogos(t, round=1)[:2]
    awaiting.dupla_b.refresh_from_db()
    for width in SIZES:
        context = _context(browser, width)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/torneios/{t.slug}/jogos/{live.key}/")
            expect(page.get_by_role("heading", name="Súmula · Quartas de final · jogo 1")).to_be_visible()
            expect(page.locator(".sumula-maos th.c-how").first).to_have_text("Como foi a mão")
            expect(page.locator("td.c-how", has_text="sem truco")).to_have_count(1)
            expect(page.get_by_text("ª via")).to_have_count(0)
            assert_no_axe_violations(page, f"súmula pública, {width}px")
            shot(page, f"walk-sumula-{width}")
            page.goto(f"{live_server.url}/d/{awaiting.dupla_b.token}/")
            item = page.locator("#confirmar li.answer-item")
            expect(item.locator(".jogo-meta")).to_contain_text("Quartas de final")
            expect(item.locator(".jogo-meta")).not_to_contain_text("via")
            shot(page, f"walk-dupla-confirmar-{width}")
        finally:
            context.close()
