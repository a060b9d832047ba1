"""The circuit's ranking page in headless Chromium at 390 and 1366 px: the table scrolls inside its box (the page
does not), the "Ranking depois de" form works, no axe-core violation.

Screenshots: /tmp/zap-shots/circuit-*.png."""

import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tournaments.circuits.file import circuit_import
from tournaments.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
TEAMS = ["Feras do Truco", "Feras do Truco", "Zap Clube", "Zap Clube", "Feras do Truco", "Zap Clube"]


def etapa(load_file, slug, date, order):
    """An etapa whose first six players name an equipe (set on the players: the tournament file's import does
    not read "team" yet)."""
    tournament = load_file(etapa_file(slug, date=date, order=order))
    for n, team in enumerate(TEAMS, start=1):
        Player.objects.filter(tournament=tournament, key=f"p{n}").update(team=team)
    return tournament


@pytest.mark.parametrize("device", list(WIDTHS))
def test_circuit_ranking_page(browser, live_server, load_file, device):
    etapa(load_file, "etapa-1", "2025-03-01", ("d1", "d4", "d2", "d3"))
    etapa(load_file, "etapa-2", "2025-04-05", ("d2", "d3", "d1", "d4"))
    etapa(load_file, "etapa-3", "2025-05-10", ("d4", "d1", "d3", "d2"))
    load_file(etapa_file("etapa-4", date="2025-06-10", finished=False))
    circuit_import(
        data=circuit_file(
            etapas=["etapa-1", "etapa-2", "etapa-3", {"tournament": "etapa-4", "weight": 2, "final": True}],
            count_best=2,
            qualify={"top": 4, "min_etapas": 2, "alternates": 2},
        )
    )
    context = browser.new_context(
        viewport=WIDTHS[device],
        locale="pt-BR",
        is_mobile=device == "phone",
        has_touch=device == "phone",
        **AXE_CONTEXT,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/torneios/")
        page.get_by_role("link", name="Circuitos", exact=True).first.click()
        page.wait_for_url("**/circuitos/")
        shot(page, f"circuit-list-{device}")
        nav = page.locator("nav.topnav").bounding_box()
        assert nav["height"] < 60, "o menu do topo quebrou em duas linhas"
        assert_no_axe_violations(page, f"/circuitos/ ({device})")
        page.get_by_role("link", name="Liga de Teste").click()
        page.wait_for_url("**/circuitos/liga-teste/")
        assert page.locator("table.circuit-table tbody tr").count() >= 8
        assert page.locator("tr.q-line").count() >= 1
        assert page.locator("table.circuit-teams tbody tr").count() == 2
        shot(page, f"circuit-ranking-{device}")
        page.screenshot(path=f"/tmp/zap-shots/circuit-ranking-first-screen-{device}.png")  # the first screen only
        # the ranking in the first screen (issue 41 item 13): its head and its first rows above the fold
        rows = page.locator("table.circuit-table tbody tr")
        third = rows.nth(2).bounding_box()
        assert third["y"] + third["height"] <= WIDTHS[device]["height"], f"o 3º do ranking está em {third['y']}px"
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"
        assert_no_axe_violations(page, f"/circuitos/liga-teste/ ({device})")
        page.select_option("#ranking-apos", "etapa-1")
        page.get_by_role("button", name="Ver", exact=True).click()
        page.wait_for_url("**apos=etapa-1**")
        assert "Ranking depois de" in page.locator("h2#ranking-titulo").inner_text()
        shot(page, f"circuit-ranking-apos-{device}")
        # an etapa's page names its circuit; an atleta's page shows the points earned in each etapa
        page.goto(f"{live_server.url}/torneios/etapa-2/")
        page.locator(".event-circuit").scroll_into_view_if_needed()
        page.screenshot(path="/tmp/zap-shots/circuit-event-" + device + ".png")
        page.get_by_role("link", name="ver ranking").click()
        page.wait_for_url("**/circuitos/liga-teste/")
        page.get_by_role("link", name="Gabi Torres").click()
        page.wait_for_url("**/atletas/**")
        assert page.locator(".atleta-circuit").count() == 4  # the unfinished etapa too
        shot(page, f"circuit-atleta-{device}")
        assert_no_axe_violations(page, f"/atletas/ ({device})")
        page.goto(f"{live_server.url}/torneios/etapa-2/tv/")
        page.locator(".tv-slide-circuit").wait_for(state="attached")
        assert page.locator(".tv-circuit tbody tr").count() == 8
        page.evaluate(  # the circuit's slide on screen (tv.js shows one slide at a time)
            "document.querySelectorAll('.tv-slide').forEach(s => { s.hidden = !s.classList.contains('tv-slide-circuit'); })"
        )
        shot(page, f"circuit-tv-{device}")
        assert not errors
    finally:
        context.close()
