"""People of a tournament: roles (last organizer kept), invitations by e-mail accepted by the invited, the staff page."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.support.mail import SENDING
from tournaments.models import AuditEntry, Jogo, Mesa, StaffInvitation, StaffRole
from tournaments.permissions import role_of
from tournaments.staff.services import invitation_create, invitation_resend, invitation_revoke, role_grant, role_revoke

pytestmark = pytest.mark.django_db

ORG, REF = StaffRole.ORGANIZER, StaffRole.REFEREE


def minimal_file(slug: str, name: str = "Copa da Equipe") -> dict:
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": name, "slug": slug, "preset": "aabb"},
        "players": [],
        "duplas": [],
        "stages": [],
        "jogos": [],
    }


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
    assert list(Mesa.objects.filter(tournament=cup).values_list("number", "referee__username")) == [
        (1, None),
        (2, "ana"),
    ]
    assert role_of(user=bia, tournament=cup) is None
    with pytest.raises(ValidationError, match="não faz parte da equipe"):
        role_revoke(tournament=cup, user=bia, by=ana)


def _link(message) -> str:
    found = re.search(r"https://truco\.exemplo\.org(/convites/[A-Za-z0-9_-]+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_an_invitation_grants_nothing_until_accepted(client, cup, people, settings):
    settings.SITE_URL = "https://truco.exemplo.org"
    ana, _bia, caio = people
    invitation = invitation_create(tournament=cup, email=" caio@exemplo.com ", role=REF, by=ana).invitation
    assert invitation.email == "caio@exemplo.com" and "caio" not in _roles(cup)
    message = mail.outbox[0]
    assert message.to == ["caio@exemplo.com"] and "Copa da Equipe" in message.subject and "árbitro" in message.body
    link = _link(message)
    assert link.strip("/").split("/")[-1] not in invitation.token_hash  # only the hash is kept
    client.force_login(caio)
    page = client.get(link)
    assert page.status_code == 200 and "Aceitar o convite" in page.content.decode()
    assert "Seu nome" in page.content.decode()
    unnamed = client.post(link)  # the name is asked
    assert (
        unnamed.status_code == 200 and "caio" not in _roles(cup) and 'class="field-error"' in unnamed.content.decode()
    )
    done = client.post(link, {"name": "  Caio   Prado "})
    assert done.status_code == 302 and _roles(cup)["caio"] == REF
    caio.refresh_from_db()
    assert (caio.first_name, caio.last_name, caio.get_full_name()) == ("Caio Prado", "", "Caio Prado")
    assert AuditEntry.objects.filter(tournament=cup, action="staff_add").exists()
    assert AuditEntry.objects.filter(tournament=cup, action="staff_invite_accept", user=caio).exists()
    used = client.get(link)
    assert used.status_code == 410 and "já foi aceito" in used.content.decode()


def test_a_person_without_an_account_creates_one_on_the_invitation_page(client, cup, people, settings):
    settings.SITE_URL = "https://truco.exemplo.org"
    ana, _bia, _caio = people
    users = get_user_model().objects.count()
    invitation_create(tournament=cup, email="Dora.Lima@exemplo.com", role=ORG, by=ana)
    assert get_user_model().objects.count() == users  # no account is made by inviting
    link = _link(mail.outbox[0])
    page = client.get(link)
    assert page.status_code == 200 and "password1" in page.content.decode()
    assert "Seu nome" in page.content.decode()
    weak = client.post(link, {"name": "Dora Lima", "username": "dora", "password1": "123", "password2": "123"})
    assert weak.status_code == 200 and "dora" not in _roles(cup) and 'class="field-error"' in weak.content.decode()
    strong = {"username": "dora", "password1": "Truco-Zap-2024!", "password2": "Truco-Zap-2024!"}
    unnamed = client.post(link, strong)
    assert (
        unnamed.status_code == 200 and "dora" not in _roles(cup) and 'class="field-error"' in unnamed.content.decode()
    )
    done = client.post(link, strong | {"name": "Dora Lima"})
    assert done.status_code == 302 and _roles(cup)["dora"] == ORG
    dora = get_user_model().objects.get(username="dora")
    assert dora.email == "Dora.Lima@exemplo.com" and dora.check_password("Truco-Zap-2024!")
    assert dora.get_full_name() == "Dora Lima"
    assert client.get(reverse("desk:overview", kwargs={"slug": cup.slug})).status_code == 200  # signed in


def test_expired_revoked_replaced_and_unknown_links_say_so(client, cup, people, settings):
    from django.utils import timezone

    settings.SITE_URL = "https://truco.exemplo.org"
    ana, _bia, caio = people
    client.force_login(caio)
    first = invitation_create(tournament=cup, email="caio@exemplo.com", role=REF, by=ana).invitation
    old = _link(mail.outbox[-1])
    invitation_create(tournament=cup, email="CAIO@exemplo.com", role=ORG, by=ana)  # replaces the first
    new = _link(mail.outbox[-1])
    assert "cancelado" in client.get(old).content.decode()
    assert client.post(old).status_code == 410 and "caio" not in _roles(cup)
    first.refresh_from_db()
    assert first.revoked_at is not None
    pending = StaffInvitation.objects.get(tournament=cup, revoked_at__isnull=True)
    StaffInvitation.objects.filter(pk=pending.pk).update(expires_at=timezone.now())
    expired = client.post(new)
    assert expired.status_code == 410 and "expirou" in expired.content.decode() and "caio" not in _roles(cup)
    unknown = client.get(reverse("accounts:invitation", kwargs={"token": "x" * 43}))
    assert unknown.status_code == 404 and "não existe" in unknown.content.decode()
    assert client.get("/convites/%00abc/").status_code == 404


def test_resend_gives_a_new_link_and_revoke_kills_it(client, cup, people, settings):
    settings.SITE_URL = "https://truco.exemplo.org"
    ana, _bia, caio = people
    invitation = invitation_create(tournament=cup, email="eva@exemplo.com", role=REF, by=ana).invitation
    first = _link(mail.outbox[-1])
    invitation = invitation_resend(tournament=cup, invitation_id=invitation.pk, by=ana).invitation
    second = _link(mail.outbox[-1])
    assert first != second and len(mail.outbox) == 2
    client.force_login(caio)
    assert client.get(first).status_code == 410 and client.get(second).status_code == 200
    invitation_revoke(tournament=cup, invitation_id=invitation.pk, by=ana)
    assert client.post(second).status_code == 410 and "caio" not in _roles(cup)
    with pytest.raises(ValidationError, match="não está mais pendente"):
        invitation_revoke(tournament=cup, invitation_id=invitation.pk, by=ana)


def test_bad_email_and_role_are_refused_and_change_nothing(cup, people):
    ana, _bia, _caio = people
    with pytest.raises(ValidationError, match="e-mail inválido"):
        invitation_create(tournament=cup, email="zeca@", role=REF, by=ana)
    with pytest.raises(ValidationError, match="papel desconhecido"):
        invitation_create(tournament=cup, email="zeca@exemplo.com", role="boss", by=ana)
    assert not StaffInvitation.objects.exists() and mail.outbox == []


def test_a_failing_mail_server_leaves_no_invitation_behind(cup, people, monkeypatch):
    ana, _bia, _caio = people
    import tournaments.staff.services as services

    def broken(*args, **kwargs):
        raise ConnectionRefusedError("smtp down")

    monkeypatch.setattr(services, "send_mail", broken)
    with pytest.raises(ValidationError, match="não pôde ser enviado"):
        invitation_create(tournament=cup, email="fabi@exemplo.com", role=REF, by=ana)
    assert not StaffInvitation.objects.exists()
    assert not AuditEntry.objects.filter(tournament=cup, action="staff_invite").exists()


# --- the staff page ---------------------------------------------------------------------------


def _url(cup, name="desk:staff"):
    return reverse(name, kwargs={"slug": cup.slug})


def test_the_staff_page_answers_the_same_whether_an_account_exists(client, cup, people, settings):
    settings.MAILERS = SENDING  # a site whose mail leaves
    ana, _bia, _caio = people
    get_user_model().objects.create_superuser(
        "root", "root@exemplo.com", "senha-do-root-123", first_name="Raiz", last_name="Secreta"
    )
    client.force_login(ana)
    page = client.get(_url(cup))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ana Souza (ana)" in text and "bia" in text and "comissão organizadora" in text
    assert "ana@exemplo.com" not in text and "bia@exemplo.com" not in text  # members' e-mails stay private
    answers = []
    for email in ("root@exemplo.com", "caio@exemplo.com", "ninguem@exemplo.com"):
        done = client.post(_url(cup), {"email": email, "role": ORG}, follow=True)
        body = done.content.decode().replace("<wbr>", "")  # an e-mail may break before its "@" or a "."
        assert f"Convite enviado para {email}" in body
        answers.append(body.split("Convite enviado para")[1].split("</")[0].replace(email, "E"))
        assert "Raiz" not in body and "Secreta" not in body and ">root<" not in body and "(root)" not in body
        assert "(caio)" not in body
    assert len(set(answers)) == 1  # the same message for all three
    assert _roles(cup) == {"ana": ORG, "bia": REF}  # nobody joined: invitations wait for acceptance
    assert len(mail.outbox) == 3
    pending = client.get(_url(cup)).content.decode().replace("<wbr>", "")
    assert "ninguem@exemplo.com" in pending and "root@exemplo.com" in pending and "Raiz" not in pending


def test_the_staff_page_refuses_a_username_and_resends_and_cancels(client, cup, people, settings):
    settings.MAILERS = SENDING
    ana, _bia, _caio = people
    client.force_login(ana)
    page = client.post(_url(cup), {"email": "caio", "role": REF})
    assert page.status_code == 200 and page.content.decode().count('class="field-error"') == 1
    page = client.post(_url(cup), {"email": "", "role": "chefe"})
    assert page.status_code == 200 and page.content.decode().count('class="field-error"') == 2
    assert not StaffInvitation.objects.exists() and _roles(cup) == {"ana": ORG, "bia": REF}
    client.post(_url(cup), {"email": "gil@exemplo.com", "role": ORG})
    invitation = StaffInvitation.objects.get()
    done = client.post(_url(cup, "desk:invitation_resend"), {"invitation": invitation.pk}, follow=True)
    assert "Convite enviado de novo para gil@exemplo.com" in done.content.decode() and len(mail.outbox) == 2
    invitation = StaffInvitation.objects.get(revoked_at__isnull=True)
    done = client.post(_url(cup, "desk:invitation_revoke"), {"invitation": invitation.pk}, follow=True)
    assert (
        "cancelado" in done.content.decode()
        and "gil@exemplo.com" not in done.content.decode().split("Convidar pessoa")[0].split("cancelado")[1]
    )
    again = client.post(_url(cup, "desk:invitation_revoke"), {"invitation": invitation.pk}, follow=True)
    assert "não está mais pendente" in again.content.decode()


def test_the_role_buttons_change_a_role_and_refuse_to_demote_the_last_organizer(client, cup, people):
    ana, _bia, _caio = people
    client.force_login(ana)
    ana, bia = people[0], people[1]
    done = client.post(_url(cup), {"user": bia.pk, "role": ORG, "change": "1"}, follow=True)
    assert "bia agora tem o papel de comissão organizadora" in done.content.decode()
    client.post(_url(cup), {"user": bia.pk, "role": REF, "change": "1"})
    outsider = client.post(_url(cup), {"user": people[2].pk, "role": REF, "change": "1"}, follow=True)
    assert "não faz parte da equipe" in outsider.content.decode() and "caio" not in _roles(cup)
    refused = client.post(_url(cup), {"user": ana.pk, "role": REF, "change": "1"}, follow=True)
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
    for action, field in (
        ("desk:staff_remove", "user"),
        ("desk:staff", "user"),
        ("desk:invitation_resend", "invitation"),
    ):
        data = {field: "1" * 25} | ({"change": "1", "role": ORG} if action == "desk:staff" else {})
        huge = client.post(_url(cup, action), data, follow=True)  # no row has that id (SQLite cannot compare it)
        assert huge.status_code in (200, 400), (action, huge.status_code)
    assert _roles(cup) == {"ana": ORG}


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


POSTS = [
    ("desk:staff", {"user": "CAIO", "role": ORG, "change": "1"}),
    ("desk:staff", {"email": "hugo@exemplo.com", "role": ORG}),
    ("desk:invitation_revoke", {"invitation": "INV"}),
    ("desk:invitation_resend", {"invitation": "INV"}),
    ("desk:invitation_confirm", {"invitation": "INV", "user": "CAIO"}),
    ("desk:invitation_refuse", {"invitation": "INV", "user": "CAIO"}),
    ("desk:staff_remove", {"user": "ANA"}),
    ("desk:pins", {"confirm": "on"}),
]


def _snapshot(cup):
    return (
        _roles(cup),
        get_user_model().objects.count(),
        AuditEntry.objects.filter(tournament=cup).count(),
        list(cup.duplas.values_list("pin_hash", flat=True)),
        len(mail.outbox),
        list(StaffInvitation.objects.values_list("token_hash", "revoked_at", "claimed_by", "accepted_by")),
    )


@pytest.mark.parametrize("name", ["desk:staff", "desk:pins"])
def test_anonymous_is_sent_to_the_login_page(client, cup, people, name):
    url = _url(cup, name)
    page = client.get(url)
    assert page.status_code == 302 and page["Location"] == f"{reverse('accounts:login')}?next={url}"


@pytest.mark.parametrize("who, status", [(None, 302), ("caio", 404), ("bia", 403), ("dan", 404)])
def test_nobody_but_an_organizer_of_the_cup_sees_or_changes_anything(client, cup, people, other_organizer, who, status):
    ana, _bia, _caio = people
    invitation = invitation_create(tournament=cup, email="zeca@exemplo.com", role=REF, by=ana).invitation
    StaffInvitation.objects.filter(pk=invitation.pk).update(claimed_by=people[2])  # caio asked to accept it
    if who:
        client.force_login(get_user_model().objects.get(username=who))
    for name in ("desk:staff", "desk:pins"):
        assert client.get(_url(cup, name)).status_code == status
    before = _snapshot(cup)
    for name, data in POSTS:
        data = {k: {"ANA": ana.pk, "CAIO": people[2].pk, "INV": invitation.pk}.get(v, v) for k, v in data.items()}
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
    assert strict.post(_url(cup), {"email": "caio@exemplo.com", "role": REF}).status_code == 403
    assert not StaffInvitation.objects.exists()


def test_removing_a_referee_clears_the_jogos_assigned_to_them(cup, people, load_file):
    """Removing a referee assigned to jogos leaves those jogos to the mesa's referee (and the public file says so)."""
    from tests.support.files import knockout_file

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
