"""The referee's screens in headless Chromium (review of the AABB walk, items 6 and 16): the big scores of the
súmula on one line whatever the duplas' names at 390 px, and the referee's tabs drawn as the organizer's at 1366 px.

Screenshots go to /tmp/zap-shots/referee-*.png.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.support.browser import shot
from tests.support.event_states import knockout_live_make
from tournaments.models import Dupla, Jogo
from tournaments.selectors import tournament_state_cache_clear

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-do-arbitro-2024"
SIZES = {
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    1366: {"viewport": {"width": 1366, "height": 900}},
}
LONG = "Os Invencíveis do Bar do Zé da Esquina de Vila Madalena"


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    from tournaments.caching import pages_clear

    pages_clear()
    yield
    pages_clear()


def _login(browser, live_server, t, username: str, width: int):
    user = get_user_model().objects.get(username=username)
    user.set_password(PASSWORD)
    user.save()
    context = browser.new_context(locale="pt-BR", **SIZES[width])
    page = context.new_page()
    page.goto(f"{live_server.url}/organizar/{t.slug}/arbitragem/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"**/organizar/{t.slug}/arbitragem/")
    return context, page


def _quarters(t) -> list[Jogo]:
    return list(Jogo.objects.filter(tournament=t, round=1).select_related("dupla_a", "dupla_b").order_by("position"))


# --- 6. the scores on one line ---------------------------------------------------------------------------------

SCORES = """() => [...document.querySelectorAll('.scoreboard .score-side')].map((side) => {
  const box = (e) => e ? e.getBoundingClientRect() : null;
  const points = box(side.querySelector('.score-points')), name = box(side.querySelector('.score-name'));
  return {top: points.top, bottom: points.bottom, nameHeight: name.height};
})"""


@pytest.mark.parametrize("which", ["em jogo", "decidido"])
def test_the_big_scores_stand_on_one_line_whatever_the_names(browser, live_server, which):
    """A long dupla name (three lines at 390 px) on the left, two players' names on the right: the two scores
    (points of the partida under way, partidas won once decided) side by side at the same height."""
    t = knockout_live_make()
    live, awaiting, *_rest = _quarters(t)
    jogo = live if which == "em jogo" else awaiting
    Dupla.objects.filter(pk=jogo.dupla_a_id).update(name=LONG)
    tournament_state_cache_clear()
    context, page = _login(browser, live_server, t, "arbitro-chave", 390)
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/arbitragem/{jogo.key}/")
        shot(page, f"referee-390-placar-{which.replace(' ', '-')}")
        left, right = page.evaluate(SCORES)
        assert left["nameHeight"] > right["nameHeight"] + 10, (left, right)  # the names do take unequal room
        assert abs(left["top"] - right["top"]) <= 2, (left, right)
        assert abs(left["bottom"] - right["bottom"]) <= 2, (left, right)
    finally:
        context.close()


# --- 16. the referee's tabs as the organizer's ------------------------------------------------------------------

TABS = """nav => [...nav.querySelectorAll('a')].map((a) => {
  const r = a.getBoundingClientRect();
  return {name: a.textContent.trim(), left: r.left, width: r.width, height: r.height, top: r.top};
})"""


def test_the_referees_tabs_are_drawn_as_the_organizers(browser, live_server):
    """At 1366 px the referee's tab (Arbitragem: INTERCHANGE leaves the rest of the desk to the comissão) is as
    wide as the same tab in the organizer's bar, starting where it starts, not stretched across the header."""
    t = knockout_live_make()
    widths = {}
    for username, nav_name in (("comissao-chave", "Áreas da comissão"), ("arbitro-chave", "Áreas da arbitragem")):
        context, page = _login(browser, live_server, t, username, 1366)
        try:
            widths[username] = page.get_by_role("navigation", name=nav_name).evaluate(TABS)
            shot(page, f"referee-1366-abas-{username}")
            page.goto(f"{live_server.url}/organizar/{t.slug}/arbitragem/j1/")
            shot(page, f"referee-1366-sumula-{username}")
        finally:
            context.close()
    organizer = {tab["name"]: tab for tab in widths["comissao-chave"]}
    referee = widths["arbitro-chave"]
    assert [tab["name"] for tab in referee] == ["Arbitragem"]
    for tab in referee:
        assert abs(tab["width"] - organizer[tab["name"]]["width"]) <= 2, (tab, organizer[tab["name"]])
        assert abs(tab["height"] - organizer[tab["name"]]["height"]) <= 1, (tab, organizer[tab["name"]])
    assert abs(referee[0]["left"] - widths["comissao-chave"][0]["left"]) <= 1


# --- issue 41 item 19: the súmula has the whole phone ----------------------------------------------------------

BUTTONS = """() => [...document.querySelectorAll('.pad .mao-button')].filter((b) => b.offsetParent !== null).map((b) => {
  const r = b.getBoundingClientRect();
  return {text: b.textContent.trim(), how: b.className, top: r.top, bottom: r.bottom};
})"""


def test_the_mao_buttons_fit_the_first_screen_of_a_phone_with_long_names(browser, live_server):
    """At 390 × 844 with long names on both sides, every button of the pad (the mão won, "a outra correu" and
    "Empate") is in the first screen, before any scrolling: the site's and the desk's headers took about 410 px."""
    t = knockout_live_make()
    live, *_rest = _quarters(t)
    Dupla.objects.filter(pk=live.dupla_a_id).update(name=LONG)
    Dupla.objects.filter(pk=live.dupla_b_id).update(name="Associação dos Amigos do Truco de Pinheiros e Região")
    tournament_state_cache_clear()
    context, page = _login(browser, live_server, t, "arbitro-chave", 390)
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/arbitragem/{live.key}/")
        shot(page, "referee-390-sumula-nomes-longos")
        page.screenshot(path="/tmp/zap-shots/referee-390-sumula-primeira-tela.png")  # the first screen alone
        buttons = page.evaluate(BUTTONS)
        height = page.evaluate("() => window.innerHeight")
        assert page.evaluate("() => window.scrollY") == 0 and height == 844
        assert {b["text"] for b in buttons} >= {"1", "3", "6", "9", "12", "Empate (3 rodadas empatadas)"}
        assert sum("mao-ran" in b["how"] for b in buttons) == 8  # "a outra correu": 1, 3, 6, 9 on each side
        low = [b for b in buttons if b["bottom"] > height]
        assert not low, low
        assert page.get_by_role("link", name="Jogos da arbitragem").is_visible()  # the way back to the desk
    finally:
        context.close()
