"""An invitation is a link sent to an address, not a bearer token: the page shows that address, only an account with
it accepts, and any other account holding the link may only ask; an organizer of the tournament confirms (the role
goes to the account that asked) or refuses."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.support.desk import client_for, make_tournament, make_user
from tournaments.models import AuditEntry, StaffInvitation, StaffRole
from tournaments.permissions import may_accept_invitation, role_of
from tournaments.staff.services import (
    invitation_accept,
    invitation_claim,
    invitation_claim_confirm,
    invitation_create,
)

pytestmark = pytest.mark.django_db

REF = StaffRole.REFEREE


def _account(username: str, email: str):
    return get_user_model().objects.create_user(username, email, "senha-forte-123")


@pytest.fixture
def invited(settings):
    """ana organizes the cup and invited juiza@exemplo.com as referee: (cup, ana, the link's path)."""
    settings.SITE_URL = "https://truco.exemplo.org"
    cup = make_tournament("copa-convite")
    ana = make_user("ana", cup)
    invitation_create(tournament=cup, email="Juiza@Exemplo.com", role=REF, by=ana)
    path = re.search(r"https://truco\.exemplo\.org(/convites/[A-Za-z0-9_-]+/)", mail.outbox[-1].body).group(1)
    return cup, ana, path


@given(st.emails(), st.sampled_from([str.upper, str.lower, str.title, lambda e: f"  {e} "]))
def test_an_address_matches_itself_whatever_its_case_and_spaces(email, spell):
    user = get_user_model()(username="x", email=spell(email))
    assert may_accept_invitation(user=user, email=email)
    assert not may_accept_invitation(user=user, email="outra." + email)
    assert not may_accept_invitation(user=get_user_model()(username="y", email=""), email=email)


def test_the_page_shows_the_address_and_the_account_with_it_accepts(invited):
    cup, _ana, path = invited
    juiza = _account("juiza", "juiza@exemplo.com")
    anonymous = Client().get(path).content.decode()
    assert "O convite foi enviado para <strong><bdi>Juiza@Exemplo.com</bdi></strong>" in anonymous
    assert "A conta nova terá o e-mail" in anonymous
    c = client_for(juiza)
    page = c.get(path).content.decode()
    assert "Juiza@Exemplo.com" in page and "a conta desse e-mail" in page and "Aceitar o convite" in page
    assert c.post(path, {"name": "Juíza Lima"}).status_code == 302
    assert role_of(user=juiza, tournament=cup) == REF


def test_another_account_holding_the_link_only_asks_and_gets_nothing(invited):
    cup, _ana, path = invited
    caio = _account("caio", "caio@outro.com")
    c = client_for(caio)
    page = c.get(path).content.decode()
    assert "Juiza@Exemplo.com" in page and "uma conta com outro e-mail (<bdi>caio@outro.com</bdi>)" in page
    assert "Aceitar o convite" not in page and "Pedir à comissão para confirmar" in page
    assert "Sair e usar outra conta" in page
    asked = c.post(path, {"name": "Caio Prado"})
    assert asked.status_code == 302 and asked["Location"] == path
    assert role_of(user=caio, tournament=cup) is None
    invitation = StaffInvitation.objects.get()
    assert invitation.claimed_by == caio and invitation.accepted_at is None
    assert AuditEntry.objects.filter(tournament=cup, action="staff_invite_claim", user=caio).exists()
    again = c.get(path).content.decode()
    assert "está com a comissão organizadora desde" in again and "Pedir à comissão" not in again
    # the service refuses too, whatever the page showed
    with pytest.raises(ValidationError, match="enviado para Juiza@Exemplo.com, e a sua conta tem outro e-mail"):
        invitation_accept(token=path.strip("/").rsplit("/", 1)[1], user=caio)
    nobody = _account("semmail", "")
    with pytest.raises(ValidationError) as refused:
        invitation_accept(token=path.strip("/").rsplit("/", 1)[1], user=nobody)
    assert refused.value.code == "other_email"
    assert not StaffRole.objects.filter(user__in=[caio, nobody]).exists()


def test_an_organizer_confirms_the_request_and_the_role_goes_to_the_account_that_asked(invited):
    cup, ana, path = invited
    caio = _account("caio", "caio@outro.com")
    caio.first_name = "Caio Prado"
    caio.save()
    client_for(caio).post(path, {"name": "Caio Prado"})
    desk = client_for(ana)
    staff = desk.get(reverse("desk:staff", args=[cup.slug])).content.decode()
    assert "Caio Prado (caio)</bdi> pediu para aceitar este convite" in staff
    assert "A conta tem outro e-mail: <bdi>caio@outro.com</bdi>" in staff
    invitation = StaffInvitation.objects.get()
    done = desk.post(
        reverse("desk:invitation_confirm", args=[cup.slug]), {"invitation": invitation.pk, "user": caio.pk}, follow=True
    )
    assert "Caio Prado (caio) entrou na equipe (árbitro) com o convite enviado a Juiza@Exemplo.com." in (
        done.content.decode()
    )
    assert role_of(user=caio, tournament=cup) == REF
    invitation.refresh_from_db()
    assert invitation.accepted_by == caio and invitation.accepted_at is not None
    assert AuditEntry.objects.filter(tournament=cup, action="staff_invite_confirm", user=ana).exists()
    assert Client().get(path).status_code == 410  # the link is used up
    assert client_for(caio).get(reverse("referee:list", args=[cup.slug])).status_code == 200


def test_a_refused_request_leaves_the_invitation_for_its_address(invited):
    cup, ana, path = invited
    caio = _account("caio", "caio@outro.com")
    client_for(caio).post(path, {"name": "Caio"})
    invitation = StaffInvitation.objects.get()
    desk = client_for(ana)
    done = desk.post(
        reverse("desk:invitation_refuse", args=[cup.slug]), {"invitation": invitation.pk, "user": caio.pk}, follow=True
    )
    assert "Pedido de Caio (caio) recusado: o convite continua esperando Juiza@Exemplo.com." in done.content.decode()
    invitation.refresh_from_db()
    assert invitation.claimed_by is None and invitation.accepted_at is None and invitation.revoked_at is None
    assert AuditEntry.objects.filter(tournament=cup, action="staff_invite_refuse", user=ana).exists()
    assert "Pedir à comissão para confirmar" in client_for(caio).get(path).content.decode()
    juiza = _account("juiza", "juiza@exemplo.com")
    assert client_for(juiza).post(path, {"name": "Juíza"}).status_code == 302
    assert role_of(user=juiza, tournament=cup) == REF and role_of(user=caio, tournament=cup) is None


def test_a_confirmation_names_whose_request_it_confirms(invited):
    """Another account asked after the page was shown: confirming the first one's request grants nothing."""
    cup, ana, path = invited
    caio, dora = _account("caio", "caio@outro.com"), _account("dora", "dora@outro.com")
    token = path.strip("/").rsplit("/", 1)[1]
    invitation = invitation_claim(token=token, user=caio)
    invitation_claim(token=token, user=dora)  # replaces caio's request
    with pytest.raises(ValidationError, match="O pedido deste convite mudou"):
        invitation_claim_confirm(tournament=cup, invitation_id=invitation.pk, user_id=caio.pk, by=ana)
    page = client_for(ana).post(
        reverse("desk:invitation_confirm", args=[cup.slug]), {"invitation": invitation.pk, "user": caio.pk}, follow=True
    )
    assert "O pedido deste convite mudou" in page.content.decode()
    assert not StaffRole.objects.filter(user__in=[caio, dora]).exists()


def test_only_the_tournaments_organizers_answer_a_request(invited):
    cup, ana, path = invited
    caio = _account("caio", "caio@outro.com")
    client_for(caio).post(path, {"name": "Caio"})
    invitation = StaffInvitation.objects.get()
    referee, other = make_user("bia", cup, role=REF), make_user("dan", make_tournament("outra"))
    for who, status in ((referee, 403), (other, 404), (caio, 404)):
        for name in ("desk:invitation_confirm", "desk:invitation_refuse"):
            answer = client_for(who).post(
                reverse(name, args=[cup.slug]), {"invitation": invitation.pk, "user": caio.pk}
            )
            assert answer.status_code == status, (who, name)
    invitation.refresh_from_db()
    assert invitation.claimed_by == caio and not StaffRole.objects.filter(user=caio).exists()


def test_signing_out_from_the_page_comes_back_to_the_link_signed_out(invited):
    _cup, _ana, path = invited
    c = client_for(_account("caio", "caio@outro.com"))
    back = c.post(reverse("accounts:logout"), {"next": path}, follow=True)
    assert back.redirect_chain[-1][0] == path
    assert "Criar a conta e aceitar o convite" in back.content.decode()
