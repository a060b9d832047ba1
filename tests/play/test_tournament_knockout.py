"""An 8-dupla knockout played online by robots from the draw to the medals, with no hand entry (issue 44): every
mão of every súmula was written by the table (user ``mesa-online``), and each súmula (as the API's JSON gives it),
the bracket, the classification and the medals agree with the tables' game logs (``registro.json``)."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from tests.support.online_tournament import clock_run, knockout_online_file, logs_of
from tournaments.api.serialize import sumula_json
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, Mao, OnlineTable, SumulaEvent
from tournaments.online import tournament as online
from tournaments.sumula.selectors import sumula_get
from truco.log import log_replay

pytestmark = pytest.mark.django_db


def _log_partida(log: dict, duplas: tuple[str, str]) -> dict:
    """What the súmula must hold for one logged partida: its mãos as entries, or the perda da partida."""
    if log["ended_by"] == "abandonment":
        loser = log["abandoned_by"] % 2
        return {"penalty": {"lost_by": duplas[loser], "reason": "abandono"}}
    maos = []
    for mao in log["maos"]:
        result = mao["result"]
        maos.append((result["to"], result.get("points"), result.get("how", "played")))
    return {"maos": maos, "score": tuple(log["score"])}


def _sumula_partida(p: dict) -> dict:
    if p.get("penalty"):
        return {"penalty": p["penalty"]}
    return {"maos": [(m["to"], m["points"], m["how"]) for m in p["maos"]], "score": tuple(p["score"])}


def test_eight_duplas_online_knockout_played_by_robots(load_file):
    tournament = load_file(knockout_online_file())
    assert tournament.online == "all"
    first_round = list(Jogo.objects.filter(tournament=tournament))
    assert len(first_round) == 4
    assert OnlineTable.objects.filter(jogo__in=first_round, kind=OnlineTable.TORNEIO).count() == 4

    clock_run(tournament, now=timezone.now())

    jogos = list(
        Jogo.objects.filter(tournament=tournament)
        .select_related("dupla_a", "dupla_b")
        .order_by("round", "third_place", "position")
    )
    # quarter-finals, semi-finals, the final and the third-place jogo: every one played at its own table
    assert len(jogos) == 8
    assert [j.status for j in jogos] == ["confirmed"] * 8
    assert OnlineTable.objects.filter(jogo__tournament=tournament, status=OnlineTable.CLOSED).count() == 8
    # no hand entry: every mão of every súmula was written by the table
    mao_events = SumulaEvent.objects.filter(jogo__tournament=tournament, action="mao")
    assert mao_events.count() == Mao.objects.filter(partida__jogo__tournament=tournament).count() > 8 * 2 * 5
    assert set(mao_events.values_list("user__username", flat=True)) == {online.MESA_ONLINE}
    assert set(mao_events.values_list("method", flat=True)) == {online.METHOD}

    winners: dict[str, str] = {}
    client = Client()
    for jogo in jogos:
        duplas = (jogo.dupla_a.key, jogo.dupla_b.key)
        logs = logs_of(jogo)
        for log in logs:
            log_replay(log)  # each log replays through the rules (deals checked against their commitments)
            assert [s["name"] for s in log["seats"]] == [
                jogo.dupla_a.player1.name,
                jogo.dupla_b.player1.name,
                jogo.dupla_a.player2.name,
                jogo.dupla_b.player2.name,
            ]
        sheet = sumula_json(sumula_get(tournament=tournament, jogo=jogo))
        assert sheet["duplas"] == list(duplas)
        assert [_sumula_partida(p) for p in sheet["partidas"]] == [_log_partida(log, duplas) for log in logs]
        won = [sum(1 for log in logs if log["winner"] == side) for side in (0, 1)]
        assert max(won) == 2 and min(won) < 2  # best of 3, decided, no partida after it
        assert tuple(sheet["score"]) == tuple(won)
        winner = duplas[won.index(2)]
        assert sheet["winner"] == winner
        winners[jogo.key] = winner
        # the printed súmula: the same result, played online, each partida's replay
        pdf = client.get(f"/torneios/{tournament.slug}/jogos/{jogo.key}/sumula.pdf")
        text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages).split())
        assert f"A {won[0]} x {won[1]} B" in text
        assert "Jogo disputado online" in text
        assert text.replace(" ", "").count(f"/jogar/mesas/{logs[0]['table']}/partidas/") == len(logs)

    # the bracket: each semi-final and the final are played by the winners of the jogos before; the third place
    # by the semi-finals' losers
    by_round = {r: [j for j in jogos if j.round == r and not j.third_place] for r in (1, 2, 3)}
    for r in (2, 3):
        came = {winners[j.key] for j in by_round[r - 1]}
        played = {d for j in by_round[r] for d in (j.dupla_a.key, j.dupla_b.key)}
        assert played == came
    third = next(j for j in jogos if j.third_place)
    semi_losers = {d for j in by_round[2] for d in (j.dupla_a.key, j.dupla_b.key)} - {
        winners[j.key] for j in by_round[2]
    }
    assert {third.dupla_a.key, third.dupla_b.key} == semi_losers

    # the classification and the medals, as the file (and the pages) give them
    data = tournament_export(tournament=tournament)
    final = by_round[3][0]
    podium = {c["place"]: c["dupla"] for c in data["classification"] if c["place"] <= 3}
    assert podium[1] == winners[final.key]
    assert podium[2] == ({final.dupla_a.key, final.dupla_b.key} - {winners[final.key]}).pop()
    assert podium[3] == winners[third.key]
    assert {c["medal"] for c in data["classification"] if c["place"] <= 3} == {"gold", "silver", "bronze"}
    # the export names each jogo's table; the file's result of each is the súmula's
    for row in data["jogos"]:
        table = OnlineTable.objects.get(jogo__tournament=tournament, jogo__key=row["key"])
        assert row["online"] == {"table": table.pk}

    # the public pages show it like any other event
    bracket = client.get(f"/torneios/{tournament.slug}/chave/")
    assert bracket.status_code == 200
    final_name = next(j for j in jogos if j.key == final.key)
    assert final_name.dupla_a.display_name in bracket.content.decode()
