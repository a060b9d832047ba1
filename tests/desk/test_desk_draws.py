"""The draws at the desk (issue 6 §4), part 1: the pairing draw and the duplas page.

Helpers for the other ``test_desk_draws_*`` files live here too.
"""

import pytest
from django.urls import reverse

from scoring.draws import pairing_draw
from tests.support.desk import add_duplas, add_individuals, client_for, make_tournament, make_user
from tournaments.draws import services
from tournaments.models import AuditEntry, Draw, DrawRoll, Dupla, Player, Registration, Tournament
from tournaments.refusals import Refused

pytestmark = pytest.mark.django_db


# --- helpers -------------------------------------------------------------------------------------


def pairs_of(t: Tournament) -> set[frozenset[str]]:
    return {frozenset((d.player1.name, d.player2.name)) for d in t.duplas.select_related("player1", "player2")}


# --- pairing draw --------------------------------------------------------------------------------


def test_pairing_page_explains_previews_and_the_confirmation_draws_with_the_recorded_seed():
    t = make_tournament(max_duplas=16)
    add_individuals(t, 7)
    user = make_user("ana", t)
    c = client_for(user)
    url = reverse("desk:pairing", args=[t.slug])
    page = c.get(url).content.decode()
    assert "7</strong> inscrições individuais aguardando" in page and "lista de espera" in page
    response = c.post(url, {"action": "preview", "token": "tok-1"})
    assert response.status_code == 200
    assert not Draw.objects.exists() and not Dupla.objects.exists()  # a preview writes nothing of the event
    roll = DrawRoll.objects.get(tournament=t)
    assert roll.kind == DrawRoll.PAIRING and roll.number == 1 and roll.shown_by == user and 0 <= roll.seed < 2**31
    page = response.content.decode()
    assert "Prévia do sorteio das duplas" in page and f"<code>{roll.seed}</code>" in page
    assert "1º sorteio exibido" in page and "Confirmar estas duplas" in page
    assert c.post(url, {"action": "preview", "token": "tok-1"}).context["roll"] == roll  # a reload: the same roll
    assert DrawRoll.objects.count() == 1
    response = c.post(url, {"action": "confirm", "roll": roll.token}, follow=True)
    assert response.status_code == 200
    draw = Draw.objects.get(tournament=t, kind=Draw.PAIRING)
    assert draw.performed_by == user and draw.seed == roll.seed
    assert draw.result["duplas"] == roll.shown["duplas"] and draw.result["waiting_list"] == roll.shown["waiting_list"]
    assert len(draw.result["duplas"]) == 3 and len(draw.result["waiting_list"]) == 1
    assert t.duplas.count() == 3 and [d.key for d in t.duplas.all()] == ["r1", "r2", "r3"]
    roll.refresh_from_db()
    assert roll.closed and roll.published and roll.draw == draw
    page = response.content.decode()
    assert str(draw.seed) in page and "ana" in page
    odd = Player.objects.get(tournament=t, key=draw.result["waiting_list"][0])
    reg = Registration.objects.get(tournament=t, player1=odd)
    assert reg.status == Registration.WAITING  # the odd one out stays on the waiting list
    assert Registration.objects.filter(tournament=t, status=Registration.PAIRED).count() == 6
    assert AuditEntry.objects.filter(tournament=t, action="pairing_draw", user=user).exists()
    assert AuditEntry.objects.filter(tournament=t, action="draw_roll", user=user).count() == 1


def test_same_seed_same_duplas_via_the_service_and_from_the_recorded_draw():
    made = []
    for slug in ("um", "dois"):
        t = make_tournament(slug)
        add_individuals(t, 12)
        services.pairing_run(tournament=t, user=None, seed=424242)
        made.append(pairs_of(t))
    assert made[0] == made[1]
    other = make_tournament("tres")
    add_individuals(other, 12)
    services.pairing_run(tournament=other, user=None, seed=7)
    assert pairs_of(other) != made[0]
    # the recorded draw replays: its seed and registrations give its result
    draw = Draw.objects.get(tournament__slug="um", kind=Draw.PAIRING)
    replay = pairing_draw(
        registrations=draw.result["registrations"], seed=draw.seed, max_duplas=draw.result["max_duplas"]
    )
    assert [list(p) for p in replay.duplas] == draw.result["duplas"]


def test_pairs_stay_together_absent_left_out_and_the_limit_sends_the_rest_to_the_waiting_list():
    t = make_tournament(max_duplas=3)
    a, b = (
        Player.objects.create(tournament=t, key="x1", name="Par A"),
        Player.objects.create(tournament=t, key="x2", name="Par B"),
    )
    Registration.objects.create(tournament=t, order=1, player1=a, player2=b)
    add_individuals(t, 1, present=False)
    add_individuals(t, 6, start=10)
    services.pairing_run(tournament=t, user=None, seed=1)
    assert frozenset(("Par A", "Par B")) in pairs_of(t)
    assert t.duplas.count() == 3
    absent = Registration.objects.get(tournament=t, present=False)
    assert absent.status == Registration.WAITING
    draw = Draw.objects.get(tournament=t)
    assert len(draw.result["waiting_list"]) == 2 and "p1" not in draw.result["registrations"][0]


def test_pairing_refused_while_registration_is_open_or_with_one_individual():
    t = make_tournament(closed=False)
    add_individuals(t, 4)
    c = client_for(make_user("ana", t))
    response = c.post(reverse("desk:pairing", args=[t.slug]))
    assert response.status_code == 200 and "inscrições ainda estão abertas" in response.content.decode()
    assert not Dupla.objects.exists() and not Draw.objects.exists() and not DrawRoll.objects.exists()
    t2 = make_tournament("solo")
    add_individuals(t2, 1)
    with pytest.raises(Refused) as exc:
        services.pairing_run(tournament=t2, user=None)
    assert "são precisas pelo menos 2" in exc.value.messages[0]


def test_late_entries_are_paired_by_a_second_draw_with_keys_continuing():
    t = make_tournament()
    add_individuals(t, 4)
    services.pairing_run(tournament=t, user=None, seed=3)
    add_individuals(t, 4, start=50)
    services.pairing_run(tournament=t, user=None, seed=4)
    assert sorted(t.duplas.values_list("key", flat=True)) == ["r1", "r2", "r3", "r4"]
    assert Draw.objects.filter(tournament=t, kind=Draw.PAIRING).count() == 2
    assert not Registration.objects.filter(tournament=t, status=Registration.WAITING).exists()


# --- duplas page ---------------------------------------------------------------------------------


def test_swap_two_players_is_recorded_with_the_reason_before_and_after():
    t = make_tournament()
    d1, d2 = add_duplas(t, 2)
    c = client_for(make_user("ana", t))
    url = reverse("desk:duplas_swap", args=[t.slug])
    response = c.post(url, {"player_a": d1.player1_id, "player_b": d2.player2_id, "reason": ""})
    assert response.status_code == 200 and "swap_form" in response.context
    assert response.context["swap_form"].errors["reason"]
    d1.refresh_from_db()
    assert d1.player1.name == "Jogador 0001"
    response = c.post(url, {"player_a": d1.player1_id, "player_b": d2.player2_id, "reason": "pedido das duplas"})
    assert response.status_code == 302
    d1.refresh_from_db()
    d2.refresh_from_db()
    assert (d1.player1.name, d1.player2.name) == ("Jogador 0004", "Jogador 0002")
    assert (d2.player1.name, d2.player2.name) == ("Jogador 0003", "Jogador 0001")
    entry = AuditEntry.objects.get(tournament=t, action="duplas_swap")
    assert "pedido das duplas" in entry.summary
    assert entry.before["d1"] == ["Jogador 0001", "Jogador 0002"] and entry.after["d1"] == [
        "Jogador 0004",
        "Jogador 0002",
    ]
    assert entry.after["reason"] == "pedido das duplas"


def test_swap_inside_one_dupla_is_refused():
    t = make_tournament()
    d1, _d2 = add_duplas(t, 2)
    c = client_for(make_user("ana", t))
    response = c.post(
        reverse("desk:duplas_swap", args=[t.slug]),
        {"player_a": d1.player1_id, "player_b": d1.player2_id, "reason": "x"},
    )
    assert response.status_code == 200 and "mesma dupla" in response.content.decode()
    assert not AuditEntry.objects.filter(action="duplas_swap").exists()


def test_edit_name_and_seed_and_a_duplicate_seed_is_refused():
    t = make_tournament()
    d1, d2 = add_duplas(t, 2)
    c = client_for(make_user("ana", t))
    response = c.post(reverse("desk:dupla_edit", args=[t.slug, d1.pk]), {"name": "Os Zapeiros", "seed": "1"})
    assert response.status_code == 302
    d1.refresh_from_db()
    assert (d1.name, d1.seed) == ("Os Zapeiros", 1)
    response = c.post(reverse("desk:dupla_edit", args=[t.slug, d2.pk]), {"name": "", "seed": "1"})
    assert response.status_code == 200 and "já é da dupla Os Zapeiros" in response.content.decode()
    response = c.post(reverse("desk:dupla_edit", args=[t.slug, d2.pk]), {"name": "", "seed": "zero"})
    assert response.status_code == 200 and response.context["form"].errors["seed"]
    d2.refresh_from_db()
    assert d2.seed is None
    version = Tournament.objects.get(pk=t.pk).results_version
    c.post(reverse("desk:dupla_edit", args=[t.slug, d2.pk]), {"name": "Trucadores", "seed": ""})
    assert Tournament.objects.get(pk=t.pk).results_version > version  # the public pages show it at once


def test_pair_the_odd_one_out_with_a_waiting_entrant_by_hand():
    t = make_tournament(max_duplas=2)
    add_individuals(t, 5)
    services.pairing_run(tournament=t, user=None, seed=9)
    waiting = list(Registration.objects.filter(tournament=t, status=Registration.WAITING))
    assert len(waiting) == 1
    late = add_individuals(t, 1, start=90)[0]
    c = client_for(make_user("ana", t))
    url = reverse("desk:dupla_add", args=[t.slug])
    response = c.post(url, {"registration_1": waiting[0].pk, "registration_2": late.pk})
    assert response.status_code == 200 and "limite de 2 duplas" in response.content.decode()
    t.max_duplas = 3
    t.save()
    response = c.post(url, {"registration_1": waiting[0].pk, "registration_2": late.pk})
    assert response.status_code == 302
    dupla = Dupla.objects.get(tournament=t, key="r3")
    assert {dupla.player1_id, dupla.player2_id} == {waiting[0].player1_id, late.player1_id}
    assert not Registration.objects.filter(tournament=t, status=Registration.WAITING).exists()


def test_disqualify_needs_a_reason_and_sets_it():
    t = make_tournament()
    d1, _ = add_duplas(t, 2)
    c = client_for(make_user("ana", t))
    url = reverse("desk:dupla_disqualify", args=[t.slug, d1.pk])
    assert c.get(url).status_code == 200
    response = c.post(url, {"reason": " "})
    assert response.status_code == 200 and not Dupla.objects.get(pk=d1.pk).disqualified
    for invisible in ("\u200b", "\u2060\ufeff", "\u00a0\u200d", "\u0301"):  # shows nothing: no reason either
        response = c.post(url, {"reason": invisible})
        assert response.status_code == 200 and "diga o motivo" in response.content.decode()
        assert not Dupla.objects.get(pk=d1.pk).disqualified
    assert c.post(url, {"reason": "conduta antidesportiva"}).status_code == 302
    d1.refresh_from_db()
    assert d1.disqualified and d1.disqualified_reason == "conduta antidesportiva"
    assert AuditEntry.objects.filter(tournament=t, action="dupla_disqualify").exists()
    assert "desclassificada" in c.get(reverse("desk:duplas", args=[t.slug])).content.decode()
