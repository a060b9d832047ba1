"""Registration services and the situation selector (docs/regras.md §2 step 2): checks, limit, withdraw, check-in."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from tests.support.registrations import tournament_make, user_make
from tournaments.models import AuditEntry, Draw, Dupla, Player, Registration
from tournaments.refusals import Refused
from tournaments.registrations import presence, services
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.selectors import registration_list, registration_rows, registrations_for_pairing

pytestmark = pytest.mark.django_db
ADULT = date(1990, 1, 1)


def add(t, *names, source=Registration.DESK, user=None, **kw):
    return services.registration_add(
        tournament=t, players=[PersonIn(n, ADULT, **kw) for n in names], source=source, user=user
    )


def situations(t):
    return [(str(r.registration), r.situation, r.waiting_position) for r in registration_rows(tournament=t)]


def test_add_individual_and_pair_with_keys_order_and_audit():
    t = tournament_make()
    org = user_make("org")
    a = add(t, "Ana Souza", user=org)
    b = add(t, "Bruno Lima", "Carla Dias")
    assert (a.order, b.order) == (1, 2)
    assert [a.player1.key, b.player1.key, b.player2.key] == ["p1", "p2", "p3"]
    assert a.status == Registration.WAITING and a.source == Registration.DESK
    entry = AuditEntry.objects.filter(tournament=t, action="registration_add").order_by("id").first()
    assert entry.user == org and entry.summary == "Inscrição de Ana Souza adicionada pela comissão (aceita)"


def test_checks_refuse_with_problems_where_they_are():
    t = tournament_make()
    add(t, "Ana Souza")
    with pytest.raises(Refused) as exc:
        services.registration_add(
            tournament=t, players=[PersonIn("  ana   SOUZA ", ADULT), PersonIn("Kid", date(2010, 1, 1))]
        )
    fields = [(p.player, p.field) for p in exc.value.problems]
    assert fields == [(1, "birth_date"), (0, "name")]
    assert "já está inscrito(a) neste torneio" in exc.value.messages[1]
    with pytest.raises(Refused) as exc:
        services.registration_add(tournament=t, players=[PersonIn("Dudu", None)])
    assert exc.value.messages == ["atleta, data de nascimento: obrigatória: o torneio tem idade mínima de 18 anos"]
    with pytest.raises(Refused) as exc:
        services.registration_add(tournament=t, players=[PersonIn("Eva", ADULT), PersonIn("eva", ADULT)])
    assert exc.value.problems[0].message == "é a mesma pessoa que o primeiro atleta desta inscrição"
    assert Registration.objects.filter(tournament=t).count() == 1


def test_without_a_date_ages_count_on_today():
    t = tournament_make()
    t.date = None
    t.save()
    young = timezone.localdate() - timedelta(days=365 * 17)
    with pytest.raises(Refused):
        services.registration_add(tournament=t, players=[PersonIn("Teen", young)])


def test_public_form_only_while_open_and_needs_a_contact():
    t = tournament_make()
    with pytest.raises(Refused) as exc:
        add(t, "Ana", source=Registration.FORM)
    assert exc.value.problems[0].field == "contact"
    add(t, "Ana", source=Registration.FORM, phone="11 98888 7777")
    services.registration_close(tournament=t, user=None)
    with pytest.raises(Refused, match="encerradas"):
        add(t, "Bia", source=Registration.FORM, phone="11 98888 7777")
    add(t, "Bia")  # the organizer may add after closing
    assert Registration.objects.filter(tournament=t).count() == 2


def test_withdraw_promotes_the_first_on_the_waiting_list_that_fits_and_records_it():
    t = tournament_make(max_duplas=1)  # 2 places
    org = user_make("org")
    add(t, "Ana")
    add(t, "Bia")
    pair = add(t, "Caio", "Duda")
    add(t, "Edu")
    assert [s[1:] for s in situations(t)] == [("accepted", None), ("accepted", None), ("waiting", 1), ("waiting", 2)]
    result = presence.registration_withdraw(registration=Registration.objects.get(order=1), user=org)
    # one place freed: the pair does not fit, Edu (first that fits) moves up
    assert [str(r) for r in result.promoted] == ["Edu"]
    assert [s[1:] for s in situations(t)] == [
        ("withdrawn", None),
        ("accepted", None),
        ("waiting", 1),
        ("accepted", None),
    ]
    entry = AuditEntry.objects.get(tournament=t, action="registration_withdraw")
    assert entry.summary == "Inscrição de Ana retirada; Edu sai da lista de espera"
    assert entry.user == org and entry.after["promoted"] == ["Edu"]
    ana = Registration.objects.get(order=1)
    assert ana.status == Registration.WITHDRAWN and ana.withdrawn_at is not None
    presence.registration_withdraw(registration=Registration.objects.get(order=2), user=org)
    # Bia leaves: 1 place; the pair still waits
    presence.registration_withdraw(registration=Registration.objects.get(order=4), user=org)
    entry = AuditEntry.objects.filter(action="registration_withdraw").order_by("-id").first()
    assert entry.summary == "Inscrição de Edu retirada; Caio + Duda sai da lista de espera"
    assert (
        registration_rows(tournament=t)[2].registration == pair
        and registration_rows(tournament=t)[2].situation == "accepted"
    )


def test_a_withdrawal_never_sends_someone_accepted_back_to_the_waiting_list():
    t = tournament_make(max_duplas=1)
    add(t, "Ana")
    add(t, "Bia", "Caio")  # waits: one place left
    add(t, "Duda")  # takes it
    result = presence.registration_withdraw(registration=Registration.objects.get(order=1), user=None)
    # one place free: the pair still does not fit, and Duda keeps the place she was given
    assert result.promoted == [] and result.demoted == []
    assert [s[1:] for s in situations(t)] == [("withdrawn", None), ("waiting", 1), ("accepted", None)]
    assert AuditEntry.objects.get(action="registration_withdraw").summary == "Inscrição de Ana retirada"
    result = presence.registration_withdraw(registration=Registration.objects.get(order=3), user=None)
    assert [str(r) for r in result.promoted] == ["Bia + Caio"]
    # a registration arriving now goes after the waiting list's turn: no place left
    add(t, "Edu")
    assert situations(t)[-1][1:] == ("waiting", 1)


def test_withdraw_refused_for_a_paired_or_withdrawn_registration():
    t = tournament_make()
    reg = add(t, "Ana", "Bia")
    Dupla.objects.create(tournament=t, key="d1", player1=reg.player1, player2=reg.player2)
    Registration.objects.filter(pk=reg.pk).update(status=Registration.PAIRED)
    with pytest.raises(Refused, match="já está em dupla.*página de duplas"):
        presence.registration_withdraw(registration=reg, user=None)
    other = add(t, "Caio")
    presence.registration_withdraw(registration=other, user=None)
    with pytest.raises(Refused, match="já foi retirada"):
        presence.registration_withdraw(registration=other, user=None)
    assert AuditEntry.objects.filter(action="registration_withdraw").count() == 1


def test_a_withdrawn_person_may_register_again():
    t = tournament_make()
    presence.registration_withdraw(registration=add(t, "Ana"), user=None)
    again = add(t, "ana")
    assert again.order == 2 and again.player1.key == "p2"


def test_edit_changes_players_adds_and_drops_the_partner_and_rechecks():
    t = tournament_make(max_duplas=1)
    org = user_make("org")
    reg = add(t, "Ana")
    add(t, "Bia")
    services.registration_edit(
        registration=reg, players=[PersonIn("Ana Souza", ADULT, email="ana@x.com"), PersonIn("Caio", ADULT)], user=org
    )
    reg.refresh_from_db()
    assert reg.player1.name == "Ana Souza" and reg.player1.email == "ana@x.com" and reg.player2.name == "Caio"
    assert reg.player2.key == "p3"
    # a pair now: 2 places taken, Bia goes to the waiting list, and the audit says so
    entry = AuditEntry.objects.get(action="registration_edit")
    assert entry.summary == "Inscrição de Ana Souza + Caio alterada; Bia volta para a lista de espera"
    assert entry.before["players"][0]["name"] == "Ana" and entry.after["players"][1]["name"] == "Caio"
    with pytest.raises(Refused):
        services.registration_edit(registration=reg, players=[PersonIn("Bia", ADULT)], user=org)  # Bia exists
    services.registration_edit(registration=reg, players=[PersonIn("Ana Souza", ADULT)], user=org)
    reg.refresh_from_db()
    assert reg.player2 is None and not Player.objects.filter(name="Caio").exists()
    # editing without changing the name is not a duplicate of itself
    services.registration_edit(registration=reg, players=[PersonIn("ANA SOUZA", ADULT)], user=org)


def test_edit_of_a_paired_registration_keeps_its_players():
    t = tournament_make()
    reg = add(t, "Ana", "Bia")
    Dupla.objects.create(tournament=t, key="d1", player1=reg.player1, player2=reg.player2)
    Registration.objects.filter(pk=reg.pk).update(status=Registration.PAIRED)
    reg.refresh_from_db()
    with pytest.raises(Refused, match="página de duplas"):
        services.registration_edit(registration=reg, players=[PersonIn("Ana", ADULT)], user=None)
    services.registration_edit(
        registration=reg, players=[PersonIn("Ana Maria", ADULT), PersonIn("Bia", ADULT)], user=None
    )
    assert Dupla.objects.get(key="d1").display_name == "Ana Maria / Bia"


def test_checkin_present_absent_clear():
    t = tournament_make()
    reg = add(t, "Ana")
    for value in (True, False, None):
        presence.registration_checkin(registration=reg, present=value, user=None)
        reg.refresh_from_db()
        assert reg.present is value
    assert [e.summary for e in AuditEntry.objects.filter(action="registration_checkin").order_by("id")] == [
        "Ana: presente",
        "Ana: ausente",
        "Ana: presença desmarcada",
    ]


def test_close_and_reopen_are_recorded():
    t = tournament_make()
    services.registration_close(tournament=t, user=None)
    t.refresh_from_db()
    assert t.registration_closed
    services.registration_reopen(tournament=t, user=None)
    t.refresh_from_db()
    assert not t.registration_closed
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        "registration_close",
        "registration_reopen",
    ]


def test_existing_duplas_take_two_places_each_and_after_the_pairing_draw_everybody_left_waits():
    t = tournament_make(max_duplas=2)
    first = add(t, "Ana", "Bia")
    Dupla.objects.create(tournament=t, key="d1", player1=first.player1, player2=first.player2)
    Registration.objects.filter(pk=first.pk).update(status=Registration.PAIRED)
    add(t, "Caio")
    add(t, "Duda", "Edu")
    add(t, "Fabi")
    assert [s[1:] for s in situations(t)] == [("paired", None), ("accepted", None), ("waiting", 1), ("accepted", None)]
    Draw.objects.create(tournament=t, kind=Draw.PAIRING, seed=1, result={})
    assert [s[1:] for s in situations(t)] == [("paired", None), ("waiting", 1), ("waiting", 2), ("waiting", 3)]


def test_list_counts_and_search_ignore_case_and_accents():
    t = tournament_make(max_duplas=1)
    add(t, "José Conceição")
    add(t, "Bia", "Caio")
    reg = add(t, "Duda")
    presence.registration_checkin(registration=reg, present=True, user=None)
    presence.registration_withdraw(registration=add(t, "Edu"), user=None)
    listing = registration_list(tournament=t, q="  conceicao ")
    assert [str(r.registration) for r in listing.rows] == ["José Conceição"]
    c = listing.counts
    assert (c.total, c.players, c.accepted, c.waiting, c.paired, c.withdrawn, c.present, c.absent) == (
        3,
        4,
        2,
        1,
        0,
        1,
        1,
        0,
    )
    assert [r.position for r in registration_list(tournament=t).rows] == [1, 2, 3, None]


def test_the_pairing_draw_takes_the_accepted_first_then_the_waiting_list():
    from scoring.draws import pairing_draw

    t = tournament_make(max_duplas=1)
    add(t, "Ana")
    add(t, "Bia", "Caio")  # waits
    add(t, "Duda")  # accepted
    presence.registration_withdraw(registration=Registration.objects.get(order=1), user=None)
    add(t, "Edu")  # takes the place left: the pair still needs two
    regs = registrations_for_pairing(tournament=t)
    assert [str(r) for r in regs] == ["Duda", "Edu", "Bia + Caio"]
    result = pairing_draw(registrations=[[p.key for p in r.players()] for r in regs], seed=3, max_duplas=1)
    assert sorted(p for d in result.duplas for p in d) == sorted([regs[0].player1.key, regs[1].player1.key])
    # an absent accepted player is left out; Edu keeps his place, so the pair still does not fit (and Edu,
    # alone, waits for a partner the organizer may pick from the waiting list)
    presence.registration_checkin(registration=regs[0], present=False, user=None)
    regs = registrations_for_pairing(tournament=t)
    assert [str(r) for r in regs] == ["Edu", "Bia + Caio"]
    result = pairing_draw(registrations=[[p.key for p in r.players()] for r in regs], seed=3, max_duplas=1)
    assert result.duplas == () and len(result.waiting_list) == 3
