"""The equipe in headless Chromium at 390 and 1366 px: a pair from two clubs signs up on the public form, the
organizer sees the equipes on the desk's list and in a CSV preview, the public dupla page names them; no
horizontal page scroll, no axe-core violation.

Screenshots: /tmp/zap-shots/equipe-*.png."""

import pytest
from django.contrib.auth import get_user_model

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.files import knockout_file
from tests.support.registrations import csv_bytes, tournament_make
from tournaments.models import Player, StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
PASSWORD = "senha-da-comissao-2024"


def no_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"


@pytest.mark.parametrize("device", list(WIDTHS))
def test_equipe_from_the_sign_up_to_the_desk_and_the_dupla_page(browser, live_server, load_file, device, tmp_path):
    t = tournament_make(slug=f"copa-{device}")
    user = get_user_model().objects.create_user(f"marta-{device}", password=PASSWORD)
    StaffRole.objects.create(tournament=t, user=user, role=StaffRole.ORGANIZER)
    data = knockout_file(slug=f"etapa-{device}")
    data["players"][0]["team"] = "Feras do Truco"
    data["players"][1]["team"] = "Associação Atlética Banco do Brasil de São Paulo"
    finished = load_file(data)
    context = browser.new_context(
        viewport=WIDTHS[device],
        locale="pt-BR",
        is_mobile=device == "phone",
        has_touch=device == "phone",
        **AXE_CONTEXT,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_server.url}/torneios/{t.slug}/inscricao/")
        page.check("input[name=kind][value=pair]")
        page.fill("#id_name", "Ana Souza")
        page.fill("#id_birth_date", "1987-03-14")
        page.fill("#id_phone", "(11) 98888-7777")
        page.fill("#id_team", "Feras do Truco")
        page.fill("#id_partner_name", "Bruno Lima")
        page.fill("#id_partner_birth_date", "1988-03-14")
        page.fill("#id_partner_team", "Clube Zap")
        no_scroll(page)
        shot(page, f"equipe-signup-{device}")
        assert_no_axe_violations(page, f"inscrição ({device})")
        page.get_by_role("button", name="Enviar inscrição").click()
        page.wait_for_url("**/inscricao/**")
        assert dict(Player.objects.filter(tournament=t).values_list("name", "team")) == {
            "Ana Souza": "Feras do Truco",
            "Bruno Lima": "Clube Zap",
        }
        # the organizer's list, then a CSV with the equipe columns
        page.goto(f"{live_server.url}/entrar/?next=/organizar/{t.slug}/inscricoes/")
        page.get_by_label("Usuário").fill(user.username)
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/inscricoes/")
        card = page.locator(".reg-card").first
        assert "Feras do Truco" in card.inner_text() and "Clube Zap" in card.inner_text()
        no_scroll(page)
        shot(page, f"equipe-desk-list-{device}")
        path = tmp_path / "inscricoes.csv"
        path.write_bytes(
            csv_bytes(
                [
                    "Carla Dias;02/02/1992;Casa do Truco;Davi Rocha;30/07/1992;Clube Zap",
                    "Elisa Prado;09/01/1988;Feras do Truco;;;",
                ],
                header="nome;nascimento;equipe;parceiro;parceiro_nascimento;parceiro_equipe",
                encoding="cp1252",
            )
        )
        page.goto(f"{live_server.url}/organizar/{t.slug}/inscricoes/planilha/")
        page.set_input_files("input[type=file]", str(path))
        page.get_by_role("button", name="Ver a pré-visualização").click()
        page.locator("table.reg-preview").wait_for()
        table = page.locator("table.reg-preview").inner_text()
        assert "Casa do Truco" in table and "Clube Zap" in table
        no_scroll(page)
        shot(page, f"equipe-csv-preview-{device}")
        # the public dupla page of a finished event
        page.goto(f"{live_server.url}/torneios/{finished.slug}/duplas/d1/")
        line = page.locator(".dupla-atletas").inner_text()
        assert "Feras do Truco" in line and "Associação Atlética" in line
        no_scroll(page)
        shot(page, f"equipe-dupla-{device}")
        assert_no_axe_violations(page, f"dupla ({device})")
        assert not errors
    finally:
        context.close()
