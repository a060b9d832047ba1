"""Bulk check-in and withdrawal (issue 24 item 9): one write, all or nothing, the waiting list as one by one."""

import itertools
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.registrations import tournament_make, user_make
from tournaments.models import AuditEntry, Dupla, Registration, Tournament
from tournaments.refusals import Refused
from tournaments.registrations import presence, services
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.selectors import registration_rows

pytestmark = pytest.mark.django_db
ADULT = date(1990, 1, 1)


def add(t, *names):
    return services.registration_add(tournament=t, players=[PersonIn(n, ADULT) for n in names])


def situations(t):
    return [(str(r.registration), r.situation, r.waiting_position) for r in registration_rows(tournament=t)]


def present_marks(t):
    return list(Registration.objects.filter(tournament=t).order_by("order").values_list("present", flat=True))


def test_bulk_checkin_marks_every_one_in_one_write_with_one_audit_record():
    t = tournament_make()
    org = user_make("org")
    regs = [add(t, n) for n in ("Ana", "Bia", "Caio", "Duda")]
    version = Tournament.objects.get(pk=t.pk).results_version
    marked = presence.registrations_checkin(
        tournament=t, ids=[regs[2].pk, regs[0].pk, regs[1].pk], present=True, user=org
    )
    assert [str(r) for r in marked] == ["Ana", "Bia", "Caio"]  # in order of arrival
    assert present_marks(t) == [True, True, True, None]
    entry = AuditEntry.objects.get(action="registrations_checkin")
    assert entry.summary == "3 inscrições presentes: Ana, Bia e Caio" and entry.user == org
    assert entry.after["changed"] == ["Ana", "Bia", "Caio"]
    assert [r["present"] for r in entry.before["registrations"]] == [None, None, None]
    assert Tournament.objects.get(pk=t.pk).results_version == version + 1  # one write, one new version
    presence.registrations_checkin(tournament=t, ids=[regs[1].pk, regs[3].pk], present=False, user=org)
    assert present_marks(t) == [True, False, True, False]
    entry = AuditEntry.objects.filter(action="registrations_checkin").order_by("-id").first()
    assert entry.summary == "2 inscrições ausentes: Bia e Duda" and entry.after["changed"] == ["Bia", "Duda"]


def test_one_registration_through_the_bulk_service_is_the_single_check_in():
    t = tournament_make()
    reg = add(t, "Ana")
    presence.registrations_checkin(tournament=t, ids=[reg.pk], present=False, user=None)
    entry = AuditEntry.objects.get(action="registration_checkin")
    assert entry.summary == "Ana: ausente" and entry.before == {"present": None}


def test_bulk_checkin_is_all_or_nothing_and_names_who_and_why():
    t = tournament_make()
    ana, bia, caio = add(t, "Ana"), add(t, "Bia"), add(t, "Caio")
    presence.registration_withdraw(registration=bia, user=None)
    audits = AuditEntry.objects.count()
    with pytest.raises(Refused) as exc:
        presence.registrations_checkin(tournament=t, ids=[ana.pk, bia.pk, caio.pk], present=True, user=None)
    assert exc.value.messages == ["A inscrição de Bia foi retirada."]
    assert present_marks(t) == [None, None, None] and AuditEntry.objects.count() == audits
    with pytest.raises(Refused, match="Selecione ao menos uma"):
        presence.registrations_checkin(tournament=t, ids=[], present=True, user=None)
    other = add(tournament_make(slug="outro"), "Zeca")
    with pytest.raises(Refused, match="1 inscrição selecionada não existe neste torneio") as exc:
        presence.registrations_checkin(tournament=t, ids=[ana.pk, other.pk], present=True, user=None)
    assert exc.value.kind == Refused.NOT_FOUND
    assert present_marks(t) == [None, None, None] and Registration.objects.get(pk=other.pk).present is None


def test_all_present_marks_every_registration_not_withdrawn_also_the_absent_and_paired():
    t = tournament_make()
    ana, _bia, caio = add(t, "Ana"), add(t, "Bia"), add(t, "Caio", "Duda")
    Dupla.objects.create(tournament=t, key="d1", player1=caio.player1, player2=caio.player2)
    Registration.objects.filter(pk=caio.pk).update(status=Registration.PAIRED)
    presence.registration_checkin(registration=ana, present=False, user=None)
    presence.registration_withdraw(registration=add(t, "Edu"), user=None)
    marked = presence.registrations_checkin_all(tournament=t, user=None)
    assert [str(r) for r in marked] == ["Ana", "Bia", "Caio + Duda"]
    assert present_marks(t) == [True, True, True, None]
    entry = AuditEntry.objects.get(action="registrations_checkin")
    assert entry.summary == "3 inscrições presentes: Ana, Bia e Caio + Duda"
    assert entry.after["changed"] == ["Ana", "Bia", "Caio + Duda"]
    with pytest.raises(Refused, match="Nenhuma inscrição"):
        presence.registrations_checkin_all(tournament=tournament_make(slug="vazio"), user=None)


def test_bulk_withdraw_promotes_and_records_who_moved():
    t = tournament_make(max_duplas=1)  # 2 places
    org = user_make("org")
    ana, bia = add(t, "Ana"), add(t, "Bia")
    add(t, "Caio", "Duda")
    add(t, "Edu")
    result = presence.registrations_withdraw(tournament=t, ids=[bia.pk, ana.pk], user=org)
    assert [str(r) for r in result.registrations] == ["Ana", "Bia"]
    # as one by one in order of arrival: Ana frees one place, which Edu takes (the pair needs two); Bia frees one
    assert [str(r) for r in result.promoted] == ["Edu"] and result.demoted == []
    assert [s[1:] for s in situations(t)] == [
        ("withdrawn", None),
        ("withdrawn", None),
        ("waiting", 1),
        ("accepted", None),
    ]
    entry = AuditEntry.objects.get(action="registrations_withdraw")
    assert entry.summary == "2 inscrições retiradas: Ana e Bia; Edu sai da lista de espera"
    assert entry.user == org and entry.after["promoted"] == ["Edu"]
    assert [r["situation"] for r in entry.before["registrations"]] == ["accepted", "accepted"]
    assert not AuditEntry.objects.filter(action="registration_withdraw").exists()


def test_bulk_withdraw_is_all_or_nothing():
    t = tournament_make(max_duplas=1)
    ana, pair, caio = add(t, "Ana"), add(t, "Bia", "Bruno"), add(t, "Caio")
    Dupla.objects.create(tournament=t, key="d1", player1=pair.player1, player2=pair.player2)
    Registration.objects.filter(pk=pair.pk).update(status=Registration.PAIRED)
    presence.registration_withdraw(registration=caio, user=None)
    before, audits = situations(t), AuditEntry.objects.count()
    with pytest.raises(Refused) as exc:
        presence.registrations_withdraw(tournament=t, ids=[ana.pk, pair.pk, caio.pk], user=None)
    assert exc.value.messages == [
        "Bia + Bruno já está em dupla: a inscrição não pode ser retirada aqui. Troque os atletas na página de duplas.",
        "A inscrição de Caio já foi retirada.",
    ]
    assert situations(t) == before and AuditEntry.objects.count() == audits


# --- the waiting list after a bulk withdrawal: as the same withdrawals one by one, in order of arrival -----------

EXAMPLES = itertools.count()
registrations_spec = st.lists(st.sampled_from([1, 2]), min_size=1, max_size=9)


def _event(sizes: list[int], max_duplas: int, slug: str) -> Tournament:
    t = tournament_make(slug=slug, max_duplas=max_duplas)
    for i, size in enumerate(sizes):
        add(t, *[f"{slug} {i} {j}" for j in range(size)])
    return t


def _final(t: Tournament) -> list[tuple[int, str, int | None]]:
    return [(r.registration.order, r.situation, r.waiting_position) for r in registration_rows(tournament=t)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=registrations_spec, max_duplas=st.integers(1, 5), data=st.data())
def test_a_bulk_withdrawal_leaves_the_waiting_list_as_one_by_one_in_order_of_arrival(sizes, max_duplas, data):
    chosen = data.draw(st.sets(st.integers(0, len(sizes) - 1), min_size=1), label="withdrawn")
    n = next(EXAMPLES)
    bulk, single = _event(sizes, max_duplas, f"bulk-{n}"), _event(sizes, max_duplas, f"one-{n}")
    by_order = {t.pk: {r.order: r for r in Registration.objects.filter(tournament=t)} for t in (bulk, single)}
    result = presence.registrations_withdraw(
        tournament=bulk, ids=[by_order[bulk.pk][i + 1].pk for i in chosen], user=None
    )
    promoted, demoted = set(), set()
    for i in sorted(chosen):
        one = presence.registration_withdraw(registration=by_order[single.pk][i + 1], user=None)
        promoted = (promoted | {r.order for r in one.promoted}) - {r.order for r in one.demoted}
        demoted = (demoted | {r.order for r in one.demoted}) - {r.order for r in one.promoted}
    assert _final(bulk) == _final(single)
    gone = {i + 1 for i in chosen}  # one by one, a registration may move up before its own withdrawal
    assert {r.order for r in result.promoted} == promoted - gone
    assert {r.order for r in result.demoted} == demoted - gone
