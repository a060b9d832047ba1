"""A hybrid event (issue 44): two mesas online and two physical in one knockout round; and the tournament file's
online settings (``settings.online``, ``settings.wo_tolerance_minutes``, a jogo's ``online``), read, refused when
wrong and written back (docs/contrato.md, "Online play")."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.support.files import import_errors
from tests.support.online_tournament import clock_run, knockout_online_file
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, OnlineTable, SumulaEvent
from tournaments.online import tournament as online
from tournaments.sumula.commands import ResultSet
from tournaments.sumula.locked import Actor
from tournaments.sumula.services import sumula_answer, sumula_result_set

pytestmark = pytest.mark.django_db


def _hybrid_file() -> dict:
    data = knockout_online_file(slug="copa-hibrida", online_setting=None)
    data["stages"][0]["draw"] = {"method": "fixed", "order": [f"d{i}" for i in range(1, 9)]}
    data["jogos"] = [
        {"stage": "mata", "duplas": ["d1", "d2"], "online": True},
        {"stage": "mata", "duplas": ["d3", "d4"], "online": True},
    ]
    return data


def test_two_mesas_online_and_two_physical_make_one_round(load_file):
    event = load_file(_hybrid_file())
    assert event.online == "none"
    round_one = {
        frozenset((j.dupla_a.key, j.dupla_b.key)): j
        for j in Jogo.objects.filter(tournament=event, round=1).select_related("dupla_a", "dupla_b")
    }
    online_jogos = [round_one[frozenset(("d1", "d2"))], round_one[frozenset(("d3", "d4"))]]
    physical = [round_one[frozenset(("d5", "d6"))], round_one[frozenset(("d7", "d8"))]]
    assert [j.online for j in online_jogos] == [True, True] and [j.online for j in physical] == [False, False]
    assert set(OnlineTable.objects.filter(jogo__tournament=event).values_list("jogo_id", flat=True)) == {
        j.pk for j in online_jogos
    }
    # the physical mesas: the referee types the results, the duplas confirm by their links
    referee = online.mesa_online_user().__class__.objects.create_user("arbitro-mesa", password="x-senha-forte-1")
    for jogo in physical:
        sumula_result_set(
            tournament=event,
            key=jogo.key,
            data=ResultSet.from_json({"partidas": [[12, 5], [12, 7]]}),
            actor=Actor(user=referee, method="session"),
        )
        jogo.refresh_from_db()
        for dupla in (jogo.dupla_a, jogo.dupla_b):
            sumula_answer(
                tournament=event,
                key=jogo.key,
                dupla=dupla,
                via=jogo.via,
                accept=True,
                reason="",
                actor=Actor(dupla=dupla, method="link"),
            )
    # the online mesas: robots play them to the end, the clock confirms
    now = clock_run(event, now=timezone.now())
    for jogo in [*online_jogos, *physical]:
        jogo.refresh_from_db()
        assert jogo.status == "confirmed"
    assert (
        SumulaEvent.objects.filter(jogo__in=online_jogos, action="mao").exclude(user__username="mesa-online").count()
        == 0
    )
    assert SumulaEvent.objects.filter(jogo__in=physical, action="mao", user__username="mesa-online").count() == 0
    # the semi-finals are made from both kinds of result; a hybrid event's new jogos are physical unless marked
    semis = list(Jogo.objects.filter(tournament=event, round=2))
    assert len(semis) == 2 and not any(j.online for j in semis)
    assert not OnlineTable.objects.filter(jogo__in=semis).exists()
    assert now > timezone.now()
    # the export names the two online jogos by their tables, and only them
    rows = {row["key"]: row for row in tournament_export(tournament=event)["jogos"]}
    for jogo in online_jogos:
        assert rows[jogo.key]["online"] == {"table": OnlineTable.objects.get(jogo=jogo).pk}
    for jogo in physical + semis:
        assert "online" not in rows[jogo.key]


def test_the_file_reads_and_writes_the_online_settings(load_file):
    data = knockout_online_file(slug="copa-fases", online_setting=["mata"], settings={"wo_tolerance_minutes": 20})
    event = load_file(data)
    assert event.online == ["mata"] and event.wo_tolerance_minutes == 20
    assert "online" not in event.settings and "wo_tolerance_minutes" not in event.settings  # not rules
    assert OnlineTable.objects.filter(jogo__tournament=event).count() == 4
    out = tournament_export(tournament=event)
    assert out["tournament"]["settings"]["online"] == ["mata"]
    assert out["tournament"]["settings"]["wo_tolerance_minutes"] == 20
    # round trip: the export imported again is the same event, online the same way
    out["tournament"]["slug"] = "copa-fases-2"
    again = load_file(out)
    assert again.online == ["mata"] and again.wo_tolerance_minutes == 20
    back = tournament_export(tournament=again)
    assert back["tournament"]["settings"] == out["tournament"]["settings"]
    assert [row.get("online") is not None for row in back["jogos"]] == [True] * 4
    # a scheduled jogo marked online in a hybrid event comes back as "online": its table
    hybrid = load_file(_hybrid_file())
    rows = [row for row in tournament_export(tournament=hybrid)["jogos"] if "online" in row]
    assert len(rows) == 2 and all(set(row["online"]) == {"table"} for row in rows)


@pytest.mark.parametrize(
    ("file_settings", "jogo_online", "message"),
    [
        ({"online": "sim"}, None, 'settings.online é "none", "all"'),
        ({"online": ["grupos"]}, None, "fase desconhecida em settings.online: grupos"),
        ({"wo_tolerance_minutes": -1}, None, "wo_tolerance_minutes é um número inteiro"),
        ({"wo_tolerance_minutes": True}, None, "wo_tolerance_minutes é um número inteiro"),
        ({}, "sim", '"online" é true (mesa online) ou {"table": número da mesa}'),
        ({}, {"table": 0}, '"online" é true (mesa online)'),
    ],
)
def test_wrong_online_settings_are_refused_in_portuguese(file_settings, jogo_online, message):
    data = knockout_online_file(slug="copa-errada", online_setting=None, settings=file_settings)
    if jogo_online is not None:
        data["stages"][0]["draw"] = {"method": "fixed", "order": [f"d{i}" for i in range(1, 9)]}
        data["jogos"] = [{"stage": "mata", "duplas": ["d1", "d2"], "online": jogo_online}]
    errors = import_errors(data)
    assert any(message in e for e in errors), errors
