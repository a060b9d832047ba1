"""Accessibility of the public pages: axe-core (WCAG 2.0/2.1 A and AA, best practices) in headless Chromium.

Every public page of an event in each state a visitor meets (registration open; drawn, nothing played; being
played; finished: tests/support/event_states.py), on a phone (390×844) and on a desktop (1366×900), plus the login page.
Each test visits every page and fails once at the end with every page's violations listed (rule, impact, help,
the offending selectors and HTML). Screenshots: /tmp/zap-shots/a11y-<state>-<width>-<page>.png.

To check another page, add it to ``PAGES``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.event_states import showcase_jogo
from tournaments.registrations.window import public_signup_is_open

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATES = ["before", "drawn", "during", "after"]  # the fixtures event_<state>
SCREENS = {
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    1366: {"viewport": {"width": 1366, "height": 900}},
}


@dataclass(frozen=True)
class Event:
    """What the paths of one event are made of."""

    slug: str
    jogo: str | None  # the key of the jogo whose súmula page is checked (None: no jogo yet)
    signup_open: bool


@dataclass(frozen=True)
class Page:
    name: str  # in the screenshot's file name and the failure message
    path: str  # formatted with the Event's fields: {slug}, {jogo}
    when: Callable[[Event], bool] = lambda event: True


# Every page checked, in the order visited. A page that needs something (a jogo, an open sign-up, later a dupla's
# private link or a TV screen) says so in ``when`` and takes what it needs from ``Event``.
PAGES = [
    Page("lista", "/torneios/"),
    Page("evento", "/torneios/{slug}/"),
    Page("classificacao", "/torneios/{slug}/classificacao/"),
    Page("chave", "/torneios/{slug}/chave/"),
    Page("jogos", "/torneios/{slug}/jogos/"),
    Page("sumula", "/torneios/{slug}/jogos/{jogo}/", when=lambda e: e.jogo is not None),
    Page("inscricao", "/torneios/{slug}/inscricao/", when=lambda e: e.signup_open),
    Page("entrar", "/entrar/"),
]


def event_of(tournament) -> Event:
    return Event(
        slug=tournament.slug, jogo=showcase_jogo(tournament), signup_open=public_signup_is_open(tournament=tournament)
    )


@pytest.mark.parametrize("width", list(SCREENS))
@pytest.mark.parametrize("state", STATES)
def test_public_pages_have_no_axe_violations(browser, live_server, request, state, width):
    event = event_of(request.getfixturevalue(f"event_{state}"))
    context = browser.new_context(locale="pt-BR", **AXE_CONTEXT, **SCREENS[width])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failures: list[str] = []
    visited: list[str] = []
    try:
        for spec in PAGES:
            if not spec.when(event):
                continue
            path = spec.path.format(slug=event.slug, jogo=event.jogo)
            response = page.goto(f"{live_server.url}{path}")
            assert response is not None and response.status == 200, (path, response and response.status)
            visited.append(path)
            shot(page, f"a11y-{state}-{width}-{spec.name}")
            try:
                assert_no_axe_violations(page, f"{spec.name} {path} ({state}, {width}px)")
            except AssertionError as failure:
                failures.append(str(failure))
    finally:
        context.close()
    assert not errors, errors
    assert len(visited) >= 6, visited
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)
