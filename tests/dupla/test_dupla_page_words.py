"""The words of a dupla's private page (and the public súmula it links to) for what players know: the round by
the name the bracket gives it, the via only when the súmula was corrected (walk review #7)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.support.event_states import knockout_live_make
from tournaments.models import Jogo
from tournaments.sumula.commands import Correction
from tournaments.sumula.services import Actor, sumula_correct

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout():
    """AABB knockout of 8: the quarter-finals under way (the 2nd decided 3 x 0, awaiting confirmation)."""
    return knockout_live_make()


def _quarters(t) -> list[Jogo]:
    return list(
        Jogo.objects.filter(tournament=t, round=1).select_related("dupla_a", "dupla_b").order_by("position", "id")
    )


def _private(client, dupla) -> str:
    dupla.refresh_from_db()
    response = client.get(reverse("privatelink:dupla", kwargs={"token": dupla.token}))
    assert response.status_code == 200
    return response.content.decode()


def _section(html: str, anchor: str) -> str:
    return html.split(f'id="{anchor}"', 1)[1].split("</section>", 1)[0]


def _sumula(client, t, key: str) -> str:
    response = client.get(reverse("tournaments:sumula", kwargs={"slug": t.slug, "key": key}))
    assert response.status_code == 200
    return response.content.decode()


def test_a_jogo_to_confirm_is_named_by_its_round_as_the_bracket_names_it(client, knockout):
    awaiting = _quarters(knockout)[1]
    to_confirm = _section(_private(client, awaiting.dupla_b), "confirmar")
    assert "Quartas de final" in to_confirm  # as the bracket and the jogos page name the round
    assert "Rodada" not in to_confirm
    assert "via" not in to_confirm.replace('name="via"', "")  # a first via: nothing to say about it
    assert "Quartas de final" in client.get(reverse("tournaments:bracket", args=[knockout.slug])).content.decode()


def test_a_corrected_sumula_says_it_is_the_2nd_via_and_why(client, knockout):
    awaiting = _quarters(knockout)[1]
    referee = get_user_model().objects.get(username="arbitro-chave")
    sumula_correct(
        tournament=knockout,
        key=awaiting.key,
        data=Correction.from_json(
            {"partidas": [[12, 3], [5, 12], [12, 5], [12, 7]], "reason": "A segunda partida foi 5 x 12."}
        ),
        actor=Actor(user=referee, method="session"),
    )
    to_confirm = _section(_private(client, awaiting.dupla_a), "confirmar")
    assert "2ª via (súmula corrigida)" in to_confirm
    assert "Motivo da correção: A segunda partida foi 5 x 12." in to_confirm
    sheet = _sumula(client, knockout, awaiting.key)
    status = sheet.split('class="sumula-status"', 1)[1].split("</p>", 1)[0]
    assert "2ª via (súmula corrigida)" in status
    assert "Substitui a 1ª via: A segunda partida foi 5 x 12." in sheet


def test_the_public_sumula_of_a_first_via_does_not_talk_of_vias(client, knockout):
    awaiting = _quarters(knockout)[1]
    sheet = _sumula(client, knockout, awaiting.key)
    assert "ª via" not in sheet
    assert "Quartas de final" in sheet
