"""The calls ("Sua vez") in headless Chromium: the desk's calls page at 1366 px (call a round, the WhatsApp
buttons), then a called dupla's private page and the event page at 390 px. Screenshots go to
/tmp/zap-shots/chamadas-*.png."""

from urllib.parse import unquote

import pytest
from django.contrib.auth import get_user_model

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.event_states import event_during_make
from tournaments.models import Call, Jogo, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_calls_a_round_and_the_dupla_and_event_pages_say_sua_vez(browser, live_server, settings):
    settings.ZAP_CALLS_MAIL_THREAD = False
    t = event_during_make()
    organizer = get_user_model().objects.get(username="comissao-regional")
    organizer.set_password("senha-da-comissao-2024")
    organizer.save()
    busy = set(Jogo.objects.filter(tournament=t, status__in=Jogo.AT_TABLE).values_list("mesa", flat=True))
    jogo = Jogo.objects.filter(tournament=t, round=2, status=Jogo.SCHEDULED).exclude(mesa__in=busy).order_by("id")[0]
    Player.objects.filter(pk=jogo.dupla_a.player1_id).update(phone="(19) 99876-5432", email="a@example.org")
    Player.objects.filter(pk=jogo.dupla_a.player2_id).update(phone="1234")
    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="pt-BR")  # its real CSP
    page = desk.new_page()
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/programacao/")
        page.get_by_label("Usuário").fill("comissao-regional")
        page.get_by_label("Senha").fill("senha-da-comissao-2024")
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url(f"**/organizar/{t.slug}/programacao/")
        page.get_by_role("link", name="Chamar as duplas").click()  # the programação leads to the calls
        page.wait_for_url(f"**/organizar/{t.slug}/chamadas/")
        page.get_by_role("button", name="Chamar a rodada 2").click()
        page.wait_for_load_state()
        assert "Rodada chamada" in page.locator(".messages").inner_text()
        row = page.locator(f"#chamada-{jogo.pk}")
        assert "chamado" in row.inner_text() and "nas páginas" in row.inner_text()
        assert row.get_by_role("button", name="WhatsApp:").count() == 1
        assert "telefone inválido" in row.inner_text()
        assert row.locator("form[target=_blank]").count() == 1
        shot(page, "chamadas-desk-1366")
        # the WhatsApp button: the call is recorded and a new tab goes to wa.me with the message (the page's CSP
        # lets the form's redirect go there: with "form-action 'self'" alone Chromium stops it). There is no
        # internet here, and Playwright's routes do not answer a redirect's next hop: the request is what counts.
        asked: list[str] = []
        desk.on("request", lambda request: asked.append(request.url))
        with desk.expect_page() as opened:
            row.get_by_role("button", name="WhatsApp:").click()
        opened.value.wait_for_load_state()
        wa = [u for u in asked if u.startswith("https://wa.me/5519998765432?text=")]
        assert len(wa) == 1, asked
        assert unquote(wa[0].split("text=", 1)[1]).count(f"/d/{jogo.dupla_a.token}/") == 1
        assert page.url.endswith("/chamadas/")  # the desk's page stays
        assert Call.objects.filter(jogo=jogo, channel=Call.WHATSAPP).count() == 1
        audited = browser.new_context(
            viewport={"width": 1366, "height": 900}, locale="pt-BR", storage_state=desk.storage_state(), **AXE_CONTEXT
        )
        try:
            page = audited.new_page()
            page.goto(f"{live_server.url}/organizar/{t.slug}/chamadas/")
            assert "WhatsApp" in page.locator(f"#chamada-{jogo.pk} .calls-done").inner_text()
            assert_no_axe_violations(page, "chamadas (mesa)")
        finally:
            audited.close()
    finally:
        desk.close()
    assert Call.objects.filter(jogo=jogo, channel=Call.PAGES).exists()
    assert Call.objects.get(jogo=jogo, channel=Call.EMAIL).status == Call.SENT
    jogo.dupla_a.refresh_from_db()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR", **AXE_CONTEXT)
    page = phone.new_page()
    try:
        page.goto(f"{live_server.url}/d/{jogo.dupla_a.token}/")
        banner = page.locator(".sua-vez-banner")
        assert f"Sua vez! Mesa {jogo.mesa}" in banner.inner_text()
        assert jogo.dupla_b.display_name in banner.inner_text()
        assert "99876" not in page.content()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        shot(page, "chamadas-dupla-390")
        assert_no_axe_violations(page, "página da dupla chamada", include="#conteudo")  # the head is checked elsewhere
        page.goto(f"{live_server.url}/torneios/{t.slug}/")
        section = page.locator("section.sua-vez")
        assert "Sua vez: chamados às mesas" in section.inner_text()
        assert jogo.dupla_a.display_name in section.inner_text()
        assert "99876" not in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "chamadas-evento-390")
        assert_no_axe_violations(page, "evento com chamadas")
        page.goto(f"{live_server.url}/torneios/{t.slug}/tv/")
        assert "Sua vez" in page.content()
        shot(page, "chamadas-tv-390")
        page.set_viewport_size({"width": 1366, "height": 768})
        page.reload()
        assert page.locator(".tv-slide-called li").count() == 2
        shot(page, "chamadas-tv-1366")
    finally:
        phone.close()
