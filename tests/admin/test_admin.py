"""The admin: an edit there refreshes what the pages show; results are read-only (they change through the súmula)."""

import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from tests.support.files import base_file
from tests.support.sumula import api, cup_setup, partida_maos, post, staff_user
from tournaments.models import Dupla, Jogo, Mao, Partida, Player, SumulaEvent, SumulaVia, Tournament
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("comissao", "comissao@example.com", "senha-forte-123")
    client.force_login(user)
    return client


def test_groups_created_by_migration():
    assert set(Group.objects.values_list("name", flat=True)) >= {"Organizadores", "Árbitros"}


def test_every_admin_list_answers(admin_client):
    tournament_import(data=base_file())
    for model in (
        "tournament",
        "player",
        "registration",
        "dupla",
        "group",
        "stage",
        "jogo",
        "partida",
        "draw",
        "sumulavia",
        "sumulaevent",
    ):
        assert admin_client.get(reverse(f"admin:tournaments_{model}_changelist")).status_code == 200, model


def test_editing_a_dupla_in_the_admin_refreshes_the_standings(admin_client, client, django_capture_on_commit_callbacks):
    t = tournament_import(data=base_file())
    url = reverse("tournaments:standings", kwargs={"slug": t.slug})
    client.get(url)
    d1 = Dupla.objects.get(tournament=t, key="d1")
    data = {
        "tournament": t.pk,
        "key": "d1",
        "name": "Os Renomeados",
        "player1": d1.player1_id,
        "player2": d1.player2_id,
        "seed": "",
        "disqualified_reason": "",
        "order": d1.order,
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:tournaments_dupla_change", args=[d1.pk]), data, follow=True)
    assert response.status_code == 200
    assert "Os Renomeados" in client.get(url).content.decode()


def _statements(client, url, data) -> list[str]:
    from django.db import connection

    seen: list[str] = []

    def record(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:500]
    return seen


def test_an_admin_edit_locks_its_tournament_before_it_writes_a_row(admin_client):
    """The lock order of every write (tournament, then its rows): otherwise the admin could hold a jogo's row
    while waiting for the tournament that a súmula write holds while waiting for that jogo."""
    from django.db import connection

    t = tournament_import(data=base_file())
    jogo = Jogo.objects.get(tournament=t, group__key="A")
    data = {
        "tournament": t.pk,
        "stage": jogo.stage_id,
        "group": jogo.group_id,
        "dupla_a": jogo.dupla_a_id,
        "dupla_b": jogo.dupla_b_id,
        "mesa": "5",
        "partidas-TOTAL_FORMS": 0,
        "partidas-INITIAL_FORMS": 0,
        "partidas-MIN_NUM_FORMS": 0,
        "partidas-MAX_NUM_FORMS": 1000,
    }
    Dupla.objects.get(tournament=t, key="d1")
    p1, p2 = (
        Player.objects.create(tournament=t, key=k, name=n) for k, n in (("p98", "Ana Reserva"), ("p99", "Bia Reserva"))
    )
    spare = Dupla.objects.create(tournament=t, key="d99", player1=p1, player2=p2, order=99)
    cases = [
        (reverse("admin:tournaments_jogo_change", args=[jogo.pk]), data),
        (
            reverse("admin:tournaments_dupla_changelist"),  # an action on selected rows
            {"action": "delete_selected", "_selected_action": [spare.pk], "post": "yes"},
        ),
    ]
    for url, body in cases:
        seen = _statements(admin_client, url, body)
        first_write = next(
            i
            for i, sql in enumerate(seen)
            if sql.lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE")
            and "django_session" not in sql
            and "django_admin_log" not in sql
        )
        locks = [
            i
            for i, sql in enumerate(seen[:first_write])
            if 'FROM "tournaments_tournament" WHERE "tournaments_tournament"."id" IN' in sql
        ]
        assert locks, (url, seen[:first_write])
        if connection.vendor == "postgresql":
            assert "FOR UPDATE" in seen[locks[0]]


# --- results are read-only in the admin: they change through the súmula only ---------------------------------


def _results(t) -> str:
    """Every stored result row of the tournament (what the admin must never change)."""
    return repr(
        (
            list(Partida.objects.filter(jogo__tournament=t).order_by("pk").values()),
            list(Mao.objects.filter(partida__jogo__tournament=t).order_by("pk").values()),
            list(Jogo.objects.filter(tournament=t).order_by("pk").values()),
        )
    )


def test_a_partida_cannot_be_changed_in_the_admin(admin_client, client):
    t = tournament_import(data=base_file())
    url = reverse("tournaments:standings", kwargs={"slug": t.slug})
    assert "+11" in client.get(url).content.decode()  # d1: 33 x 22
    before = _results(t)
    partida = Partida.objects.get(jogo__group__key="A", number=1)
    response = admin_client.post(
        reverse("admin:tournaments_partida_change", args=[partida.pk]),
        {
            "jogo": partida.jogo_id,
            "number": 1,
            "mode": "score",
            "score_a": 22,
            "score_b": 7,
            "lost_by": "",
            "penalty_reason": "",
            "maos-TOTAL_FORMS": 0,
            "maos-INITIAL_FORMS": 0,
            "maos-MIN_NUM_FORMS": 0,
            "maos-MAX_NUM_FORMS": 1000,
        },
    )
    assert response.status_code == 403
    assert _results(t) == before
    assert "+11" in client.get(url).content.decode()
    # no add, no delete either, one by one or in bulk
    assert admin_client.get(reverse("admin:tournaments_partida_add")).status_code == 403
    assert (
        admin_client.post(reverse("admin:tournaments_partida_delete", args=[partida.pk]), {"post": "yes"}).status_code
        == 403
    )
    admin_client.post(
        reverse("admin:tournaments_partida_changelist"),
        {"action": "delete_selected", "_selected_action": [str(partida.pk)], "post": "yes"},
    )
    assert _results(t) == before


def test_a_mao_of_99_points_cannot_be_saved_through_the_admin(admin_client):
    t = tournament_import(data=base_file())
    partida = Partida.objects.get(jogo__group__key="A", number=1)
    before = _results(t)
    response = admin_client.post(
        reverse("admin:tournaments_partida_change", args=[partida.pk]),
        {
            "jogo": partida.jogo_id,
            "number": 1,
            "mode": "maos",
            "score_a": "",
            "score_b": "",
            "lost_by": "",
            "penalty_reason": "",
            "maos-TOTAL_FORMS": 1,
            "maos-INITIAL_FORMS": 0,
            "maos-MIN_NUM_FORMS": 0,
            "maos-MAX_NUM_FORMS": 1000,
            "maos-0-order": 0,
            "maos-0-to": 0,
            "maos-0-points": 99,
            "maos-0-how": "played",
            "maos-0-reason": "",
            "maos-0-partida": partida.pk,
        },
    )
    assert response.status_code == 403
    assert _results(t) == before and not Mao.objects.filter(points=99).exists()


def test_a_jogo_form_shows_its_result_read_only_and_points_to_the_referee_screen(admin_client):
    t = tournament_import(data=base_file())
    jogo = Jogo.objects.get(tournament=t, group__key="A")
    html = admin_client.get(reverse("admin:tournaments_jogo_change", args=[jogo.pk])).content.decode()
    assert f'href="/organizar/{t.slug}/arbitragem/{jogo.key}/"' in html
    for field in ("walkover", "lost_by", "penalty_reason", "status", "via", "confirmations", "signed_at", "version"):
        assert f'name="{field}"' not in html, field
    assert 'name="mesa"' in html  # who plays where is still edited here
    assert 'name="partidas-0-score_a"' not in html  # the partidas are listed, not editable


def test_a_jogo_post_cannot_change_its_result(admin_client):
    """Posting a result with the jogo form (WO, 12 x 12, an extra partida) saves nothing of it."""
    t = tournament_import(data=base_file())
    jogo = Jogo.objects.get(tournament=t, group__key="A")
    partidas = list(jogo.partidas.order_by("number"))
    data = {
        "tournament": t.pk,
        "stage": jogo.stage_id,
        "group": jogo.group_id,
        "dupla_a": jogo.dupla_a_id,
        "dupla_b": jogo.dupla_b_id,
        "mesa": "5",
        "walkover": "a",
        "lost_by": "b",
        "penalty_reason": "x",
        "status": "homologated",
        "via": "7",
        "partidas-TOTAL_FORMS": len(partidas) + 1,
        "partidas-INITIAL_FORMS": len(partidas),
        "partidas-MIN_NUM_FORMS": 0,
        "partidas-MAX_NUM_FORMS": 1000,
    }
    for i, p in enumerate(partidas):
        data |= {
            f"partidas-{i}-id": p.pk,
            f"partidas-{i}-jogo": jogo.pk,
            f"partidas-{i}-number": p.number,
            f"partidas-{i}-mode": "score",
            f"partidas-{i}-score_a": 12,
            f"partidas-{i}-score_b": 12,
            f"partidas-{i}-DELETE": "on" if i == 0 else "",
        }
    n = len(partidas)
    data |= {
        f"partidas-{n}-jogo": jogo.pk,
        f"partidas-{n}-number": n + 1,
        f"partidas-{n}-mode": "score",
        f"partidas-{n}-score_a": 12,
        f"partidas-{n}-score_b": 0,
    }
    result_fields = ("status", "walkover", "lost_by", "penalty_reason", "via", "confirmations", "signed_at")
    before = (
        list(Partida.objects.filter(jogo=jogo).order_by("pk").values()),
        Jogo.objects.filter(pk=jogo.pk).values(*result_fields).get(),
    )
    response = admin_client.post(reverse("admin:tournaments_jogo_change", args=[jogo.pk]), data)
    assert response.status_code == 302  # saved: the mesa, and nothing of the result
    assert (
        list(Partida.objects.filter(jogo=jogo).order_by("pk").values()),
        Jogo.objects.filter(pk=jogo.pk).values(*result_fields).get(),
    ) == before
    assert Jogo.objects.get(pk=jogo.pk).mesa == 5


def test_a_jogo_with_a_result_cannot_be_deleted_in_the_admin(admin_client):
    t = tournament_import(data=base_file())
    jogo = Jogo.objects.get(tournament=t, group__key="A")
    response = admin_client.post(reverse("admin:tournaments_jogo_delete", args=[jogo.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert Jogo.objects.filter(pk=jogo.pk).exists() and jogo.partidas.count() == 3


def test_the_sumula_vias_and_log_are_read_only(admin_client, load_file):
    t = cup_setup(load_file)
    referee = staff_user(t, "arbitro-admin")
    api_client = Client()
    api_client.force_login(referee)
    jogo = Jogo.objects.filter(tournament=t).order_by("id").first()
    for mao in partida_maos(0, "p1") + partida_maos(0, "p2"):
        assert post(api_client, api(t.slug, jogo.key, "maos"), mao).status_code == 201
    assert (
        post(
            api_client, api(t.slug, jogo.key, "correcao"), {"reason": "placar trocado", "partidas": [[12, 0], [12, 3]]}
        ).status_code
        == 200
    )
    assert SumulaVia.objects.filter(jogo=jogo).count() == 1 and SumulaEvent.objects.filter(jogo=jogo).exists()
    for model, obj in (("sumulavia", SumulaVia.objects.get(jogo=jogo)), ("sumulaevent", SumulaEvent.objects.first())):
        html = admin_client.get(reverse(f"admin:tournaments_{model}_changelist")).content.decode()
        assert jogo.key in html or str(jogo) in html, model
        assert admin_client.get(reverse(f"admin:tournaments_{model}_change", args=[obj.pk])).status_code == 200
        assert admin_client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 403
        assert admin_client.post(reverse(f"admin:tournaments_{model}_change", args=[obj.pk]), {}).status_code == 403
        assert (
            admin_client.post(reverse(f"admin:tournaments_{model}_delete", args=[obj.pk]), {"post": "yes"}).status_code
            == 403
        )
    assert SumulaVia.objects.filter(jogo=jogo).count() == 1


def test_deleting_a_tournament_in_the_admin(admin_client):
    t = tournament_import(data=base_file())
    response = admin_client.post(
        reverse("admin:tournaments_tournament_delete", args=[t.pk]), {"post": "yes"}, follow=True
    )
    assert response.status_code == 200
    assert not Tournament.objects.exists() and not Jogo.objects.exists()


def test_organizers_group_may_do_everything_on_tournaments():
    from django.contrib.auth.models import Permission

    organizers = Group.objects.get(name="Organizadores")
    every = set(Permission.objects.filter(content_type__app_label="tournaments").values_list("codename", flat=True))
    assert {"change_tournament", "delete_dupla", "add_draw", "view_mao"} <= every
    assert set(organizers.permissions.values_list("codename", flat=True)) >= every


def test_referees_group_views_everything_and_writes_only_sumulas():
    user = User.objects.create_user("arbitro", password="senha-forte-123", is_staff=True)
    user.groups.add(Group.objects.get(name="Árbitros"))
    for model in ("tournament", "player", "registration", "dupla", "stage", "group", "jogo", "partida", "mao", "draw"):
        assert user.has_perm(f"tournaments.view_{model}"), model
    for model in ("jogo", "partida", "mao"):
        for action in ("add", "change", "delete"):
            assert user.has_perm(f"tournaments.{action}_{model}"), (action, model)
    for model in ("tournament", "dupla", "stage", "draw", "player"):
        assert not user.has_perm(f"tournaments.change_{model}"), model
        assert not user.has_perm(f"tournaments.delete_{model}"), model


def test_referee_in_the_admin_can_open_a_jogo_but_not_edit_a_tournament(client):
    t = tournament_import(data=base_file())
    user = User.objects.create_user("arbitro", password="senha-forte-123", is_staff=True)
    user.groups.add(Group.objects.get(name="Árbitros"))
    client.force_login(user)
    jogo = Jogo.objects.filter(tournament=t).first()
    assert client.get(reverse("admin:tournaments_jogo_change", args=[jogo.pk])).status_code == 200
    response = client.post(reverse("admin:tournaments_tournament_change", args=[t.pk]), {"name": "Outro"})
    assert response.status_code == 403
    t.refresh_from_db()
    assert t.name == "Copa do Bar"


RLO = "\u202e"
HEBREW = "שלום"  # a name written right to left: it stays, and reorders nothing around it


def test_right_to_left_names_are_isolated_on_every_page_and_the_override_is_dropped(admin_client, client):
    """A name carrying U+202E is stored without it (issue 41: names drop the bidi controls); a name written right
    to left is rendered inside <bdi>, so it cannot reverse the text around it."""
    data = base_file(name=f"Copa {RLO}raB od {HEBREW}", venue=f"Bar {RLO}essalC {HEBREW}")
    data["duplas"][0]["name"] = f"Os {RLO}soriepaZ {HEBREW}"
    data["players"][2]["name"] = f"Ana {RLO}azuoS {HEBREW}"
    t = tournament_import(data=data)

    for suffix in ("", "classificacao/", "chave/", "jogos/"):
        html = client.get(f"/torneios/{t.slug}/{suffix}").content.decode()
        assert RLO not in html, suffix
        texts = [m.group(0) for m in re.finditer(f"[^<>]*{HEBREW}[^<>]*", html)]
        assert texts, suffix
        for match in re.finditer(f"[^<>]*{HEBREW}[^<>]*", html):
            before, after = html[: match.start()], html[match.end() :]
            tag = before[before.rfind("<") :]
            if tag.startswith(("<title", "<option", "<textarea")) or not tag.endswith(">"):
                continue  # text-only contexts (title, option, the embed code's textarea, attributes) hold no markup
            assert before.endswith("<bdi>") and after.startswith("</bdi>"), (
                suffix,
                html[match.start() - 80 : match.end() + 20],
            )
    listing = client.get("/torneios/").content.decode()
    assert f"<bdi>Copa raB od {HEBREW}</bdi>" in listing and f"<bdi>Bar essalC {HEBREW}</bdi>" in listing
