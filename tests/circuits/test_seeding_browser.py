"""An organizer seeds an etapa's draw by the circuit ranking in a real browser (issue 25 point 5), at 390 and
1366 px: the choice, the preview that says where the seeds came from, the public draw record."""

import pytest
from django.contrib.auth import get_user_model

from tests.circuits.support import circuit_file, etapa_file
from tests.circuits.test_seeding import etapa3_file
from tests.support.browser import shot
from tournaments.circuits.file import circuit_import
from tournaments.models import Draw, StaffRole, Tournament
from tournaments.services import tournament_import

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-da-liga-2025"


@pytest.mark.parametrize("width", [390, 1366])
def test_an_organizer_seeds_an_etapa_by_the_circuit_ranking(browser, live_server, width):
    tournament_import(data=etapa_file("etapa-1", date="2025-03-01"))
    tournament_import(data=etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    three = tournament_import(data=etapa3_file())
    Tournament.objects.filter(pk=three.pk).update(registration_closed=True, published=True)
    circuit_import(data=circuit_file(etapas=("etapa-1", "etapa-2", "etapa-3")))
    user = get_user_model().objects.create_user("lia", password=PASSWORD)
    StaffRole.objects.create(tournament=three, user=user, role="organizer")
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="pt-BR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/organizar/etapa-3/sorteios/competicao/")
        page.wait_for_url("**/entrar/**")
        page.get_by_label("Usuário").fill("lia")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/sorteios/competicao/")
        page.get_by_label("pelo ranking do circuito").check()
        shot(page, f"seeding-{width}-01-escolha")
        page.get_by_role("button", name="Sortear", exact=True).click()
        page.get_by_text("pelo ranking do circuito Liga de Teste, após a etapa Etapa etapa-2").wait_for()
        shot(page, f"seeding-{width}-02-previa")
        page.get_by_role("button", name="Publicar").click()
        page.wait_for_url("**/sorteios/competicao/")
        assert Draw.objects.get(tournament=three, kind=Draw.BRACKET).result["seeding"]["method"] == "circuit"
        page.goto(f"{live_server.url}/torneios/etapa-3/")
        record = page.locator("details.draw-record").first
        record.evaluate("d => { d.open = true; }")
        assert "pelo ranking do circuito Liga de Teste, após a etapa Etapa etapa-2" in record.inner_text()
        record.scroll_into_view_if_needed()
        shot(page, f"seeding-{width}-03-registro")
        assert not errors
    finally:
        context.close()
