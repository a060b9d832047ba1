"""Conduct online (DOMAIN §9.4, §9.6; 004 "medidas administrativas"): reports by any player, measures by the
site's staff with their reasons, what each measure stops, and the staff's pages at /jogar/conduta/."""

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tournaments.models import ChatMessage, ConductReport, OnlineTable, Sala, Sanction, TableSeat
from tournaments.online import chat, conduct, people, services
from tournaments.play.identity import GUEST_SESSION_KEY
from tournaments.refusals import Refused

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 12, 6, 23, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def guest(name: str):
    return people.profile_for_guest(guest_key=None, display_name=name, avatar="boto")


def refused(call, **kwargs) -> Refused:
    with pytest.raises(Refused) as caught:
        call(**kwargs)
    return caught.value


@pytest.fixture
def staff():
    return User.objects.create_user("moderadora", password="x", is_staff=True)


@pytest.fixture
def sala():
    return Sala.objects.create(slug="salao-1", name="Salão 1", number=1)


@pytest.fixture
def table(sala):
    return OnlineTable.objects.create(sala=sala, number=1, status=OnlineTable.OPEN)


# --- measures -------------------------------------------------------------------------------------------------


def test_only_staff_take_measures(staff):
    ana = guest("Ana")
    player = User.objects.create_user("jogador", password="x")
    inactive = User.objects.create_user("antiga", password="x", is_staff=True, is_active=False)
    for who in (player, inactive, None):
        r = refused(conduct.sanction_apply, profile=ana, kind="ban", reason="x", by=who, now=NOW)
        assert r.kind == Refused.FORBIDDEN and r.messages == ["Só a equipe do site aplica medidas de conduta."]
    root = User.objects.create_superuser("raiz", password="x")
    root.is_staff = False
    assert conduct.sanction_apply(profile=ana, kind="warn", reason="x", by=root, now=NOW).kind == "warn"
    assert Sanction.objects.count() == 1


def test_measure_recorded_with_reason_who_and_end(staff):
    ana = guest("Ana")
    muted = conduct.sanction_apply(
        profile=ana, kind="mute", reason=" spam\u202e no salão ", by=staff, until=at(600), now=NOW
    )
    muted.refresh_from_db()
    assert (muted.kind, muted.reason, muted.by_id, muted.at, muted.until) == (
        "mute",
        "spam no salão",
        staff.pk,
        NOW,
        at(600),
    )
    warned = conduct.sanction_apply(profile=ana, kind="warn", reason="cuidado", by=staff, until=at(60), now=NOW)
    assert warned.until is None  # a warning has no end


@pytest.mark.parametrize(
    ("kind", "until", "says"),
    [
        ("mute", None, "Diga até quando vale a medida."),
        ("suspend", None, "Diga até quando vale a medida."),
        ("mute", NOW, "O fim da medida precisa ser depois de agora."),
        ("mute", NOW + dt.timedelta(days=31), "Um silêncio dura no máximo 30 dias."),
        ("suspend", NOW + dt.timedelta(days=366), "Uma suspensão dura no máximo 365 dias."),
        ("expulsar", None, "Medida desconhecida"),
    ],
)
def test_measure_refused(staff, kind, until, says):
    r = refused(conduct.sanction_apply, profile=guest("Ana"), kind=kind, reason="x", by=staff, until=until, now=NOW)
    assert r.kind == Refused.INVALID and says in r.messages[0]
    assert Sanction.objects.count() == 0


@pytest.mark.parametrize("reason", ["", "  \u200b ", "x" * 301])
def test_measure_needs_a_reason(staff, reason):
    r = refused(conduct.sanction_apply, profile=guest("Ana"), kind="warn", reason=reason, by=staff, now=NOW)
    assert r.problems[0].place == "reason"


def test_what_each_measure_stops(staff):
    warned, muted, suspended, banned, account_banned = (guest(n) for n in ("Ana", "Bia", "Caio", "Davi", "Eva"))
    account = people.profile_for_user(user=User.objects.create_user("fred", password="x"))
    conduct.sanction_apply(profile=warned, kind="warn", reason="calma", by=staff, now=NOW)
    conduct.sanction_apply(profile=muted, kind="mute", reason="spam", by=staff, until=at(3600), now=NOW)
    conduct.sanction_apply(profile=suspended, kind="suspend", reason="abandono", by=staff, until=at(86400), now=NOW)
    conduct.sanction_apply(profile=banned, kind="ban", reason="assédio", by=staff, now=NOW)
    conduct.sanction_apply(profile=account, kind="ban", reason="racismo", by=staff, now=NOW)
    assert conduct.may_sit(warned, now=at(1)) is None and conduct.may_chat(warned, now=at(1)) is None
    assert conduct.may_sit(muted, now=at(1)) is None
    assert conduct.may_chat(muted, now=at(1)).kind == Refused.FORBIDDEN
    assert conduct.may_sit(suspended, now=at(1)).messages == [
        "Você está suspenso do jogo online até 07/12/2026 20:00. Motivo: abandono"
    ]
    assert conduct.may_chat(suspended, now=at(1)) is not None
    assert conduct.may_sit(banned, now=at(1)).messages == [
        "Este perfil de visitante foi banido do jogo online. Motivo: assédio"
    ]
    assert conduct.may_sit(account, now=at(10**8)).messages == ["Esta conta foi banida do jogo online. Motivo: racismo"]
    # the ends come
    assert conduct.may_chat(muted, now=at(3600)) is None
    assert conduct.may_sit(suspended, now=at(86400)) is None
    del account_banned


def test_a_ban_for_some_days_ends(staff):
    ana = guest("Ana")
    conduct.sanction_apply(profile=ana, kind="ban", reason="x", by=staff, until=at(2 * 86400), now=NOW)
    assert "banido do jogo online até 08/12/2026 20:00" in conduct.may_sit(ana, now=at(1)).messages[0]
    assert conduct.may_sit(ana, now=at(2 * 86400)) is None


def test_the_strongest_measure_speaks(staff):
    ana = guest("Ana")
    conduct.sanction_apply(profile=ana, kind="mute", reason="spam", by=staff, until=at(3600), now=NOW)
    conduct.sanction_apply(profile=ana, kind="ban", reason="fraude", by=staff, now=NOW)
    assert "banido" in conduct.may_chat(ana, now=at(1)).messages[0]


def test_a_measure_ended_early_says_who_and_why(staff):
    ana = guest("Ana")
    ban = conduct.sanction_apply(profile=ana, kind="ban", reason="engano?", by=staff, now=NOW)
    other = User.objects.create_user("revisor", password="x", is_staff=True)
    conduct.sanction_end(sanction=ban, by=other, reason="era outra pessoa", now=at(60))
    ban.refresh_from_db()
    assert ban.until == at(60)
    assert ban.reason.startswith("engano? · Encerrada em 06/12/2026 20:01 por revisor: era outra pessoa")
    assert conduct.may_sit(ana, now=at(61)) is None
    assert refused(conduct.sanction_end, sanction=ban, by=other, reason="de novo", now=at(61)).kind == Refused.CONFLICT


# --- a banned or suspended player through the table's services (CORE's seat_take calls conduct.may_sit) --------


def test_banned_account_cannot_sit_nor_create_a_table(staff, table):
    user = User.objects.create_user("gui", password="x")
    profile = people.profile_for_user(user=user)
    conduct.sanction_apply(profile=profile, kind="ban", reason="trapaça", by=staff)
    r = refused(services.seat_take, table=table, profile=profile)
    assert r.kind == Refused.FORBIDDEN and r.messages == ["Esta conta foi banida do jogo online. Motivo: trapaça"]
    assert not TableSeat.objects.filter(profile=profile).exists()
    r = refused(services.table_create, host=profile, appearance="verde", face="classico", back="azul")
    assert "banida" in r.messages[0]
    # someone else sits
    assert services.seat_take(table=table, profile=guest("Hugo")).seat in range(4)


def test_suspended_player_cannot_sit_until_the_end(staff, table):
    ana = guest("Ana")
    conduct.sanction_apply(
        profile=ana, kind="suspend", reason="abandonos", by=staff, until=timezone.now() + dt.timedelta(days=3)
    )
    assert "suspenso" in refused(services.seat_take, table=table, profile=ana).messages[0]
    Sanction.objects.filter(profile=ana).update(until=timezone.now() - dt.timedelta(seconds=1))
    assert services.seat_take(table=table, profile=ana).profile_id == ana.pk


def test_muted_player_still_sits(staff, table):
    ana = guest("Ana")
    conduct.sanction_apply(
        profile=ana, kind="mute", reason="spam", by=staff, until=timezone.now() + dt.timedelta(minutes=5)
    )
    seat = services.seat_take(table=table, profile=ana)
    assert seat.profile_id == ana.pk
    assert "silenciado" in refused(chat.chat_post, profile=ana, table=table, text="oi", now=timezone.now()).messages[0]


# --- reports ----------------------------------------------------------------------------------------------------


def test_report_a_message_keeps_its_text(sala):
    ana, bia = guest("Ana"), guest("Bia")
    message = chat.chat_post(profile=bia, sala=sala, text="<script>alert(1)</script> seu lixo", now=NOW)
    report = conduct.report_create(reporter=ana, message=message, reason=" ofensa ", now=at(5))
    assert (report.reporter_id, report.target_id, report.message_id) == (ana.pk, bia.pk, message.pk)
    assert (report.text, report.reason, report.at, report.handled_at) == (message.text, "ofensa", at(5), None)


def test_report_a_player(sala):
    ana, bia = guest("Ana"), guest("Bia")
    report = conduct.report_create(reporter=ana, target=bia, reason="abandona toda partida", now=NOW)
    assert report.message_id is None and report.text == ""


def test_report_refusals(sala, table):
    ana, bia, caio = guest("Ana"), guest("Bia"), guest("Caio")
    in_sala = chat.chat_post(profile=bia, sala=sala, text="oi", now=NOW)
    TableSeat.objects.create(table=table, seat=0, profile=bia)
    at_table = chat.chat_post(profile=bia, table=table, text="segredo da mesa", now=at(2))
    assert refused(conduct.report_create, reporter=ana, target=ana, reason="x").messages == [
        "Você não pode denunciar a si mesmo."
    ]
    assert refused(conduct.report_create, reporter=ana, reason="x").kind == Refused.INVALID
    assert refused(conduct.report_create, reporter=ana, target=caio, message=in_sala, reason="x").messages == [
        "Essa mensagem não é desse jogador."
    ]
    # a table's message only by whoever could read it
    assert refused(conduct.report_create, reporter=ana, message=at_table, reason="x").kind == Refused.NOT_FOUND
    assert refused(conduct.report_create, reporter=ana, message=in_sala, reason="").problems[0].place == "reason"
    conduct.report_create(reporter=ana, message=in_sala, reason="spam", now=at(3))
    again = refused(conduct.report_create, reporter=ana, message=in_sala, reason="spam!", now=at(4))
    assert again.kind == Refused.CONFLICT and again.messages == ["Você já denunciou esta mensagem; a equipe vai olhar."]
    assert ConductReport.objects.count() == 1


def test_reports_per_hour_limited():
    ana = guest("Ana")
    targets = [guest(f"Alvo {i}") for i in range(11)]
    for i, target in enumerate(targets[:10]):
        conduct.report_create(reporter=ana, target=target, reason="x", now=at(i))
    r = refused(conduct.report_create, reporter=ana, target=targets[10], reason="x", now=at(60))
    assert r.kind == Refused.LOCKED and "10 denúncias na última hora" in r.messages[0]
    conduct.report_create(reporter=ana, target=targets[10], reason="x", now=at(3601))


def test_handle_report_mutes_hides_and_closes_the_same_messages_reports(sala, staff):
    ana, bia, caio = guest("Ana"), guest("Bia"), guest("Caio")
    message = chat.chat_post(profile=bia, sala=sala, text="ofensa", now=NOW)
    first = conduct.report_create(reporter=ana, message=message, reason="ofendeu", now=at(1))
    second = conduct.report_create(reporter=caio, message=message, reason="ofendeu também", now=at(2))
    of_player = conduct.report_create(reporter=ana, target=bia, reason="chata", now=at(3))
    sanction = conduct.report_handle(
        report=first, by=staff, outcome="mute", reason="ofensa no salão", minutes=30, hide_message=True, now=at(10)
    )
    assert (sanction.kind, sanction.profile_id, sanction.until, sanction.reason) == (
        "mute",
        bia.pk,
        at(10 + 30 * 60),
        "ofensa no salão",
    )
    for report in (first, second):
        report.refresh_from_db()
        assert (report.handled_by_id, report.handled_at) == (staff.pk, at(10))
        assert conduct.report_outcome(report) == ("mute", "ofensa no salão")
    of_player.refresh_from_db()
    assert of_player.handled_at is None  # another matter
    assert ChatMessage.objects.get(pk=message.pk).hidden
    assert chat.chat_history(sala=sala) == []
    again = refused(conduct.report_handle, report=second, by=staff, outcome="ban", reason="x", now=at(11))
    assert again.kind == Refused.CONFLICT
    assert Sanction.objects.count() == 1


@pytest.mark.parametrize(
    ("outcome", "extra", "kind", "until"),
    [
        ("warn", {}, "warn", None),
        ("suspend", {"days": 3}, "suspend", NOW + dt.timedelta(days=3)),
        ("ban", {}, "ban", None),
        ("ban", {"days": 7}, "ban", NOW + dt.timedelta(days=7)),
        ("dismiss", {}, None, None),
    ],
)
def test_handle_report_outcomes(staff, outcome, extra, kind, until):
    ana, bia = guest("Ana"), guest("Bia")
    report = conduct.report_create(reporter=ana, target=bia, reason="x", now=NOW)
    sanction = conduct.report_handle(report=report, by=staff, outcome=outcome, reason="decidido", now=NOW, **extra)
    if kind is None:
        assert sanction is None and Sanction.objects.count() == 0
    else:
        assert (sanction.kind, sanction.until, sanction.profile_id) == (kind, until, bia.pk)
    report.refresh_from_db()
    assert conduct.report_outcome(report) == (outcome, "decidido")


@pytest.mark.parametrize(
    ("outcome", "extra", "place"),
    [("mute", {}, "minutes"), ("mute", {"minutes": 10**6}, "minutes"), ("suspend", {"days": 0}, "days")],
)
def test_handle_report_needs_its_duration(staff, outcome, extra, place):
    report = conduct.report_create(reporter=guest("Ana"), target=guest("Bia"), reason="x", now=NOW)
    r = refused(conduct.report_handle, report=report, by=staff, outcome=outcome, reason="x", now=NOW, **extra)
    assert r.problems[0].place == place
    report.refresh_from_db()
    assert report.handled_at is None


def test_notices_for_the_player(staff):
    ana = guest("Ana")
    conduct.sanction_apply(profile=ana, kind="warn", reason="velha", by=staff, now=NOW - dt.timedelta(days=8))
    conduct.sanction_apply(profile=ana, kind="warn", reason="nova", by=staff, now=NOW)
    conduct.sanction_apply(profile=ana, kind="mute", reason="spam", by=staff, until=at(60), now=NOW)
    assert [(n.kind, n.reason) for n in conduct.conduct_notices(profile=ana, now=at(1))] == [
        ("warn", "nova"),
        ("mute", "spam"),
    ] or [(n.kind, n.reason) for n in conduct.conduct_notices(profile=ana, now=at(1))] == [
        ("mute", "spam"),
        ("warn", "nova"),
    ]
    assert [n.kind for n in conduct.conduct_notices(profile=ana, now=at(120))] == ["warn"]


# --- the pages ----------------------------------------------------------------------------------------------------


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def guest_client(profile) -> Client:
    c = Client()
    session = c.session
    session[GUEST_SESSION_KEY] = profile.guest_key
    session.save()
    return c


def test_conduct_page_is_staff_only(staff):
    assert Client().get("/jogar/conduta/").status_code == 302
    assert "/entrar/" in Client().get("/jogar/conduta/")["Location"]
    player = User.objects.create_user("jogador", password="x")
    page = client_for(player).get("/jogar/conduta/")
    assert page.status_code == 403 and "Esta página é da equipe do site" in page.content.decode()
    assert client_for(player).post("/jogar/conduta/denuncias/1/", {}).status_code == 403
    assert client_for(staff).get("/jogar/conduta/").status_code == 200


def test_staff_page_lists_open_reports_with_markup_escaped(sala, staff):
    ana = guest("Ana")
    bia = people.profile_for_guest(guest_key=None, display_name="Bia", avatar="mico")
    message = chat.chat_post(profile=bia, sala=sala, text='<img src=x onerror="alert(1)"> vai perder', now=NOW)
    conduct.report_create(reporter=ana, message=message, reason="<b>ameaça</b>", now=at(1))
    page = client_for(staff).get("/jogar/conduta/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "<img src=x" not in html and "<b>ameaça</b>" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; vai perder" in html
    assert "&lt;b&gt;ameaça&lt;/b&gt;" in html
    assert "Salão 1" in html and "1 denúncia aberta" in html
    assert page["Cache-Control"].startswith("max-age=0") or "no-cache" in page["Cache-Control"]


def test_staff_acts_on_a_report_from_the_page(sala, staff):
    ana, bia = guest("Ana"), guest("Bia")
    message = chat.chat_post(profile=bia, sala=sala, text="spam spam", now=NOW)
    report = conduct.report_create(reporter=ana, message=message, reason="spam", now=at(1))
    c = client_for(staff)
    prefix = f"r{report.pk}-"
    # a mute without its minutes: the form says so, nothing done
    bad = c.post(f"/jogar/conduta/denuncias/{report.pk}/", {prefix + "outcome": "mute", prefix + "reason": "spam"})
    assert bad.status_code == 400 and "Diga por quantos minutos silenciar." in bad.content.decode()
    assert Sanction.objects.count() == 0
    done = c.post(
        f"/jogar/conduta/denuncias/{report.pk}/",
        {
            prefix + "outcome": "mute",
            prefix + "minutes": "15",
            prefix + "reason": "spam no salão",
            prefix + "hide_message": "on",
        },
        follow=True,
    )
    assert done.status_code == 200
    assert re.search(r"Bia está silenciado\(a\) até \d\d/\d\d/\d{4} \d\d:\d\d", done.content.decode())
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.by_id, sanction.reason, sanction.profile_id) == (
        "mute",
        staff.pk,
        "spam no salão",
        bia.pk,
    )
    assert ChatMessage.objects.get(pk=message.pk).hidden
    assert "Nenhuma denúncia aberta." in done.content.decode()
    # handled twice (another tab): said, nothing more
    twice = c.post(
        f"/jogar/conduta/denuncias/{report.pk}/",
        {prefix + "outcome": "ban", prefix + "reason": "x"},
        follow=True,
    )
    assert "já foi resolvida" in twice.content.decode()
    assert Sanction.objects.count() == 1


def test_staff_player_page_measure_and_end(staff):
    ana = guest("Ana")
    c = client_for(staff)
    page = c.get(f"/jogar/conduta/jogadores/{ana.pk}/")
    assert page.status_code == 200 and "Visitante (sem conta)" in page.content.decode()
    done = c.post(
        f"/jogar/conduta/jogadores/{ana.pk}/",
        {"outcome": "suspend", "days": "2", "reason": "abandonou três partidas"},
        follow=True,
    )
    assert "Ana está suspenso(a) até" in done.content.decode()
    sanction = Sanction.objects.get()
    assert conduct.may_sit(ana) is not None
    c.post(f"/jogar/conduta/medidas/{sanction.pk}/encerrar/", {"reason": "recurso aceito"}, follow=True)
    assert conduct.may_sit(ana) is None
    assert "recurso aceito" in Sanction.objects.get().reason
    assert c.get("/jogar/conduta/jogadores/999999/").status_code == 404


def test_player_reports_a_message_from_the_page(sala):
    ana, bia = guest("Ana"), guest("Bia")
    message = chat.chat_post(profile=bia, sala=sala, text="<i>xingamento</i>", now=NOW)
    c = guest_client(ana)
    page = c.get(f"/jogar/conduta/denunciar/?mensagem={message.pk}&next=/jogar/salao-1/")
    html = page.content.decode()
    assert page.status_code == 200 and "&lt;i&gt;xingamento&lt;/i&gt;" in html and "<i>xingamento" not in html
    sent = c.post(
        "/jogar/conduta/denunciar/", {"mensagem": message.pk, "motivo": "xingou", "next": "https://mal.example/"}
    )
    assert sent.status_code == 302 and sent["Location"] == "/jogar/"  # never away from the site
    report = ConductReport.objects.get()
    assert (report.reporter_id, report.target_id, report.text, report.reason) == (
        ana.pk,
        bia.pk,
        "<i>xingamento</i>",
        "xingou",
    )
    twice = c.post("/jogar/conduta/denunciar/", {"mensagem": message.pk, "motivo": "de novo"})
    assert twice.status_code == 409 and "Você já denunciou esta mensagem" in twice.content.decode()


def test_player_report_page_refusals(sala, table):
    ana, bia = guest("Ana"), guest("Bia")
    TableSeat.objects.create(table=table, seat=0, profile=bia)
    secret = chat.chat_post(profile=bia, table=table, text="só da mesa", now=NOW)
    assert Client().get(f"/jogar/conduta/denunciar/?jogador={bia.pk}").status_code == 403  # no profile yet
    c = guest_client(ana)
    hidden = c.get(f"/jogar/conduta/denunciar/?mensagem={secret.pk}")
    assert hidden.status_code == 404 and "só da mesa" not in hidden.content.decode()
    assert c.get("/jogar/conduta/denunciar/?mensagem=99999999999999").status_code == 404
    assert c.get("/jogar/conduta/denunciar/").status_code == 404
    empty = c.post("/jogar/conduta/denunciar/", {"jogador": bia.pk, "motivo": ""})
    assert empty.status_code == 400 and "Escreva o motivo." in empty.content.decode()
    assert ConductReport.objects.count() == 0
    assert c.post("/jogar/conduta/denunciar/", {"jogador": bia.pk, "motivo": "abandona"}).status_code == 302
    assert ConductReport.objects.get().message_id is None
