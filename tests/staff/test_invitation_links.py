"""A site that sends no mail (every `make run`): the staff page says no e-mail was sent and shows the invitation's
link, with a copy button, to the organizer who made it, and to nobody else, on no other page."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from config.mail import mail_configured
from tests.support.desk import client_for, make_tournament, make_user
from tests.support.mail import SENDING, UNSENT
from tournaments.models import StaffInvitation, StaffRole

pytestmark = pytest.mark.django_db

REF = StaffRole.REFEREE
INVITE = "https://truco.exemplo.org/convites/"  # an invitation's link (the desk's own URLs have /equipe/convites/)
LINK = re.compile(r'value="(https://truco\.exemplo\.org/convites/[A-Za-z0-9_-]+/)"')


@pytest.mark.parametrize(
    ("mailers", "configured"),
    [
        (UNSENT, False),
        ({"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}, False),
        ({"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}, False),
        ({"default": {"BACKEND": "django.core.mail.backends.filebased.EmailBackend"}}, False),
        ({"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": {"host": "smtp"}}}, True),
        ({"default": {"OPTIONS": {"host": "smtp"}}}, True),  # no BACKEND: Django's SMTP
        ({"outro": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend"}}, False),  # no default mailer
        (SENDING, True),
    ],
)
def test_mail_is_configured_when_the_default_mailer_sends_it_away(settings, mailers, configured):
    settings.MAILERS = mailers
    assert mail_configured() is configured


@pytest.fixture
def cup(settings):
    settings.SITE_URL = "https://truco.exemplo.org"
    t = make_tournament("copa-links")
    return t, make_user("ana", t), make_user("bia", t)


def _invite(c: Client, t, email: str):
    return c.post(reverse("desk:staff", args=[t.slug]), {"email": email, "role": REF}, follow=True)


def test_without_mail_the_organizer_who_invited_sees_the_link_and_it_works(cup, settings):
    settings.MAILERS = UNSENT
    t, ana, bia = cup
    c = client_for(ana)
    before = c.get(reverse("desk:staff", args=[t.slug])).content.decode()
    assert "Este site não envia e-mails" in before and "Criar o convite" in before
    done = _invite(c, t, "juiza@exemplo.com")
    invitation = StaffInvitation.objects.get()
    assert done.redirect_chain[-1][0].endswith(f"/equipe/#convite-{invitation.pk}")
    page = done.content.decode()
    assert "mas nenhum e-mail foi enviado: este site não tem servidor de e-mail configurado" in page
    assert "Convite enviado" not in page
    links = LINK.findall(page)
    assert len(links) == 1 and 'data-copy="link-convite-' in page and "Copiar o link" in page
    link = links[0]
    assert StaffInvitation.objects.filter(token_hash__contains=link.rstrip("/").rsplit("/", 1)[1]).count() == 0
    opened = Client().get(link.removeprefix(settings.SITE_URL))
    assert opened.status_code == 200 and "Convite para a equipe" in opened.content.decode()
    # on the organizer's next visits too, while the invitation is pending, kept by no cache but the browser's
    again = c.get(reverse("desk:staff", args=[t.slug]))
    assert link in again.content.decode()
    assert {"private", "no-store"} <= {part.strip() for part in again["Cache-Control"].split(",")}
    # nowhere else: the organizer's other pages, the other organizer, the public pages
    for url in (reverse("desk:overview", args=[t.slug]), reverse("desk:home"), reverse("desk:schedule", args=[t.slug])):
        assert INVITE not in c.get(url).content.decode(), url
    other = client_for(bia).get(reverse("desk:staff", args=[t.slug])).content.decode()
    # the address as the list shows it: breakable only at its dots and at-sign on a phone (<wbr>)
    assert "juiza@exemplo.com" in other.replace("<wbr>", "") and INVITE not in other
    assert INVITE not in Client().get(reverse("tournaments:list")).content.decode()


def test_a_new_link_replaces_the_shown_one_and_an_accepted_invitation_shows_none(cup, settings):
    settings.MAILERS = UNSENT
    t, ana, _bia = cup
    c = client_for(ana)
    first = LINK.findall(_invite(c, t, "juiza@exemplo.com").content.decode())[0]
    invitation = StaffInvitation.objects.get()
    page = c.get(reverse("desk:staff", args=[t.slug])).content.decode()
    assert "gerar um link novo" in page
    renewed = c.post(reverse("desk:invitation_resend", args=[t.slug]), {"invitation": invitation.pk}, follow=True)
    text = renewed.content.decode()
    assert "Link novo do convite para juiza@exemplo.com (o anterior deixou de valer). Nenhum e-mail foi enviado" in text
    second = LINK.findall(text)
    assert len(second) == 1 and second[0] != first
    assert Client().get(first.removeprefix(settings.SITE_URL)).status_code == 410
    juiza = make_user("juiza")
    juiza.email = "juiza@exemplo.com"
    juiza.save()
    accepted = client_for(juiza).post(second[0].removeprefix(settings.SITE_URL), {"name": "Juíza Lima"})
    assert accepted.status_code == 302
    assert INVITE not in c.get(reverse("desk:staff", args=[t.slug])).content.decode()
    assert "zap:invitation_links" not in c.session or not c.session["zap:invitation_links"]


def test_with_mail_the_page_says_it_was_sent_and_shows_no_link(cup, settings):
    settings.MAILERS = SENDING
    t, ana, _bia = cup
    c = client_for(ana)
    page = _invite(c, t, "juiza@exemplo.com").content.decode()
    assert "Convite enviado para juiza@exemplo.com" in page and "nenhum e-mail" not in page
    assert len(mail.outbox) == 1 and INVITE in mail.outbox[0].body
    assert INVITE not in page and "Este site não envia e-mails" not in page and "reenviar" in page
