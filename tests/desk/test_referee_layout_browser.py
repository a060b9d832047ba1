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
    """At 1366 px the referee's three tabs (Arbitragem, Programação, Imprimir) are as wide as the same tabs in the
    organizer's bar, starting where it starts, not stretched to thirds of the header."""
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
    assert [tab["name"] for tab in referee] == ["Arbitragem", "Programação", "Imprimir"]
    for tab in referee:
        assert abs(tab["width"] - organizer[tab["name"]]["width"]) <= 2, (tab, organizer[tab["name"]])
        assert abs(tab["height"] - organizer[tab["name"]]["height"]) <= 1, (tab, organizer[tab["name"]])
    assert abs(referee[0]["left"] - widths["comissao-chave"][0]["left"]) <= 1
