"""An appeal end to end in headless Chromium (issue 24 point 12c): the dupla files it from its private link on a phone
(390 px), the organizer decides it on the desk at 1366 px (from the Resumo's "Recursos a decidir"), is offered the
correction form prefilled, and the public súmula shows the appeal and the decision. No page runs into axe
violations in the new sections. Screenshots go to /tmp/zap-shots/appeal-*.png."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import VIEWPORTS, shot
from tests.support.sumula import answer, cup_setup, jogo_between, play, sign, staff_user
from tournaments.models import Appeal, Dupla, Jogo, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-do-teste-1"  # staff_user's
REASON = "A terceira mão da segunda partida foi nossa: o árbitro não viu o zap na mesa."
DECISION = "O vídeo da mesa mostra o zap: a mão 3 da 2ª partida foi da dupla B."
DESKTOP = {"width": 1366, "height": 900}


def test_a_dupla_appeals_on_the_phone_and_the_committee_decides_on_the_desk(browser, live_server, load_file):
    tournament = cup_setup(load_file, slug="copa-recurso-tela")
    key = jogo_between(tournament, "d1", "d4")
    referee = Client()
    referee.force_login(staff_user(tournament, "arbitra"))
    staff_user(tournament, "comissao", StaffRole.ORGANIZER)
    play(referee, tournament.slug, key, [0, 0], "r")
    assert answer(Client(), tournament.slug, key, "d4", accept=False, reason="a mão 3 foi nossa").status_code == 200
    assert sign(referee, tournament.slug, key, reason="conferido com a mesa: a súmula está certa").status_code == 200
    d4 = Dupla.objects.get(tournament=tournament, key="d4")

    phone = browser.new_context(
        viewport=VIEWPORTS["phone"], locale="pt-BR", is_mobile=True, has_touch=True, **AXE_CONTEXT
    )
    desk = browser.new_context(viewport=DESKTOP, locale="pt-BR", **AXE_CONTEXT)
    errors: list[str] = []
    try:
        # the dupla, on its phone: its page offers the appeal of the jogo the referee decided
        page = phone.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/d/{d4.token}/#recursos")
        expect(page.get_by_role("heading", name="Recursos")).to_be_visible()
        expect(page.get_by_text("Decisão do árbitro: conferido com a mesa")).to_be_visible()
        opponent = Dupla.objects.get(tournament=tournament, key="d1").display_name  # the jogo by its opponent
        page.locator("#recursos summary", has_text="Recorrer da decisão").click()
        page.get_by_label("Motivo do recurso (obrigatório)").fill(REASON)
        shot(page, "appeal-1-dupla-form-390")
        page.get_by_role("button", name="Enviar o recurso à comissão organizadora").click()
        expect(page.get_by_text(f"O recurso da sua dupla no jogo contra {opponent} foi registrado.")).to_be_visible()
        expect(page.locator("#recursos").get_by_text("aguarda decisão da comissão organizadora")).to_be_visible()
        expect(page.locator("#recursos").get_by_text(REASON)).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on the phone
        shot(page, "appeal-2-dupla-filed-390")
        assert_no_axe_violations(page, "the dupla's page, Recursos (390px)", include="#recursos")
        appeal = Appeal.objects.get()
        assert appeal.dupla == d4 and appeal.method == "link" and appeal.reason == REASON

        # the comissão, at the desk: the Resumo counts it, the Recursos page decides it
        page = desk.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/organizar/{tournament.slug}/")
        page.wait_for_url("**/entrar/?next=**")
        page.get_by_label("Usuário").fill("comissao")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url(f"**/organizar/{tournament.slug}/")
        page.get_by_role("link", name="1 Recursos a decidir").click()
        page.wait_for_url("**/recursos/")
        expect(page.get_by_role("heading", name="1 recurso a decidir")).to_be_visible()
        item = page.locator(f"#recurso-{appeal.pk}")
        expect(item.get_by_text(REASON)).to_be_visible()
        # no reason: the page says what is missing, nothing decided
        item.get_by_label("deferido", exact=True).check()
        item.get_by_role("button", name="Registrar a decisão").click()
        assert Appeal.objects.get().decision == ""
        item.get_by_label("Motivo da decisão (obrigatório)").fill(DECISION)
        shot(page, "appeal-3-desk-decide-1366")
        assert_no_axe_violations(page, "the desk's Recursos page (1366px)", include="main")
        item.get_by_role("button", name="Registrar a decisão").click()
        page.wait_for_url("**/arbitragem/*/?recurso=*")
        expect(page.get_by_text("Recurso deferido. Se o resultado deve mudar")).to_be_visible()
        expect(page.locator("#fix-reason")).to_have_value(
            f"Recurso de Gabi Rocha / Hugo Alves deferido pela comissão organizadora: {DECISION}"
        )
        expect(page.locator("#recursos").get_by_text("deferido", exact=True)).to_be_visible()
        shot(page, "appeal-4-desk-correction-offered-1366")
        jogo = Jogo.objects.get(tournament=tournament, key=key)
        assert jogo.via == 1 and jogo.status == Jogo.HOMOLOGATED  # the correction is a separate act

        # the public súmula shows the appeal and the decision, with no account name
        page.goto(f"{live_server.url}/torneios/{tournament.slug}/jogos/{key}/#recursos")
        section = page.locator("section[aria-labelledby=recursos]")
        expect(section.get_by_text(REASON)).to_be_visible()
        expect(section.get_by_text(DECISION)).to_be_visible()
        expect(section.get_by_text("pela comissão organizadora em")).to_be_visible()
        assert "comissao" not in page.content()
        shot(page, "appeal-5-public-sumula-1366")
        public = phone.new_page()
        public.goto(f"{live_server.url}/torneios/{tournament.slug}/jogos/{key}/#recursos")
        expect(public.get_by_text(DECISION)).to_be_visible()
        shot(public, "appeal-6-public-sumula-390")
        assert errors == []
    finally:
        phone.close()
        desk.close()
