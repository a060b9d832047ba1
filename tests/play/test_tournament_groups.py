"""An online event with groups then a knockout, played by robots (issue 44): the group tables (points, partidas,
pontos-partida, saldo), the qualifiers and the medals agree with the tables' game logs; no hand entry."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.utils import timezone

from tests.support.online_tournament import clock_run, logs_of
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, SumulaEvent
from tournaments.online import services
from tournaments.online import tournament as online

pytestmark = pytest.mark.django_db


def _file() -> dict:
    today = timezone.localdate()
    players = [{"key": f"p{i}", "name": f"Atleta {i}"} for i in range(1, 17)]
    duplas = [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 9)]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Liga Online",
            "slug": "liga-online",
            "date": today.isoformat(),
            "start_time": timezone.localtime().strftime("%H:%M"),
            "preset": "online",
            "settings": {"online": "all", "third_place": "match"},
        },
        "players": players,
        "duplas": duplas,
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [
                    {"key": "A", "duplas": ["d1", "d2", "d3", "d4"]},
                    {"key": "B", "duplas": ["d5", "d6", "d7", "d8"]},
                ],
                "qualify": {"per_group": 2, "best_others": 0},
            },
            {"key": "mata", "kind": "knockout", "best_of": 3, "entrants": "previous", "draw": {"method": "seeded"}},
        ],
        "jogos": [],
    }


def test_groups_then_knockout_online_agree_with_the_logs(load_file):
    event = load_file(_file())
    with services.draws_seeded(44):  # the deals, first seats and robots' choices: the same every run
        clock_run(event, now=timezone.now())
    jogos = list(Jogo.objects.filter(tournament=event).select_related("dupla_a", "dupla_b", "group", "stage"))
    group_jogos = [j for j in jogos if j.group_id is not None]
    assert len(group_jogos) == 12 and len(jogos) == 16
    assert {j.status for j in jogos} == {"confirmed"}
    assert set(
        SumulaEvent.objects.filter(jogo__tournament=event, action="mao").values_list("user__username", flat=True)
    ) == {online.MESA_ONLINE}
    # the group tables from the logs alone
    expected: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for jogo in group_jogos:
        keys = (jogo.dupla_a.key, jogo.dupla_b.key)
        won = [0, 0]
        for log in logs_of(jogo):
            won[log["winner"]] += 1
            for side in (0, 1):
                row = expected[keys[side]]
                row["points_for"] += log["score"][side]
                row["points_against"] += log["score"][1 - side]
        winner = 0 if won[0] == 2 else 1
        for side in (0, 1):
            row = expected[keys[side]]
            row["jogos"] += 1
            row["won" if side == winner else "lost"] += 1
            row["partidas_won"] += won[side]
            row["partidas_lost"] += won[1 - side]
            clean = won[1 - winner] == 0
            row["points"] += (3 if clean else 2) if side == winner else (0 if clean else 1)
    data = tournament_export(tournament=event)
    for group, rows in data["standings"]["grupos"].items():
        assert len(rows) == 4, group
        for row in rows:
            exp = expected[row["dupla"]]
            got = {k: row[k] for k in ("points", "jogos", "won", "lost", "partidas_won", "partidas_lost")}
            got |= {"points_for": row["points_for"], "points_against": row["points_against"]}
            assert got == {k: exp[k] for k in got}, row["dupla"]
            assert row["saldo"] == exp["points_for"] - exp["points_against"]
    # the two best of each group played the semi-finals
    qualified = {row["dupla"] for rows in data["standings"]["grupos"].values() for row in rows if row["qualified"]}
    semis = [j for j in jogos if j.stage.key == "mata" and j.round == 1]
    assert {d for j in semis for d in (j.dupla_a.key, j.dupla_b.key)} == qualified

    # the medals: the final's winner, its loser, the third-place jogo's winner, from the logs
    def winner_of(jogo: Jogo) -> str:
        logs = logs_of(jogo)
        wins = [sum(1 for log in logs if log["winner"] == s) for s in (0, 1)]
        return (jogo.dupla_a.key, jogo.dupla_b.key)[wins.index(2)]

    final = next(j for j in jogos if j.stage.key == "mata" and j.round == 2 and not j.third_place)
    third = next(j for j in jogos if j.third_place)
    podium = {c["place"]: c["dupla"] for c in data["classification"] if c["place"] <= 3}
    assert podium == {
        1: winner_of(final),
        2: ({final.dupla_a.key, final.dupla_b.key} - {winner_of(final)}).pop(),
        3: winner_of(third),
    }
