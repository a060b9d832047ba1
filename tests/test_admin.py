"""The admin: every model editable, and an edit there refreshes what the pages show."""

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
