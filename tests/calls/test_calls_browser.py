"""The calls ("Sua vez") in headless Chromium: the desk's calls page at 1366 px (call a round, the WhatsApp
buttons), then a called dupla's private page and the event page at 390 px. Screenshots go to
/tmp/zap-shots/chamadas-*.png."""

import pytest
from django.contrib.auth import get_user_model

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
    desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="pt-BR")
    page = desk.new_page()
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/chamadas/")
        page.get_by_label("Usuário").fill("comissao-regional")
        page.get_by_label("Senha").fill("senha-da-comissao-2024")
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url(f"**/organizar/{t.slug}/chamadas/")
        assert page.get_by_role("link", name="Chamadas").get_attribute("aria-current") == "page"
        page.get_by_role("button", name="Chamar a rodada 2").click()
        page.wait_for_load_state()
        assert "Rodada chamada" in page.locator(".messages").inner_text()
        row = page.locator(f"#chamada-{jogo.pk}")
        assert "chamado" in row.inner_text() and "nas páginas" in row.inner_text()
        assert row.get_by_role("button", name="WhatsApp:").count() == 1
        assert "telefone inválido" in row.inner_text()
        assert row.locator("form[target=_blank]").count() == 1
        shot(page, "chamadas-desk-1366")
    finally:
        desk.close()
    assert Call.objects.filter(jogo=jogo, channel=Call.PAGES).exists()
    assert Call.objects.get(jogo=jogo, channel=Call.EMAIL).status == Call.SENT
    jogo.dupla_a.refresh_from_db()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR")
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
        page.goto(f"{live_server.url}/torneios/{t.slug}/")
        section = page.locator("section.sua-vez")
        assert "Sua vez: chamados às mesas" in section.inner_text()
        assert jogo.dupla_a.display_name in section.inner_text()
        assert "99876" not in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "chamadas-evento-390")
        page.goto(f"{live_server.url}/torneios/{t.slug}/tv/")
        assert "Sua vez" in page.content()
        shot(page, "chamadas-tv-390")
    finally:
        phone.close()
