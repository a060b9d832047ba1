"""The spreadsheets' links at 390 px in Chromium: on the event page, the standings page, the circuit page and the
desk's registration list, each link is on screen and the page does not scroll sideways; a click downloads the
workbook, which openpyxl opens. Screenshots: /tmp/zap-shots/xlsx-*.png."""

import pytest
from django.contrib.auth import get_user_model

from tests.circuits.support import circuit_file, etapa_file
from tests.support.browser import shot
from tests.support.files import groups_file
from tests.support.registrations import ADULT, tournament_make
from tests.support.xlsx import workbook
from tournaments.circuits.file import circuit_import
from tournaments.models import StaffRole
from tournaments.registrations import services
from tournaments.registrations.checks import PersonIn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "pt-BR", "is_mobile": True, "has_touch": True}
PASSWORD = "senha-forte-123"


def fits_and_downloads(page, link_name: str, shot_name: str, sheet: str) -> None:
    link = page.get_by_role("link", name=link_name)
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "a página rola para o lado"
    shot(page, shot_name)
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename.endswith(".xlsx")
    with open(download.path(), "rb") as f:
        assert sheet in workbook(f.read()).sheetnames


def test_the_event_and_standings_links(browser, live_server, load_file):
    load_file(groups_file())
    context = browser.new_context(accept_downloads=True, **PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/copa-demo/")
        fits_and_downloads(page, "resultados em planilha (XLSX)", "xlsx-event-390", "Grupo A")
        page.goto(f"{live_server.url}/torneios/copa-demo/classificacao/")
        fits_and_downloads(page, "Baixar a planilha (XLSX)", "xlsx-standings-390", "Jogos")
    finally:
        context.close()


def test_the_circuit_link(browser, live_server, load_file):
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    circuit_import(data=circuit_file(etapas=["etapa-1"]))
    context = browser.new_context(accept_downloads=True, **PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/circuitos/liga-teste/")
        fits_and_downloads(page, "planilha (XLSX)", "xlsx-circuit-390", "Ranking")
    finally:
        context.close()


def test_the_desk_link(browser, live_server):
    t = tournament_make()
    user = get_user_model().objects.create_user("marta", password=PASSWORD)
    StaffRole.objects.create(tournament=t, user=user, role=StaffRole.ORGANIZER)
    services.registration_add(tournament=t, players=[PersonIn("Ana Souza", ADULT), PersonIn("Bruno Lima", ADULT)])
    context = browser.new_context(accept_downloads=True, **PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/entrar/?next=/organizar/{t.slug}/inscricoes/")
        page.get_by_label("Usuário").fill("marta")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/inscricoes/")
        fits_and_downloads(page, "Baixar a lista (XLSX)", "xlsx-desk-390", "Inscrições")
    finally:
        context.close()
