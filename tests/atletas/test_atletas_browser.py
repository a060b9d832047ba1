"""/ranking/ and an atleta's page in headless Chromium at 390 and 1366 px: no horizontal page scroll, links work,
no axe-core violation.

Screenshots: /tmp/zap-shots/atletas-*.png."""

import pytest

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.files import demo_file, knockout_file
from tournaments.atletas.services import nivel_rebuild
from tournaments.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


@pytest.mark.parametrize("device", list(WIDTHS))
def test_ranking_and_an_atleta(browser, live_server, load_file, device):
    load_file(demo_file(load_file))
    finished = load_file(knockout_file())
    nivel_rebuild()
    winner = Player.objects.select_related("atleta").filter(tournament=finished).first()
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
        page.get_by_role("link", name="Ranking", exact=True).first.click()
        page.wait_for_url("**/ranking/")
        assert page.locator("table.ranking-table tbody tr").count() > 4
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"
        shot(page, f"atletas-ranking-{device}")
        assert_no_axe_violations(page, f"/ranking/ ({device})")
        page.fill("#busca-atleta", winner.name.upper())
        page.get_by_role("button", name="Buscar").click()
        page.get_by_role("link", name=winner.name).first.click()
        page.wait_for_url(f"**/atletas/{winner.atleta.key}/")
        assert page.locator("h1").inner_text() == winner.atleta.name
        assert page.locator(".atleta-event").count() >= 1
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"
        shot(page, f"atletas-atleta-{device}")
        assert_no_axe_violations(page, f"/atletas/ ({device})")
        assert not errors
    finally:
        context.close()
