"""The words of a dupla's private page (and the public súmula it links to) for what players know: the round by
the name the bracket gives it, the via only when the súmula was corrected (walk review #7); the jogo it is called
to shown once (#12)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.support.event_states import knockout_live_make
from tournaments.calls import services as calls
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


# --- the call to the mesa and the next jogo (walk review #12) -------------------------------------------------


def test_the_called_next_jogo_is_shown_once_as_the_call_with_its_details(client, knockout):
    later = _quarters(knockout)[3]  # not begun
    organizer = get_user_model().objects.get(username="comissao-chave")
    calls.jogo_call(tournament=knockout, jogo_id=later.pk, user=organizer)
    html = _private(client, later.dupla_a)
    banner = html.split('class="sua-vez-banner"', 1)[1].split("</section>", 1)[0]
    assert f"Sua vez! Mesa {later.mesa}" in banner
    assert "Quartas de final" in banner and "melhor de 5" in banner and "chamado às" in banner
    assert later.dupla_b.display_name in banner
    assert reverse("tournaments:sumula", kwargs={"slug": knockout.slug, "key": later.key}) in banner
    assert 'id="proximo-titulo"' not in html and "Próximo jogo" not in html  # not a second time below
    # the public page of the dupla has no call: its next jogo stays
    public = client.get(reverse("tournaments:dupla", args=[knockout.slug, later.dupla_a.key])).content.decode()
    assert "Próximo jogo" in public and "Sua vez" not in public


def test_without_a_call_the_next_jogo_card_stays(client, knockout):
    later = _quarters(knockout)[3]
    html = _private(client, later.dupla_a)
    assert "sua-vez-banner" not in html and "Próximo jogo" in html


# --- the jogo as people know it, never its key (walk review #8) -----------------------------------------------


def test_the_public_sumula_names_the_jogo_by_its_round_and_place_not_its_key(client, knockout):
    second = _quarters(knockout)[1]
    sheet = _sumula(client, knockout, second.key)
    title = sheet.split('class="page-title sumula-title">', 1)[1].split("</h2>", 1)[0]
    assert title == "Súmula · Quartas de final · jogo 2"
    assert f"Súmula · Quartas de final · jogo 2 · {knockout.name}" in sheet.split("</title>", 1)[0]
    assert second.key not in title


def test_every_jogo_is_named_as_people_know_it(event_after):
    from tournaments.presenters import jogo_label
    from tournaments.selectors import tournament_state_get

    label = jogo_label(tournament_state_get(tournament=event_after))
    jogos = Jogo.objects.filter(tournament=event_after)
    final = jogos.get(group=None, third_place=False, round=2)
    assert label(final) == "Final"
    assert label(jogos.get(third_place=True)) == "Disputa de 3º lugar"
    semis = sorted(label(j) for j in jogos.filter(group=None, third_place=False, round=1))
    assert semis == ["Semifinais · jogo 1", "Semifinais · jogo 2"]
    group_jogo = jogos.filter(group__key="A", round=1).order_by("mesa").first()
    assert label(group_jogo) == "Grupo A · Rodada 1"
    assert not any(j.key in label(j) for j in jogos)


def test_the_dupla_messages_name_the_jogo_by_its_opponent(client, knockout):
    awaiting = _quarters(knockout)[1]
    dupla = awaiting.dupla_b
    dupla.refresh_from_db()
    response = client.post(
        reverse("privatelink:answer", kwargs={"token": dupla.token, "key": awaiting.key}),
        {"resposta": "confirmar", "via": "1"},
        follow=True,
    )
    html = response.content.decode()
    assert f"Sua dupla confirmou a súmula do jogo contra {awaiting.dupla_a.display_name}." in html
    assert f"jogo {awaiting.key}" not in html


def test_the_call_message_names_the_jogo_by_its_round(knockout):
    from tournaments.calls.messages import call_text

    later = Jogo.objects.select_related("tournament", "stage", "dupla_a", "dupla_b").get(pk=_quarters(knockout)[3].pk)
    text = call_text(jogo=later, dupla=later.dupla_a, at=later.tournament.created_at)
    assert "Quartas de final · jogo 4, horário:" in text
    assert later.key not in text.replace(f"/d/{later.dupla_a.token}/", "")
