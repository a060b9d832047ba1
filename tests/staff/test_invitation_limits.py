"""Invitations to a tournament's staff are limited per account and per event each hour (tournaments/mailquota.py):
beyond it nothing is written nor sent, and the staff page says how many and until when. Counted under locks: many
invitations at once never pass the limit (PostgreSQL, real threads)."""

import datetime as dt

import pytest
from django.core import mail
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from tests.support.desk import client_for, make_tournament, make_user
from tests.support.threads import run_together
from tournaments.models import StaffInvitation, StaffRole
from tournaments.refusals import Refused
from tournaments.staff.services import invitation_create, invitation_resend

REF = StaffRole.REFEREE


def _room(first: dt.datetime) -> str:
    """The minute (site time) when the invitation sent at ``first`` leaves the hour."""
    at = timezone.localtime(first + dt.timedelta(hours=1))
    minute = at.replace(second=0, microsecond=0)
    return f"{minute + dt.timedelta(minutes=1) if minute < at else minute:%H:%M}"


@pytest.mark.django_db
def test_an_account_past_its_hourly_limit_is_refused_in_any_of_its_events_and_nothing_is_sent(settings):
    settings.ZAP_INVITATIONS_PER_ACCOUNT_HOUR = 2
    cup, other = make_tournament("copa-a"), make_tournament("copa-b")
    ana = make_user("ana", cup)
    StaffRole.objects.create(tournament=other, user=ana, role=StaffRole.ORGANIZER)
    invitation_create(tournament=cup, email="um@exemplo.com", role=REF, by=ana)
    invitation_create(tournament=other, email="dois@exemplo.com", role=REF, by=ana)
    first = StaffInvitation.objects.earliest("created_at").created_at
    for t in (cup, other):
        with pytest.raises(Refused) as refused:
            invitation_create(tournament=t, email="tres@exemplo.com", role=REF, by=ana)
        assert refused.value.kind == Refused.LOCKED
        assert refused.value.messages == [
            (
                "Limite de convites atingido: esta conta enviou 2 convites na última hora (o limite é 2 por hora). "
                f"O próximo pode sair às {_room(first)}."
            )
        ]
    assert StaffInvitation.objects.count() == 2 and len(mail.outbox) == 2
    # another account of the same event is not held by ana's limit
    bia = make_user("bia", cup)
    invitation_create(tournament=cup, email="tres@exemplo.com", role=REF, by=bia)
    # an hour after ana's first invitation, she has room for one
    StaffInvitation.objects.filter(pk=StaffInvitation.objects.earliest("created_at").pk).update(
        created_at=first - dt.timedelta(hours=1)
    )
    invitation_create(tournament=cup, email="quatro@exemplo.com", role=REF, by=ana)
    with pytest.raises(Refused):
        invitation_create(tournament=cup, email="cinco@exemplo.com", role=REF, by=ana)


@pytest.mark.django_db
def test_an_event_past_its_hourly_limit_is_refused_whoever_invites_and_a_resend_counts(settings):
    settings.ZAP_INVITATIONS_PER_EVENT_HOUR = 2
    cup = make_tournament("copa-c")
    ana, bia = make_user("ana", cup), make_user("bia", cup)
    invitation = invitation_create(tournament=cup, email="um@exemplo.com", role=REF, by=ana).invitation
    invitation_resend(tournament=cup, invitation_id=invitation.pk, by=ana)  # a new mail: counted
    with pytest.raises(Refused, match="Limite de convites deste torneio atingido: 2 convites enviados na última hora"):
        invitation_create(tournament=cup, email="dois@exemplo.com", role=REF, by=bia)
    pending = StaffInvitation.objects.get(revoked_at__isnull=True)
    with pytest.raises(Refused, match="o limite é 2 por hora"):
        invitation_resend(tournament=cup, invitation_id=pending.pk, by=bia)
    pending.refresh_from_db()
    assert pending.revoked_at is None  # the refused resend left the pending invitation as it was
    assert StaffInvitation.objects.count() == 2 and len(mail.outbox) == 2


@pytest.mark.django_db
def test_the_staff_page_says_how_many_and_until_when(settings):
    settings.ZAP_INVITATIONS_PER_ACCOUNT_HOUR = 1
    cup = make_tournament("copa-d")
    ana = make_user("ana", cup)
    c = client_for(ana)
    url = reverse("desk:staff", kwargs={"slug": cup.slug})
    assert c.post(url, {"email": "um@exemplo.com", "role": REF}).status_code == 302
    first = StaffInvitation.objects.get().created_at
    refused = c.post(url, {"email": "dois@exemplo.com", "role": REF})
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "esta conta enviou 1 convite na última hora (o limite é 1 por hora)" in page
    assert f"O próximo pode sair às {_room(first)}." in page
    assert 'value="dois@exemplo.com"' in page  # the form keeps what was typed
    resend = c.post(
        reverse("desk:invitation_resend", kwargs={"slug": cup.slug}),
        {"invitation": StaffInvitation.objects.get().pk},
        follow=True,
    )
    assert "Limite de convites atingido" in resend.content.decode()
    assert StaffInvitation.objects.count() == 1 and len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_invitations_sent_at_once_from_many_events_never_pass_the_accounts_limit(settings):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite runs one write transaction at a time)")
    settings.ZAP_INVITATIONS_PER_ACCOUNT_HOUR = 3
    events = [make_tournament(f"copa-{n}") for n in range(8)]
    ana = make_user("ana")
    StaffRole.objects.bulk_create([StaffRole(tournament=t, user=ana, role=StaffRole.ORGANIZER) for t in events])

    def invite(t):
        def run():
            try:
                invitation_create(tournament=t, email=f"juiz@{t.slug}.com", role=REF, by=ana)
            except Refused:
                return "refused"
            return "sent"

        return run

    answers = run_together([invite(t) for t in events])
    assert sorted(answers) == ["refused"] * 5 + ["sent"] * 3
    assert StaffInvitation.objects.count() == 3
