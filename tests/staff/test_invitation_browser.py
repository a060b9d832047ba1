"""A referee joins on a `make run`-like site (no mail server: config.mail.UnsentMailBackend), in headless Chromium at
390 px: the organizer invites by e-mail, reads that no e-mail was sent, copies the link with the button; the referee,
signed in with the invited address, opens it, sees that address, accepts and reaches the arbitragem page. An account
with another address only asks, and the organizer confirms. Screenshots go to /tmp/zap-shots/convite-*.png."""

import pytest
from django.contrib.auth import get_user_model

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.event_states import event_during_make
from tests.support.mail import UNSENT
from tournaments.models import StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "pt-BR"}


def _sign_in(page, url: str, username: str, password: str) -> None:
    page.goto(url)
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(password)
    page.get_by_role("button", name="Entrar").click()


def _open_signed_in(page, live_server, link: str, username: str, password: str) -> str:
    """Sign in on the way to ``link`` (as someone who got it would); the page's text."""
    path = link.removeprefix(live_server.url)
    _sign_in(page, f"{live_server.url}/entrar/?next={path}", username, password)
    page.wait_for_url(f"**{path}")
    return page.locator("main").inner_text()


@pytest.fixture
def make_run_event(live_server, settings):
    """An event under way on a site like `make run`'s: no mail server, links that follow the site's address."""
    settings.MAILERS = UNSENT  # make run's: nothing leaves
    settings.SITE_URL = live_server.url  # make run's links follow the address the site is served at
    t = event_during_make()
    organizer = get_user_model().objects.get(username="comissao-regional")
    organizer.set_password("senha-da-comissao-2024")
    organizer.save()
    return t


def _invite(page, live_server, t, email: str) -> str:
    """The organizer signs in, invites ``email`` as referee, reads that no e-mail was sent; the link shown."""
    staff_page = f"{live_server.url}/entrar/?next=/organizar/{t.slug}/equipe/"
    _sign_in(page, staff_page, "comissao-regional", "senha-da-comissao-2024")
    page.wait_for_url(f"**/organizar/{t.slug}/equipe/")
    assert "Este site não envia e-mails" in page.content()
    page.get_by_label("E-mail da pessoa").fill(email)
    page.get_by_label("árbitro").check()
    page.get_by_role("button", name="Criar o convite").click()
    page.wait_for_url(f"**/organizar/{t.slug}/equipe/#convite-*")
    said = page.locator(".messages").inner_text()
    assert "nenhum e-mail foi enviado" in said and "Convite enviado" not in said
    return page.get_by_label(f"Link do convite para {email}").input_value()


def test_an_organizer_copies_the_link_and_the_referee_with_that_email_reaches_the_arbitragem(
    browser, live_server, make_run_event
):
    t = make_run_event
    get_user_model().objects.create_user("juiza", "Juiza.Lima@exemplo.com", "senha-da-juiza-2024")
    desk = browser.new_context(**PHONE, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = desk.new_page()
        link = _invite(page, live_server, t, "juiza.lima@exemplo.com")
        assert link.startswith(f"{live_server.url}/convites/")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the long link does not widen the page
        page.get_by_role("button", name="Copiar o link").click()
        page.get_by_text("Link copiado").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == link
        shot(page, "convite-link-390")
        page.set_viewport_size({"width": 1366, "height": 900})
        shot(page, "convite-link-1366")
    finally:
        desk.close()

    referee = browser.new_context(**PHONE, **AXE_CONTEXT)
    try:
        page = referee.new_page()
        text = _open_signed_in(page, live_server, link, "juiza", "senha-da-juiza-2024")
        assert "juiza.lima@exemplo.com" in text  # the address the invitation was sent to
        shot(page, "convite-aceitar-390")
        assert_no_axe_violations(page, "convite (aceitar)")
        page.get_by_label("Seu nome").fill("Juíza Lima")
        page.get_by_role("button", name="Aceitar o convite").click()
        page.wait_for_url("**/organizar/")
        assert "Convite aceito" in page.locator(".messages").inner_text()
        page.get_by_role("link", name="Anotar as súmulas").click()
        page.wait_for_url(f"**/organizar/{t.slug}/arbitragem/")
        assert page.get_by_role("heading", level=1).count() + page.get_by_role("heading", level=2).count() >= 1
        shot(page, "convite-arbitragem-390")
    finally:
        referee.close()
    assert StaffRole.objects.get(tournament=t, user__username="juiza").role == StaffRole.REFEREE


def test_an_account_with_another_email_asks_and_the_organizer_confirms(browser, live_server, make_run_event):
    t = make_run_event
    get_user_model().objects.create_user("caio", "caio.prado@outro-email.com", "senha-do-caio-2024")
    desk = browser.new_context(**PHONE, **AXE_CONTEXT)
    try:
        page = desk.new_page()
        link = _invite(page, live_server, t, "caio@exemplo.com")

        other = browser.new_context(**PHONE, **AXE_CONTEXT)
        try:
            asking = other.new_page()
            text = _open_signed_in(asking, live_server, link, "caio", "senha-do-caio-2024")
            assert "caio@exemplo.com" in text and "caio.prado@outro-email.com" in text
            assert asking.get_by_role("button", name="Aceitar o convite").count() == 0
            assert asking.evaluate("document.documentElement.scrollWidth") <= 390
            assert_no_axe_violations(asking, "convite (outra conta)")
            shot(asking, "convite-outra-conta-390")
            asking.get_by_label("Seu nome").fill("Caio Prado")
            asking.get_by_role("button", name="Pedir à comissão para confirmar").click()
            asking.get_by_text("está com a comissão organizadora desde").wait_for()
        finally:
            other.close()

        page.reload()
        claim = page.locator(".invite-claim")
        assert "Caio Prado (caio) pediu para aceitar este convite" in claim.inner_text()
        assert "caio.prado@outro-email.com" in claim.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert_no_axe_violations(page, "equipe (pedido de outra conta)")
        shot(page, "convite-pedido-390")
        page.set_viewport_size({"width": 1366, "height": 900})
        shot(page, "convite-pedido-1366")
        claim.get_by_role("button", name="confirmar: dar o papel de árbitro").click()
        page.wait_for_url(f"**/organizar/{t.slug}/equipe/")
        assert "Caio Prado (caio) entrou na equipe (árbitro)" in page.locator(".messages").inner_text()
    finally:
        desk.close()
    assert StaffRole.objects.get(tournament=t, user__username="caio").role == StaffRole.REFEREE
