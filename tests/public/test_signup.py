"""The public sign-up (/torneios/<slug>/inscricao/): checks, confirmation, waiting list, bots, closed."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.registrations import tournament_make
from tournaments.models import AuditEntry, Player, Registration
from tournaments.public.signup import SIGNUPS_PER_HOUR

pytestmark = pytest.mark.django_db


def form(name="Ana Souza", **extra):
    data = {
        "kind": "individual",
        "name": name,
        "birth_date": "1987-03-14",
        "phone": "(11) 98888-7777",
        "email": "",
        "website": "",
    }
    data.update(extra)
    return data


def signup_url(t):
    return reverse("tournaments:signup", args=[t.slug])


def test_form_page(client):
    t = tournament_make()
    response = client.get(signup_url(t))
    body = response.content.decode()
    assert response.status_code == 200 and 'name="csrfmiddlewaretoken"' in body
    assert 'class="honeypot"' in body and 'name="website"' in body
    assert "Idade mínima: 18 anos" in body


def test_success_shows_the_position_on_a_signed_page(client):
    t = tournament_make()
    client.post(signup_url(t), form("Primeira Pessoa"))
    response = client.post(signup_url(t), form())
    assert response.status_code == 302
    reg = Registration.objects.get(tournament=t, order=2)
    assert reg.source == Registration.FORM and str(reg) == "Ana Souza"
    page = client.get(response["Location"])
    body = page.content.decode()
    assert page.status_code == 200 and "Sua inscrição é a 2ª por ordem de chegada." in body
    assert "Inscrição aceita" in body and "1987" not in body and "98888" not in body
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    # the token cannot be changed to see another registration
    other = reverse("tournaments:signup_done", args=[t.slug, token[:-2] + ("AA" if token[-2:] != "AA" else "BB")])
    assert client.get(other).status_code == 404
    assert client.get(reverse("tournaments:signup_done", args=[t.slug, "1"])).status_code == 404


def test_pair_signup(client):
    t = tournament_make()
    response = client.post(signup_url(t), form(kind="pair", partner_name="Bruno Lima", partner_birth_date="1988-01-01"))
    assert response.status_code == 302
    assert str(Registration.objects.get(tournament=t)) == "Ana Souza + Bruno Lima"
    # partner data typed and then "sozinho(a)" chosen: only the first player is registered
    client.post(signup_url(t), form("Caio", kind="individual", partner_name="Fantasma", partner_birth_date="x"))
    assert not Player.objects.filter(name="Fantasma").exists() and Player.objects.filter(name="Caio").exists()


def test_waiting_list_place_beyond_the_limit(client):
    t = tournament_make(max_duplas=1)
    client.post(signup_url(t), form("A Um"))
    client.post(signup_url(t), form("B Dois"))
    response = client.post(signup_url(t), form("C Tres"), follow=True)
    body = response.content.decode()
    assert "Sua inscrição é a 3ª por ordem de chegada." in body
    assert "você está na lista de espera, em 1º lugar" in body


def test_checks_age_duplicate_contact(client):
    t = tournament_make()
    client.post(signup_url(t), form())
    for data, message in [
        (form("ana  souza"), "já está inscrito(a) neste torneio"),
        (form("Kid", birth_date="2010-01-01"), "a idade mínima é 18 anos"),
        (form("Sem Contato", phone=""), "informe um telefone ou um e-mail"),
        (form("Sem Data", birth_date=""), "o torneio tem idade mínima de 18 anos"),
        (form("Par", kind="pair"), "Informe o nome do(a) parceiro(a)."),
    ]:
        response = client.post(signup_url(t), data)
        assert response.status_code == 200 and message in response.content.decode(), message
    assert Registration.objects.filter(tournament=t).count() == 1


def test_honeypot_pretends_success_and_writes_nothing(client):
    t = tournament_make()
    response = client.post(signup_url(t), form(website="http://spam.example"))
    assert response.status_code == 200 and "Inscrição recebida" in response.content.decode()
    assert not Registration.objects.exists() and not Player.objects.exists() and not AuditEntry.objects.exists()


def test_rate_limit_per_address(client):
    t = tournament_make(max_duplas=None)
    for i in range(SIGNUPS_PER_HOUR):
        assert client.post(signup_url(t), form(f"Pessoa {i}"), REMOTE_ADDR="10.1.1.1").status_code == 302
    response = client.post(signup_url(t), form("Uma A Mais"), REMOTE_ADDR="10.1.1.1")
    assert response.status_code == 429 and "Muitas inscrições" in response.content.decode()
    assert Registration.objects.count() == SIGNUPS_PER_HOUR
    # another address is not limited; an hour later the first one may sign up again
    assert client.post(signup_url(t), form("Outro Lugar"), REMOTE_ADDR="10.2.2.2").status_code == 302
    AuditEntry.objects.update(at=timezone.now() - timedelta(hours=2))
    assert client.post(signup_url(t), form("Uma A Mais"), REMOTE_ADDR="10.1.1.1").status_code == 302
    # the address itself is not stored
    assert not any("10.1.1.1" in str(e.after) for e in AuditEntry.objects.all())


def test_closed_and_off(client):
    t = tournament_make(registration_closed=True)
    response = client.get(signup_url(t))
    assert response.status_code == 200 and "Inscrições encerradas" in response.content.decode()
    assert client.post(signup_url(t), form()).status_code == 200 and not Registration.objects.exists()
    later = tournament_make(slug="depois", registration_opens=timezone.now() + timedelta(days=3))
    assert "abrem em" in client.get(signup_url(later)).content.decode()
    off = tournament_make(slug="sem-site", public_signup=False)
    assert client.get(signup_url(off)).status_code == 404
    assert client.get("/torneios/nao-existe/inscricao/").status_code == 404


def test_closing_between_page_and_submit(client):
    t = tournament_make()
    client.get(signup_url(t))
    t.registration_closes = timezone.now() - timedelta(minutes=1)
    t.save()
    response = client.post(signup_url(t), form())
    assert response.status_code == 200 and "Inscrições encerradas" in response.content.decode()
    assert not Registration.objects.exists()


def test_confirmation_page_does_not_leak_private_data(client):
    t = tournament_make()
    response = client.post(signup_url(t), form(email="ana@exemplo.com"), follow=True)
    body = response.content.decode()
    assert "ana@exemplo.com" not in body and "14/03/1987" not in body
    assert re.search(r"/torneios/aabb-2024/inscricao/confirmada/[^/]+/", response.redirect_chain[0][0])
