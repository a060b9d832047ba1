"""The Resumo's "Agora" on a phone (390 px) and a laptop, in headless Chromium: the pending counts, each a
link to its page. Screenshots go to /tmp/zap-shots/resumo-agora-*.png."""

import pytest
from django.contrib.auth import get_user_model

from tests.support.browser import shot
from tests.support.event_states import event_during_make
from tournaments.models import Dupla, Jogo, PinFailure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 900}}


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_the_resumo_lists_what_waits_and_its_links_lead_there(browser, live_server, width):
    from django.utils import timezone

    t = event_during_make()
    organizer = get_user_model().objects.get(username="comissao-regional")
    organizer.set_password("senha-da-comissao-2024")
    organizer.save()
    dupla = Dupla.objects.filter(tournament=t).order_by("order").first()
    PinFailure.objects.bulk_create([PinFailure(dupla=dupla, at=timezone.now(), address="10.9.0.1") for _k in range(6)])
    Jogo.objects.filter(pk=Jogo.objects.filter(tournament=t, round=2, status=Jogo.SCHEDULED).first().pk).update(
        mesa=None
    )
    context = browser.new_context(viewport=VIEWPORTS[width], locale="pt-BR")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/organizar/{t.slug}/")
        page.get_by_label("Usuário").fill("comissao-regional")
        page.get_by_label("Senha").fill("senha-da-comissao-2024")
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url(f"**/organizar/{t.slug}/")
        section = page.locator("section", has=page.get_by_role("heading", name="Agora"))
        assert section.locator("li").all_inner_texts() == [
            "1 Na mesa (em andamento)",
            "2 Súmulas aguardando confirmação",
            "1 Súmulas contestadas",
            "4 Súmulas a homologar",
            "1 PINs bloqueados",
            "1 Jogos da rodada sem mesa",
        ]
        shot(page, f"resumo-agora-{width}")
        page.get_by_role("link", name="1 Súmulas contestadas").click()
        page.wait_for_url("**/arbitragem/?todos=1&situacao=contested")
        assert page.locator(".referee-card").count() == 1
        shot(page, f"resumo-agora-{width}-contestadas")
        page.go_back()
        page.get_by_role("link", name="1 PINs bloqueados").click()
        page.wait_for_url("**/pins/#pins-bloqueados")
        assert page.locator(".pin-locked").count() == 1
    finally:
        context.close()
