"""The Content-Security-Policy in a real browser: headless Chromium opens the public pages of a loaded event, the
referee's screen and the desk (signed in through the login form), and nothing is refused: no CSP violation
reported, no "Refused to …" in the console, no script error; htmx loads and its requests and swaps work.

The policy forbids inline scripts and styles (config/settings.py, SECURE_CSP); a template or a script that adds
one shows up here as a violation even when the HTML checks of tests/site/test_production_headers.py miss it (a
``setAttribute("style", …)`` in JS, an inline style htmx would inject, a stylesheet from elsewhere).
"""

import pytest
from django.contrib.auth import get_user_model

from tests.support.files import demo_file, knockout_file
from tournaments.models import Jogo, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-da-comissao-2024"
# Collects the violations the browser reports to the page itself, before any script of ours runs
# (Playwright's init scripts are not subject to the page's policy).
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(
    `${e.violatedDirective} ${e.blockedURI || "inline"} ${e.sourceFile || ""}:${e.lineNumber}`);
});
"""


@pytest.fixture
def event(load_file):
    demo = load_file(demo_file(load_file))  # one jogo at the table: its súmula page polls every 10 s
    load_file(knockout_file())
    users = get_user_model().objects
    owner = users.create_user("comissao", password=PASSWORD)
    StaffRole.objects.create(tournament=demo, user=owner, role=StaffRole.ORGANIZER)
    live = Jogo.objects.get(tournament=demo, status__in=Jogo.AT_TABLE)
    return {"slug": demo.slug, "live": live.key}


class Watch:
    """What a page's browser says: console messages, uncaught errors, CSP violations, requests to elsewhere."""

    def __init__(self, page, base_url: str):
        self.page = page
        self.console: list[str] = []
        self.errors: list[str] = []
        self.outside: list[str] = []
        page.add_init_script(WATCH_VIOLATIONS)
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: None if r.url.startswith((base_url, "data:")) else self.outside.append(r.url))

    def open(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.status == 200, url
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), url
        self.check(url)

    def check(self, where: str) -> None:
        violations = self.page.evaluate("window.__cspViolations || []")
        assert violations == [], (where, violations)
        refused = [m for m in self.console if "Content Security Policy" in m or "Refused to" in m]
        assert refused == [], (where, refused)
        assert self.errors == [], (where, self.errors)
        assert self.outside == [], (where, self.outside)
        # our stylesheet was applied (a refused one would leave the page unstyled)
        assert self.page.evaluate("document.styleSheets.length") >= 1, where
        assert (
            self.page.evaluate("getComputedStyle(document.querySelector('.topbar') || document.body).display") != ""
        ), where


@pytest.fixture
def watched(browser, live_server):
    """A fresh page in Chromium, watched (``Watch``); its context is closed after the test."""
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    yield live_server.url, page, Watch(page, live_server.url)
    context.close()


def test_public_pages_run_under_the_policy(watched, event):
    base, page, watch = watched
    slug = event["slug"]
    # htmx only where something is polled or swapped: not on the list, a finished event's page, the login
    for path, htmx in (
        ("/torneios/", False),
        (f"/torneios/{slug}/classificacao/", True),
        (f"/torneios/{slug}/chave/", True),
        ("/torneios/aabb-demo/", False),
        ("/torneios/aabb-demo/chave/", True),
        ("/torneios/aabb-demo/jogos/", True),
        ("/torneios/aabb-demo/jogos/j1/", True),
        ("/torneios/aabb-demo/tv/", False),
        ("/torneios/aabb-demo/duplas/", False),
        ("/entrar/", False),
    ):
        watch.open(base + path)
        assert page.evaluate("typeof htmx") == ("object" if htmx else "undefined"), path

    # /jogos/: the filter by dupla is an htmx request whose answer is swapped in place
    watch.open(f"{base}/torneios/{slug}/jogos/")
    assert page.evaluate("typeof htmx") == "object"
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true") as swap:
        page.select_option("#f-dupla", label="Seis Nele")
    assert swap.value.status == 200
    page.wait_for_function("() => document.querySelectorAll('#jogos-lista .jogo').length === 3")
    assert page.locator(".topbar").count() == 1  # the partial came back, not a whole page
    watch.check("filtro de jogos")

    # the súmula of the jogo at the table: wait for its poll (every 10 s) and the swap that follows
    watch.open(f"{base}/torneios/{slug}/jogos/{event['live']}/")
    assert page.locator("#sumula-conteudo[hx-trigger]").count() == 1
    page.evaluate("""() => { window.__swapped = 0;
        document.body.addEventListener("htmx:afterSettle", () => { window.__swapped += 1; }); }""")
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true", timeout=15_000) as poll:
        pass
    assert poll.value.status == 200
    page.wait_for_function("() => window.__swapped >= 1", timeout=5_000)
    assert page.locator("#sumula-conteudo").count() == 1
    watch.check("súmula depois do poll")


def test_the_desk_and_the_referee_screen_run_under_the_policy(watched, event):
    base, page, watch = watched
    slug = event["slug"]
    page.goto(f"{base}/organizar/")
    page.wait_for_url("**/entrar/?next=/organizar/")
    watch.check("entrar")
    page.get_by_label("Usuário").fill("comissao")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"{base}/organizar/")
    assert page.get_by_text("Copa Demo de Truco").first.is_visible()
    watch.check("mesa da comissão")
    assert page.evaluate("typeof htmx") == "object"

    for path in (
        f"/organizar/{slug}/",
        f"/organizar/{slug}/programacao/",
        f"/organizar/{slug}/imprimir/",
        f"/organizar/{slug}/arbitragem/",
    ):
        watch.open(base + path)

    # the referee's screen: sumula.js reads its JSON block and takes over the buttons
    watch.open(f"{base}/organizar/{slug}/arbitragem/{event['live']}/")
    assert page.locator("script#sumula-data[type='application/json']").count() == 1
    assert page.evaluate("JSON.parse(document.getElementById('sumula-data').textContent) !== null")
    page.wait_for_timeout(300)  # let the deferred script run and draw
    watch.check("tela do árbitro")
