"""A player is told of the staff's measures (the lobby), and another player's chat line can be reported."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tournaments.models import OnlineTable, Sala, TableSeat
from tournaments.online import chat, conduct, people
from tournaments.play.identity import GUEST_SESSION_KEY

pytestmark = pytest.mark.django_db


def guest_client(profile) -> Client:
    c = Client()
    session = c.session
    session[GUEST_SESSION_KEY] = profile.guest_key
    session.save()
    return c


def test_a_warned_and_muted_player_reads_why_on_the_lobby():
    staff = User.objects.create_user("moderadora", password="x", is_staff=True)
    ana = people.profile_for_guest(guest_key=None, display_name="Ana", avatar="boto")
    bruno = people.profile_for_guest(guest_key=None, display_name="Bruno", avatar="tatu")
    assert "Avisos da equipe do site" not in guest_client(ana).get("/jogar/").content.decode()
    conduct.sanction_apply(profile=ana, kind="warn", reason="Palavrão no chat", by=staff)
    conduct.sanction_apply(
        profile=ana, kind="mute", reason="Insistiu <b>", by=staff, until=timezone.now() + dt.timedelta(minutes=30)
    )
    page = guest_client(ana).get("/jogar/").content.decode()
    assert "Avisos da equipe do site" in page
    assert "Palavrão no chat" in page and "Insistiu &lt;b&gt;" in page
    assert "Palavrão no chat" not in guest_client(bruno).get("/jogar/").content.decode()


def test_another_players_chat_line_has_a_report_link_and_ones_own_has_none():
    sala = Sala.objects.create(slug="salao-1", name="Salão 1", number=1)
    table = OnlineTable.objects.create(sala=sala, number=1, status=OnlineTable.OPEN)
    ana = people.profile_for_guest(guest_key=None, display_name="Ana", avatar="boto")
    bruno = people.profile_for_guest(guest_key=None, display_name="Bruno", avatar="tatu")
    TableSeat.objects.create(table=table, seat=0, profile=ana)
    TableSeat.objects.create(table=table, seat=1, profile=bruno)
    mine = chat.chat_post(profile=ana, text="boa sorte", table=table, now=timezone.now())
    theirs = chat.chat_post(profile=bruno, text="vou ganhar", table=table, now=timezone.now() + dt.timedelta(seconds=2))
    page = guest_client(ana).get(f"/jogar/mesas/{table.pk}/").content.decode()
    assert f"/jogar/conduta/denunciar/?mensagem={theirs.pk}&amp;next=" in page
    assert f"?mensagem={mine.pk}&amp;" not in page
    report = guest_client(ana).get(f"/jogar/conduta/denunciar/?mensagem={theirs.pk}")
    assert report.status_code == 200 and "vou ganhar" in report.content.decode()
