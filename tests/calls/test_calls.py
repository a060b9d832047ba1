"""Calling duplas to their mesa ("Sua vez", issue 24 point 13): phones, services, the desk's page, the pages
that show the call, the e-mails (Django's locmem backend), permissions, and phones kept off public pages."""

import datetime as dt
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from tests.support.desk import add_duplas, client_for, make_tournament, make_user
from tests.support.threads import run_together
from tournaments.calls import mail as calls_mail
from tournaments.calls import services
from tournaments.calls.phones import phone_is_mobile, phone_normalize, whatsapp_url
from tournaments.draws import services as draws
from tournaments.models import AuditEntry, Call, Jogo, Player, StaffRole, Tournament
from tournaments.permissions import may_call_duplas
from tournaments.refusals import Refused

GROUPS = {"kind": "groups_knockout", "group_size": 4, "per_group": 2, "best_others": 0, "bracket_method": "seeded"}
PHONE = "(19) 99876-5432"
LANDLINE = "(19) 3234-5678"


# --- phones ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "digits"),
    [
        ("(19) 99876-5432", "5519998765432"),
        ("19 3234-5678", "551932345678"),
        ("+55 19 99876 5432", "5519998765432"),
        ("55 (11) 3234-5678", "551132345678"),
        ("019 99876-5432", "5519998765432"),
        ("(55) 99876-5432", "5555998765432"),  # DDD 55 (RS) is not the country code
        ("55 55 99876-5432", "5555998765432"),
        ("", None),
        ("99876-5432", None),  # no area code
        ("+1 415 555 0100", None),
        ("(00) 99876-5432", None),  # no area code starts with 0
        ("(19) 89876-5432", None),  # 11 digits: a mobile has 9 after the area code
        ("abc", None),
    ],
)
def test_phone_normalize(raw, digits):
    assert phone_normalize(raw) == digits


@given(st.from_regex(r"[1-9][1-9]9[0-9]{8}", fullmatch=True), st.sampled_from(["", "55", "+55 ", "0"]))
def test_a_mobile_written_any_way_gives_55_and_its_digits(number, prefix):
    spaced = f"{prefix}({number[:2]}) {number[2:7]}-{number[7:]}"
    assert phone_normalize(spaced) == "55" + number


@given(st.text(max_size=30))
def test_normalized_phones_are_55_and_12_or_13_digits(raw):
    digits = phone_normalize(raw)
    assert digits is None or (digits.isdigit() and digits.startswith("55") and len(digits) in (12, 13))


@pytest.mark.parametrize(
    ("raw", "mobile"),
    [
        ("(19) 99876-5432", True),
        ("+55 11 98000-1000", True),
        ("(19) 9876-5432", True),  # a mobile written before the ninth digit
        ("(19) 3234-5678", False),  # a landline: 2 to 5
        ("11 2345-6789", False),
        ("(51) 5555-0000", False),
    ],
)
def test_only_a_mobile_gets_whatsapp(raw, mobile):
    """Issue 41 item 20: landlines got a WhatsApp button."""
    digits = phone_normalize(raw)
    assert digits is not None and phone_is_mobile(digits) is mobile


@given(st.from_regex(r"[1-9][1-9][2-5][0-9]{7}", fullmatch=True))
def test_no_landline_is_a_mobile(number):
    digits = phone_normalize(f"({number[:2]}) {number[2:6]}-{number[6:]}")
    assert digits == "55" + number and not phone_is_mobile(digits)


def test_whatsapp_url_encodes_the_whole_text():
    url = whatsapp_url(phone="5519998765432", text="Sua vez! Mesa 3 & link: https://x/d/a?b=1")
    parts = urlsplit(url)
    assert parts.netloc == "wa.me" and parts.path == "/5519998765432"
    assert parse_qs(parts.query)["text"] == ["Sua vez! Mesa 3 & link: https://x/d/a?b=1"]


# --- an event with jogos ---------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _mail_inline(settings):
    settings.ZAP_CALLS_MAIL_THREAD = False  # the e-mails go in the test's thread (its transaction)
    settings.SITE_URL = "https://truco.example.org"


@pytest.fixture
def event(db):
    t = make_tournament("interior", preset="fenacef", fmt=GROUPS)
    add_duplas(t, 8)
    organizer = make_user("ana", t)
    draws.competition_publish(tournament=t, user=None, seed=3)
    t.refresh_from_db()
    first = Jogo.objects.filter(tournament=t, round=1).order_by("id").first()
    a = first.dupla_a
    Player.objects.filter(pk=a.player1_id).update(phone=PHONE, email="um@example.org")
    Player.objects.filter(pk=a.player2_id).update(phone="123")
    Player.objects.filter(pk=first.dupla_b.player1_id).update(email="outro@example.org")
    Player.objects.filter(pk=first.dupla_b.player2_id).update(phone=LANDLINE)
    return t, organizer, first


def test_calling_a_jogo_shows_it_queues_and_sends_the_emails(event, django_capture_on_commit_callbacks):
    t, organizer, jogo = event
    with django_capture_on_commit_callbacks(execute=True):
        done = services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    assert done.jogos == 1 and done.emails == 2
    assert Call.objects.filter(jogo=jogo, channel=Call.PAGES, dupla=None, mesa=jogo.mesa, by=organizer).count() == 1
    sent = Call.objects.filter(jogo=jogo, channel=Call.EMAIL).order_by("email")
    assert [(c.email, c.status, c.attempts) for c in sent] == [
        ("outro@example.org", Call.SENT, 1),
        ("um@example.org", Call.SENT, 1),
    ]
    assert sorted(m.to[0] for m in mail.outbox) == ["outro@example.org", "um@example.org"]
    message = next(m for m in mail.outbox if m.to == ["um@example.org"])
    assert message.subject == f"Sua vez: mesa {jogo.mesa} · Copa interior"
    assert f"mesa {jogo.mesa}" in message.body and jogo.dupla_b.display_name in message.body
    jogo.dupla_a.refresh_from_db()
    assert f"https://truco.example.org/d/{jogo.dupla_a.token}/" in message.body
    assert AuditEntry.objects.filter(tournament=t, action="call_jogo").count() == 1


def test_a_call_is_a_pages_write_the_version_moves(event):
    t, organizer, jogo = event
    before = Tournament.objects.get(pk=t.pk).results_version
    services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    assert Tournament.objects.get(pk=t.pk).results_version == before + 1


def _emails_for_all(t) -> None:
    """Every player of the event gets an address of their own."""
    for player in Player.objects.filter(tournament=t):
        Player.objects.filter(pk=player.pk).update(email=f"{player.key}@example.org")


def test_calling_a_jogo_again_mails_no_address_twice(event, django_capture_on_commit_callbacks):
    t, organizer, jogo = event
    with django_capture_on_commit_callbacks(execute=True):
        first = services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        again = services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    assert (first.emails, again.emails, again.repeated) == (2, 0, 2)
    assert len(mail.outbox) == 2 and Call.objects.filter(channel=Call.EMAIL).count() == 2
    assert Call.objects.filter(jogo=jogo, channel=Call.PAGES).count() == 2  # the pages' call was made again
    # at another mesa it is another call: each address gets it once
    Jogo.objects.filter(pk=jogo.pk).update(mesa=jogo.mesa + 20)
    with django_capture_on_commit_callbacks(execute=True):
        moved = services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    assert (moved.emails, moved.repeated) == (2, 0) and len(mail.outbox) == 4
    assert {m.subject for m in mail.outbox[2:]} == {f"Sua vez: mesa {jogo.mesa + 20} · Copa interior"}


def test_one_address_shared_by_a_duplas_two_players_gets_one_email(event, django_capture_on_commit_callbacks):
    t, organizer, jogo = event
    Player.objects.filter(pk=jogo.dupla_a.player2_id).update(email="UM@example.org")  # player1's, in capitals
    with django_capture_on_commit_callbacks(execute=True):
        done = services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    assert (done.emails, done.repeated) == (2, 1)
    assert sorted(m.to[0].casefold() for m in mail.outbox) == ["outro@example.org", "um@example.org"]


def test_the_accounts_hourly_limit_holds_the_emails_back_and_the_page_says_how_many_and_until_when(event, settings):
    settings.ZAP_CALL_EMAILS_PER_ACCOUNT_HOUR = 3
    t, organizer, jogo = event
    second = Jogo.objects.filter(tournament=t, round=1).exclude(pk=jogo.pk).order_by("id").first()
    Player.objects.filter(pk__in=[second.dupla_a.player1_id, second.dupla_b.player2_id]).update(email="x@example.org")
    assert services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer).emails == 2
    first_sent = Call.objects.filter(channel=Call.EMAIL).earliest("at").at
    c = client_for(organizer)
    page = c.post(reverse("desk:jogo_call", args=[t.slug, second.pk]), follow=True).content.decode()
    room = timezone.localtime(first_sent + dt.timedelta(hours=1))
    room = room.replace(second=0, microsecond=0) + dt.timedelta(minutes=1 if room.second or room.microsecond else 0)
    assert (
        "2 e-mails de chamada não enviados: esta conta já pôs 2 e-mails de chamada na fila na última hora "
        f"(o limite é 3 por hora); há lugar de novo às {room:%H:%M}." in page
    )
    assert "Jogo chamado" in page  # the pages' call is made all the same
    assert Call.objects.filter(jogo=second, channel=Call.PAGES).exists()
    assert not Call.objects.filter(jogo=second, channel=Call.EMAIL).exists()
    assert AuditEntry.objects.filter(action="call_jogo").order_by("-id").first().after["emails_held"] == 2
    # an hour after the first ones there is room again
    Call.objects.filter(channel=Call.EMAIL).update(at=first_sent - dt.timedelta(hours=1))
    assert services.jogo_call(tournament=t, jogo_id=second.pk, user=organizer).emails == 2


def test_the_events_limit_counts_every_account_per_player_of_its_duplas(event, settings):
    settings.ZAP_CALL_EMAILS_PER_PLAYER_HOUR = 1  # 8 duplas: 16 e-mails an hour
    t, organizer, jogo = event
    _emails_for_all(t)
    other = make_user("bia", t)
    stage = jogo.stage
    done = services.round_call(tournament=t, stage_key=stage.key, round_number=1, user=organizer)
    assert done.jogos == 4 and done.emails == 16 and not done.mail_refused
    Jogo.objects.filter(pk=jogo.pk).update(mesa=jogo.mesa + 20)  # another call of a jogo: 4 e-mails more
    refused = services.jogo_call(tournament=t, jogo_id=jogo.pk, user=other)
    assert refused.emails == 0
    assert "4 e-mails de chamada não enviados: este torneio já pôs 16 e-mails" in refused.mail_refused
    assert "(o limite é 16 por hora, 1 por atleta das duplas)" in refused.mail_refused
    assert Call.objects.filter(channel=Call.EMAIL).count() == 16


def test_a_round_queues_the_jogos_that_fit_and_says_how_many_jogos_were_held(event, settings):
    settings.ZAP_CALL_EMAILS_PER_ACCOUNT_HOUR = 6
    t, organizer, jogo = event
    _emails_for_all(t)
    c = client_for(organizer)
    page = c.post(
        reverse("desk:round_call", args=[t.slug]), {"fase": jogo.stage.key, "rodada": "1"}, follow=True
    ).content.decode()
    assert Call.objects.filter(channel=Call.PAGES).count() == 4
    assert Call.objects.filter(channel=Call.EMAIL).count() == 4  # the first jogo's four; three jogos held
    assert "12 e-mails de chamada não enviados (de 3 jogos): esta conta já pôs 4 e-mails" in page


@pytest.mark.django_db(transaction=True)
def test_calls_at_once_from_many_events_never_pass_the_accounts_limit(settings):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite runs one write transaction at a time)")
    settings.ZAP_CALL_EMAILS_PER_ACCOUNT_HOUR = 8
    organizer = make_user("rui")
    calls = []
    for n in range(4):
        t = make_tournament(f"juntos-{n}", preset="fenacef", fmt=GROUPS)
        add_duplas(t, 8)
        StaffRole.objects.create(tournament=t, user=organizer, role=StaffRole.ORGANIZER)
        draws.competition_publish(tournament=t, user=None, seed=3)
        t.refresh_from_db()
        _emails_for_all(t)
        jogo = Jogo.objects.filter(tournament=t, round=1).order_by("id").first()
        calls.append(lambda t=t, jogo=jogo: services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer).emails)
    assert sorted(run_together(calls)) == [0, 0, 4, 4]
    assert Call.objects.filter(channel=Call.EMAIL).count() == 8


def test_a_failed_email_is_kept_failed_and_calls_send_retries_it(
    event, monkeypatch, django_capture_on_commit_callbacks
):
    t, organizer, jogo = event

    def broken(*args, **kwargs):
        raise ConnectionRefusedError("smtp fora do ar")

    monkeypatch.setattr(calls_mail, "send_mail", broken)
    with django_capture_on_commit_callbacks(execute=True):
        services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    failed = list(Call.objects.filter(channel=Call.EMAIL))
    assert {c.status for c in failed} == {Call.FAILED}
    assert all("smtp fora do ar" in c.error for c in failed)
    monkeypatch.undo()
    call_command("calls_send", verbosity=0)
    assert {c.status for c in Call.objects.filter(channel=Call.EMAIL)} == {Call.SENT}
    assert len(mail.outbox) == 2


def test_a_jogo_without_mesa_or_begun_is_not_called(event):
    t, organizer, jogo = event
    Jogo.objects.filter(pk=jogo.pk).update(mesa=None)
    with pytest.raises(Refused, match="ainda não tem mesa"):
        services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    Jogo.objects.filter(pk=jogo.pk).update(mesa=1, status=Jogo.IN_PROGRESS)
    with pytest.raises(Refused, match="já começou"):
        services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    assert not Call.objects.exists()


def test_calling_a_round_calls_one_jogo_per_free_mesa(event):
    t, organizer, jogo = event
    stage = jogo.stage
    Tournament.objects.filter(pk=t.pk).update(mesas=2)
    jogos = list(Jogo.objects.filter(tournament=t, stage=stage, round=1).order_by("id"))
    for n, j in enumerate(jogos):
        Jogo.objects.filter(pk=j.pk).update(mesa=n % 2 + 1)  # two turns on two mesas
    done = services.round_call(tournament=t, stage_key=stage.key, round_number=1, user=organizer)
    assert done.jogos == 2
    assert sorted(Call.objects.filter(channel=Call.PAGES).values_list("mesa", flat=True)) == [1, 2]
    assert any("espera o jogo anterior" in why for why in done.skipped)
    again = services.round_call(tournament=t, stage_key=stage.key, round_number=1, user=organizer)
    assert again.jogos == 0  # already called: not twice


def test_whatsapp_call_records_and_gives_the_link(event):
    t, organizer, jogo = event
    dupla = jogo.dupla_a
    url = services.whatsapp_call(
        tournament=t, jogo_id=jogo.pk, dupla_id=dupla.pk, player_id=dupla.player1_id, user=organizer
    )
    assert url.startswith("https://wa.me/5519998765432?text=")
    text = unquote(url.split("text=", 1)[1])
    dupla.refresh_from_db()
    assert "Copa interior: sua vez!" in text and f"mesa {jogo.mesa}" in text
    assert jogo.dupla_b.display_name in text and f"https://truco.example.org/d/{dupla.token}/" in text
    assert list(Call.objects.order_by("id").values_list("channel", flat=True)) == [Call.PAGES, Call.WHATSAPP]
    with pytest.raises(Refused, match="telefone inválido"):
        services.whatsapp_call(
            tournament=t, jogo_id=jogo.pk, dupla_id=dupla.pk, player_id=dupla.player2_id, user=organizer
        )
    other = jogo.dupla_b
    with pytest.raises(Refused, match="telefone fixo, sem WhatsApp"):
        services.whatsapp_call(tournament=t, jogo_id=jogo.pk, dupla_id=other.pk, player_id=other.player2_id)


# --- the desk ------------------------------------------------------------------------------------------


def test_the_calls_page_shows_phones_buttons_and_invalid_ones(event):
    t, organizer, jogo = event
    c = client_for(organizer)
    page = c.get(reverse("desk:calls", args=[t.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert PHONE in html and 'target="_blank"' in html
    assert "telefone inválido" in html and "Chamar a rodada 1" in html
    # a landline: no WhatsApp button for its player, its number to dial instead
    landline = Player.objects.get(pk=jogo.dupla_b.player2_id)
    assert 'name="atleta"' in html and f'name="atleta" value="{landline.pk}"' not in html
    assert f"{landline.name}: telefone fixo, sem WhatsApp" in html and 'href="tel:+551932345678"' in html
    response = c.post(reverse("desk:jogo_call", args=[t.slug, jogo.pk]))
    assert response.status_code == 302
    page = c.get(reverse("desk:calls", args=[t.slug])).content.decode()
    assert "nas páginas" in page and "por ana" in page


def test_the_whatsapp_button_answers_303_to_wa_me(event):
    t, organizer, jogo = event
    c = client_for(organizer)
    dupla = jogo.dupla_a
    url = reverse("desk:call_whatsapp", args=[t.slug, jogo.pk])
    response = c.post(url, {"dupla": dupla.pk, "atleta": dupla.player1_id})
    assert response.status_code == 303 and response["Location"].startswith("https://wa.me/5519998765432?text=")
    bad = c.post(url, {"dupla": dupla.pk, "atleta": dupla.player2_id})
    assert bad.status_code == 422 and "telefone inválido" in bad.content.decode()
    assert c.post(url, {"dupla": "x"}).status_code == 400
    assert c.post(reverse("desk:jogo_call", args=[t.slug, 999999])).status_code == 404


def test_round_call_view_and_bad_input(event):
    t, organizer, jogo = event
    c = client_for(organizer)
    ok = c.post(reverse("desk:round_call", args=[t.slug]), {"fase": jogo.stage.key, "rodada": "1"})
    assert ok.status_code == 302
    assert c.post(reverse("desk:round_call", args=[t.slug]), {"fase": "", "rodada": "x"}).status_code == 400
    assert c.post(reverse("desk:round_call", args=[t.slug]), {"fase": "nada", "rodada": "1"}).status_code == 404


def test_only_organizers_call(event):
    t, organizer, jogo = event
    referee = make_user("juiz", t, role="referee")
    stranger = make_user("outro")
    assert may_call_duplas(user=organizer, tournament=t)
    assert not may_call_duplas(user=referee, tournament=t)
    assert not may_call_duplas(user=stranger, tournament=t)
    for url in (
        reverse("desk:calls", args=[t.slug]),
        reverse("desk:jogo_call", args=[t.slug, jogo.pk]),
        reverse("desk:round_call", args=[t.slug]),
        reverse("desk:call_whatsapp", args=[t.slug, jogo.pk]),
    ):
        method = "get" if url.endswith("chamadas/") else "post"
        assert getattr(client_for(referee), method)(url).status_code == 403
        assert getattr(client_for(stranger), method)(url).status_code == 404
    assert not Call.objects.exists()


# --- the pages that show the call -------------------------------------------------------------------------


def test_sua_vez_on_the_pages_until_the_jogo_begins_and_no_phone_anywhere(event, client):
    t, organizer, jogo = event
    services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    dupla = jogo.dupla_a
    dupla.refresh_from_db()
    pages = {
        "detail": client.get(reverse("tournaments:detail", args=[t.slug])),
        "tv": client.get(reverse("tournaments:tv", args=[t.slug])),
        "private": client.get(reverse("privatelink:dupla", kwargs={"token": dupla.token})),
    }
    for name, response in pages.items():
        html = response.content.decode()
        assert response.status_code == 200, name
        assert "Sua vez" in html, name
        for private in (PHONE, "99876", "um@example.org", "outro@example.org"):
            assert private not in html, (name, private)
    assert f"Sua vez! Mesa {jogo.mesa}" in pages["private"].content.decode()
    assert jogo.dupla_b.display_name in pages["private"].content.decode()
    export = client.get(reverse("tournaments:export", args=[t.slug])).content.decode()
    assert "99876" not in export and "um@example.org" not in export
    Jogo.objects.filter(pk=jogo.pk).update(status=Jogo.IN_PROGRESS, version=jogo.version + 1)
    for url in (
        reverse("tournaments:detail", args=[t.slug]),
        reverse("privatelink:dupla", kwargs={"token": dupla.token}),
    ):
        assert "Sua vez" not in client.get(url).content.decode(), url


def test_a_round_waits_for_a_mesa_whose_earlier_round_jogo_is_still_to_play(event):
    t, organizer, jogo = event
    stage = jogo.stage
    done = services.round_call(tournament=t, stage_key=stage.key, round_number=2, user=organizer)
    assert done.jogos == 0 and done.skipped  # round 1 has not begun: its mesas are still taken
    assert all("espera o jogo anterior" in why for why in done.skipped)
    assert not Call.objects.exists()
    assert Tournament.objects.get(pk=t.pk).results_version == t.results_version  # nothing the pages show


def test_the_programacao_shows_when_a_jogo_was_called(event):
    t, organizer, jogo = event
    services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    html = client_for(organizer).get(reverse("desk:schedule", args=[t.slug])).content.decode()
    assert "chamado às" in html
    assert PHONE not in html and "99876" not in html
    referee = make_user("juiz", t, role="referee")  # the programação is the comissão's page (INTERCHANGE)
    assert client_for(referee).get(reverse("desk:schedule", args=[t.slug])).status_code == 403
    assert (
        reverse("desk:calls", args=[t.slug])
        in client_for(organizer).get(reverse("desk:mesas", args=[t.slug])).content.decode()
    )


@pytest.mark.django_db(transaction=True)
def test_the_emails_leave_in_a_background_thread_after_the_commit(settings):
    import time

    settings.ZAP_CALLS_MAIL_THREAD = True
    t = make_tournament("fio", preset="fenacef", fmt=GROUPS)
    add_duplas(t, 8)
    organizer = make_user("bia", t)
    draws.competition_publish(tournament=t, user=None, seed=3)
    t.refresh_from_db()
    jogo = Jogo.objects.filter(tournament=t, round=1).order_by("id").first()
    Player.objects.filter(pk=jogo.dupla_a.player1_id).update(email="fio@example.org")
    services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    for _wait in range(100):
        if Call.objects.filter(channel=Call.EMAIL, status=Call.SENT).exists():
            break
        time.sleep(0.05)
    assert Call.objects.get(channel=Call.EMAIL).status == Call.SENT
    assert [m.to for m in mail.outbox] == [["fio@example.org"]]


def test_the_cached_event_page_and_tv_follow_the_call(event, client):
    """The pages are cached per version: the call's write gives a new one, nothing is bumped by hand."""
    t, organizer, jogo = event
    urls = [reverse("tournaments:detail", args=[t.slug]), reverse("tournaments:tv", args=[t.slug])]
    for url in urls:
        assert "Sua vez" not in client.get(url).content.decode()
        assert "Sua vez" not in client.get(url).content.decode()  # served from the cache
    services.jogo_call(tournament=t, jogo_id=jogo.pk, user=organizer)
    for url in urls:
        assert "Sua vez" in client.get(url).content.decode(), url
