"""The name a staff person is shown by: asked on accepting the invitation, editable on /conta/, shown on the
programação, the Mesas page and the referee's list, and printed on the blank súmula (the username when no name)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.support.printing import assert_pdf, flat, page_jogo_keys, pdf_text
from tests.support.sumula import staff_user
from tournaments.models import Jogo, Mesa, StaffRole
from tournaments.selectors import tournament_state_cache_clear
from tournaments.staff.services import invitation_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(cup):
    return staff_user(cup, "comissao", StaffRole.ORGANIZER)


@pytest.fixture
def org_client(organizer):
    c = Client()
    c.force_login(organizer)
    return c


def _accept_as_new_account(cup, organizer, *, name: str, username: str) -> None:
    invitation_create(tournament=cup, email=f"{username}@exemplo.com", role=StaffRole.REFEREE, by=organizer)
    link = re.search(r"(/convites/[A-Za-z0-9_-]+/)", mail.outbox[-1].body).group(1)
    done = Client().post(
        link, {"name": name, "username": username, "password1": "Truco-Zap-2024!", "password2": "Truco-Zap-2024!"}
    )
    assert done.status_code == 302, done.content.decode()


def test_the_name_given_on_accepting_is_shown_on_the_desk_and_printed(cup, organizer, org_client):
    _accept_as_new_account(cup, organizer, name="Rita Bandeira", username="rita.b")
    rita = get_user_model().objects.get(username="rita.b")
    jogo = Jogo.objects.filter(tournament=cup, mesa__isnull=False).order_by("id").first()
    Mesa.objects.create(tournament=cup, number=jogo.mesa, referee=rita)
    nameless = staff_user(cup, "zeca")  # no name given: the username stands in on the desk
    Jogo.objects.filter(tournament=cup, mesa=jogo.mesa).exclude(pk=jogo.pk).update(referee=nameless)
    tournament_state_cache_clear()
    schedule = org_client.get(reverse("desk:schedule", args=[cup.slug]))
    rows = {r.id: r.referee for b in schedule.context["schedule"].blocks for r in b.rows}
    assert rows[jogo.id] == "Rita Bandeira"
    assert "zeca" in rows.values() and "rita.b" not in rows.values()
    assert re.search(r'<option value="\d+">Rita Bandeira</option>', schedule.content.decode())
    mesas = org_client.get(reverse("desk:mesas", args=[cup.slug]) + "?n=2").content.decode()
    assert re.search(r'<option value="\d+"[^>]*>Rita Bandeira</option>', mesas) and ">rita.b<" not in mesas
    assert re.search(r'<option value="\d+"[^>]*>zeca</option>', mesas)
    referee_list = org_client.get(f"/organizar/{cup.slug}/arbitragem/?todos=1").content.decode()
    assert "árbitro: Rita Bandeira" in referee_list and "árbitro: zeca" in referee_list
    # the blank súmula names her on the referee's line
    data = assert_pdf(org_client.get(f"/organizar/{cup.slug}/imprimir/sumulas.pdf"))
    sheets = dict(zip(page_jogo_keys(data), pdf_text(data), strict=True))
    assert "Rita Bandeira" in flat(sheets[jogo.key])


def test_a_signed_in_person_confirms_the_name_on_accepting_and_edits_it_later(cup, organizer):
    caio = get_user_model().objects.create_user("caio", "caio@exemplo.com", "senha-do-caio-123", first_name="Caio")
    invitation_create(tournament=cup, email="caio@exemplo.com", role=StaffRole.REFEREE, by=organizer)
    link = re.search(r"(/convites/[A-Za-z0-9_-]+/)", mail.outbox[-1].body).group(1)
    c = Client()
    c.force_login(caio)
    page = c.get(link).content.decode()
    assert re.search(r'name="name"[^>]*value="Caio"', page)  # what the account has, to confirm or complete
    assert c.post(link, {"name": "Caio Prado"}).status_code == 302
    caio.refresh_from_db()
    assert caio.get_full_name() == "Caio Prado"
    # /conta/: the person changes it later
    account = c.get(reverse("accounts:account"))
    assert account.status_code == 200 and 'value="Caio Prado"' in account.content.decode()
    assert c.post(reverse("accounts:account"), {"name": ""}).status_code == 200  # a name is needed
    done = c.post(reverse("accounts:account"), {"name": "Caio P. Prado"}, follow=True)
    assert "Nome salvo." in done.content.decode()
    caio.refresh_from_db()
    assert (caio.first_name, caio.last_name) == ("Caio P. Prado", "")
    desk = c.get(reverse("referee:list", args=[cup.slug])).content.decode()  # a referee: the arbitragem
    assert f'href="{reverse("accounts:account")}"' in desk


def test_the_account_page_needs_a_session():
    response = Client().get(reverse("accounts:account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("accounts:login"))
