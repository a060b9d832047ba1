"""The draws at the desk (issue 6 §4), part 3: mesas, the schedule, referees, permissions, query counts."""

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.desk import add_duplas, add_individuals, client_for, make_tournament, make_user
from tournaments.draws import services
from tournaments.models import AuditEntry, Draw, DrawRoll, Dupla, Jogo, Mesa, Stage, Tournament
from tournaments.selectors import tournament_state_cache_clear

pytestmark = pytest.mark.django_db

GK = {"kind": "groups_knockout", "group_size": 4, "per_group": 2, "best_others": 0, "bracket_method": "seeded"}


def _no_dupla_twice_at_once(t: Tournament) -> None:
    """Within a stage round, each (mesa, turn) holds one jogo and no dupla plays twice in a turn."""
    rows = list(
        Jogo.objects.filter(tournament=t)
        .order_by("stage__order", "round", "third_place", "position", "id")
        .values("stage_id", "round", "mesa", "dupla_a_id", "dupla_b_id")
    )
    turn: dict = {}
    playing: dict = {}
    for j in rows:
        key = (j["stage_id"], j["round"], j["mesa"])
        turn[key] = turn.get(key, 0) + 1
        here = playing.setdefault((j["stage_id"], j["round"], turn[key]), set())
        assert j["dupla_a_id"] not in here and j["dupla_b_id"] not in here
        here.update((j["dupla_a_id"], j["dupla_b_id"]))


def test_mesas_with_referees_respread_the_jogos_without_conflicts():
    t = make_tournament(preset="fenacef", fmt=GK)
    add_duplas(t, 16)
    organizer = make_user("ana", t)
    referees = [make_user(f"arbitro{i}", t, role="referee") for i in range(1, 5)]
    services.competition_publish(tournament=t, user=None, seed=8)
    assert sorted(Jogo.objects.filter(round=1).values_list("mesa", flat=True)) == list(range(1, 9))  # as today
    c = client_for(organizer)
    page = c.get(reverse("desk:mesas", args=[t.slug]) + "?n=4")
    assert page.status_code == 200 and len(page.context["form"].referee_fields()) == 4
    data = {"mesas": "4"} | {f"referee_{i}": str(r.pk) for i, r in enumerate(referees, start=1)}
    assert c.post(reverse("desk:mesas", args=[t.slug]), data).status_code == 302
    t.refresh_from_db()
    assert t.mesas == 4
    assert [(m.number, m.referee.username) for m in Mesa.objects.filter(tournament=t).select_related("referee")] == [
        (1, "arbitro1"),
        (2, "arbitro2"),
        (3, "arbitro3"),
        (4, "arbitro4"),
    ]
    for r in (1, 2, 3):
        mesas = list(Jogo.objects.filter(tournament=t, round=r).order_by("id").values_list("mesa", flat=True))
        assert mesas == [1, 2, 3, 4, 1, 2, 3, 4]  # two turns, in order
    _no_dupla_twice_at_once(t)
    assert AuditEntry.objects.filter(tournament=t, action="mesas_save").exists()
    # the schedule: referees by mesa, printable; the comissão's page (a referee's list has its jogos: 403 here)
    response = c.get(reverse("desk:schedule", args=[t.slug]))
    assert response.status_code == 200
    rows = [r for b in response.context["schedule"].blocks for r in b.rows]
    assert len(rows) == 24 and {r.referee for r in rows} == {"arbitro1", "arbitro2", "arbitro3", "arbitro4"}
    assert {r.turn for r in rows} == {1, 2}
    assert client_for(referees[0]).get(reverse("desk:schedule", args=[t.slug])).status_code == 403


def test_bad_mesas_input_is_a_200_with_the_error_and_nothing_changes():
    t = make_tournament(preset="fenacef", fmt=GK)
    add_duplas(t, 8)
    c = client_for(make_user("ana", t))
    stranger = make_user("fulano")
    response = c.post(reverse("desk:mesas", args=[t.slug]), {"mesas": "2", "referee_1": str(stranger.pk)})
    assert response.status_code == 200 and response.context["form"].errors
    response = c.post(reverse("desk:mesas", args=[t.slug]), {"mesas": "0"})
    assert response.status_code == 200 and response.context["form"].errors["mesas"]
    t.refresh_from_db()
    assert t.mesas is None and not Mesa.objects.exists()


def test_knockout_jogos_respect_the_number_of_mesas():
    t = make_tournament(fmt={"kind": "knockout"}, mesas=3)
    add_duplas(t, 16)
    services.competition_publish(tournament=t, user=None, seed=8)
    mesas = list(Jogo.objects.filter(tournament=t, round=1).order_by("position").values_list("mesa", flat=True))
    assert mesas == [1, 2, 3, 1, 2, 3, 1, 2]
    _no_dupla_twice_at_once(t)


@pytest.mark.parametrize("duplas", [12, 14, 5, 24])
def test_knockout_mesas_go_to_the_real_jogos_of_a_round_not_to_its_byes(duplas):
    """Issue 41 item 15: 12 duplas on 4 mesas sent the 4 first-round jogos to mesas 2 and 4 (the byes took
    1 and 3); every mesa is used before any takes a second jogo, and the draw's publication, the mesas page
    and the later rounds give the same mesas."""
    t = make_tournament(fmt={"kind": "knockout"}, mesas=4)
    add_duplas(t, duplas, seeds=duplas)
    services.competition_publish(tournament=t, user=None, seed=3)
    first = list(Jogo.objects.filter(tournament=t, round=1).order_by("position").values_list("mesa", flat=True))
    expected = [i % 4 + 1 for i in range(len(first))]
    assert first == expected
    organizer = make_user("org", t)
    c = client_for(organizer)
    assert c.post(reverse("desk:mesas", args=[t.slug]), {"mesas": "4"}).status_code == 302
    again = list(Jogo.objects.filter(tournament=t, round=1).order_by("position").values_list("mesa", flat=True))
    assert again == expected


def test_a_jogo_gets_its_own_referee_and_the_schedule_says_so():
    t = make_tournament(fmt={"kind": "knockout"})
    add_duplas(t, 4)
    organizer = make_user("ana", t)
    referee = make_user("beto", t, role="referee")
    services.competition_publish(tournament=t, user=None, seed=1)
    jogo = Jogo.objects.filter(tournament=t).first()
    c = client_for(organizer)
    url = reverse("desk:jogo_referee", args=[t.slug, jogo.pk])
    assert c.post(url, {"referee": str(make_user("intruso").pk)}).status_code == 200
    jogo.refresh_from_db()
    assert jogo.referee is None
    assert c.post(url, {"referee": str(referee.pk)}).status_code == 302
    jogo.refresh_from_db()
    assert jogo.referee == referee
    response = c.get(reverse("desk:schedule", args=[t.slug]))
    row = next(r for b in response.context["schedule"].blocks for r in b.rows if r.id == jogo.pk)
    assert row.referee == "beto" and "beto" in response.content.decode()


def test_disqualified_dupla_loses_its_jogos_not_begun_by_walkover():
    t = make_tournament(fmt={"kind": "knockout"})
    duplas = add_duplas(t, 4)
    services.competition_publish(tournament=t, user=None, seed=1)
    jogo = (
        Jogo.objects.get(tournament=t, dupla_a=duplas[0])
        if Jogo.objects.filter(dupla_a=duplas[0]).exists()
        else Jogo.objects.get(tournament=t, dupla_b=duplas[0])
    )
    services.dupla_disqualify(dupla=duplas[0], user=None, reason="conduta")
    jogo.refresh_from_db()
    assert jogo.walkover == ("a" if jogo.dupla_a_id == duplas[0].pk else "b") and jogo.status == Jogo.HOMOLOGATED
    assert jogo.penalty_reason == "Dupla desclassificada: conduta"  # every WO says why (issue 41 item 16)


# --- permissions ----------------------------------------------------------------------------------


def _fingerprint(t: Tournament) -> str:
    rows = [
        list(m.objects.filter(tournament=t).order_by("pk").values()) for m in (Dupla, Stage, Jogo, Mesa, Draw, DrawRoll)
    ]
    rows.append(list(Tournament.objects.filter(pk=t.pk).values("mesas", "format", "results_version")))
    return json.dumps(rows, default=str)


ORGANIZER_PAGES = ["duplas", "pairing", "competition", "mesas"]
POSTS = ["pairing", "pairing_undo", "competition", "competition_undo", "tiebreak", "mesas", "duplas_swap", "dupla_add"]


def test_permissions_anonymous_no_role_referee_change_nothing():
    t = make_tournament(fmt={"kind": "knockout"})
    duplas = add_duplas(t, 4)
    add_individuals(t, 2)
    referee = make_user("beto", t, role="referee")
    services.competition_publish(tournament=t, user=None, seed=1)
    jogo = Jogo.objects.filter(tournament=t).first()
    posts = [reverse(f"desk:{n}", args=[t.slug]) for n in POSTS] + [
        reverse("desk:dupla_edit", args=[t.slug, duplas[0].pk]),
        reverse("desk:dupla_disqualify", args=[t.slug, duplas[0].pk]),
        reverse("desk:jogo_referee", args=[t.slug, jogo.pk]),
    ]
    payload = {
        "reason": "x",
        "action": "publish",
        "seed": "1",
        "mesas": "3",
        "player_a": duplas[0].player1_id,
        "player_b": duplas[1].player1_id,
        "registration_1": "1",
        "name": "X",
        "referee": str(referee.pk),
    }
    before = _fingerprint(t)
    anonymous, stranger, ref = Client(), client_for(make_user("fulano")), client_for(referee)
    for name in ORGANIZER_PAGES + ["schedule"]:
        url = reverse(f"desk:{name}", args=[t.slug])
        response = anonymous.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/entrar/?next="), url
        assert stranger.get(url).status_code == 404, url
        assert ref.get(url).status_code == 403, url  # the schedule too (INTERCHANGE: organizer-only)
    for url in posts:
        assert anonymous.post(url, payload).status_code == 302, url
        assert stranger.post(url, payload).status_code == 404, url
        assert ref.post(url, payload).status_code == 403, url
    assert ref.post(reverse("desk:schedule", args=[t.slug]), payload).status_code == 403
    assert _fingerprint(t) == before


# --- query counts ----------------------------------------------------------------------------------


def _queries(c: Client, url: str) -> int:
    tournament_state_cache_clear()
    with CaptureQueriesContext(connection) as ctx:
        response = c.get(url)
    assert response.status_code == 200
    return len(ctx)


def test_duplas_and_schedule_pages_query_counts_do_not_grow_with_the_duplas():
    counts = {}
    for n in (16, 512):
        t = make_tournament(f"k{n}", fmt={"kind": "knockout"}, mesas=8)
        add_duplas(t, n, seeds=4)
        add_individuals(t, 3)
        organizer = make_user(f"ana{n}", t)
        make_user(f"beto{n}", t, role="referee")
        services.competition_publish(tournament=t, user=None, seed=2)
        Jogo.objects.filter(tournament=t, position=1).update(referee=organizer)
        c = client_for(organizer)
        counts[n] = {
            name: _queries(c, reverse(f"desk:{name}", args=[t.slug]))
            for name in ("duplas", "schedule", "competition", "pairing", "mesas")
        }
    assert counts[16] == counts[512], counts


def test_mostrar_as_mesas_shows_that_many_referee_rows_keeping_what_was_typed_and_saves_nothing():
    t = make_tournament(preset="fenacef", fmt=GK, mesas=2)
    add_duplas(t, 8)
    organizer = make_user("ana", t)
    referee = make_user("juiz", t, role="referee")
    c = client_for(organizer)
    page = c.get(reverse("desk:mesas", args=[t.slug])).content.decode()
    assert page.count('type="number"') == 1 and 'name="mostrar"' in page and "Quantas mesas?" not in page
    data = {"mesas": "5", "referee_2": str(referee.pk), "mostrar": "1"}
    response = c.post(reverse("desk:mesas", args=[t.slug]), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert not form.is_bound and [f.name for f in form.referee_fields()] == [f"referee_{i}" for i in range(1, 6)]
    page = response.content.decode()
    assert page.count('type="number"') == 1 and 'value="5"' in page
    assert f'<option value="{referee.pk}" selected>' in page
    assert 'role="alert"' not in page  # shown, not validated
    t.refresh_from_db()
    assert t.mesas == 2 and not Mesa.objects.exists()
    assert not AuditEntry.objects.filter(tournament=t, action="mesas_save").exists()
    # a number that is not one shows the tournament's mesas, and nothing is saved either
    response = c.post(reverse("desk:mesas", args=[t.slug]), {"mesas": "x", "mostrar": "1"})
    assert response.status_code == 200 and len(response.context["form"].referee_fields()) == 2
    t.refresh_from_db()
    assert t.mesas == 2
