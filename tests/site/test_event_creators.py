"""Issue 21, item 3: who may create events is a site setting (ZAP_EVENT_CREATORS, ZAP_EVENTS_PER_ACCOUNT)."""

import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.models import Tournament
from tournaments.permissions import may_create_tournament
from tournaments.setup.services import tournament_create, tournament_upload

User = get_user_model()
NEW = {"starter": "aabb", "name": "Copa Teste", "date": "2030-05-01", "venue": "Clube"}


@pytest.fixture
def plain(db):
    return User.objects.create_user("qualquer")


@pytest.fixture
def staff(db):
    return User.objects.create_user("organizadora", is_staff=True)


def test_by_default_a_plain_account_may_not_create_events(client, plain, settings):
    assert settings.ZAP_EVENT_CREATORS == "staff"
    assert not may_create_tournament(user=plain)
    client.force_login(plain)
    for url in (reverse("desk:new"), reverse("desk:upload")):
        response = client.get(url)
        assert response.status_code == 403 and "administrador" in response.content.decode(), url
    response = client.post(reverse("desk:new"), NEW)
    assert response.status_code == 403 and not Tournament.objects.exists()
    assert "Criar torneio" not in client.get(reverse("desk:home")).content.decode()
    with pytest.raises(PermissionDenied):
        tournament_create(user=plain, starter="aabb", name="Copa", date=datetime.date(2030, 5, 1))
    with pytest.raises(PermissionDenied):
        tournament_upload(user=plain, data={})
    assert not Tournament.objects.exists()


def test_staff_accounts_create_events(client, staff):
    client.force_login(staff)
    assert "Criar torneio" in client.get(reverse("desk:home")).content.decode()
    response = client.post(reverse("desk:new"), NEW)
    assert response.status_code == 302 and Tournament.objects.filter(created_by=staff).count() == 1


def test_open_sign_up_limits_events_per_account(client, plain, settings):
    settings.ZAP_EVENT_CREATORS, settings.ZAP_EVENTS_PER_ACCOUNT = "anyone", 2
    client.force_login(plain)
    assert client.post(reverse("desk:new"), NEW).status_code == 302
    assert client.post(reverse("desk:new"), NEW).status_code == 302
    third = client.post(reverse("desk:new"), NEW)
    assert third.status_code == 403 and "limite" in third.content.decode()
    assert Tournament.objects.count() == 2
    t = Tournament.objects.first()
    duplicate = client.post(reverse("desk:duplicate", args=[t.slug]))
    assert duplicate.status_code == 403 and Tournament.objects.count() == 2
    upload = client.post(reverse("desk:upload"), {"file": SimpleUploadedFile("t.json", json.dumps({}).encode())})
    assert upload.status_code == 403


# --- a tournament file uploaded through the site grants no role ---


def _upload(client, data):
    return client.post(
        reverse("desk:upload"), {"file": SimpleUploadedFile("t.json", json.dumps(data).encode())}, follow=True
    )


def test_an_uploaded_file_does_not_make_an_existing_account_referee(client, staff):
    from tests.support.files import base_file
    from tournaments.models import Jogo, StaffRole

    root = User.objects.create_superuser("root", "root@example.com", "x")
    client.force_login(staff)
    data = base_file()
    data["jogos"][0]["referee"] = "root"
    data["jogos"][1]["referee"] = "ninguem-com-este-nome"  # unknown: the same answer as a known one
    response = _upload(client, data)
    t = Tournament.objects.get()
    assert response.status_code == 200
    page = response.content.decode()
    assert "2 jogos do arquivo nomeavam um árbitro" in page and "root" not in page and "ninguem" not in page
    assert not StaffRole.objects.filter(tournament=t, user=root).exists()
    assert set(StaffRole.objects.filter(tournament=t).values_list("user__username", "role")) == {
        ("organizadora", "organizer")
    }
    assert not Jogo.objects.filter(tournament=t, referee__isnull=False).exists()


def test_the_operator_command_still_grants_referees(db, tmp_path):
    from django.core.management import call_command

    from tests.support.files import base_file
    from tournaments.models import StaffRole

    User.objects.create_user("arbitra")
    data = base_file()
    data["jogos"][0]["referee"] = "arbitra"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    call_command("import_tournament", str(path), verbosity=0)
    assert StaffRole.objects.filter(user__username="arbitra", role="referee").exists()


SIGNUP = {
    "username": "nova-comissao",
    "email": "comissao@clube.org",
    "password1": "truco-na-praca-2030",
    "password2": "truco-na-praca-2030",
}


def test_the_organizers_sign_up_is_closed_by_default(client, db, settings):
    assert settings.ZAP_EVENT_CREATORS == "staff"
    assert client.get("/conta/nova/").status_code == 404
    assert client.post("/conta/nova/", SIGNUP).status_code == 404 and not User.objects.exists()
    assert "/conta/nova/" not in client.get(reverse("accounts:login")).content.decode()


def test_an_open_sign_up_makes_an_account_that_creates_its_event(client, db, settings):
    settings.ZAP_EVENT_CREATORS = "anyone"
    assert "/conta/nova/" in client.get(reverse("accounts:login")).content.decode()
    assert client.get("/conta/nova/").status_code == 200
    mismatch = client.post("/conta/nova/", SIGNUP | {"password2": "outra-senha-2030"})
    assert mismatch.status_code == 200 and not User.objects.exists()
    response = client.post("/conta/nova/", SIGNUP, REMOTE_ADDR="198.51.100.20")
    assert response.status_code == 302 and response["Location"] == reverse("desk:new")
    user = User.objects.get(username="nova-comissao")
    assert user.email == "comissao@clube.org" and not user.is_staff and user.check_password(SIGNUP["password1"])
    assert client.post(reverse("desk:new"), NEW).status_code == 302
    assert Tournament.objects.get().created_by == user


def test_the_open_sign_up_is_throttled_per_address(client, db, settings):
    settings.ZAP_EVENT_CREATORS, settings.ZAP_SIGNUPS_PER_HOUR = "anyone", 2
    for n in range(2):
        other = type(client)(REMOTE_ADDR="198.51.100.30")
        assert other.post("/conta/nova/", SIGNUP | {"username": f"conta{n}"}).status_code == 302
    third = type(client)(REMOTE_ADDR="198.51.100.30").post("/conta/nova/", SIGNUP | {"username": "conta3"})
    assert third.status_code == 429 and "Muitas contas" in third.content.decode()
    assert not User.objects.filter(username="conta3").exists()
    elsewhere = type(client)(REMOTE_ADDR="198.51.100.31").post("/conta/nova/", SIGNUP | {"username": "conta4"})
    assert elsewhere.status_code == 302


# --- the first account of a new site (issue 24, item 7) ---


def test_the_first_organizer_is_made_by_one_command_and_creates_an_event(client, db):
    import io
    import re

    from django.core.management import call_command

    out = io.StringIO()
    call_command("organizer_add", "primeira", "--email", "comissao@clube.org", stdout=out)
    password = re.search(r"senha gerada para primeira .*: (\S+)$", out.getvalue().strip()).group(1)
    assert client.login(username="primeira", password=password)
    response = client.post(reverse("desk:new"), NEW)
    assert response.status_code == 302
    t = Tournament.objects.get(name="Copa Teste")
    assert response["Location"].startswith(f"/organizar/{t.slug}/")
    assert User.objects.get(username="primeira").email == "comissao@clube.org"


def test_the_organizer_command_keeps_an_existing_password_and_refuses_a_bad_email(db, monkeypatch):
    import io

    from django.core.management import CommandError, call_command

    User.objects.create_user("antiga", password="a-senha-de-sempre-2030")
    out = io.StringIO()
    call_command("organizer_add", "antiga", stdout=out)
    user = User.objects.get(username="antiga")
    assert user.is_staff and user.check_password("a-senha-de-sempre-2030")
    assert "senha gerada" not in out.getvalue() and "conta existente" in out.getvalue()
    with pytest.raises(CommandError, match="e-mail 'sem-arroba' inválido"):
        call_command("organizer_add", "outra", "--email", "sem-arroba")
    assert not User.objects.filter(username="outra").exists()
    monkeypatch.setenv("ZAP_PASSWORD", "escolhida-pelo-operador-2030")
    call_command("organizer_add", "escolhida", stdout=io.StringIO())
    assert User.objects.get(username="escolhida").check_password("escolhida-pelo-operador-2030")


@pytest.mark.django_db(transaction=True)
def test_creations_at_once_stop_at_the_limit_per_account(shared_db_url):
    """Issue 41, item 5: 8 creations by one account at once made 6 events against a limit of 5 (the count was read
    before the creating transaction). Threads released together, three rounds, each with a new account."""
    from tests.support.races import THREADS, race

    out = race(shared_db_url, "creations", ZAP_EVENT_CREATORS="anyone", ZAP_EVENTS_PER_ACCOUNT="5")
    assert out["limit"] == 5
    for outcome in out["rounds"]:
        assert outcome == {"results": {"created": 5, "refused": THREADS - 5}, "stored": 5}
