"""The referee's phone (390 × 844) in headless Chromium: a best-of-3 jogo recorded by tapping the buttons, one
mão tapped with the network off (shown as "pendente", not in the database, sent once when the network is back),
an undo, a second phone's mãos shown by the first, a waiting mão refused once the other phone ended the
jogo; then both duplas confirm with their PINs on the referee's phone and the referee signs.
Screenshots go to /tmp/zap-shots/sumula-*.png."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.support.browser import VIEWPORTS, shot
from tests.support.sumula import PIN, api, cup_setup, post, staff_user
from tournaments.models import Jogo, Mao, Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-do-teste-1"  # staff_user's
A, B = "Ana / Bruno", "Gabi / Hugo"  # the duplas of j1 (d1 and d4), as the buttons name them


def _synced(page) -> None:
    """Wait until the phone's queue is empty (every entry answered by the API)."""
    # a locator assertion, not wait_for_function: the page's Content-Security-Policy forbids evaluating strings
    expect(page.locator("#sumula-net")).to_have_attribute("data-pending", "0")


def _tap(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    _synced(page)


def _points(page) -> tuple[str, str]:
    return (page.locator('[data-bind="points-0"]').inner_text(), page.locator('[data-bind="points-1"]').inner_text())


def stored_queue(page, tournament):
    return page.evaluate(f"localStorage.getItem('zap-sumula:{tournament.slug}:j1')")


def _maos(partida: int) -> list[tuple]:
    return list(
        Mao.objects.filter(partida__jogo__key="j1", partida__number=partida)
        .order_by("order")
        .values_list("to", "points", "how")
    )


def test_a_referee_records_a_jogo_on_the_phone_through_a_network_cut(browser, live_server, load_file):
    tournament = cup_setup(load_file)
    referee = staff_user(tournament, "arbitra")
    Mesa.objects.create(tournament=tournament, number=1, referee=referee)
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pt-BR", is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # log in, the list of the referee's jogos, the súmula of mesa 1
        page.goto(f"{live_server.url}/organizar/{tournament.slug}/arbitragem/")
        page.wait_for_url("**/entrar/?next=**")
        page.get_by_label("Usuário").fill("arbitra")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/arbitragem/")
        assert page.get_by_role("heading", name="Meus jogos").is_visible()
        shot(page, "sumula-01-lista")
        page.locator('a[href$="/arbitragem/j1/"]').click()
        page.wait_for_url("**/arbitragem/j1/")
        _synced(page)
        assert page.locator("#sumula-net").inner_text() == "conectado · tudo enviado"
        shot(page, "sumula-02-inicio")

        # partida 1: 9, 1, the other runs from truco (1), 1 → 11 x 1, a mão de onze for Ana / Bruno
        _tap(page, f"{A}: venceu a mão de 9")
        _tap(page, f"{A}: venceu a mão de 1")
        _tap(page, f"{B}: a outra dupla correu (1)")
        _tap(page, f"{A}: venceu a mão de 1")
        assert _points(page) == ("11", "1")
        assert "Mão de onze: Ana / Bruno decide" in page.locator(".sumula-situation").inner_text()
        assert page.get_by_role("button", name=f"{A}: venceu a mão de 6").is_disabled()
        assert page.get_by_role("button", name=f"{A}: venceu a mão de 3").is_enabled()
        assert not page.get_by_role("button", name=f"{A}: a outra dupla correu (3)").is_visible()
        shot(page, "sumula-03-mao-de-onze")
        _tap(page, f"{B}: mão de onze recusada (+1)")  # Ana / Bruno refuse: +1 to the other
        _tap(page, f"{A}: venceu a mão de 3")  # accepted and won: 14 x 2
        assert _maos(1) == [
            (0, 9, "played"),
            (0, 1, "played"),
            (1, 1, "ran"),
            (0, 1, "played"),
            (1, 1, "refused"),
            (0, 3, "played"),
        ]
        assert page.locator('[data-bind="won-0"]').inner_text() == "1"
        assert page.locator('[data-bind="partida"]').inner_text() == "Partida 2"

        # partida 2 is written by another device (a second phone, through the API): this one shows it
        # by itself within its 10 s refresh
        other = Client()
        other.force_login(staff_user(tournament, "outra-arbitra"))
        maos_url = api(tournament.slug, "j1", "maos")
        assert post(other, maos_url, {"id": "outro-1", "to": 1, "points": 12}).status_code == 201
        expect(page.locator('[data-bind="won-1"]')).to_have_text("1", timeout=15_000)
        assert page.locator('[data-bind="partida"]').inner_text() == "Partida 3"

        # partida 3: 6 x 0, then the network goes away and a mão of 3 waits on the phone
        _tap(page, f"{A}: venceu a mão de 6")
        context.set_offline(True)
        page.get_by_role("button", name=f"{A}: venceu a mão de 3", exact=True).click()
        net = page.locator("#sumula-net")
        expect(net).to_have_text(re.compile(r"^sem conexão"))
        assert net.inner_text() == "sem conexão — 1 anotação pendente"
        pending = page.locator("#sheet-partidas tr.is-pending")
        assert pending.count() == 1 and "pendente" in pending.text_content()
        assert _points(page) == ("9", "0")
        assert _maos(3) == [(0, 6, "played")]  # not in the database
        shot(page, "sumula-04-sem-conexao")
        # it stays queued, on the phone's storage, through a failed retry (every 4 s)
        stored = stored_queue(page, tournament)
        assert '"points":3' in stored and '"how":"played"' in stored
        page.wait_for_timeout(4500)
        assert _maos(3) == [(0, 6, "played")] and net.get_attribute("data-pending") == "1"
        context.set_offline(False)
        _synced(page)
        assert _maos(3) == [(0, 6, "played"), (0, 3, "played")]  # exactly once
        assert page.locator("#sheet-partidas tr.is-pending").count() == 0
        assert net.inner_text() == "conectado · tudo enviado"

        # a mão entered by mistake, undone
        _tap(page, f"{B}: a outra dupla correu (1)")
        assert _points(page) == ("9", "1")
        page.get_by_role("button", name="Desfazer a última mão").click()
        _synced(page)
        assert _points(page) == ("9", "0") and _maos(3) == [(0, 6, "played"), (0, 3, "played")]
        shot(page, "sumula-05-partida-3")

        # offline again, a mão waits here while the other phone records the last mão, which decides the
        # jogo (2 x 1): back online, the waiting mão is refused (409), dropped and the reason shown
        context.set_offline(True)
        page.get_by_role("button", name=f"{B}: venceu a mão de 1", exact=True).click()
        assert net.get_attribute("data-pending") == "1"
        assert post(other, maos_url, {"id": "outro-2", "to": 0, "points": 3}).status_code == 201
        context.set_offline(False)
        _synced(page)
        alert = page.locator("#sumula-alert")
        assert alert.is_visible() and "o jogo já terminou" in alert.inner_text()
        assert _maos(3) == [(0, 6, "played"), (0, 3, "played"), (0, 3, "played")]
        assert stored_queue(page, tournament) is None
        # the screen has changed under the referee's eyes: it shows the decided jogo, offers to reload (the
        # alert stays to be read), and then shows the confirmations
        page.locator("#sumula-changed").wait_for()
        assert _points(page) == ("12", "0") and page.locator("[data-pad]").is_hidden()
        shot(page, "sumula-06-recusada")
        page.locator("#sumula-changed").get_by_role("link", name="Recarregar").click()
        page.get_by_role("heading", name="O que falta").wait_for()
        jogo = Jogo.objects.get(tournament=tournament, key="j1")
        assert jogo.status == "awaiting_confirmation"
        assert "Vencedora: Ana Souza / Bruno Lima (2 x 1 em partidas)" in page.locator(".sumula-result").inner_text()
        shot(page, "sumula-07-confirmacao")

        # each dupla types its PIN on the referee's phone; a wrong one is refused in an alert
        page.get_by_label(f"PIN de {A}").fill("000000")
        page.get_by_role("button", name=f"{A} confirma a súmula").click()
        page.get_by_role("alert").filter(has_text="PIN incorreto").wait_for()
        shot(page, "sumula-08-pin-errado")
        page.get_by_label(f"PIN de {A}").fill(PIN["d1"])
        page.get_by_role("button", name=f"{A} confirma a súmula").click()
        page.get_by_text("Ana Souza / Bruno Lima confirmou a súmula.").wait_for()
        page.get_by_label(f"PIN de {B}").fill(PIN["d4"])
        page.get_by_role("button", name=f"{B} confirma a súmula").click()
        page.get_by_text("Gabi Rocha / Hugo Alves confirmou a súmula.").wait_for()
        jogo.refresh_from_db()
        assert jogo.status == "confirmed"
        shot(page, "sumula-09-confirmada")

        # the referee signs
        page.get_by_role("button", name="Assinar a súmula (homologar)").click()
        page.get_by_text("Súmula homologada.").wait_for()
        jogo.refresh_from_db()
        assert jogo.status == "homologated" and jogo.signed_by == referee
        assert page.get_by_text("Corrigir (nova via)").is_visible()
        shot(page, "sumula-10-homologada")
        assert [len(_maos(n)) for n in (1, 2, 3)] == [6, 1, 3]

        # the list shows it among the finished jogos
        page.get_by_role("link", name=re.compile("Jogos da arbitragem")).click()
        page.wait_for_url("**/arbitragem/")
        assert "homologada" in page.locator('a[href$="/arbitragem/j1/"]').inner_text()
        shot(page, "sumula-11-lista-depois")
        assert errors == []
    finally:
        context.close()


def _referee_phone(browser, live_server, load_file):
    """The cup's referee signed in on a phone (390 × 844), on the súmula of j1, its queue synced: (context, page)."""
    tournament = cup_setup(load_file)
    referee = staff_user(tournament, "arbitra")
    Mesa.objects.create(tournament=tournament, number=1, referee=referee)
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="pt-BR", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/organizar/{tournament.slug}/arbitragem/j1/")
    page.wait_for_url("**/entrar/?next=**")
    page.get_by_label("Usuário").fill("arbitra")
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url("**/arbitragem/j1/")
    _synced(page)
    return context, page


def test_the_offline_warning_stays_next_to_the_score_at_390_px(browser, live_server, load_file):
    context, page = _referee_phone(browser, live_server, load_file)
    try:
        context.set_offline(True)
        button = page.get_by_role("button", name=f"{A}: venceu a mão de 3", exact=True)
        button.scroll_into_view_if_needed()
        button.click()
        net = page.locator("#sumula-net")
        expect(net).to_have_text("sem conexão — 1 anotação pendente")
        # right under the score, not in the page's head: in sight with the mão buttons
        board = page.locator(".scoreboard").bounding_box()
        warning = net.bounding_box()
        assert board is not None and warning is not None
        assert 0 <= warning["y"] - (board["y"] + board["height"]) < 24, (board, warning)
        page.get_by_role("button", name=f"{B}: venceu a mão de 1", exact=True).scroll_into_view_if_needed()
        viewport = page.viewport_size
        box = net.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], box
        page.screenshot(path="/tmp/zap-shots/sumula-390-sem-conexao-tela.png")  # the screen as the referee sees it
        shot(page, "sumula-390-sem-conexao")
        context.set_offline(False)
        _synced(page)
        expect(net).to_have_text("conectado · tudo enviado")
    finally:
        context.close()


def test_a_second_tap_within_the_double_tap_time_is_dropped_and_the_screen_says_so(browser, live_server, load_file):
    """Issue 41 item 20: the second of two taps on the same button within ~300 ms was dropped silently; it is still
    dropped (a double tap is one mão), and the screen says so in a note over its foot, then the note goes away."""
    context, page = _referee_phone(browser, live_server, load_file)
    try:
        note = page.locator("#sumula-tap")
        expect(note).to_be_hidden()
        page.get_by_role("button", name=f"{A}: venceu a mão de 3", exact=True).dblclick()
        _synced(page)
        expect(note).to_be_visible()
        expect(note).to_contain_text("Segundo toque ignorado")
        shot(page, "sumula-390-toque-duplo")
        assert _maos(1) == [(0, 3, "played")]  # one mão, as before
        expect(note).to_be_hidden(timeout=6000)
        _tap(page, f"{A}: venceu a mão de 3")  # a later tap is a mão of its own
        assert _maos(1) == [(0, 3, "played"), (0, 3, "played")]
        expect(note).to_be_hidden()
    finally:
        context.close()
