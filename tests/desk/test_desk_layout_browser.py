"""The desk's layout in headless Chromium (issue 24 item 14): the eleven tabs all in view at 1366 and 1920 px (and
scrolling sideways at 390 px), one number on the Mesas page, the duplas list and the programação readable on a
phone (390 px), the TV mode without sideways scrolling at 390 px and its live score as large as the partidas.

Screenshots go to /tmp/zap-shots/layout-*.png.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.event_states import event_during_make
from tournaments.models import Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-da-comissao-2024"
SIZES = {
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    1366: {"viewport": {"width": 1366, "height": 900}},
    1920: {"viewport": {"width": 1920, "height": 1080}},
}


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    from tournaments.caching import pages_clear

    pages_clear()
    yield
    pages_clear()


def _desk(browser, live_server, width: int):
    """A tournament under way and its organizer logged in at ``width`` px: (tournament, context, page)."""
    t = event_during_make()
    organizer = get_user_model().objects.get(username="comissao-regional")
    organizer.set_password(PASSWORD)
    organizer.save()
    context = browser.new_context(locale="pt-BR", **AXE_CONTEXT, **SIZES[width])
    page = context.new_page()
    page.goto(f"{live_server.url}/organizar/{t.slug}/")
    page.get_by_label("Usuário").fill("comissao-regional")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url(f"**/organizar/{t.slug}/")
    return t, context, page


def _overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


# --- 1. the desk's tabs ------------------------------------------------------------------------------------

BOXES = """nav => {
  const box = (e) => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
    bottom: r.bottom, width: r.width, height: r.height}; };
  return {nav: box(nav), tabs: [...nav.querySelectorAll('a')].map((a) => ({name: a.textContent.trim(), ...box(a),
    lines: Math.round(a.getBoundingClientRect().height / parseFloat(getComputedStyle(a).lineHeight || 20))}))};
}"""


@pytest.mark.parametrize("width", [1366, 1920])
def test_every_desk_tab_is_in_view_at_desktop_widths(browser, live_server, width):
    _t, context, page = _desk(browser, live_server, width)
    try:
        nav = page.get_by_role("navigation", name="Áreas da comissão")
        boxes = nav.evaluate(BOXES)
        assert len(boxes["tabs"]) == 11
        n = boxes["nav"]
        for tab in boxes["tabs"]:
            assert tab["left"] >= n["left"] - 0.5 and tab["right"] <= n["right"] + 0.5, (width, tab, n)
            assert tab["left"] >= 0 and tab["right"] <= width, (width, tab)
            assert tab["top"] >= n["top"] - 0.5 and tab["bottom"] <= n["bottom"] + 0.5, (width, tab, n)
            assert tab["height"] >= 44, tab  # still a touch target
        assert nav.evaluate("e => e.scrollWidth - e.clientWidth") <= 1  # nothing hidden to scroll to
        assert len({round(tab["top"]) for tab in boxes["tabs"]}) == 1  # one row
        shot(page, f"layout-{width}-tabs")
        # the last tab is usable: a click there leads to its page
        nav.get_by_role("link", name="Histórico").click()
        page.wait_for_url("**/historico/")
        assert _overflow(page) <= 1
    finally:
        context.close()


def test_the_desk_tabs_scroll_sideways_on_a_phone(browser, live_server):
    _t, context, page = _desk(browser, live_server, 390)
    try:
        nav = page.get_by_role("navigation", name="Áreas da comissão")
        boxes = nav.evaluate(BOXES)
        assert len({round(tab["top"]) for tab in boxes["tabs"]}) == 1  # one row, scrolled sideways
        for tab in boxes["tabs"]:
            assert tab["height"] < 70, tab  # no label broken over lines
        assert _overflow(page) <= 1  # the tabs scroll inside the nav, not the page
        nav.get_by_role("link", name="Histórico").scroll_into_view_if_needed()
        nav.get_by_role("link", name="Histórico").click()
        page.wait_for_url("**/historico/")
        shot(page, "layout-390-tabs")
    finally:
        context.close()


CURRENT_TAB = """nav => {
  const tab = nav.querySelector('[aria-current="page"]').getBoundingClientRect(), box = nav.getBoundingClientRect();
  const style = getComputedStyle(nav);
  return {name: nav.querySelector('[aria-current="page"]').textContent.trim(), left: tab.left, right: tab.right,
    navLeft: box.left, navRight: box.right, scrollLeft: nav.scrollLeft, scrolls: nav.scrollWidth > nav.clientWidth,
    fadeStart: style.getPropertyValue('--tabs-fade-start'), fadeEnd: style.getPropertyValue('--tabs-fade-end'),
    mask: style.maskImage};
}"""


def test_on_a_phone_a_late_tab_shows_selected_and_the_cut_edge_fades(browser, live_server):
    """Review #2: at 390 px the current tab of a late page (Imprimir, Equipe, Histórico) is scrolled into view on
    load, and the bar fades at each edge it can still scroll towards (at the first tab: the right edge only)."""
    t, context, page = _desk(browser, live_server, 390)
    try:
        nav = page.get_by_role("navigation", name="Áreas da comissão")
        first = nav.evaluate(CURRENT_TAB)
        assert first["name"] == "Resumo" and first["scrolls"] and first["scrollLeft"] == 0
        assert "linear-gradient" in first["mask"]
        assert (first["fadeStart"], first["fadeEnd"]) == ("0px", "40px")  # more tabs to the right: that edge fades
        for name, path in (("Imprimir", "imprimir/"), ("Equipe", "equipe/"), ("Histórico", "historico/")):
            page.goto(f"{live_server.url}/organizar/{t.slug}/{path}")
            tab = nav.evaluate(CURRENT_TAB)
            assert tab["name"] == name
            assert tab["left"] >= max(0, tab["navLeft"]) - 0.5 and tab["right"] <= min(390, tab["navRight"]) + 0.5, tab
            assert tab["fadeStart"] == "40px", tab  # scrolled: tabs to the left too, that edge fades
            shot(page, f"layout-390-tab-{path.strip('/')}")
        assert tab["fadeEnd"] == "0px"  # Histórico, the last tab: scrolled to the end, nothing fades at the right
    finally:
        context.close()


def test_at_desktop_width_the_tabs_do_not_fade(browser, live_server):
    _t, context, page = _desk(browser, live_server, 1366)
    try:
        tab = page.get_by_role("navigation", name="Áreas da comissão").evaluate(CURRENT_TAB)
        assert not tab["scrolls"] and (tab["fadeStart"], tab["fadeEnd"]) == ("0px", "0px")
    finally:
        context.close()


GROUP_FIELDS = ["Duplas por grupo (preferido)", "Classificadas por grupo", "Melhores demais colocadas"]
KNOCKOUT_FIELDS = ["Melhor de, 1ª rodada do mata-mata"]


@pytest.mark.parametrize("width", [390, 1366])
def test_the_format_page_shows_only_the_fields_of_the_chosen_format(browser, live_server, width):
    """Review #10: with "só mata-mata" the group fields are hidden (no script needed), with "todos contra todos"
    the group size, the qualifiers and the bracket's; "grupos e depois mata-mata" shows them all."""
    t, context, page = _desk(browser, live_server, width)
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/formato/")

        def shown(labels):
            return [page.get_by_label(label).is_visible() for label in labels]

        assert shown(GROUP_FIELDS + ["Melhor de, nos grupos"] + KNOCKOUT_FIELDS) == [True] * 5
        page.get_by_label("só mata-mata").check()
        assert shown(GROUP_FIELDS + ["Melhor de, nos grupos"]) == [False] * 4
        assert shown(KNOCKOUT_FIELDS) == [True] and page.get_by_text("Posições na chave").is_visible()
        shot(page, f"layout-{width}-formato-mata-mata")
        page.get_by_label("todos contra todos (um grupo só)").check()
        assert shown(GROUP_FIELDS + KNOCKOUT_FIELDS) == [False] * 4 and shown(["Melhor de, nos grupos"]) == [True]
        assert not page.get_by_text("Posições na chave").is_visible()
        page.get_by_label("grupos e depois mata-mata").check()
        assert shown(GROUP_FIELDS + ["Melhor de, nos grupos"] + KNOCKOUT_FIELDS) == [True] * 5
        assert _overflow(page) <= 1
    finally:
        context.close()


CARD_TOPS = """cards => cards.filter((card) => card.offsetParent).map((card) => {
  const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT,
    {acceptNode: (n) => n.textContent.trim() && n.parentElement.offsetParent ? 1 : 3});
  const first = walker.nextNode();
  return {text: first.textContent.trim().slice(0, 30),
    gap: first.parentElement.getBoundingClientRect().top - card.getBoundingClientRect().top};
})"""


@pytest.mark.parametrize("width", [390, 1366])
def test_the_cards_have_no_blank_band_above_their_first_line(browser, live_server, width):
    """Review #14: the first line of a card starts right below its padding (a first paragraph's margin, or the
    margin of a heading beside a button, made a band of about 40 px): the Resumo, the PINs, the Histórico and the
    Chamadas."""
    t, context, page = _desk(browser, live_server, width)
    try:
        for path in ("", "pins/", "historico/", "chamadas/"):
            page.goto(f"{live_server.url}/organizar/{t.slug}/{path}")
            tops = page.locator("main .card").evaluate_all(CARD_TOPS)
            assert tops, path
            for top in tops:
                # the card's padding (.9rem) and border, and what centres a heading beside a button at most
                assert top["gap"] <= 30, (path, top)
        shot(page, f"layout-{width}-chamadas")
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_the_programacao_buttons_keep_off_the_tab_bar(browser, live_server, width):
    """Review #15: "Chamar as duplas" and "Imprimir" sat right on the tab bar."""
    t, context, page = _desk(browser, live_server, width)
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/programacao/")
        bar = page.get_by_role("navigation", name="Áreas da comissão").bounding_box()
        for name in ("Chamar as duplas", "Imprimir"):
            button = page.locator("main").get_by_role("link" if name.startswith("Chamar") else "button", name=name)
            assert button.bounding_box()["y"] - (bar["y"] + bar["height"]) >= 12, name
        page.screenshot(path=f"/tmp/zap-shots/layout-{width}-programacao-top.png")
    finally:
        context.close()


# --- 2. the Mesas page: one number ---------------------------------------------------------------------------


@pytest.mark.parametrize("width", [390, 1366])
def test_the_mesas_page_asks_the_number_once_and_shows_its_rows_without_saving(browser, live_server, width):
    t, context, page = _desk(browser, live_server, width)
    try:
        saved = dict(Mesa.objects.filter(tournament=t).values_list("number", "referee_id"))
        page.get_by_role("link", name="Mesas", exact=True).click()
        page.wait_for_url("**/mesas/")
        assert page.locator("main input[type=number]").count() == 1
        before = page.locator("main select").count()
        page.get_by_label("Árbitro da mesa 1").select_option(label="arbitro-regional")
        page.get_by_label("Número de mesas").fill(str(before + 2))
        page.get_by_role("button", name="Mostrar as mesas").click()
        page.wait_for_load_state()
        assert page.locator("main input[type=number]").count() == 1
        assert page.locator("main select").count() == before + 2
        assert page.get_by_label("Número de mesas").input_value() == str(before + 2)
        assert page.get_by_label("Árbitro da mesa 1").evaluate("s => s.selectedOptions[0].text") == "arbitro-regional"
        assert dict(Mesa.objects.filter(tournament=t).values_list("number", "referee_id")) == saved  # nothing saved
        t.refresh_from_db()
        assert t.mesas == before
        assert _overflow(page) <= 1
        assert_no_axe_violations(page, f"mesas {width}px")
        shot(page, f"layout-{width}-mesas")
        page.get_by_role("button", name="Salvar mesas").click()
        page.wait_for_url("**/mesas/")
        t.refresh_from_db()
        assert t.mesas == before + 2
        assert Mesa.objects.get(tournament=t, number=1).referee.username == "arbitro-regional"
    finally:
        context.close()


# --- 3. the desk's tables on a phone --------------------------------------------------------------------------

CELLS = """table => [...table.querySelectorAll('tbody td, tbody th')].filter((c) => c.textContent.trim() && c.offsetParent)
  .map((c) => ({text: c.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40), width: c.getBoundingClientRect().width,
    right: c.getBoundingClientRect().right}))"""


@pytest.mark.parametrize("page_name", ["duplas", "programacao"])
def test_the_desk_tables_read_on_a_phone(browser, live_server, page_name):
    t, context, page = _desk(browser, live_server, 390)
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/{page_name}/")
        table = page.locator("table.desk-table")
        cells = table.evaluate(CELLS)
        assert cells
        for cell in cells:
            # a cell as wide as the card (not a column of one word per line), and nothing cut at the right
            assert cell["width"] >= 250, cell
            assert cell["right"] <= 390, cell
        assert _overflow(page) <= 1
        assert_no_axe_violations(page, f"{page_name} 390px")
        shot(page, f"layout-390-{page_name}")
    finally:
        context.close()


@pytest.mark.parametrize("page_name", ["duplas", "programacao"])
def test_the_desk_tables_stay_tables_on_a_laptop(browser, live_server, page_name):
    t, context, page = _desk(browser, live_server, 1366)
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/{page_name}/")
        table = page.locator("table.desk-table")
        assert table.locator("thead").is_visible()
        assert table.locator("thead th").first.evaluate("e => getComputedStyle(e).display") == "table-cell"
        shot(page, f"layout-1366-{page_name}")
    finally:
        context.close()


# --- 4. the TV mode on a phone ---------------------------------------------------------------------------------

SIZES_TV = """() => {
  const live = document.querySelector('.tv-slide:not([hidden]) .live-score');
  const won = document.querySelector('.tv-slide:not([hidden]) .jogo-won');
  return {live: parseFloat(getComputedStyle(live).fontSize), won: parseFloat(getComputedStyle(won).fontSize)};
}"""


@pytest.mark.parametrize("width", [390, 1366, 1920])
def test_the_tv_fits_a_phone_and_its_live_score_is_as_large_as_the_partidas(browser, live_server, width):
    t = event_during_make()
    context = browser.new_context(locale="pt-BR", **AXE_CONTEXT, **SIZES[width])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/torneios/{t.slug}/tv/")
        assert page.get_by_text(re.compile(r"partida 2: \S.* 3 x 4 \S")).is_visible()  # each dupla named
        assert _overflow(page) <= 1, f"a TV rola na horizontal a {width}px"
        sizes = page.evaluate(SIZES_TV)
        assert sizes["live"] >= sizes["won"], sizes
        assert_no_axe_violations(page, f"tv {width}px")
        shot(page, f"layout-{width}-tv")
    finally:
        context.close()


# --- issue 41 item 20: contacts on a phone -----------------------------------------------------------------------

UNBROKEN = """() => {
  const lines = (node) => { const r = document.createRange(); r.selectNodeContents(node); return r.getClientRects().length; };
  const phones = [...document.querySelectorAll('.contact-token')].map((e) => [e.textContent, lines(e)]);
  // an e-mail may break at its <wbr> (before "@" or "."): each piece between them stays on one line
  const pieces = [...document.querySelectorAll('.contact-email')].flatMap((e) =>
    [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => [n.textContent, lines(n)]));
  return {phones, pieces};
}"""


def test_phones_and_e_mails_do_not_break_in_the_middle_at_390_px(browser, live_server):
    """At 390 px a phone number broke at its space or hyphen ("(11) 3234-" / "5678") and an e-mail anywhere: a
    phone stays on one line, an e-mail breaks only before its "@" or a "." (the registrations and the calls)."""
    from tournaments.models import Player

    t, context, page = _desk(browser, live_server, 390)
    try:
        players = list(Player.objects.filter(tournament=t).order_by("order"))
        for i, p in enumerate(players):
            p.phone = "(11) 3234-5678" if i % 3 == 0 else f"(11) 9{8000 + i:04d}-{1000 + i:04d}"
            p.email = f"maria.aparecida.dos.santos.{i}@associacao-exemplo.com.br"
        Player.objects.bulk_update(players, ["phone", "email"])
        seen = {}
        for name, path in (("inscricoes", "inscricoes/"), ("chamadas", "chamadas/")):
            page.goto(f"{live_server.url}/organizar/{t.slug}/{path}")
            shot(page, f"layout-390-contatos-{name}")
            found = page.evaluate(UNBROKEN)
            seen[name] = found
            assert found["phones"] and all(n == 1 for _text, n in found["phones"]), found["phones"]
            assert all(n == 1 for _text, n in found["pieces"]), found["pieces"]
            assert _overflow(page) <= 0
        assert seen["inscricoes"]["pieces"]  # the e-mails were there to read
    finally:
        context.close()
