"""manage.py play_robots (INTERCHANGE.md "Commands"): robots play whole partidas at a casual table through the
same services and log as people; one line per partida, its registro.json then served at its URL."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import OnlineTable, PartidaLog, TableEvent
from truco.log import log_replay

pytestmark = pytest.mark.django_db


def play(*args):
    out = StringIO()
    call_command("play_robots", *args, stdout=out)
    return [line.split() for line in out.getvalue().splitlines()]


def test_robots_play_n_partidas_and_each_log_is_served_and_replays(client):
    lines = play("--partidas", "2", "--level", "aleatorio", "--seed", "7")
    assert [n for _t, n in lines] == ["1", "2"]
    (table_id,) = {int(t) for t, _n in lines}
    table = OnlineTable.objects.get(pk=table_id)
    assert table.kind == "casual" and table.status == "finished" and table.partida_n == 2
    assert list(table.seats.values_list("robot", flat=True)) == ["aleatorio"] * 4
    for _t, n in lines:
        response = client.get(f"/jogar/mesas/{table_id}/partidas/{n}/registro.json")
        assert response.status_code == 200 and response["Content-Type"] == "application/json"
        log = json.loads(response.content)
        assert log["format"] == "truco-online-log" and log["table"] == table_id and log["partida"] == int(n)
        assert log["ended_by"] == "points" and max(log["score"]) >= 12
        states = log_replay(log)  # the log is one the rules give
        assert states[-1].winner == log["winner"]
    # the second partida's events follow the first's on the table
    seqs = list(TableEvent.objects.filter(table=table).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_same_seed_plays_the_same_partidas():
    first = play("--seed", "11", "--preset", "fenacef")
    second = play("--seed", "11", "--preset", "fenacef")
    logs = [PartidaLog.objects.get(table_id=int(lines[0][0]), n=1).data for lines in (first, second)]
    for log in logs:
        assert log["preset"] == "fenacef"
        for mao in log["maos"]:
            mao.pop("at")
            for event in mao["events"]:
                event.pop("at")
        log.pop("table")
    assert logs[0] == logs[1]


def test_a_partida_in_play_or_missing_has_no_log(client):
    (line,) = play()
    response = client.get(f"/jogar/mesas/{line[0]}/partidas/2/registro.json")
    assert response.status_code == 404 and "terminou" in response.json()["errors"][0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--partidas", "0"], "--partidas"),
        (["--partidas", "dois"], "--partidas"),
        (["--level", "mestre"], "--level"),
        (["--preset", "xadrez"], "--preset"),
        (["--seed", "abc"], "--seed"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(args, message):
    with pytest.raises(CommandError, match=message):
        play(*args)
    assert not OnlineTable.objects.exists()
