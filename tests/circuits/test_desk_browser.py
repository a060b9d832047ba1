"""The circuit desk in headless Chromium at 390 and 1366 px: sign in, open "Circuitos" from the desk's home, create
a circuit from a template, include an etapa, see a points table problem next to its row; no horizontal page
scroll, no axe-core violation.

Screenshots: /tmp/zap-shots/circuit-desk-*.png."""

import pytest

from tests.circuits.support import etapa_file
from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.desk import make_user
from tournaments.models import Circuit, CircuitEtapa, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


def no_sideways_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"


@pytest.mark.parametrize("device", list(WIDTHS))
def test_create_a_circuit_and_include_an_etapa(browser, live_server, load_file, device):
    etapa = load_file(etapa_file("etapa-1", date="2025-03-01"))
    owner = make_user("comissao", etapa)
    assert StaffRole.objects.filter(user=owner).exists()
    context = browser.new_context(
        viewport=WIDTHS[device], locale="pt-BR", is_mobile=device == "phone", has_touch=device == "phone", **AXE_CONTEXT
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/organizar/")
        page.get_by_label("Usuário").fill("comissao")
        page.get_by_label("Senha").fill("senha-forte-123")
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url(f"{live_server.url}/organizar/")
        page.get_by_role("link", name="Circuitos", exact=True).click()
        page.wait_for_url("**/organizar/circuitos/")
        no_sideways_scroll(page)
        shot(page, f"circuit-desk-list-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/ ({device})")

        page.get_by_label("Nome do circuito").fill("Liga Paulista 2026")
        page.get_by_text("Etapas + final", exact=True).click()
        page.get_by_role("button", name="Criar circuito").click()
        page.wait_for_url("**/organizar/circuitos/liga-paulista-2026/")
        circuit = Circuit.objects.get(slug="liga-paulista-2026")
        assert circuit.template == Circuit.FINAL and circuit.qualify_top == 16

        page.get_by_label("Torneio").select_option("etapa-1")
        page.locator("#id_etapa-weight").fill("2")
        page.get_by_role("button", name="Incluir etapa").click()
        page.wait_for_url("**/organizar/circuitos/liga-paulista-2026/#etapas")
        assert page.get_by_text("Etapa incluída: Etapa etapa-1.").is_visible()
        assert CircuitEtapa.objects.get(circuit=circuit).weight == 2
        assert page.get_by_role("link", name="ver o ranking público").get_attribute("href") == (
            "/circuitos/liga-paulista-2026/"
        )
        no_sideways_scroll(page)
        shot(page, f"circuit-desk-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/<slug>/ ({device})")

        # a gap in the points table: the message next to its row, nothing saved
        assert page.locator("#id_key_5").input_value() == "9-16"
        page.locator("#id_key_5").fill("10-16")
        page.get_by_role("button", name="Salvar as regras").click()
        message = page.locator(".points-table .field-error").first
        assert "faltam os pontos do 9º lugar" in message.inner_text()
        no_sideways_scroll(page)
        shot(page, f"circuit-desk-rules-error-{device}")
        circuit.refresh_from_db()
        assert circuit.points["9-16"] == 15
        assert not errors
    finally:
        context.close()
