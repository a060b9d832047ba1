"""People of a tournament: roles (last organizer kept), invitations by username or e-mail, the staff page."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournaments.models import AuditEntry, Jogo, Mesa, StaffRole
from tournaments.permissions import role_of
from tournaments.staff.services import role_grant, role_revoke, staff_invite

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

ORG, REF = StaffRole.ORGANIZER, StaffRole.REFEREE


def minimal_file(slug: str, name: str = "Copa da Equipe") -> dict:
    return {"format": "truco-torneio", "version": 1, "tournament": {"name": name, "slug": slug, "preset": "aabb"},
            "players": [], "duplas": [], "stages": [], "jogos": []}


@pytest.fixture
def cup(load_file):
    return load_file(minimal_file("copa-equipe"))


@pytest.fixture
def people(django_user_model, cup):
    """ana organizes the cup, bia referees it, caio has no role."""
    make = django_user_model.objects.create_user
    ana = make("ana", "ana@exemplo.com", "senha-da-ana-123", first_name="Ana", last_name="Souza")
    bia = make("bia", "bia@exemplo.com", "senha-da-bia-123")
    caio = make("caio", "caio@exemplo.com", "senha-do-caio-123")
    role_grant(tournament=cup, user=ana, role=ORG, by=None)
    role_grant(tournament=cup, user=bia, role=REF, by=ana)
    return ana, bia, caio


def _roles(t) -> dict:
    return dict(StaffRole.objects.filter(tournament=t).values_list("user__username", "role"))


# --- services -----------------------------------------------------------------------------

def test_grant_is_idempotent_and_a_new_role_replaces_the_old(cup, people):
    ana, bia, _caio = people
    before = AuditEntry.objects.count()
    role_grant(tournament=cup, user=bia, role=REF, by=ana)
    assert AuditEntry.objects.count() == before  # the same role again: nothing to record
    role_grant(tournament=cup, user=bia, role=ORG, by=ana)
    assert _roles(cup) == {"ana": ORG, "bia": ORG}
    entry = AuditEntry.objects.filter(tournament=cup).first()
    assert entry.action == "staff_role" and entry.user == ana and "árbitro → comissão organizadora" in entry.summary


def test_the_last_organizer_cannot_leave_nor_be_demoted(cup, people):
    ana, bia, _caio = people
    with pytest.raises(ValidationError, match="única pessoa da comissão organizadora"):
        role_revoke(tournament=cup, user=ana, by=ana)
    with pytest.raises(ValidationError, match="única pessoa da comissão organizadora"):
        role_grant(tournament=cup, user=ana, role=REF, by=ana)
    assert _roles(cup) == {"ana": ORG, "bia": REF}
    role_grant(tournament=cup, user=bia, role=ORG, by=ana)  # with a second organizer, ana may step down
    role_grant(tournament=cup, user=ana, role=REF, by=ana)
    role_revoke(tournament=cup, user=ana, by=ana)
    assert _roles(cup) == {"bia": ORG}


def test_an_inactive_organizer_does_not_count_as_the_other_one(cup, people):
    ana, bia, _caio = people
    role_grant(tournament=cup, user=bia, role=ORG, by=ana)
    bia.is_active = False
    bia.save()
    with pytest.raises(ValidationError):
        role_revoke(tournament=cup, user=ana, by=ana)


def test_revoke_frees_the_mesas_of_that_referee(cup, people):
    ana, bia, _caio = people
    Mesa.objects.create(tournament=cup, number=1, referee=bia)
    Mesa.objects.create(tournament=cup, number=2, referee=ana)
    removal = role_revoke(tournament=cup, user=bia, by=ana)
    assert removal.mesas == (1,) and removal.jogos == 0
    assert list(Mesa.objects.filter(tournament=cup).values_list("number", "referee__username")) == [(1, None),
                                                                                                  (2, "ana")]
    assert role_of(user=bia, tournament=cup) is None
    with pytest.raises(ValidationError, match="não faz parte da equipe"):
        role_revoke(tournament=cup, user=bia, by=ana)


def test_invite_an_existing_user_by_username_or_email(cup, people):
    ana, _bia, caio = people
    result = staff_invite(tournament=cup, who=" caio ", role=REF, by=ana)
    assert result.user == caio and not result.created and not result.mailed
    assert _roles(cup)["caio"] == REF
    result = staff_invite(tournament=cup, who="CAIO@exemplo.com", role=ORG, by=ana)
    assert result.user == caio and _roles(cup)["caio"] == ORG
    assert mail.outbox == []


def test_invite_a_new_email_creates_an_account_and_mails_a_working_link(client, cup, people, settings):
    settings.SITE_URL = "https://truco.exemplo.org"
    ana, _bia, _caio = people
    result = staff_invite(tournament=cup, who="Dora.Lima@exemplo.com", role=REF, by=ana)
    dora = result.user
    assert result.created and result.mailed
    assert dora.username == "dora.lima" and dora.email == "Dora.Lima@exemplo.com"
    assert dora.is_active and not dora.has_usable_password()
    assert _roles(cup)["dora.lima"] == REF
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["Dora.Lima@exemplo.com"] and "Copa da Equipe" in message.subject
    assert "dora.lima" in message.body and "árbitro" in message.body
    link = re.search(r"https://truco\.exemplo\.org(/conta/senha/nova/\S+/)", message.body)
    assert link, message.body
    # the link lets dora choose a password, and then she signs in and reaches the desk
    page = client.get(link.group(1), follow=True)
    assert page.status_code == 200 and "new_password1" in page.content.decode()
    new = "Truco-Zap-2024!"
    done = client.post(page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    dora.refresh_from_db()
    assert dora.check_password("Truco-Zap-2024!")
    signed_in = client.post(reverse("accounts:login"), {"username": "dora.lima", "password": "Truco-Zap-2024!"})
    assert signed_in.status_code == 302
    assert client.get(reverse("desk:overview", kwargs={"slug": cup.slug})).status_code == 200  # a referee's page


def test_a_second_account_from_the_same_local_part_gets_a_free_username(cup, people):
    ana, _bia, _caio = people
    first = staff_invite(tournament=cup, who="ana@outro.com.br", role=REF, by=ana).user
    assert first.username == "ana2"  # "ana" is taken
    second = staff_invite(tournament=cup, who="ana@terceiro.com.br", role=REF, by=ana).user
    assert second.username == "ana3"


def test_an_invited_person_who_never_came_gets_the_link_again(cup, people):
    ana, _bia, _caio = people
    staff_invite(tournament=cup, who="eva@exemplo.com", role=REF, by=ana)
    again = staff_invite(tournament=cup, who="eva@exemplo.com", role=ORG, by=ana)
    assert not again.created and again.mailed and len(mail.outbox) == 2
    assert _roles(cup)["eva"] == ORG


def test_unknown_username_and_bad_email_are_refused_and_change_nothing(cup, people):
    ana, _bia, _caio = people
    users = get_user_model().objects.count()
    with pytest.raises(ValidationError, match="nenhuma conta com esse nome de usuário"):
        staff_invite(tournament=cup, who="zeca", role=REF, by=ana)
    with pytest.raises(ValidationError, match="e-mail inválido"):
        staff_invite(tournament=cup, who="zeca@", role=REF, by=ana)
    with pytest.raises(ValidationError, match="papel desconhecido"):
        staff_invite(tournament=cup, who="caio", role="boss", by=ana)
    assert get_user_model().objects.count() == users and _roles(cup) == {"ana": ORG, "bia": REF}


def test_a_failing_mail_server_leaves_no_account_behind(cup, people, monkeypatch):
    ana, _bia, _caio = people
    import tournaments.staff.services as services

    def broken(*args, **kwargs):
        raise ConnectionRefusedError("smtp down")

    monkeypatch.setattr(services, "send_mail", broken)
    with pytest.raises(ValidationError, match="não pôde ser enviado"):
        staff_invite(tournament=cup, who="fabi@exemplo.com", role=REF, by=ana)
    assert not get_user_model().objects.filter(email="fabi@exemplo.com").exists()
    assert "fabi" not in _roles(cup)


# --- the staff page ---------------------------------------------------------------------------

def _url(cup, name="desk:staff"):
    return reverse(name, kwargs={"slug": cup.slug})


def test_the_staff_page_lists_people_and_adds_by_username(client, cup, people):
    ana, _bia, _caio = people
    client.force_login(ana)
    page = client.get(_url(cup))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ana Souza (ana)" in text and "bia" in text and "comissão organizadora" in text
    done = client.post(_url(cup), {"who": "caio", "role": REF}, follow=True)
    assert "caio agora tem o papel de árbitro" in done.content.decode()
    assert _roles(cup)["caio"] == REF


def test_the_staff_page_invites_by_email(client, cup, people):
    ana, _bia, _caio = people
    client.force_login(ana)
    done = client.post(_url(cup), {"who": "gil@exemplo.com", "role": ORG}, follow=True)
    assert "Conta criada para gil@exemplo.com" in done.content.decode()
    assert _roles(cup)["gil"] == ORG and len(mail.outbox) == 1
    assert reverse("accounts:password_reset_confirm", kwargs={"uidb64": "x", "token": "y"}).split("x/")[0] in \
        mail.outbox[0].body


def test_the_staff_page_shows_form_errors_in_place(client, cup, people):
    ana, _bia, _caio = people
    client.force_login(ana)
    page = client.post(_url(cup), {"who": "ninguem", "role": REF})
    assert page.status_code == 200
    assert "nenhuma conta com esse nome de usuário" in page.content.decode()
    page = client.post(_url(cup), {"who": "", "role": "chefe"})
    assert page.status_code == 200 and page.content.decode().count('class="field-error"') == 2
    assert _roles(cup) == {"ana": ORG, "bia": REF}


def test_the_role_buttons_change_a_role_and_refuse_to_demote_the_last_organizer(client, cup, people):
    ana, _bia, _caio = people
    client.force_login(ana)
    done = client.post(_url(cup), {"who": "bia", "role": ORG, "change": "1"}, follow=True)
    assert "bia agora tem o papel de comissão organizadora" in done.content.decode()
    client.post(_url(cup), {"who": "bia", "role": REF, "change": "1"})
    refused = client.post(_url(cup), {"who": "ana", "role": REF, "change": "1"}, follow=True)
    assert refused.redirect_chain and "única pessoa da comissão organizadora" in refused.content.decode()
    assert _roles(cup) == {"ana": ORG, "bia": REF}


def test_remove_and_the_last_organizer_message(client, cup, people):
    ana, bia, _caio = people
    client.force_login(ana)
    done = client.post(_url(cup, "desk:staff_remove"), {"user": bia.pk}, follow=True)
    assert "saiu da equipe" in done.content.decode() and "bia" not in _roles(cup)
    refused = client.post(_url(cup, "desk:staff_remove"), {"user": ana.pk}, follow=True)
    assert "única pessoa da comissão organizadora" in refused.content.decode()
    assert _roles(cup) == {"ana": ORG}
    missing = client.post(_url(cup, "desk:staff_remove"), {"user": 999999}, follow=True)
    assert "não faz parte da equipe" in missing.content.decode()


def test_an_organizer_who_leaves_lands_on_the_desk_home(client, cup, people):
    ana, bia, _caio = people
    role_grant(tournament=cup, user=bia, role=ORG, by=ana)
    client.force_login(ana)
    done = client.post(_url(cup, "desk:staff_remove"), {"user": ana.pk})
    assert done.status_code == 302 and done["Location"] == reverse("desk:home")
    assert client.get(_url(cup)).status_code == 404


# --- who may ----------------------------------------------------------------------------------

@pytest.fixture
def other_organizer(django_user_model, load_file):
    other = load_file(minimal_file("outra-copa", "Outra Copa"))
    dan = django_user_model.objects.create_user("dan", "dan@exemplo.com", "senha-do-dan-123")
    role_grant(tournament=other, user=dan, role=ORG)
    return dan


POSTS = [("desk:staff", {"who": "caio", "role": ORG}), ("desk:staff", {"who": "hugo@exemplo.com", "role": ORG}),
         ("desk:staff_remove", {"user": "ANA"}), ("desk:pins", {"confirm": "on"})]


def _snapshot(cup):
    return (_roles(cup), get_user_model().objects.count(), AuditEntry.objects.filter(tournament=cup).count(),
            list(cup.duplas.values_list("pin_hash", flat=True)), len(mail.outbox))


@pytest.mark.parametrize("name", ["desk:staff", "desk:pins"])
def test_anonymous_is_sent_to_the_login_page(client, cup, people, name):
    url = _url(cup, name)
    page = client.get(url)
    assert page.status_code == 302 and page["Location"] == f"{reverse('accounts:login')}?next={url}"


@pytest.mark.parametrize("who, status", [(None, 302), ("caio", 404), ("bia", 403), ("dan", 404)])
def test_nobody_but_an_organizer_of_the_cup_sees_or_changes_anything(client, cup, people, other_organizer, who,
                                                                     status):
    ana, _bia, _caio = people
    if who:
        client.force_login(get_user_model().objects.get(username=who))
    for name in ("desk:staff", "desk:pins"):
        assert client.get(_url(cup, name)).status_code == status
    before = _snapshot(cup)
    for name, data in POSTS:
        data = {k: (ana.pk if v == "ANA" else v) for k, v in data.items()}
        response = client.post(_url(cup, name), data)
        assert response.status_code == status, (name, data)
        if status == 302:
            assert response["Location"].startswith(reverse("accounts:login"))
    assert _snapshot(cup) == before


def test_a_post_without_csrf_token_is_refused(cup, people):
    from django.test import Client

    ana, _bia, _caio = people
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ana)
    assert strict.post(_url(cup), {"who": "caio", "role": REF}).status_code == 403
    assert "caio" not in _roles(cup)


def test_removing_a_referee_clears_the_jogos_assigned_to_them(cup, people, load_file):
    """Removing a referee assigned to jogos leaves those jogos to the mesa's referee (and the public file says so)."""
    from tests.test_pages import knockout_file

    ana, bia, _caio = people
    ko = load_file(knockout_file(finished=False, slug="ko-equipe"))
    role_grant(tournament=ko, user=ana, role=ORG)
    role_grant(tournament=ko, user=bia, role=REF, by=ana)
    assigned = Jogo.objects.filter(tournament=ko).update(referee=bia)
    version = type(ko).objects.get(pk=ko.pk).results_version
    removal = role_revoke(tournament=ko, user=bia, by=ana)
    assert assigned and removal.jogos == assigned
    assert not Jogo.objects.filter(tournament=ko, referee__isnull=False).exists()
    assert type(ko).objects.get(pk=ko.pk).results_version > version
