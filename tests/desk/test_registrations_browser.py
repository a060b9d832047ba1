"""The registration list on a phone (390 px) in headless Chromium (issue 24 items 9 and 12b): tick rows, mark
them present with the bulk bar, a page of 50, the one-row check-in by htmx still working, the CSV preview with
the rows with problems first. Screenshots go to /tmp/zap-shots/ (tests/support/browser.py)."""

import pytest
from django.contrib.auth import get_user_model

from tests.support.browser import SHOTS, shot
from tests.support.registrations import csv_bytes, people, tournament_make
from tournaments.models import Registration, StaffRole
from tournaments.registrations import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-da-comissao-2024"


def test_an_organizer_ticks_rows_and_marks_them_present_on_a_phone(browser, live_server, tmp_path):
    t = tournament_make(max_duplas=None)
    user = get_user_model().objects.create_user("marta", password=PASSWORD)
    StaffRole.objects.create(tournament=t, user=user, role=StaffRole.ORGANIZER)
    services.registrations_import_csv(tournament=t, content=csv_bytes(people(60)))
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="pt-BR", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/entrar/?next=/organizar/{t.slug}/inscricoes/")
        page.get_by_label("Usuário").fill("marta")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/inscricoes/")
        assert page.locator(".reg-card").count() == 50 and "página 1 de 2" in page.content()
        page.locator(".reg-search").evaluate("e => e.scrollIntoView()")
        page.screenshot(path=str(SHOTS / "registrations-390-callbar.png"))  # the search and "Todos presentes"
        for name in ("Atleta 2", "Atleta 3", "Atleta 5"):
            page.get_by_label(f"Selecionar {name}", exact=True).check()
        # the bulk bar stays in reach at the bottom of the screen while the list scrolls
        bar = page.locator(".reg-bulk-bar")
        box = bar.bounding_box()
        assert bar.is_visible() and box["y"] + box["height"] <= 844 + 1 and box["height"] < 110, box
        page.screenshot(path="/tmp/zap-shots/registrations-390-list-viewport.png")
        shot(page, "registrations-390-list")
        bar.get_by_role("button", name="Presentes", exact=True).click()
        page.wait_for_url("**/inscricoes/")
        assert "3 inscrições marcadas como presentes." in page.content()
        present = Registration.objects.filter(tournament=t, present=True).values_list("order", flat=True)
        assert sorted(present) == [2, 3, 5]
        # the one-row check-in (htmx) swaps its row only
        row = page.locator(f"#r{Registration.objects.get(tournament=t, order=1).pk}")
        row.get_by_role("button", name="Ausente", exact=True).click()
        row.locator(".tag-bad", has_text="ausente").wait_for()
        assert Registration.objects.get(tournament=t, order=1).present is False
        page.locator("a[rel=next]").first.click()
        page.wait_for_url("**/inscricoes/?pagina=2")
        assert page.locator(".reg-card").count() == 10
        # withdraw two at once: the confirmation lists them, then back to the same page
        for name in ("Atleta 51", "Atleta 52"):
            page.get_by_label(f"Selecionar {name}", exact=True).check()
        page.locator(".reg-bulk-bar").get_by_role("button", name="Retirar", exact=True).click()
        page.get_by_role("button", name="Sim, retirar 2 inscrições").wait_for()
        shot(page, "registrations-390-withdraw-many")
        page.get_by_role("button", name="Sim, retirar 2 inscrições").click()
        page.wait_for_url("**/inscricoes/?pagina=2")
        assert "2 inscrições retiradas: Atleta 51, Atleta 52." in page.content()
        assert Registration.objects.filter(tournament=t, status=Registration.WITHDRAWN).count() == 2

        # the CSV preview: the summary, then the rows with problems first
        page.goto(f"{live_server.url}/organizar/{t.slug}/inscricoes/planilha/")
        rows = people(40, start=100)
        rows[29] = "Menor;01/01/2015;;;;;;"  # line 31
        upload = tmp_path / "inscricoes.csv"
        upload.write_bytes(csv_bytes(rows))
        page.get_by_label("Planilha CSV").set_input_files(str(upload))
        page.get_by_role("button", name="Ver a pré-visualização").click()
        assert "1 linha com problemas" in page.content()
        first = page.locator("table.reg-preview tbody tr").first
        assert first.inner_text().startswith("31") and "linha 31: coluna nascimento" in first.inner_text()
        assert not page.locator("details.reg-preview-more").get_attribute("open")  # the good rows wait, folded
        shot(page, "registrations-390-preview")
        rows[29] = "Maior;01/01/2000;;;Parceira;02/02/2000;;"
        upload.write_bytes(csv_bytes(rows))
        page.get_by_label("Planilha CSV").set_input_files(str(upload))
        page.get_by_role("button", name="Ver a pré-visualização").click()
        assert "nenhuma linha com problemas" in page.content()
        assert page.locator("table.reg-preview tbody tr").count() == 40
        shot(page, "registrations-390-preview-ok")
        assert not errors, errors
    finally:
        context.close()


BAR = """() => {
  const bar = document.querySelector('.reg-bulk-bar').getBoundingClientRect();
  const overlaps = [...document.querySelectorAll('.reg-card')].map((c) => c.getBoundingClientRect())
    .filter((c) => c.bottom > bar.top + 1 && c.top < bar.bottom - 1).length;
  return {position: getComputedStyle(document.querySelector('.reg-bulk-bar')).position, top: bar.top,
    bottom: bar.bottom, overlaps: overlaps};
}"""


@pytest.mark.parametrize("width", [1366, 390])
def test_the_bulk_bar_stays_after_the_list_until_a_row_is_ticked(browser, live_server, width):
    """Review #11: with nothing ticked the bar "Selecionadas: …" is in its place after the list and covers no card,
    wherever the page is scrolled; once a row is ticked it follows the bottom of the screen."""
    t = tournament_make(max_duplas=None)
    user = get_user_model().objects.create_user("marta", password=PASSWORD)
    StaffRole.objects.create(tournament=t, user=user, role=StaffRole.ORGANIZER)
    services.registrations_import_csv(tournament=t, content=csv_bytes(people(12)))
    height = 900 if width == 1366 else 844
    context = browser.new_context(viewport={"width": width, "height": height}, locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/entrar/?next=/organizar/{t.slug}/inscricoes/")
        page.get_by_label("Usuário").fill("marta")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/inscricoes/")
        for y in (0, 400, 800):
            page.evaluate(f"window.scrollTo(0, {y})")
            bar = page.evaluate(BAR)
            assert bar["position"] == "static" and bar["overlaps"] == 0, (y, bar)
        shot(page, f"registrations-{width}-bulk-idle")
        page.evaluate("window.scrollTo(0, 0)")
        page.get_by_label("Selecionar Atleta 2", exact=True).check()
        bar = page.evaluate(BAR)
        assert bar["position"] == "sticky" and bar["bottom"] <= height + 1 and bar["top"] < height, bar
        page.get_by_label("Selecionar Atleta 2", exact=True).uncheck()
        assert page.evaluate(BAR)["position"] == "static"
    finally:
        context.close()
