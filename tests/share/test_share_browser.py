"""The sharing on the pages, in Chromium at 390 and 1,366 px: the "Compartilhar no WhatsApp" link in the event's
header, the "Incorporar no seu site" box with its copy button (the clipboard gets the code shown), and the cards
the pages link, opened as images. Screenshots go to /tmp/shots-data-b/."""

from pathlib import Path

import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.files import demo_file, knockout_file
from tournaments.circuits.file import circuit_import

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-data-b")
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


@pytest.fixture
def world(load_file, live_server, settings):
    settings.SITE_URL = live_server.url
    load_file(demo_file(load_file))
    load_file(knockout_file())
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    circuit_import(data=circuit_file())
    return live_server.url


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_share_and_embed_from_the_pages(browser, world, device):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=VIEWPORTS[device], locale="pt-BR", is_mobile=device == "phone")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=world)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{world}/torneios/copa-demo/")
        link = page.get_by_role("link", name="Compartilhar no WhatsApp")
        assert link.is_visible()
        assert link.get_attribute("href").startswith("https://wa.me/?text=")
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
        page.screenshot(path=str(SHOTS / f"pagina-evento-{device}.png"))

        box = page.locator("details.incorporar")
        box.locator("summary").click()
        copy = box.get_by_role("button", name="Copiar o código").first
        copy.scroll_into_view_if_needed()
        assert copy.is_visible()  # share.js shows it where the clipboard works
        copy.click()
        page.wait_for_function("() => document.querySelector('.incorporar-copy').textContent === 'Copiado!'")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == box.locator("textarea").first.input_value()
        assert copied.startswith(f'<iframe src="{world}/embed/torneios/copa-demo/classificacao/"')
        box.screenshot(path=str(SHOTS / f"incorporar-{device}.png"))

        # the card the page links, as a browser opens it
        image = page.locator('meta[property="og:image"]').get_attribute("content")
        page.goto(image)
        size = page.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]")
        assert size == [1200, 630]

        page.goto(f"{world}/circuitos/liga-teste/")
        assert page.get_by_role("link", name="Compartilhar no WhatsApp").is_visible()
        page.locator("details.incorporar summary").click()
        assert "/embed/circuitos/liga-teste/ranking/" in page.locator("details.incorporar textarea").input_value()
        page.screenshot(path=str(SHOTS / f"pagina-circuito-{device}.png"))
        assert errors == []
    finally:
        context.close()
