"""The table's chat and reactions over the live connection (Channels' WebsocketCommunicator, four seats, the
test's clock): a muted player's message refused in Portuguese and seen by nobody, reactions paced per player,
the chat's history gone when the partida ends."""

import datetime as dt
import random

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from tests.support.online import Clock, connect_all, drain_all, play_random, run, seated_table
from tournaments.models import ChatMessage, OnlineTable, PartidaLog
from tournaments.online import chat, conduct

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def clock(monkeypatch):
    fixed = Clock()
    monkeypatch.setattr("tournaments.play.consumers.now", fixed)
    return fixed


def frames(socket, kind):
    return [f for f in socket.frames if f["type"] == kind]


def test_muted_player_refused_in_portuguese_and_heard_by_nobody(clock):
    table = seated_table()
    staff = User.objects.create_user("moderadora", password="x", is_staff=True)
    conduct.sanction_apply(
        profile=table.profiles[1], kind="mute", reason="ofensas", by=staff, until=clock.at + dt.timedelta(minutes=10)
    )

    async def scenario():
        sockets = await connect_all(table)
        clock.advance(2)
        await sockets[1].send({"type": "chat", "id": "c1", "text": "sou eu"})
        await sockets[1].send({"type": "reaction", "id": "r1", "name": "risada"})
        await drain_all(sockets, wait=0.1)
        clock.advance(2)
        await sockets[0].send({"type": "chat", "text": "alguém aí?"})
        await drain_all(sockets, wait=0.1)
        return sockets

    sockets = run(scenario)
    refused = frames(sockets[1], "refused")
    assert [r["id"] for r in refused] == ["c1", "r1"]
    assert refused[0]["reason"].startswith("Você está silenciado até ")
    assert refused[0]["reason"].endswith(
        ": pode jogar, mas não pode escrever no chat nem mandar reações. Motivo: ofensas"
    )
    for s in sockets:  # Ana's message reached everyone, Bruno's nothing
        assert [f["message"]["text"] for f in frames(s, "chat")] == ["alguém aí?"]
        assert frames(s, "reaction") == []
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["alguém aí?"]


def test_reactions_reach_the_table_one_per_three_seconds(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        await sockets[2].send({"type": "reaction", "id": "r1", "name": "aplauso"})
        await drain_all(sockets, wait=0.1)
        clock.advance(1)
        await sockets[2].send({"type": "reaction", "id": "r2", "name": "fogo"})
        await drain_all(sockets, wait=0.1)
        clock.advance(2)
        await sockets[2].send({"type": "reaction", "id": "r3", "name": "fogo"})
        await drain_all(sockets, wait=0.1)
        return sockets

    sockets = run(scenario)
    for s in sockets:
        assert [(f["name"], f["seat"]) for f in frames(s, "reaction")] == [("aplauso", 2), ("fogo", 2)]
    (refused,) = frames(sockets[2], "refused")
    assert refused == {"type": "refused", "id": "r2", "reason": "Uma reação de cada vez: espere 2 s para mandar outra."}


def test_the_chat_history_is_gone_when_the_partida_ends(clock):
    table = seated_table()
    row = OnlineTable.objects.get(pk=table.id)

    def history() -> list[str]:
        return [line.text for line in chat.chat_history(table=row)]

    async def scenario():
        sockets = await connect_all(table)
        clock.advance(2)
        await sockets[3].send({"type": "chat", "text": "boa sorte"})
        await drain_all(sockets, wait=0.1)
        during = await database_sync_to_async(history)()
        await play_random(sockets, random.Random(7), clock=clock)
        await drain_all(sockets, wait=0.1)
        return during

    assert run(scenario) == ["boa sorte"]
    log = PartidaLog.objects.get(table_id=table.id)
    assert history() == [] and not ChatMessage.objects.filter(table_id=table.id).exists()
    assert "boa sorte" not in str(log.data)  # chat is never in the log
