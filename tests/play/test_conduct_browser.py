"""The conduct pages in headless Chromium (390 px and 1366 px): a guest reports a message with markup in it, a
staff member signs in, sees the report (the markup shown as text) and mutes its writer for 30 minutes with a
reason; no horizontal scroll, no axe-core violation.

Screenshots: /tmp/zap-shots/conduct-*.png."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tournaments.models import Sala, Sanction
from tournaments.online import chat, people
from tournaments.play.identity import GUEST_SESSION_KEY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-do-teste-1"
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
MARKUP = '<img src=x onerror="document.title=1"> <b>perdeu</b>, seu pato'


def no_side_scroll(page):
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"


def context_for(browser, device):
    return browser.new_context(
        viewport=WIDTHS[device], locale="pt-BR", is_mobile=device == "phone", has_touch=device == "phone", **AXE_CONTEXT
    )


def guest_session(context, live_server, profile):
    """The browser holds ``profile``'s guest key in its session, as the lobby leaves it."""
    from importlib import import_module

    from django.conf import settings

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[GUEST_SESSION_KEY] = profile.guest_key
    store.save()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": live_server.url}])


@pytest.mark.parametrize("device", list(WIDTHS))
def test_report_then_mute(browser, live_server, device):
    sala = Sala.objects.create(slug="salao-1", name="Salão 1", number=1)
    ana = people.profile_for_guest(guest_key=None, display_name="Ana", avatar="arara")
    bia = people.profile_for_guest(guest_key=None, display_name="Bia Pato", avatar="marreco")
    message = chat.chat_post(profile=bia, sala=sala, text=MARKUP, now=timezone.now())
    get_user_model().objects.create_user("moderadora", password=PASSWORD, is_staff=True)

    reporter = context_for(browser, device)
    try:
        guest_session(reporter, live_server, ana)
        page = reporter.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/jogar/conduta/denunciar/?mensagem={message.pk}&next=/jogar/")
        assert page.locator("blockquote").inner_text().strip() == MARKUP
        assert page.title() != "1"
        no_side_scroll(page)
        shot(page, f"conduct-report-{device}")
        assert_no_axe_violations(page, f"/jogar/conduta/denunciar/ ({device})")
        page.get_by_label("O que aconteceu").fill("me xingou no salão")
        page.get_by_role("button", name="Enviar a denúncia").click()
        page.wait_for_url("**/jogar/")
        assert errors == []
    finally:
        reporter.close()

    staff = context_for(browser, device)
    try:
        page = staff.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/entrar/?next=/jogar/conduta/")
        page.get_by_label("Usuário").fill("moderadora")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/jogar/conduta/")
        card = page.locator(".conduct-report")
        assert card.count() == 1
        assert MARKUP in card.locator("blockquote").inner_text()
        assert "me xingou no salão" in card.inner_text()
        assert page.title() != "1"
        no_side_scroll(page)
        shot(page, f"conduct-reports-{device}")
        assert_no_axe_violations(page, f"/jogar/conduta/ ({device})")
        card.get_by_role("radio", name="Silenciar", exact=False).check()
        card.get_by_label("Silenciar por quantos minutos").fill("30")
        card.get_by_label("Motivo (o jogador vê)").fill("ofensa no chat do salão")
        card.get_by_role("button", name="Aplicar").click()
        page.wait_for_url("**/jogar/conduta/")
        assert "Bia Pato está silenciado(a) até" in page.locator(".messages").inner_text()
        assert page.locator(".conduct-report").count() == 0
        no_side_scroll(page)
        shot(page, f"conduct-reports-done-{device}")
        page.get_by_role("link", name="Bia Pato").first.click()
        page.wait_for_url("**/jogar/conduta/jogadores/*/")
        no_side_scroll(page)
        shot(page, f"conduct-player-{device}")
        assert_no_axe_violations(page, f"/jogar/conduta/jogadores/<id>/ ({device})")
        assert errors == []
    finally:
        staff.close()
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.profile_id, sanction.reason) == ("mute", bia.pk, "ofensa no chat do salão")
    assert dt.timedelta(minutes=29) < sanction.until - sanction.at <= dt.timedelta(minutes=30)
