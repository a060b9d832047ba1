"""The circuit desk in headless Chromium at 390 and 1366 px: sign in, open "Organizar circuitos" from the desk's home, create
a circuit from a template, include an etapa, see a points table problem next to its row; draw a tie at the
qualification line and exclude an atleta; no horizontal page scroll, no axe-core violation.

Screenshots: /tmp/zap-shots/circuit-desk-*.png."""

import pytest

from tests.circuits.support import etapa_file
from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.desk import make_user
from tournaments.circuits.services import CircuitSettings, circuit_create, circuit_etapa_attach, circuit_settings_set
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
        page.get_by_role("link", name="Organizar circuitos", exact=True).click()
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


@pytest.mark.parametrize("device", list(WIDTHS))
def test_a_tie_is_drawn_and_an_atleta_excluded(browser, live_server, load_file, device):
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    two = load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    owner = make_user("comissao", one)
    StaffRole.objects.create(tournament=two, user=owner, role=StaffRole.ORGANIZER)
    circuit = circuit_create(user=owner, name="Liga de Teste", slug="liga-teste", template=Circuit.FINAL)
    circuit_etapa_attach(circuit=circuit, user=owner, tournament=one)
    circuit_etapa_attach(circuit=circuit, user=owner, tournament=two)
    settings = CircuitSettings(
        name=circuit.name, points=circuit.points, qualify_top=2, qualify_min_etapas=2, qualify_alternates=2
    )
    circuit_settings_set(circuit=circuit, user=owner, settings=settings)
    context = browser.new_context(
        viewport=WIDTHS[device], locale="pt-BR", is_mobile=device == "phone", has_touch=device == "phone", **AXE_CONTEXT
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/organizar/circuitos/liga-teste/")
        page.get_by_label("Usuário").fill("comissao")
        page.get_by_label("Senha").fill("senha-forte-123")
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/organizar/circuitos/liga-teste/")
        tie = page.locator("#sorteio .card")
        assert tie.locator("li").count() == 4
        tie.screenshot(path=f"/tmp/zap-shots/circuit-desk-tie-{device}.png")
        page.get_by_role("button", name="Sortear").click()
        page.wait_for_url("**/organizar/circuitos/liga-teste/#sorteio")
        assert page.get_by_text("Sorteio registrado, nesta ordem:").is_visible()
        assert page.locator("#sorteio .audit-list li").count() == 1
        assert circuit.sorteios.count() == 1

        page.get_by_label("Atleta").select_option(index=1)
        page.get_by_label("Motivo").fill("Conduta antidesportiva")
        page.get_by_role("button", name="Excluir do circuito").click()
        page.wait_for_url("**/organizar/circuitos/liga-teste/#exclusoes")
        assert page.locator("#exclusoes .desk-row").count() == 1
        assert circuit.exclusions.count() == 1
        no_sideways_scroll(page)
        shot(page, f"circuit-desk-sorteio-{device}")
        assert_no_axe_violations(page, f"/organizar/circuitos/<slug>/ sorteio ({device})")
    finally:
        context.close()
