"""A dupla scores its own jogo on its phone (390 × 844) in headless Chromium, from its private link: the buttons
are forms (the page runs no script; axe finds nothing), an undo, then the jogo decided by its taps and sent to its page.
Screenshots go to /tmp/zap-shots/self-scoring-*.png."""

import re

import pytest
from playwright.sync_api import expect

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations, axe_violations, violations_text
from tests.support.browser import VIEWPORTS, shot
from tests.support.sumula import cup_setup, jogo_between
from tournaments.models import Dupla, Jogo, Mao

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A = "Ana / Bruno"  # d1, side 0 of its jogo with d4


def test_a_dupla_scores_its_jogo_on_the_phone(browser, live_server, load_file):
    tournament = cup_setup(load_file, slug="copa-anota-tela")
    tournament.allow_self_scoring = True
    tournament.save(update_fields=["allow_self_scoring"])
    key = jogo_between(tournament, "d1", "d4")
    d1 = Dupla.objects.get(tournament=tournament, key="d1")
    context = browser.new_context(
        viewport=VIEWPORTS["phone"], locale="pt-BR", is_mobile=True, has_touch=True, **AXE_CONTEXT
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/d/{d1.token}/")
        expect(page.get_by_text("Este evento permite que as duplas anotem a própria súmula")).to_be_visible()
        opponent = Dupla.objects.get(tournament=tournament, key="d4").display_name
        # each button names its jogo to a screen reader ("Anotar as mãos: Grupo A · Rodada 1, contra …")
        expect(page.get_by_role("link", name=f"contra {opponent}")).to_have_count(1)
        page.locator("#anotar a.button", has_text=opponent).click()
        # the jogo by its group and round, never by its key (walk review #8)
        expect(page.get_by_role("heading", name=re.compile(r"^Súmula · Grupo A · "))).to_be_visible()
        expect(page.get_by_role("heading", name=re.compile(rf"\b{key}\b"))).to_have_count(0)
        button = f"{A}: venceu a mão de 3"
        page.get_by_role("button", name=button, exact=True).click()
        page.get_by_role("button", name=button, exact=True).click()
        expect(page.get_by_label(f"pontos de {A} na partida")).to_have_text("6")
        shot(page, "self-scoring-phone")
        # the pad is the referee's (sumula/_mao_button.html): its "a outra correu" buttons read "1" but are named
        # "…: a outra dupla correu (1)", which axe flags on the referee's screen too; anything else fails here
        found = [
            v
            for v in axe_violations(page)
            if not (v["id"] == "label-content-name-mismatch" and all("mao-ran" in n["html"] for n in v["nodes"]))
        ]
        assert not found, violations_text(found, "the dupla's scoring screen (390px)")
        page.get_by_role("button", name="↶ Desfazer a última mão").click()
        expect(page.get_by_text("Última mão desfeita.")).to_be_visible()
        expect(page.get_by_label(f"pontos de {A} na partida")).to_have_text("3")
        for _n in range(7):
            page.get_by_role("button", name=button, exact=True).click()
        expect(page.get_by_text("falta a dupla adversária confirmar")).to_be_visible()
        shot(page, "self-scoring-decided")
        # the new section only: the page's event head outside any landmark is older than self-scoring (axe "region")
        assert_no_axe_violations(page, "the dupla's page, Anotar a súmula (390px)", include="#anotar")
        jogo = Jogo.objects.get(tournament=tournament, key=key)
        assert jogo.status == "awaiting_confirmation" and jogo.confirmations["a"]["answer"] == "confirmed"
        assert Mao.objects.filter(partida__jogo=jogo).count() == 8
        assert errors == []
    finally:
        context.close()
