"""Desk posts refused because the draw is already published say why, in Portuguese, and write nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.models import AuditEntry, Dupla, Registration

pytestmark = pytest.mark.django_db
DRAWN = "já foi publicado"


@pytest.fixture
def desk(client, event_drawn):
    client.force_login(get_user_model().objects.get(username="comissao-outono"))
    return client


def _post(client, t, name, data, *args):
    before = AuditEntry.objects.count()
    response = client.post(reverse(f"desk:{name}", args=[t.slug, *args]), data, follow=True)
    assert response.status_code == 200, name
    assert AuditEntry.objects.count() == before, name
    return response.content.decode()


def test_competition_draw_again_says_it_is_published(desk, event_drawn):
    body = _post(desk, event_drawn, "competition", {"action": "preview"})
    assert "O sorteio já foi publicado. Para sortear de novo, use “Refazer sorteio”." in body
    body = _post(desk, event_drawn, "competition", {"action": "publish", "seed": "1"})
    assert "O sorteio já foi publicado" in body and "sorteie de novo" not in body


def test_swap_after_the_draw_says_why(desk, event_drawn):
    a, b = Dupla.objects.filter(tournament=event_drawn).order_by("pk")[:2]
    body = _post(
        desk, event_drawn, "duplas_swap", {"player_a": a.player1_id, "player_b": b.player1_id, "reason": "pedido"}
    )
    assert "Troca de atletas: o sorteio dos grupos e da chave " + DRAWN in body


def test_swap_after_the_draw_with_a_bad_form_still_says_something(desk, event_drawn):
    body = _post(desk, event_drawn, "duplas_swap", {"player_a": "1"})
    assert "Motivo da troca: Este campo é obrigatório." in body


def test_hand_pairing_after_the_draw_says_why(desk, event_drawn):
    waiting = Registration.objects.filter(tournament=event_drawn, status=Registration.WAITING)
    first = waiting.first()
    other = (
        Registration.objects.create(
            tournament=event_drawn, order=99, player1=first.player1, status=Registration.WAITING
        )
        if waiting.count() < 2
        else waiting[1]
    )
    body = _post(desk, event_drawn, "dupla_add", {"registration_1": first.pk, "registration_2": other.pk})
    assert "Nova dupla: o sorteio dos grupos e da chave " + DRAWN in body


@pytest.mark.parametrize(
    "name, data",
    [
        ("pairing", {}),
        (
            "format",
            {"kind": "knockout", "bracket_method": "seeded", "group_size": "4", "per_group": "2", "best_others": "0"},
        ),
    ],
)
def test_other_refusals_after_the_draw_say_why(desk, event_drawn, name, data):
    assert DRAWN in _post(desk, event_drawn, name, data)


def test_seed_change_after_the_draw_says_why(desk, event_drawn):
    dupla = Dupla.objects.filter(tournament=event_drawn).first()
    body = _post(desk, event_drawn, "dupla_edit", {"name": "", "seed": "3"}, dupla.pk)
    assert "Cabeça de chave: o sorteio dos grupos e da chave " + DRAWN in body


def test_undo_without_a_draw_says_why(desk, event_drawn):
    from tournaments.draws import services as draws

    organizer = get_user_model().objects.get(username="comissao-outono")
    draws.competition_undo(tournament=event_drawn, user=organizer, reason="outra aba")
    body = _post(desk, event_drawn, "competition_undo", {"reason": "de novo"})
    assert "Refazer sorteio: ainda não há sorteio publicado." in body
