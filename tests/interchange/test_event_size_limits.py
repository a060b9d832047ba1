"""Issue 21: one event cannot be made to hold more than the file limits (limits.py): 4,096 duplas, 20,000 jogos."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from scoring.errors import RuleViolation
from scoring.format import format_check, format_jogos
from tests.support.files import base_file, players
from tournaments import limits
from tournaments.draws.format import format_problems
from tournaments.models import Tournament
from tournaments.services import tournament_import
from tournaments.setup.services import format_update, tournament_create, tournament_update

pytestmark = pytest.mark.django_db
ROUND_ROBIN = {
    "kind": "round_robin",
    "bracket_method": "seeded",
    "best_of_groups": 1,
    "best_of_knockout": None,
    "best_of_rounds": {},
}


@pytest.fixture
def organizer(client):
    user = User.objects.create_user("comissao", is_staff=True)  # who may create events (ZAP_EVENT_CREATORS)
    client.force_login(user)
    return user


@pytest.fixture
def t(organizer):
    return tournament_create(user=organizer, starter="aabb", name="Copa", date=timezone.localdate())


def _edit_data(client, t) -> dict:
    form = client.get(reverse("desk:edit", args=[t.slug])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    return data | {"date": "2024-04-27", "start_time": "14:00", "preset": "aabb"}


def test_the_desk_refuses_a_limit_of_duplas_beyond_the_file_limit(client, t):
    response = client.post(reverse("desk:edit", args=[t.slug]), _edit_data(client, t) | {"max_duplas": "30000"})
    assert response.status_code == 200
    assert response.context["form"].errors["max_duplas"] == ["O limite pode ser de no máximo 4096 duplas."]
    assert Tournament.objects.get(pk=t.pk).max_duplas == 16


def test_the_service_refuses_it_too_naming_the_field(t, organizer):
    with pytest.raises(RuleViolation) as exc:
        tournament_update(tournament=t, user=organizer, changes={"max_duplas": 30_000})
    assert [str(e) for e in exc.value.errors] == ["Limite de duplas: 30000 não serve; use de 2 a 4096 duplas."]
    assert Tournament.objects.get(pk=t.pk).max_duplas == 16


def test_a_format_that_would_make_too_many_jogos_of_the_limit_is_refused(client, t, organizer):
    tournament_update(tournament=t, user=organizer, changes={"max_duplas": 300})
    response = client.post(
        reverse("desk:format", args=[t.slug]),
        {
            "kind": "round_robin",
            "group_size": "4",
            "per_group": "2",
            "best_others": "0",
            "best_of_groups": "1",
            "bracket_method": "seeded",
        },
    )
    assert response.status_code == 200
    assert (
        "Formato: com 300 duplas (o limite de duplas) este formato daria até 44850 jogos; o máximo num torneio "
        "é 20000. Diminua o limite de duplas ou use grupos menores."
    ) in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).format["kind"] == "knockout"
    with pytest.raises(RuleViolation):  # the service itself, whoever calls it
        format_update(tournament=t, user=organizer, format=ROUND_ROBIN)
    assert Tournament.objects.get(pk=t.pk).format["kind"] == "knockout"


def test_raising_the_limit_under_a_format_is_refused_the_same_way(t, organizer):
    tournament_update(tournament=t, user=organizer, changes={"max_duplas": 64})
    format_update(tournament=t, user=organizer, format=ROUND_ROBIN)
    with pytest.raises(RuleViolation) as exc:
        tournament_update(tournament=t, user=organizer, changes={"max_duplas": 250})
    assert "daria até 31125 jogos" in str(exc.value.errors[0])
    assert Tournament.objects.get(pk=t.pk).max_duplas == 64


def test_the_draw_refuses_a_format_beyond_the_jogos_ceiling(t, monkeypatch):
    monkeypatch.setattr(limits, "MAX_JOGOS", 10)
    problems = format_problems(t, 16)  # AABB: a knockout of 16 duplas is 16 jogos with the third place
    assert problems == [
        (
            "Formato: com 16 duplas este formato daria até 16 jogos; o máximo num torneio é 10. "
            "Diminua o limite de duplas ou use grupos menores."
        )
    ]


def test_jogos_of_a_format():
    groups = {"kind": "groups_knockout", "group_size": 6, "per_group": 4, "best_others": 16, "bracket_method": "seeded"}
    assert format_jogos(groups, 4096) == 681 * 15 + 2 * 10 + (681 * 4 + 2 * 4 + 16)
    assert format_check(groups, 4096, max_jogos=limits.MAX_JOGOS) == []  # the largest desk event fits
    assert format_jogos({"kind": "knockout"}, 9) == 9 and format_jogos(ROUND_ROBIN, 64) == 2016


def test_a_file_of_30000_jogos_is_refused():
    """256 groups of 16 duplas: 30,720 jogos, within the old ceiling of 40,000."""
    n = limits.MAX_DUPLAS
    data = base_file()
    data["players"] = players(2 * n)
    data["duplas"] = [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, n + 1)]
    groups = [{"key": f"G{g}", "duplas": [f"d{i}" for i in range(g * 16 + 1, g * 16 + 17)]} for g in range(n // 16)]
    data["stages"] = [{"key": "grupos", "kind": "groups", "best_of": 1, "groups": groups, "qualify": {"per_group": 1}}]
    data["jogos"] = []
    with pytest.raises(RuleViolation) as exc:
        tournament_import(data=data)
    assert [str(e) for e in exc.value.errors] == [
        "stages: as fases dão até 30720 jogos; o máximo num arquivo de torneio é 20000"
    ]
    assert not Tournament.objects.exists()
