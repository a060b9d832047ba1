"""The embeds in Chromium, as a federation's site shows them: a page served from another origin (a second server on
another loopback port) holds the "incorporar" code of each embed (the iframe and its few lines of script), at 390
and 1,366 px. Each embed loads inside its frame and tells the page its height, again when its content grows; a
page that is not an embed is refused by the browser in the same place; the themes (``?tema=escuro``, the
visitor's system) colour the frame. Screenshots go to /tmp/shots-data-b/."""

import functools
import http.server
import threading
from pathlib import Path

import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.browser import CHROMIUM  # noqa: F401 (the browser fixture's executable)
from tests.support.files import demo_file, knockout_file
from tournaments.circuits.file import circuit_import
from tournaments.public.share_tags import embed_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots-data-b")
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
DARK_BODY = "rgb(17, 20, 24)"  # --paper in the dark theme
LIGHT_BODY = "rgb(251, 248, 241)"


@pytest.fixture
def other_site(tmp_path):
    """A second web server, on another port of 127.0.0.1: the federation's site. ``write(name, html)`` puts a page
    there and gives its address."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))

    class Quiet(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):  # a closed connection is not a test failure
            pass

    server = Quiet(("127.0.0.1", 0), handler)
    server.RequestHandlerClass.log_message = lambda *a: None
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"

    def write(name: str, body: str) -> str:
        (tmp_path / name).write_text(body, encoding="utf-8")
        return f"{origin}/{name}"

    yield write
    server.shutdown()
    server.server_close()


@pytest.fixture
def world(load_file, live_server, settings):
    settings.SITE_URL = live_server.url  # the origin the "incorporar" code trusts
    load_file(demo_file(load_file))
    load_file(knockout_file())
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    circuit_import(data=circuit_file())
    return live_server.url


def federation_page(site: str, frames: list[tuple[str, str]]) -> str:
    """The federation's page: a heading, then each embed's code as the box gives it (the ids added to find them)."""
    parts = []
    for frame_id, path in frames:
        code = embed_code(f"{site}{path}", f"Quadro {frame_id}")
        parts.append(f"<h2>{frame_id}</h2>\n" + code.replace("<iframe ", f'<iframe id="{frame_id}" ', 1))
    return (
        '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" '
        'content="width=device-width, initial-scale=1"><title>Federação</title></head>'
        "<body><h1>Federação Paulista de Truco</h1>" + "\n".join(parts) + "</body></html>"
    )


def frame_of(page, frame_id: str):
    handle = page.locator(f"#{frame_id}").element_handle()
    frame = handle.content_frame()
    assert frame is not None
    return frame


def shoot(page, frame_id: str, name: str) -> None:
    """The federation's page with this frame at the top of the screen (Chromium paints a frame on screen only)."""
    page.locator(f"#{frame_id}").evaluate("e => e.previousElementSibling.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(400)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def wait_height(page, frame_id: str, *, not_equal: str = "600") -> int:
    page.wait_for_function(
        "([id, old]) => document.getElementById(id).getAttribute('height') !== old", arg=[frame_id, not_equal]
    )
    return int(page.locator(f"#{frame_id}").get_attribute("height"))


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_embeds_inside_another_sites_page(browser, world, other_site, device):
    SHOTS.mkdir(parents=True, exist_ok=True)
    frames = [
        ("classificacao", "/embed/torneios/copa-demo/classificacao/"),
        ("chave", "/embed/torneios/copa-demo/chave/"),
        ("proximos", "/embed/torneios/copa-demo/proximos/"),
        ("aovivo", "/embed/torneios/copa-demo/ao-vivo/"),
        ("ranking", "/embed/circuitos/liga-teste/ranking/"),
        ("escuro", "/embed/torneios/aabb-demo/classificacao/?tema=escuro"),
        ("proibido", "/torneios/copa-demo/classificacao/"),  # a page, not an embed: refused
    ]
    url = other_site("federacao.html", federation_page(world, frames))
    assert not url.startswith(world)  # another origin
    context = browser.new_context(viewport=VIEWPORTS[device], locale="pt-BR", color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "frame-ancestors" in m.text else None)
    try:
        page.goto(url)
        expected = {
            "classificacao": "Grupo A",
            "chave": "Quartas de final",
            "proximos": "Semifinais",
            "aovivo": "jogo na mesa",
            "ranking": "Liga de Teste",
            "escuro": "Classificação final",
        }
        for frame_id, text in expected.items():
            page.locator(f"#{frame_id}").scroll_into_view_if_needed()  # the code loads its frames lazily
            page.frame_locator(f"#{frame_id}").get_by_text(text).first.wait_for()
            height = wait_height(page, frame_id)
            frame = frame_of(page, frame_id)
            body = frame.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")
            assert abs(height - body) <= 1, (frame_id, height, body)  # the frame fits its content: no inner scroll
            assert frame.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
            assert frame.evaluate("document.querySelector('.topbar')") is None  # no site chrome
        # the links to the site open outside the small frame; the embed's own stay in it
        frame = frame_of(page, "classificacao")
        assert frame.evaluate("document.querySelector('.embed-foot a').target") == "_blank"
        assert frame.evaluate("document.querySelector('a.dupla-name').target") == "_blank"
        # the content grows (a poll brought more): the page hears the new height
        page.locator("#classificacao").scroll_into_view_if_needed()  # Chromium does not lay out a frame off screen
        before = int(page.locator("#classificacao").get_attribute("height"))
        frame.evaluate(
            "document.getElementById('embed-corpo').insertAdjacentHTML('beforeend', '<p>' + 'linha<br>'.repeat(20) + '</p>')"
        )
        after = wait_height(page, "classificacao", not_equal=str(before))
        assert after > before + 100
        # the dark theme, fixed by ?tema=escuro whatever the visitor's system says
        assert frame_of(page, "escuro").evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BODY
        assert frame.evaluate("getComputedStyle(document.body).backgroundColor") == LIGHT_BODY
        # a page that is not an embed is not shown in another site's frame
        page.locator("#proibido").scroll_into_view_if_needed()
        page.wait_for_function("() => document.getElementById('proibido').contentWindow.length === 0")
        page.wait_for_timeout(500)
        forbidden = frame_of(page, "proibido")
        assert forbidden.url.startswith("chrome-error://"), forbidden.url
        assert any("frame-ancestors" in m for m in refused), refused
        assert int(page.locator("#proibido").get_attribute("height")) == 600  # and told it nothing
        assert errors == []
        for frame_id in ("classificacao", "chave", "proximos", "aovivo", "ranking", "escuro", "proibido"):
            shoot(page, frame_id, f"embed-{frame_id}-{device}")
    finally:
        context.close()


def test_the_visitors_dark_system_theme(browser, world, other_site):
    url = other_site(
        "escuro.html",
        federation_page(
            world,
            [("auto", "/embed/torneios/copa-demo/chave/"), ("claro", "/embed/torneios/copa-demo/chave/?tema=claro")],
        ),
    )
    context = browser.new_context(viewport=VIEWPORTS["desktop"], locale="pt-BR", color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(url)
        for frame_id in ("auto", "claro"):
            page.locator(f"#{frame_id}").scroll_into_view_if_needed()
            page.frame_locator(f"#{frame_id}").get_by_text("Quartas de final").first.wait_for()
            wait_height(page, frame_id)
        assert frame_of(page, "auto").evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BODY
        assert frame_of(page, "claro").evaluate("getComputedStyle(document.body).backgroundColor") == LIGHT_BODY
        shoot(page, "auto", "embed-chave-sistema-escuro")
    finally:
        context.close()
