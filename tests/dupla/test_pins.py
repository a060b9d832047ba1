"""Dupla PINs: 6 digits, only a hash stored, shown once (command and desk page); the cards PDF."""

import io
import re
import shutil
import subprocess

import pytest
from django.contrib.auth.hashers import check_password
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.urls import reverse

from tests.support.files import groups_file
from tournaments.models import AuditEntry, Dupla, ReplacedLink, StaffRole
from tournaments.staff.pins import pin_check, pin_reset, pins_reset, token_hash
from tournaments.staff.services import role_grant

pytestmark = pytest.mark.django_db

LINE = re.compile(r"^(d\d+),(\d{6})$")
EMPTY = {
    "format": "truco-torneio",
    "version": 1,
    "tournament": {"name": "Vazio", "slug": "vazio", "preset": "aabb"},
    "players": [],
    "duplas": [],
    "stages": [],
    "jogos": [],
}


@pytest.fixture
def cup(load_file):
    return load_file(groups_file(slug="copa-pins"))


def _pins_command(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("dupla_pins", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _raw_rows(cup) -> str:
    """Every column of every dupla row, as the database holds them."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Dupla._meta.db_table} WHERE tournament_id = %s", [cup.pk])
        return repr(cursor.fetchall())


def test_pins_reset_stores_only_hashes_and_pin_check_knows_them(cup):
    pins = pins_reset(tournament=cup, by=None)
    keys = Dupla.objects.filter(tournament=cup).order_by("order", "id").values_list("key", flat=True)
    assert list(pins) == list(keys)
    assert all(re.fullmatch(r"\d{6}", pin) for pin in pins.values())
    raw = _raw_rows(cup)
    for key, pin in pins.items():
        dupla = Dupla.objects.get(tournament=cup, key=key)
        assert dupla.pin_hash.startswith("pbkdf2_sha256$") and pin not in dupla.pin_hash
        assert f"'{pin}'" not in raw
        assert check_password(pin, dupla.pin_hash) and pin_check(dupla, pin)
        wrong = f"{(int(pin) + 1) % 10**6:06d}"
        assert not pin_check(dupla, wrong)
    entry = AuditEntry.objects.get(tournament=cup, action="pins_reset")
    assert entry.summary == "PINs das duplas feitos"  # the first PINs of the event (review #5)
    assert not any(pin in repr((entry.summary, entry.before, entry.after)) for pin in pins.values())
    pins_reset(tournament=cup, by=None)
    again = AuditEntry.objects.filter(tournament=cup, action="pins_reset").order_by("-id").first()
    assert again.summary == "PINs das duplas refeitos"


def test_a_wrong_pin_costs_the_pins_rounds_only(cup, monkeypatch, settings):
    """A wrong PIN is hashed once, at the PIN's count of rounds, not also at the accounts' (harden_runtime)."""
    from django.contrib.auth import hashers

    from tournaments.staff.pins import PinHasher

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the accounts', as deployed

    pins = pins_reset(tournament=cup, by=None)
    dupla = cup.duplas.first()
    dupla.refresh_from_db()
    rounds: list[int] = []
    real = hashers.pbkdf2

    def counted(password, salt, iterations, *args, **kwargs):
        rounds.append(iterations)
        return real(password, salt, iterations, *args, **kwargs)

    monkeypatch.setattr(hashers, "pbkdf2", counted)
    assert not pin_check(dupla, f"{(int(pins[dupla.key]) + 1) % 10**6:06d}")
    assert rounds == [PinHasher.iterations]
    assert pin_check(dupla, pins[dupla.key]) and rounds == [PinHasher.iterations] * 2


def test_pin_check_refuses_what_is_not_a_pin(cup):
    dupla = cup.duplas.first()
    assert not pin_check(dupla, "123456")  # no PIN made yet
    pins = pins_reset(tournament=cup)
    pin = pins[dupla.key]
    dupla.refresh_from_db()
    assert pin_check(dupla, f" {pin} ")
    for bad in ("", None, pin[:5], pin + "0", "abcdef", "١٢٣٤٥٦"):
        assert not pin_check(dupla, bad)


def test_new_pins_replace_the_old_ones(cup):
    first = pins_reset(tournament=cup)
    second = pins_reset(tournament=cup)
    changed = [k for k in first if first[k] != second[k]]
    for key in changed:
        dupla = Dupla.objects.get(tournament=cup, key=key)
        assert not pin_check(dupla, first[key]) and pin_check(dupla, second[key])
    assert len(changed) >= len(first) - 1  # (two equal 6-digit draws in a row: one in a million each)


def test_the_command_prints_key_pin_lines_in_dupla_order(cup):
    out, _err = _pins_command("copa-pins", "--reset")
    lines = out.splitlines()
    keys = list(Dupla.objects.filter(tournament=cup).order_by("order", "id").values_list("key", flat=True))
    assert [LINE.match(line).group(1) for line in lines] == keys
    for line in lines:
        key, pin = line.split(",")
        assert pin_check(Dupla.objects.get(tournament=cup, key=key), pin)
        assert pin not in _raw_rows(cup)


@pytest.mark.parametrize(
    "args, message",
    [
        (("copa-pins",), "só são mostrados quando são feitos"),
        (("nao-existe", "--reset"), "torneio 'nao-existe' não encontrado"),
        (("copa-pins", "--reset", "--pdf", "/nao/existe/cartoes.pdf"), "não existe"),
    ],
)
def test_the_command_refuses_and_changes_nothing(cup, args, message):
    pins_reset(tournament=cup)
    hashes = list(cup.duplas.order_by("id").values_list("pin_hash", flat=True))
    with pytest.raises(CommandError, match=message):
        _pins_command(*args)
    assert list(cup.duplas.order_by("id").values_list("pin_hash", flat=True)) == hashes


def test_a_tournament_without_duplas_has_no_pins(load_file):
    load_file(EMPTY)
    with pytest.raises(CommandError, match="ainda não tem duplas"):
        _pins_command("vazio", "--reset")


def test_the_pdf_has_a_card_per_dupla_with_pin_link_and_qr(cup, tmp_path, settings):
    settings.SITE_URL = "https://truco.exemplo.org"
    target = tmp_path / "cartoes.pdf"
    out, err = _pins_command("copa-pins", "--reset", "--pdf", str(target))
    data = target.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF") and len(data) > 3000
    assert "7 cartões" in err and len(out.splitlines()) == 7
    pdftotext = shutil.which("pdftotext")
    if pdftotext:  # poppler-utils: read the text back
        text = subprocess.run(
            [pdftotext, "-layout", str(target), "-"], capture_output=True, text=True, timeout=30
        ).stdout
        assert "Copa Demo de Truco" in text and "Os Zapeiros" in text
        for line in out.splitlines():
            _key, pin = line.split(",")
            assert f"{pin[:3]} {pin[3:]}" in text
        for dupla in cup.duplas.all():
            assert f"https://truco.exemplo.org/d/{dupla.token}/" in text
        pages = subprocess.run(["pdfinfo", str(target)], capture_output=True, text=True, timeout=30).stdout
        assert re.search(r"Pages:\s+1\b", pages)  # 7 cards: one A4 page of 8


def test_the_pdf_is_paged_by_eight(cup):
    from tournaments.printing.cards import cards_pdf

    card = {
        "name": "Dupla Muito Comprida de Nome " * 3,
        "players": ("Ana", "Bia"),
        "pin": "012345",
        "pin_spaced": "012 345",
        "link": "http://127.0.0.1:8000/d/abcdefghijklmnopqrstuv/",
    }
    data = cards_pdf(tournament_name="Copa", cards=[card] * 17)
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type /Page\b(?!s)", data)) == 3  # 8 + 8 + 1


# --- the desk page ----------------------------------------------------------------------------


@pytest.fixture
def organizer(cup, django_user_model):
    ana = django_user_model.objects.create_user("ana", password="senha-da-ana-123")
    role_grant(tournament=cup, user=ana, role=StaffRole.ORGANIZER)
    return ana


def _url(cup):
    return reverse("desk:pins", kwargs={"slug": cup.slug})


def test_the_desk_page_explains_then_shows_the_pins_once(client, cup, organizer):
    client.force_login(organizer)
    page = client.get(_url(cup))
    text = page.content.decode()
    # the first time no dupla has a PIN: nothing stops working, so no confirmation is asked (review #5)
    assert page.status_code == 200 and "uma única vez" in text and 'name="confirm"' not in text
    assert "Fazer os PINs e ver os cartões" in text and 'id="cartao-perdido"' not in text
    assert "no-store" in page["Cache-Control"]

    batch = re.search(r'name="batch" value="([^"]+)"', text).group(1)
    cards = client.post(_url(cup), {"batch": batch})
    html = cards.content.decode()
    assert cards.status_code == 200 and "no-store" in cards["Cache-Control"]
    assert "Estes PINs aparecem só agora" in html
    pins = re.findall(r'aria-label="PIN (\d{6})"', html)
    assert len(pins) == 7 and html.count("<svg") == 7
    for dupla in cup.duplas.all():
        assert f"/d/{dupla.token}/" in html
    in_order = list(cup.duplas.order_by("order", "id"))
    assert all(pin_check(d, p) for d, p in zip(in_order, pins, strict=False))  # cards in the duplas' order

    assert AuditEntry.objects.get(tournament=cup, action="pins_reset").summary == "PINs das duplas feitos"

    later = client.get(_url(cup)).content.decode()
    assert not any(pin in later for pin in pins) and "7 com PIN feito" in later
    # now the PINs handed out would stop working: new ones only with the confirmation
    assert 'name="confirm"' in later and "Fazer PINs novos e ver os cartões" in later and 'id="cartao-perdido"' in later
    fresh = re.search(r'name="batch" value="([^"]+)"', later).group(1)
    refused = client.post(_url(cup), {"batch": fresh})
    assert refused.status_code == 200 and "Marque a confirmação" in refused.content.decode()
    assert all(pin_check(d, p) for d, p in zip(cup.duplas.order_by("order", "id"), pins, strict=False))
    # the browser resends the same form (reload, back): the PINs just printed stay valid
    again = client.post(_url(cup), {"confirm": "on", "batch": batch})
    assert "já foram feitos" in again.content.decode()
    assert not any(pin in again.content.decode() for pin in pins)
    assert all(pin_check(d, p) for d, p in zip(cup.duplas.order_by("order", "id"), pins, strict=False))


def test_the_desk_page_without_duplas_has_no_button(client, load_file, django_user_model):
    empty = load_file(EMPTY)
    ana = django_user_model.objects.create_user("ana2", password="senha-da-ana-123")
    role_grant(tournament=empty, user=ana, role=StaffRole.ORGANIZER)
    client.force_login(ana)
    page = client.get(_url(empty)).content.decode()
    assert "ainda não tem duplas" in page and 'name="confirm"' not in page
    assert client.post(_url(empty), {"confirm": "on"}).status_code == 200
    assert not AuditEntry.objects.filter(tournament=empty, action="pins_reset").exists()


# --- new PINs rotate the private links; one dupla alone (a lost card) ----------------------------------------


def _tokens(cup) -> dict[str, str]:
    return dict(cup.duplas.values_list("key", "token"))


def test_a_full_reset_rotates_every_private_link_and_the_old_ones_answer_410(client, cup):
    pins_reset(tournament=cup)
    before = _tokens(cup)
    pins_reset(tournament=cup)
    after = _tokens(cup)
    assert set(before) == set(after) and all(before[k] != after[k] for k in before)
    for key, token in before.items():
        old = client.get(f"/d/{token}/")
        assert old.status_code == 410, key
        assert "este link foi substituído: peça o cartão novo à organização" in old.content.decode().lower()
        assert old["Referrer-Policy"] == "no-referrer" and "private" in old["Cache-Control"]
        assert client.get(f"/d/{after[key]}/").status_code == 200
    assert not ReplacedLink.objects.filter(token_hash__in=list(before.values())).exists()  # only hashes kept
    assert ReplacedLink.objects.filter(token_hash=token_hash(before["d1"]), dupla__key="d1").exists()


def test_the_command_without_dupla_still_resets_all_and_rotates_the_links(cup):
    before = _tokens(cup)
    out, _err = _pins_command("copa-pins", "--reset")
    assert len(out.splitlines()) == 7 and all(LINE.match(line) for line in out.splitlines())
    after = _tokens(cup)
    assert all(before[k] != after[k] for k in before)


def test_pin_reset_of_one_dupla_rotates_its_pin_and_link_only(cup, organizer):
    first = pins_reset(tournament=cup)
    before = _tokens(cup)
    d1 = cup.duplas.get(key="d1")
    pin = pin_reset(tournament=cup, dupla=d1, by=organizer)
    after = _tokens(cup)
    assert after["d1"] != before["d1"] and d1.token == after["d1"]
    assert {k: v for k, v in after.items() if k != "d1"} == {k: v for k, v in before.items() if k != "d1"}
    d1.refresh_from_db()
    assert pin_check(d1, pin) and (pin == first["d1"] or not pin_check(d1, first["d1"]))
    for key in first:
        if key != "d1":
            assert pin_check(cup.duplas.get(key=key), first[key])
    entry = AuditEntry.objects.get(tournament=cup, action="pin_reset")
    assert entry.user == organizer and entry.after == {"dupla": "d1"} and pin not in repr(entry.after)


def test_the_command_resets_one_dupla(cup):
    first = pins_reset(tournament=cup)
    before = _tokens(cup)
    out, _err = _pins_command("copa-pins", "--reset", "--dupla", "d2")
    [line] = out.splitlines()
    key, pin = LINE.match(line).groups()
    assert key == "d2" and pin_check(cup.duplas.get(key="d2"), pin)
    after = _tokens(cup)
    assert [k for k in before if before[k] != after[k]] == ["d2"]
    assert pin_check(cup.duplas.get(key="d1"), first["d1"])
    with pytest.raises(CommandError, match="não tem essa dupla"):
        _pins_command("copa-pins", "--reset", "--dupla", "nao-existe")
    assert _tokens(cup) == after


def test_the_desk_page_resets_one_dupla_and_shows_its_card(client, cup, organizer):
    pins_reset(tournament=cup)
    before = _tokens(cup)
    client.force_login(organizer)
    page = client.get(_url(cup)).content.decode()
    assert "Refazer o PIN desta dupla (cartão perdido)" in page and 'id="one_dupla"' in page
    refused = client.post(_url(cup), {"dupla": "d3"})
    assert refused.status_code == 200 and "o PIN e o link atuais da dupla deixam de valer" in refused.content.decode()
    assert _tokens(cup) == before
    batch = re.search(r'name="batch" value="([^"]+)" id="one_batch"', page).group(1)
    r = client.post(_url(cup), {"dupla": "d3", "confirm_one": "on", "batch": batch})
    html = r.content.decode()
    after = _tokens(cup)
    assert [k for k in before if before[k] != after[k]] == ["d3"]
    [pin] = re.findall(r'aria-label="PIN (\d{6})"', html)
    assert pin_check(cup.duplas.get(key="d3"), pin) and f"/d/{after['d3']}/" in html
    assert f"/d/{before['d3']}/" not in html and "no-store" in r["Cache-Control"]
    again = client.post(_url(cup), {"dupla": "d3", "confirm_one": "on", "batch": batch})
    assert "já foi refeito" in again.content.decode() and _tokens(cup) == after
    assert client.get(f"/d/{before['d3']}/").status_code == 410


def test_one_duplas_first_pin_is_made_not_remade(cup, organizer):
    d1 = cup.duplas.get(key="d1")
    pin_reset(tournament=cup, dupla=d1, by=organizer)
    pin_reset(tournament=cup, dupla=d1, by=organizer)
    summaries = list(
        AuditEntry.objects.filter(tournament=cup, action="pin_reset").order_by("id").values_list("summary", flat=True)
    )
    name = d1.display_name  # the history names the dupla as people know it, not by its key
    assert summaries == [f"PIN e link privado da dupla {name} feitos", f"PIN e link privado da dupla {name} refeitos"]
