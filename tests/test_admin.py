"""The admin: every model editable, and an edit there refreshes what the pages show."""

import re

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from tests.test_import import base_file
from tournaments.models import Jogo, Partida, Tournament
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
    for model in ("tournament", "player", "registration", "dupla", "group", "stage", "jogo", "partida", "draw"):
        assert admin_client.get(reverse(f"admin:tournaments_{model}_changelist")).status_code == 200, model


def test_editing_a_partida_in_the_admin_refreshes_the_standings(admin_client, client, django_capture_on_commit_callbacks):
    t = tournament_import(data=base_file())
    url = reverse("tournaments:standings", kwargs={"slug": t.slug})
    assert "+11" in client.get(url).content.decode()  # d1: 33 x 22
    partida = Partida.objects.get(jogo__group__key="A", number=1)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:tournaments_partida_change", args=[partida.pk]), {
            "jogo": partida.jogo_id, "number": 1, "mode": "score", "score_a": 22, "score_b": 7, "lost_by": "",
            "penalty_reason": "", "maos-TOTAL_FORMS": 0, "maos-INITIAL_FORMS": 0, "maos-MIN_NUM_FORMS": 0,
            "maos-MAX_NUM_FORMS": 1000,
        }, follow=True)
    assert response.status_code == 200
    partida.refresh_from_db()
    assert partida.score_a == 22
    assert "+21" in client.get(url).content.decode()  # 43 x 22 now


def test_deleting_a_tournament_in_the_admin(admin_client):
    t = tournament_import(data=base_file())
    response = admin_client.post(reverse("admin:tournaments_tournament_delete", args=[t.pk]), {"post": "yes"}, follow=True)
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


def test_right_to_left_override_in_names_is_isolated_on_every_page(admin_client, client):
    """A name carrying U+202E is rendered inside <bdi>, so it cannot reverse the text around it."""
    data = base_file(name=f"Copa {RLO}raB od", venue=f"Bar {RLO}essalC")
    data["duplas"][0]["name"] = f"Os {RLO}soriepaZ"
    data["players"][2]["name"] = f"Ana {RLO}azuoS"
    t = tournament_import(data=data)

    for suffix in ("", "classificacao/", "chave/", "jogos/"):
        html = client.get(f"/torneios/{t.slug}/{suffix}").content.decode()
        texts = [m.group(0) for m in re.finditer(f"[^<>]*{RLO}[^<>]*", html)]
        assert texts, suffix
        for match in re.finditer(f"[^<>]*{RLO}[^<>]*", html):
            before, after = html[:match.start()], html[match.end():]
            tag = before[before.rfind("<"):]
            if tag.startswith(("<title", "<option")) or not tag.endswith(">"):
                continue  # text-only contexts (title, option, attribute values) cannot hold markup
            assert before.endswith("<bdi>") and after.startswith("</bdi>"), (suffix, html[match.start() - 80:match.end() + 20])
    listing = client.get("/torneios/").content.decode()
    assert f"<bdi>Copa {RLO}raB od</bdi>" in listing and f"<bdi>Bar {RLO}essalC</bdi>" in listing
