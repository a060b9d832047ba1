"""The desk's printing (tournaments/printing/desk.py): who may print what, the /organizar/<slug>/imprimir/ page, and
the dupla cards (PIN, private link, QR code) from the PIN page and from ``dupla_pins --pdf``."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.support.printing import (
    FOOTER_WHEN,
    assert_pdf,
    cards_file,
    flat,
    footer_pages,
    pdf_pages,
    pdf_text,
    qr_texts,
    save_png,
)
from tests.support.sumula import staff_user
from tournaments.models import Dupla, Jogo, StaffRole
from tournaments.staff.pins import pin_check

pytestmark = pytest.mark.django_db

SITE = "https://truco.exemplo.org"
SHEETS = ("", "sumulas.pdf", "medalhas.pdf", "certificados.pdf")  # "" is the page itself


def desk(slug: str, sheet: str = "") -> str:
    return f"/organizar/{slug}/imprimir/{sheet}"


# --- permissions ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sheet", SHEETS)
def test_anonymous_is_sent_to_the_login_page(cup, client, sheet):
    url = desk(cup.slug, sheet)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/entrar/?next={url}"


@pytest.mark.parametrize("sheet", SHEETS)
def test_a_user_without_a_role_on_the_tournament_gets_404(cup, client, sheet):
    other = staff_user(None, "de-fora")
    client.force_login(other)
    assert client.get(desk(cup.slug, sheet)).status_code == 404
    assert client.get(desk("nao-existe", sheet)).status_code == 404


@pytest.mark.parametrize(
    "sheet, status", [("", 403), ("sumulas.pdf", 200), ("medalhas.pdf", 403), ("certificados.pdf", 403)]
)
def test_a_referee_prints_sumulas_but_not_the_ceremony(cup, ref, sheet, status):
    """INTERCHANGE: a referee may print the blank súmulas; the printing page is the comissão's (the referee's list
    offers the súmulas)."""
    response = ref.get(desk(cup.slug, sheet))
    assert response.status_code == status
    if sheet and status == 200:
        assert_pdf(response)


@pytest.mark.parametrize("sheet", SHEETS)
def test_an_organizer_and_a_superuser_print_everything(cup, client, sheet):
    client.force_login(staff_user(cup, "comissao", StaffRole.ORGANIZER))
    response = client.get(desk(cup.slug, sheet))
    assert response.status_code == 200
    if sheet:
        assert_pdf(response)
    root = get_user_model().objects.create_superuser("raiz", password="senha-do-teste-1")
    client.force_login(root)
    assert client.get(desk(cup.slug, sheet)).status_code == 200


@pytest.mark.parametrize("sheet", SHEETS)
def test_the_desk_sheets_answer_get_and_head_only(cup, client, sheet):
    client.force_login(staff_user(cup, "comissao", StaffRole.ORGANIZER))
    assert client.post(desk(cup.slug, sheet)).status_code == 405
    assert client.head(desk(cup.slug, sheet)).status_code == 200


def test_a_referee_of_another_tournament_gets_404(cup, load_file, client):
    from tests.support.sumula import cup_file

    other = load_file(cup_file("outra-copa"))
    client.force_login(staff_user(other, "arbitro-de-la"))
    for sheet in SHEETS:
        assert client.get(desk(cup.slug, sheet)).status_code == 404


# --- the page -------------------------------------------------------------------------------------------------


def _links(html: str) -> list[str]:
    return [href.replace("&amp;", "&") for href in re.findall(r'href="([^"]+)"', html)]


@pytest.mark.parametrize("who", ["organizer", "referee"])
def test_the_print_page_lists_the_batches_with_their_counts(cup, client, who):
    """The organizers' printing page, and the referee's list (where a referee prints the blank súmulas)."""
    user = staff_user(cup, "comissao", StaffRole.ORGANIZER) if who == "organizer" else staff_user(cup, "arbitro")
    client.force_login(user)
    page = desk(cup.slug) if who == "organizer" else f"/organizar/{cup.slug}/arbitragem/"
    response = client.get(page)
    html = response.content.decode()
    text = flat(re.sub(r"<[^>]+>", " ", html))
    links = _links(html)
    slug = cup.slug
    assert f"/organizar/{slug}/imprimir/sumulas.pdf" in links
    assert f"/organizar/{slug}/imprimir/sumulas.pdf?stage=grupos" in links
    for n in (1, 2, 3):
        assert f"/organizar/{slug}/imprimir/sumulas.pdf?stage=grupos&round={n}" in links
    assert "Todos os jogos agendados · 6 súmulas" in text
    assert "Fase de grupos · 6 súmulas" in text
    assert "Rodada 1 · 2 súmulas Rodada 2 · 2 súmulas Rodada 3 · 2 súmulas" in text
    assert "?stage=final" not in html  # nothing scheduled there yet
    if who == "referee":  # the referee's list has the súmulas alone: no ceremony, no cards, no organizer's page
        assert "medalhas.pdf" not in html and "certificados.pdf" not in html and "/pins/" not in html
        assert f"/organizar/{slug}/imprimir/" not in links
    else:
        assert f"/torneios/{slug}/chave.pdf" in links and f"/torneios/{slug}/classificacao.pdf" in links
    # every batch link answers with as many pages as the page says
    for link, pages in (
        (f"/organizar/{slug}/imprimir/sumulas.pdf?stage=grupos&round=2", 2),
        (f"/organizar/{slug}/imprimir/sumulas.pdf?stage=grupos", 6),
    ):
        assert pdf_pages(assert_pdf(client.get(link))) == pages


def test_the_organizers_print_page_has_the_ceremony_and_the_cards(cup, client):
    client.force_login(staff_user(cup, "comissao", StaffRole.ORGANIZER))
    links = _links(client.get(desk(cup.slug)).content.decode())
    for sheet in ("medalhas.pdf", "certificados.pdf"):
        assert f"/organizar/{cup.slug}/imprimir/{sheet}" in links
    assert f"/organizar/{cup.slug}/pins/" in links


def test_the_print_page_without_scheduled_jogos(cup, client, ref):
    Jogo.objects.filter(tournament=cup).update(status=Jogo.IN_PROGRESS)
    from tournaments.selectors import tournament_state_cache_clear

    tournament_state_cache_clear()
    html = ref.get(f"/organizar/{cup.slug}/arbitragem/").content.decode()
    assert "Nenhum jogo agendado agora" in html and "sumulas.pdf" not in html
    client.force_login(staff_user(cup, "comissao", StaffRole.ORGANIZER))
    html = client.get(desk(cup.slug)).content.decode()
    assert "Nenhum jogo agendado agora" in html and "sumulas.pdf" not in html
    assert f"/torneios/{cup.slug}/chave.pdf" in html


def test_the_print_page_names_the_third_place_jogo(load_file, client):
    from tournaments.synthetic import synthetic_tournament

    data = synthetic_tournament(duplas=8)
    data["jogos"] = data["jogos"][:-2]  # the final and the third-place jogo are not played yet
    tournament = load_file(data)
    scheduled = Jogo.objects.filter(tournament=tournament, status=Jogo.SCHEDULED)
    assert sorted(scheduled.values_list("third_place", flat=True)) == [False, True]
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    text = flat(re.sub(r"<[^>]+>", " ", client.get(desk(tournament.slug)).content.decode()))
    assert "Final · 2 súmulas" not in text
    assert "3º lugar" in text


# --- the dupla cards ------------------------------------------------------------------------------------------

PIN_SPACED = re.compile(r"(?<!\d)(\d{3}) (\d{3})(?!\d)")


def _cards_check(tournament, data: bytes) -> list[str]:
    """Two A4 pages (8 + 1 cards): every dupla's PIN (as "123 456") and its private link, in the duplas' order,
    and the QR codes say the private links. Returns the PINs."""
    duplas = list(
        Dupla.objects.filter(tournament=tournament).select_related("player1", "player2").order_by("order", "id")
    )
    links = [f"{SITE}/d/{d.token}/" for d in duplas]
    texts = pdf_text(data)
    assert len(texts) == 2 and footer_pages(texts) == [(1, 2), (2, 2)]
    whole = flat(" ".join(texts))
    pins = ["".join(m) for m in PIN_SPACED.findall(whole)]
    assert len(pins) == len(duplas) == 9
    for dupla, pin, link in zip(duplas, pins, links, strict=False):
        assert pin_check(dupla, pin), dupla.key
        assert link in whole
        assert dupla.player1.name in whole and dupla.player2.name in whole
    assert "Os Zapeiros" in whole and "PIN da dupla" in whole and "Copa dos Cartões" in whole
    assert all(FOOTER_WHEN.search(t) and "Copa dos Cartões · gerado em" in flat(t) for t in texts)
    assert [pin for pin in pins if f"{pin[:3]} {pin[3:]}" in texts[1]] == [pins[8]]  # the ninth card, alone
    assert sorted(qr_texts(data, 0)) == sorted(links[:8])
    assert qr_texts(data, 1) == [links[8]]
    return pins


def test_the_pin_page_gives_the_cards_as_a_pdf(load_file, client, settings):
    settings.SITE_URL = SITE
    tournament = load_file(cards_file())
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    url = f"/organizar/{tournament.slug}/pins/"
    batch = re.search(r'name="batch" value="([^"]+)"', client.get(url).content.decode()).group(1)
    response = client.post(url, {"confirm": "on", "batch": batch, "formato": "pdf"})
    assert response["Content-Disposition"] == 'attachment; filename="copa-cartoes-cartoes.pdf"'  # saved, not a tab
    response["Content-Disposition"] = response["Content-Disposition"].replace("attachment", "inline")
    data = assert_pdf(response, "copa-cartoes-cartoes.pdf")
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    pins = _cards_check(tournament, data)
    save_png(data, "cartoes")
    # the PINs were shown once: the page does not show them again, and a resent form makes no new ones
    later = client.get(url).content.decode()
    assert not any(pin in later or f"{pin[:3]} {pin[3:]}" in later for pin in pins)
    again = client.post(url, {"confirm": "on", "batch": batch, "formato": "pdf"})
    assert again["Content-Type"].startswith("text/html") and "já foram feitos" in again.content.decode()
    assert all(pin_check(d, p) for d, p in zip(tournament.duplas.order_by("order", "id"), pins, strict=False))


def test_one_action_gives_the_cards_on_the_page_and_the_pdf_of_the_same_pins(load_file, client, settings):
    """Issue 24, item 3: showing the cards and downloading their PDF used to make two batches of PINs."""
    import base64

    settings.SITE_URL = SITE
    tournament = load_file(cards_file())
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    url = f"/organizar/{tournament.slug}/pins/"
    batch = re.search(r'name="batch" value="([^"]+)"', client.get(url).content.decode()).group(1)
    html = client.post(url, {"confirm": "on", "batch": batch}).content.decode()
    on_page = re.findall(r'aria-label="PIN (\d{6})"', html)
    link = re.search(r'<a class="button" href="data:application/pdf;base64,([^"]+)" download="([^"]+)"', html)
    assert link is not None and link.group(2) == "copa-cartoes-cartoes.pdf"
    assert re.search(r"Baixar estes cartões em PDF \(\d+ KiB\)", html)
    in_pdf = _cards_check(tournament, base64.b64decode(link.group(1)))
    assert in_pdf == on_page and len(on_page) == 9  # one batch: the page and the PDF say the same PINs


def test_the_pin_page_without_confirmation_makes_no_new_cards(load_file, client):
    from tournaments.staff.pins import pins_reset

    tournament = load_file(cards_file())
    pins_reset(tournament=tournament)  # PINs handed out: new ones would replace them (the first ones ask nothing)
    hashes = list(tournament.duplas.order_by("id").values_list("pin_hash", flat=True))
    client.force_login(staff_user(tournament, "comissao", StaffRole.ORGANIZER))
    response = client.post(f"/organizar/{tournament.slug}/pins/", {"formato": "pdf"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert "Marque a confirmação" in response.content.decode()
    assert list(tournament.duplas.order_by("id").values_list("pin_hash", flat=True)) == hashes


def test_a_referee_cannot_make_the_cards(load_file, client):
    tournament = load_file(cards_file())
    client.force_login(staff_user(tournament, "arbitro"))
    response = client.post(f"/organizar/{tournament.slug}/pins/", {"confirm": "on", "formato": "pdf"})
    assert response.status_code == 403
    assert not tournament.duplas.exclude(pin_hash="").exists()


def test_the_command_writes_the_same_cards(load_file, tmp_path, settings):
    settings.SITE_URL = SITE
    tournament = load_file(cards_file())
    target = tmp_path / "cartoes.pdf"
    out, err = io.StringIO(), io.StringIO()
    call_command("dupla_pins", tournament.slug, "--reset", "--pdf", str(target), stdout=out, stderr=err)
    data = target.read_bytes()
    assert data.startswith(b"%PDF-") and "9 cartões" in err.getvalue()
    printed = dict(line.split(",") for line in out.getvalue().splitlines())
    pins = _cards_check(tournament, data)
    keys = list(tournament.duplas.order_by("order", "id").values_list("key", flat=True))
    assert [printed[k] for k in keys] == pins  # the cards say the PINs the command printed, in order


def test_the_card_hint_is_printed_in_full():
    from tournaments.printing.cards import card_labels, cards_pdf

    card = {
        "name": "Os Zapeiros",
        "players": ("Ana", "Bia"),
        "pin": "012345",
        "pin_spaced": "012 345",
        "link": f"{SITE}/d/abcdefghijklmnopqrstuv/",
    }
    text = flat(pdf_text(cards_pdf(tournament_name="Copa", cards=[card]))[0])
    assert "012 345" in text and card["link"] in text
    assert flat(card_labels(tournament_name="Copa")["hint"]) in text
