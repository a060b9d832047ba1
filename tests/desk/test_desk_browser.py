"""End to end in headless Chromium (issue 6 §6): an organizer who has never seen Zap runs the AABB-SP 2024
event from the desk, following the one button the desk offers at each step.

Log in, create the event from its template, upload a CSV of 32 individuals (one row bad, fixed, uploaded
again), close registration, draw the duplas, draw the bracket, invite 4 referees and give them the 4 mesas,
then open the public bracket as an anonymous visitor. Screenshots at 390 and 1366 px go to /tmp/zap-shots/.
"""

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from tests.support.browser import shot
from tests.support.mail import SENDING
from tournaments.models import AuditEntry, Draw, DrawRoll, Dupla, Jogo, Mesa, Registration, StaffRole, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-da-comissao-2024"
VIEWPORTS = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 900}}
REFEREE_NAMES = ["Rita Bandeira", "José Apito", "Lia Campos", "Tião Neves"]  # as each gives it on accepting
FIRST = [
    "Ana",
    "Bruno",
    "Carla",
    "Diego",
    "Elisa",
    "Fábio",
    "Gabi",
    "Hugo",
    "Iara",
    "João",
    "Kátia",
    "Lucas",
    "Márcia",
    "Nilo",
    "Olga",
    "Paulo",
]
LAST = ["Souza", "Lima"]
NAMES = [f"{f} {s}" for s in LAST for f in FIRST]  # 32 distinct athletes


def _csv(*, bad_line: int | None) -> str:
    """32 individual registrations; ``bad_line`` (file line, header = 1) is a 16-year-old on 27/04/2024."""
    rows = ["nome;nascimento;email;telefone"]
    for i, name in enumerate(NAMES):
        line = i + 2
        born = "10/10/2008" if line == bad_line else f"{1 + i % 28:02d}/05/19{70 + i % 30}"
        rows.append(f"{name};{born};atleta{i + 1}@exemplo.com.br;(11) 9{i:04d}-0000")
    return "\r\n".join(rows) + "\r\n"


def _follow_next_step(page, label: str) -> None:
    """From the tournament's summary, click the one clear button, which must say ``label``."""
    page.get_by_role("link", name="Resumo").click()
    button = page.locator("a.button-wide").first
    assert button.inner_text().strip() == label
    button.click()


@pytest.mark.parametrize("width", list(VIEWPORTS))
def test_an_organizer_runs_the_aabb_event_from_sign_ups_to_a_published_bracket(
    browser, live_server, width, tmp_path, settings
):
    settings.MAILERS = SENDING  # a site whose mail leaves: the referees get the invitations by e-mail
    users = get_user_model().objects
    users.create_user("marta", email="marta@aabb.org.br", password=PASSWORD, is_staff=True)  # may create events
    for i in range(1, 5):
        users.create_user(f"arbitro{i}", email=f"arbitro{i}@aabb.org.br", password=PASSWORD)
    context = browser.new_context(
        viewport=VIEWPORTS[width], locale="pt-BR", is_mobile=width == "390", has_touch=width == "390"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"Olimpíada AABB-SP 2024 - Truco ({width})"
    try:
        # 1. log in
        page.goto(f"{live_server.url}/organizar/")
        page.wait_for_url("**/entrar/?next=/organizar/")
        page.get_by_label("Usuário").fill("marta")
        page.get_by_label("Senha").fill(PASSWORD)
        shot(page, f"desk-{width}-01-entrar")
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/organizar/")

        # 2. create the event from the AABB template: three fields
        page.get_by_role("link", name="Criar torneio").click()
        page.get_by_label(re.compile("Olimpíada AABB")).check()
        page.get_by_label("Nome do torneio").fill(name)
        page.get_by_label(re.compile("^Data")).fill("2024-04-27")
        page.get_by_label(re.compile("^Local")).fill("Bar Classe A")
        shot(page, f"desk-{width}-02-criar")
        page.get_by_role("button", name="Criar torneio").click()
        # a date in the past: the form says so at the date and asks to confirm it (issue 41 item 20)
        page.get_by_text("Esta data já passou (27/04/2024)").wait_for()
        shot(page, f"desk-{width}-02-criar-data-passada")
        page.get_by_label("Sim, a data já passou: é um torneio já realizado.").check()
        page.get_by_role("button", name="Criar torneio").click()
        page.wait_for_url(re.compile(r".*/organizar/[\w-]+/$"))
        tournament = Tournament.objects.get(name=name)
        assert (tournament.preset, tournament.max_duplas, tournament.min_age) == ("aabb", 16, 18)
        assert StaffRole.objects.filter(tournament=tournament, user__username="marta", role="organizer").exists()
        shot(page, f"desk-{width}-03-resumo")

        # 2b. a new event is a draft: an anonymous visitor does not find it; the organizer checks and publishes it
        stranger = browser.new_context(viewport=VIEWPORTS[width], locale="pt-BR")
        visitor = stranger.new_page()
        assert visitor.goto(f"{live_server.url}/torneios/{tournament.slug}/").status == 404
        _follow_next_step(page, "Conferir os dados e publicar o evento")
        assert "Bar Classe A" in page.locator("main").inner_text()
        shot(page, f"desk-{width}-03b-publicar")
        page.get_by_role("button", name="Publicar o evento").click()
        page.wait_for_url(re.compile(r".*/organizar/[\w-]+/$"))
        assert "Evento publicado" in page.locator("main").inner_text()
        assert visitor.goto(f"{live_server.url}/torneios/{tournament.slug}/").status == 200
        stranger.close()

        # 3. the CSV of 32 individuals: line 8 is under age; the preview says where, nothing is written
        _follow_next_step(page, "Receber inscrições")
        page.get_by_role("link", name="Enviar planilha CSV").click()
        bad = tmp_path / "inscricoes.csv"
        bad.write_bytes(_csv(bad_line=8).encode("cp1252"))
        page.get_by_label("Planilha CSV").set_input_files(str(bad))
        page.get_by_role("button", name="Ver a pré-visualização").click()
        alert = page.get_by_role("alert").first
        assert "1 problema: nada foi gravado" in alert.inner_text()
        first_row = page.locator("table.reg-preview tbody tr").first  # the rows with problems come first
        assert "linha 8:" in first_row.inner_text() and "18 anos" in first_row.inner_text()
        assert page.get_by_role("button", name="Confirmar inscrições").count() == 0
        shot(page, f"desk-{width}-04-planilha-com-erro")
        assert Registration.objects.filter(tournament=tournament).count() == 0

        good = tmp_path / "inscricoes-corrigida.csv"
        good.write_bytes(_csv(bad_line=None).encode("cp1252"))
        page.get_by_label("Planilha CSV").set_input_files(str(good))
        page.get_by_role("button", name="Ver a pré-visualização").click()
        assert "Ao confirmar: 32 aceitas, 0 na lista de espera." in page.content()
        shot(page, f"desk-{width}-05-planilha-ok")
        page.get_by_role("button", name="Confirmar inscrições").click()
        page.wait_for_url("**/inscricoes/")
        assert Registration.objects.filter(tournament=tournament).count() == 32
        assert "Márcia Souza" in page.content()

        # 4. close registration
        page.get_by_role("button", name="Encerrar inscrições").click()
        page.wait_for_url("**/inscricoes/")
        assert page.get_by_role("button", name="Reabrir inscrições").is_visible()
        shot(page, f"desk-{width}-06-inscricoes")

        # 5. the pairing draw: a preview first, nothing written (the roll recorded); then confirmed: 16 duplas
        _follow_next_step(page, "Sortear as duplas")
        page.get_by_role("button", name="Sortear as duplas").click()
        page.locator("#previa").wait_for()
        assert Dupla.objects.filter(tournament=tournament).count() == 0
        roll = DrawRoll.objects.get(tournament=tournament, kind=DrawRoll.PAIRING)
        assert str(roll.seed) in page.locator("#previa code").first.inner_text()
        shot(page, f"desk-{width}-07-previa-duplas")
        page.get_by_role("button", name="Confirmar estas duplas").click()
        page.get_by_role("heading", name="Último sorteio").wait_for()
        pairing = Draw.objects.get(tournament=tournament, kind=Draw.PAIRING)
        assert pairing.seed == roll.seed
        assert Dupla.objects.filter(tournament=tournament).count() == 16
        assert str(pairing.seed) in page.locator("code").first.inner_text()
        assert page.get_by_text("Ninguém ficou na lista de espera.").is_visible()
        shot(page, f"desk-{width}-07-sorteio-duplas")

        # 6. the competition draw: a preview first, nothing written; then publish
        _follow_next_step(page, "Sortear a chave")  # the AABB event is a knockout alone
        page.get_by_role("button", name="Sortear", exact=True).click()
        page.locator("#previa").wait_for()
        assert Jogo.objects.filter(tournament=tournament).count() == 0
        shot(page, f"desk-{width}-08-previa-chave")
        page.get_by_role("button", name="Publicar").click()
        page.wait_for_url("**/sorteios/competicao/")
        assert page.get_by_role("heading", name="Sorteio publicado").is_visible()
        assert Jogo.objects.filter(tournament=tournament, round=1).count() == 8

        # 7. the referees are invited by e-mail and each accepts on their own phone, then the 4 mesas get one each
        page.get_by_role("link", name="Equipe").click()
        for i in range(1, 5):
            page.get_by_label("E-mail da pessoa").fill(f"arbitro{i}@aabb.org.br")
            page.get_by_label("árbitro", exact=True).check()
            page.get_by_role("button", name="Enviar convite").click()
            page.wait_for_url("**/equipe/**")
            assert page.get_by_text(f"arbitro{i}@aabb.org.br").first.is_visible()
        assert StaffRole.objects.filter(tournament=tournament, role="referee").count() == 0  # not before accepting
        links = [re.search(r"https?://\S+/convites/\S+/", m.body).group(0) for m in mail.outbox[-4:]]
        for i, link in enumerate(links, start=1):
            phone = browser.new_context(viewport=VIEWPORTS["390"], locale="pt-BR")
            referee = phone.new_page()
            referee.goto(live_server.url + urlsplit(link).path)  # the e-mail's link, on this test server
            referee.get_by_role("link", name="Entre com ela").click()
            referee.get_by_label("Usuário").fill(f"arbitro{i}")
            referee.get_by_label("Senha").fill(PASSWORD)
            referee.get_by_role("button", name="Entrar").click()
            referee.get_by_label("Seu nome").fill(REFEREE_NAMES[i - 1])
            referee.get_by_role("button", name="Aceitar o convite").click()
            referee.wait_for_load_state()
            phone.close()
        page.reload()
        assert StaffRole.objects.filter(tournament=tournament, role="referee").count() == 4
        shot(page, f"desk-{width}-09-equipe")

        _follow_next_step(page, "Distribuir as mesas")
        page.get_by_label("Número de mesas").fill("4")
        page.get_by_role("button", name="Mostrar as mesas").click()
        for i in range(1, 5):
            page.get_by_label(f"Árbitro da mesa {i}").select_option(label=REFEREE_NAMES[i - 1])
        shot(page, f"desk-{width}-10-mesas")
        page.get_by_role("button", name="Salvar mesas").click()
        page.wait_for_url("**/mesas/")
        assert page.get_by_text("Mesas salvas").is_visible()
        mesas = dict(Mesa.objects.filter(tournament=tournament).values_list("number", "referee__username"))
        assert mesas == {i: f"arbitro{i}" for i in range(1, 5)}
        first_round = list(Jogo.objects.filter(tournament=tournament, round=1).values_list("mesa", flat=True))
        assert sorted(first_round) == [1, 1, 2, 2, 3, 3, 4, 4]
        page.get_by_role("link", name="Ver a programação").click()
        shot(page, f"desk-{width}-11-programacao")
        page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
        page.get_by_role("button", name="Imprimir").click()
        assert page.evaluate("window.printed") == 1  # the schedule prints from the browser (static script)
        for jogo_id, mesa in Jogo.objects.filter(tournament=tournament, round=1).values_list("id", "mesa"):
            referee_cell = page.locator(f"#jogo-{jogo_id} td").nth(2).inner_text()
            assert referee_cell.startswith(REFEREE_NAMES[mesa - 1]), referee_cell  # the name, not the username
        shot(page, f"desk-{width}-11-programacao")
        page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
        page.get_by_role("button", name="Imprimir").click()
        assert page.evaluate("window.printed") == 1  # the schedule prints from the browser (static script)

        # everything the organizer did is in the history
        page.get_by_role("link", name="Histórico").click()
        assert AuditEntry.objects.filter(tournament=tournament).count() >= 8
        shot(page, f"desk-{width}-12-historico")

        # 8. an anonymous visitor sees the bracket at once
        page.get_by_role("button", name="Sair").click()
        page.goto(f"{live_server.url}/torneios/{tournament.slug}/chave/")
        assert page.get_by_role("heading", name="Chave").first.is_visible()
        content = page.content()
        for dupla in Dupla.objects.filter(tournament=tournament):
            assert dupla.display_name in content or all(p.name in content for p in dupla.players())
        assert "atleta1@exemplo.com.br" not in content and "1970" not in content
        shot(page, f"desk-{width}-13-chave-publica")
        page.goto(f"{live_server.url}/organizar/{tournament.slug}/")
        page.wait_for_url("**/entrar/**")
        assert errors == []
    finally:
        context.close()
