"""The replay of a finished partida (/jogar/mesas/<id>/partidas/<n>/, DOMAIN §9.3): a robots partida (play_robots)
replayed step by step through the engine's rules, every hand shown, each deal checked against its commitment with
truco.deal; a tampered log shown as not checking; a partida being played, or missing, is a 404; a tournament
jogo's partida is public only once the jogo's result counts."""

from __future__ import annotations

import re
from hashlib import sha256
from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import OnlineTable, PartidaLog
from tournaments.online.replay import replay_build, replay_get
from truco.deal import deal

pytestmark = pytest.mark.django_db


def robots_partida(*args: str) -> tuple[int, int]:
    out = StringIO()
    call_command("play_robots", "--seed", "21", *args, stdout=out)
    table, n = out.getvalue().split()[:2]
    return int(table), int(n)


def test_a_robots_partida_replays_every_step_with_every_deal_checked(client):
    table_id, n = robots_partida("--level", "aleatorio")
    log = PartidaLog.objects.get(table_id=table_id, n=n)
    replay = replay_get(table_id=table_id, n=n)
    assert replay is not None and not replay.error and replay.checked
    assert replay.score == tuple(log.data["score"]) and replay.winner == log.winner
    # one replayed mão per logged mão, each deal checked on its own against the log's seed and commitment
    assert [m.n for m in replay.maos] == [m["n"] for m in log.data["maos"]]
    for mao, logged in zip(replay.maos, log.data["maos"], strict=True):
        seed = bytes.fromhex(logged["seed"])
        assert mao.check.commitment == logged["commitment"] == sha256(seed).hexdigest()
        dealt = deal(seed=seed, first=logged["first"], with_vira=logged["vira"] is not None)
        assert [[c.card for c in hand] for hand in mao.check.hands] == [list(h) for h in dealt.hands]
        assert mao.check.ok
    # every event of the log is in exactly one step, in order; the last step's score is the final one
    logged_events = [e for m in log.data["maos"] for e in m["events"]]
    assert sum(len(s.texts) for s in replay.steps) >= len(logged_events)
    assert replay.steps[-1].score == replay.score
    # a step that closes a rodada shows its four cards on the table
    full = [s for s in replay.steps if len(s.table) == 4]
    assert full and all(len({c.seat for c in s.table}) == 4 for s in full)

    response = client.get(f"/jogar/mesas/{table_id}/partidas/{n}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "foram conferidas" in html or "foi conferida" in html
    for logged in log.data["maos"]:
        assert logged["seed"] in html and logged["commitment"] in html
    # the last step by default; ?passo=1 the first, with its first event in words
    first = replay.steps[0]
    page = client.get(f"/jogar/mesas/{table_id}/partidas/{n}/", {"passo": "1"}).content.decode()
    assert f"Passo 1 de {len(replay.steps)}" in page and first.texts[0] in page
    # anything else as a step is the nearest one, never an error
    for bad in ("0", "-3", "abc", "99999999999", str(len(replay.steps) + 50)):
        assert client.get(f"/jogar/mesas/{table_id}/partidas/{n}/", {"passo": bad}).status_code == 200


def test_every_hand_is_shown_on_the_replay(client):
    table_id, n = robots_partida()
    replay = replay_get(table_id=table_id, n=n)
    assert replay is not None
    step = replay.steps[0]
    page = client.get(f"/jogar/mesas/{table_id}/partidas/{n}/", {"passo": "1"}).content.decode()
    mesa = page[page.index('id="mesa"') : page.index("Todas as mãos")]
    shown = set(re.findall(r"/cards/\w+/(\w\w)\.svg", mesa))
    expected = {c.card for hand in step.hands for c in hand} | {c.card for c in step.table}
    assert expected <= shown and len(expected) >= 11  # the four hands after the first card, and that card


def test_a_tampered_log_does_not_check(client):
    table_id, n = robots_partida()
    row = PartidaLog.objects.get(table_id=table_id, n=n)
    data = row.data
    data["maos"][0]["seed"] = "00" * 32  # another seed: it matches neither the commitment nor the deal
    replay = replay_build(data=data, finished_at=row.finished_at)
    assert replay.error and "semente" in replay.error and not replay.checked
    assert not replay.maos[0].check.commitment_ok
    PartidaLog.objects.filter(pk=row.pk).update(data=data)
    response = client.get(f"/jogar/mesas/{table_id}/partidas/{n}/")
    assert response.status_code == 200 and "não confere" in response.content.decode()


def test_a_partida_in_play_or_missing_is_a_404(client):
    table_id, n = robots_partida()
    assert client.get(f"/jogar/mesas/{table_id}/partidas/{n + 1}/").status_code == 404
    response = client.get("/jogar/mesas/999999/partidas/1/")
    assert response.status_code == 404 and "ainda não terminou" in response.content.decode()
    assert client.post(f"/jogar/mesas/{table_id}/partidas/{n}/").status_code == 405


def test_a_tournament_jogos_partida_is_public_once_its_result_counts(client, load_file):
    from tests.support.sumula import cup_setup, staff_user
    from tournaments.models import Jogo

    tournament = cup_setup(load_file, slug="copa-replay")
    jogo = Jogo.objects.filter(tournament=tournament).order_by("pk").first()
    table_id, n = robots_partida()
    OnlineTable.objects.filter(pk=table_id).update(kind=OnlineTable.TORNEIO, jogo=jogo)
    url = f"/jogar/mesas/{table_id}/partidas/{n}/"
    assert client.get(url).status_code == 404
    assert replay_get(table_id=table_id, n=n) is None
    # the event's referee sees it before it is public, never kept by a shared cache
    client.force_login(staff_user(tournament, "arbitra-replay"))
    response = client.get(url)
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert "jogo de torneio" in response.content.decode()
    client.logout()
    client.force_login(staff_user(None, "outra-pessoa"))
    assert client.get(url).status_code == 404
    # once the jogo's result counts, anyone
    Jogo.objects.filter(pk=jogo.pk).update(counted_via=1)
    client.logout()
    assert client.get(url).status_code == 200


def test_a_tournament_jogos_registro_json_follows_its_replay(client, load_file):
    from tests.support.sumula import cup_setup
    from tournaments.models import Jogo

    tournament = cup_setup(load_file, slug="copa-registro")
    jogo = Jogo.objects.filter(tournament=tournament).order_by("pk").first()
    table_id, n = robots_partida()
    url = f"/jogar/mesas/{table_id}/partidas/{n}/registro.json"
    assert client.get(url).status_code == 200  # a casual table's: public at once
    OnlineTable.objects.filter(pk=table_id).update(kind=OnlineTable.TORNEIO, jogo=jogo)
    assert client.get(url).status_code == 404
    Jogo.objects.filter(pk=jogo.pk).update(counted_via=1)
    assert client.get(url).status_code == 200
