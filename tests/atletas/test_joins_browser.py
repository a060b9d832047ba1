"""The atletas' desk in headless Chromium: a circuit's organizer signs in, finds the likely match and clicks "é a
mesma pessoa" (390 px and 1366 px), then splits it again from the atleta's page; no horizontal scroll, no
axe-core violation, no birth date on the page.

Screenshots: /tmp/zap-shots/atletas-desk-*.png."""

import pytest
from django.contrib.auth import get_user_model

from tests.circuits.support import circuit_file, etapa_file
from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tournaments.circuits.file import circuit_import
from tournaments.models import AtletaAudit, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-do-teste-1"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


def signed_in(browser, live_server, device, *, next_url):
    """A browser context at ``device``'s size, signed in as ``liga``, on ``next_url``: (context, page, page errors)."""
    context = browser.new_context(
        viewport=WIDTHS[device], locale="pt-BR", is_mobile=device == "phone", has_touch=device == "phone", **AXE_CONTEXT
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/entrar/?next={next_url}")
    page.get_by_label("Usuário").fill("liga")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"**{next_url}")
    return context, page, errors


def no_side_scroll(page):
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"


@pytest.mark.parametrize("device", list(WIDTHS))
def test_join_and_split_on_the_desk(browser, live_server, load_file, device):
    organizer = get_user_model().objects.create_user("liga", password=PASSWORD)
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    data = etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4"))
    data["players"][0]["birth_date"] = "1978-03-14"  # a typo in the year: another atleta until joined
    two = load_file(data)
    circuit_import(data=circuit_file(), user=organizer)
    first, second = (Player.objects.select_related("atleta").get(tournament=t, key="p1") for t in (one, two))
    assert first.atleta_id != second.atleta_id
    context, page, errors = signed_in(browser, live_server, device, next_url="/organizar/")
    try:
        page.get_by_role("link", name="Atletas: juntar e separar").click()
        page.wait_for_url("**/organizar/circuitos/atletas/")
        card = page.locator(".match-card")
        assert card.count() == 1
        assert "datas de nascimento diferentes só no ano" in card.inner_text()
        assert "1978" not in page.content() and "1987" not in page.content()
        no_side_scroll(page)
        shot(page, f"atletas-desk-matches-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/atletas/ ({device})")
        card.get_by_label("Motivo (opcional)").fill("ano digitado errado")
        card.get_by_role("button", name="é a mesma pessoa", exact=True).click()
        page.wait_for_url("**/organizar/circuitos/atletas/")
        assert "Atletas juntados" in page.locator(".messages").inner_text()
        assert page.locator(".match-card").count() == 0
        assert "ano digitado errado" in page.locator(".audit-list").inner_text()
        no_side_scroll(page)
        shot(page, f"atletas-desk-joined-{device}")
        second.refresh_from_db()
        assert second.atleta_id == first.atleta_id

        page.goto(f"{live_server.url}/organizar/circuitos/atletas/{first.atleta.key}/")
        page.get_by_label("Etapa etapa-2", exact=False).check()
        no_side_scroll(page)
        shot(page, f"atletas-desk-atleta-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/atletas/<key>/ ({device})")
        page.get_by_role("button", name="Separar os marcados").click()
        assert "Separado" in page.locator(".messages").inner_text()
        second.refresh_from_db()
        assert second.atleta_id != first.atleta_id
        assert AtletaAudit.objects.count() == 2
        assert not errors
    finally:
        context.close()


@pytest.mark.parametrize("device", list(WIDTHS))
def test_two_picked_from_the_search_are_joined_with_the_name_chosen(browser, live_server, load_file, device):
    """Issue 41 item 11: "Elisa Rocha" registered as "Elisa Costa" in etapa 2 (no likely match: other names); the
    organizer searches "elisa", marks both, joins them and keeps the name "Elisa Rocha"."""
    organizer = get_user_model().objects.create_user("liga", password=PASSWORD)
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    data = etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4"))
    data["players"][4]["name"] = "Elisa Costa"
    two = load_file(data)
    circuit_import(data=circuit_file(), user=organizer)
    first, second = (Player.objects.select_related("atleta").get(tournament=t, key="p5") for t in (one, two))
    context, page, errors = signed_in(browser, live_server, device, next_url="/organizar/circuitos/atletas/")
    try:
        page.get_by_label("Buscar atleta pelo nome").fill("elisa")
        page.get_by_role("button", name="Buscar").click()
        page.wait_for_url("**q=elisa**")
        page.get_by_label("marcar Elisa Rocha").check()
        page.get_by_label("marcar Elisa Costa").check()
        no_side_scroll(page)
        shot(page, f"atletas-desk-pick-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/atletas/?q= ({device})")
        page.get_by_role("button", name="Juntar os dois marcados").click()
        page.wait_for_url("**/organizar/circuitos/atletas/juntar/**")
        page.get_by_label("Elisa Rocha", exact=True).check()
        no_side_scroll(page)
        shot(page, f"atletas-desk-pair-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/atletas/juntar/ ({device})")
        page.get_by_role("button", name="é a mesma pessoa").click()
        page.wait_for_url("**/organizar/circuitos/atletas/**")
        assert "Atletas juntados" in page.locator(".messages").inner_text()
        second.refresh_from_db()
        assert second.atleta_id == first.atleta_id and second.atleta.name == "Elisa Rocha"
        assert not errors
    finally:
        context.close()
