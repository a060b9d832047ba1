"""The live connection with four seats (Channels' WebsocketCommunicator on the site's ASGI application): every rule
of DOMAIN §9.2 with a controlled clock (the connection's ``now`` and the ticks are the test's), the host's powers,
and the connection's own rules (seq, id, limits, origin and session)."""

import json
import random
from datetime import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.support.online import (
    Clock,
    Socket,
    connect,
    connect_all,
    drain_all,
    guest,
    play_random,
    run,
    seated_table,
    set_partida,
    settle,
    tick,
)
from tournaments.models import ClientAction, OnlineTable, PartidaLog, TableEvent
from tournaments.online import services
from tournaments.refusals import Refused
from truco.log import log_replay

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def clock(monkeypatch):
    """The connection's clock is the test's: it moves only with ``clock.advance``."""
    fixed = Clock()
    monkeypatch.setattr("tournaments.play.consumers.now", fixed)
    return fixed


def events(socket, kind):
    return [f["event"] for f in socket.frames if f["type"] == "event" and f["event"]["type"] == kind]


def refusals(socket):
    return [f for f in socket.frames if f["type"] == "refused"]


def seconds_until(deadline: str, now: datetime) -> float:
    return (datetime.fromisoformat(deadline) - now).total_seconds()


def test_four_seats_play_a_whole_partida_over_the_sockets(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        for s in sockets:
            first = s.frames[0]
            assert first["type"] == "state" and first["state"]["seat"] == s.seat and len(first["state"]["hand"]) == 3
            assert s.frames[1]["type"] == "seats" and s.frames[1]["seat"] == s.seat
        steps = await play_random(sockets, random.Random(1), clock=clock)
        for s in sockets:
            await s.close()
        return steps, sockets

    steps, sockets = run(scenario)
    assert steps > 10
    assert [(s.state["ended"], s.state["status"]) for s in sockets] == [
        ({"winner": sockets[0].state["ended"]["winner"], "by": "points", "seat": None}, "finished")
    ] * 4
    log = PartidaLog.objects.get(table=table.table, n=1)
    assert log_replay(log.data)[-1].ended  # the log the table wrote replays through the rules
    # once all four are connected, every seat received the same events, in order, with no gap
    start = max(s.frames[0]["seq"] for s in sockets)
    seqs = [[f["seq"] for f in s.frames if f["type"] == "event" and f["seq"] > start] for s in sockets]
    assert all(seq == seqs[0] for seq in seqs)
    assert seqs[0] == list(range(seqs[0][0], seqs[0][-1] + 1))


def test_an_unanswered_bet_is_a_run(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        turn = sockets[0].state["turn"]
        asker = sockets[turn]
        assert "bet" in asker.state["may"]
        clock.advance(2)
        await asker.act({"type": "bet"})
        await settle(sockets)
        answerer = (turn + 1) % 4
        assert sockets[answerer].state["may"] == ["answer"]
        assert 34 < seconds_until(sockets[answerer].state["deadline"], clock()) <= 35
        assert await tick(clock.advance(34.9)) == []  # not yet
        await settle(sockets)
        assert events(sockets[0], "expiry") == []
        assert await tick(clock.advance(0.2)) == [table.id]
        assert await tick(clock()) == []  # fired once
        await settle(sockets)
        return sockets, turn, answerer

    sockets, turn, answerer = run(scenario)
    for s in sockets:
        (expiry,) = events(s, "expiry")
        assert expiry["what"] == "answer" and expiry["then"] == "ran" and expiry["seat"] == answerer
        assert s.state["score"][turn % 2] == 1 and s.state["score"][1 - turn % 2] == 0  # truco refused: 1
        assert s.state["mao"]["n"] == 2


def test_an_undecided_mao_de_onze_is_played_for_3(clock):
    table = seated_table()
    set_partida(table, score=(11, 4), at=clock())

    async def scenario():
        sockets = await connect_all(table)
        for s in sockets:
            assert s.state["phase"] == "onze"
            on_eleven = s.seat % 2 == 0
            assert s.state["may"] == (["onze"] if on_eleven else [])
            assert (s.state["partner_hand"] is not None) == on_eleven  # partners on 11 see each other's cards
        await tick(clock.advance(35.1))
        await settle(sockets)
        return sockets

    sockets = run(scenario)
    for s in sockets:
        (expiry,) = events(s, "expiry")
        assert expiry["what"] == "onze" and expiry["then"] == "play"
        assert s.state["phase"] == "play" and s.state["value"] == 3 and s.state["partner_hand"] is None


async def _turn_runs_out(table, clock):
    sockets = await connect_all(table)
    absent = sockets[0].state["turn"]
    await tick(clock.advance(35.5))
    await settle(sockets)
    return sockets, absent


def test_a_turn_not_played_opens_the_vote_and_a_majority_yes_gives_35_seconds_more(clock):
    table = seated_table()

    async def scenario():
        sockets, absent = await _turn_runs_out(table, clock)
        voters = [s for s in sockets if s.seat != absent]
        for s in sockets:
            assert s.state["phase"] == "vote" and s.state["vote"]["absent"] == absent
            assert s.state["may"] == ([] if s.seat == absent else ["vote"])
        # the table is suspended for the absent player: it cannot play while the others vote
        card = sockets[absent].state["hand"][0]
        clock.advance(1)
        refused = await sockets[absent].act({"type": "play", "card": card, "closed": False})
        assert refused["type"] == "refused" and "Extensão de tempo" in refused["reason"]
        await voters[0].act({"type": "vote", "extend": True})
        await settle(sockets)
        await voters[1].act({"type": "vote", "extend": True})
        await settle(sockets)
        return sockets, absent

    sockets, absent = run(scenario)
    for s in sockets:
        (result,) = events(s, "vote_result")
        assert result == {**result, "seat": absent, "extend": True}
        assert s.state["phase"] == "play" and s.state["turn"] == absent
        assert 34.9 <= seconds_until(s.state["deadline"], clock()) <= 35
    assert sockets[absent].state["may"][0] == "play"


@pytest.mark.parametrize("how", ["no", "silence"])
def test_a_majority_no_or_silence_ends_the_partida_by_abandonment(clock, how):
    table = seated_table()

    async def scenario():
        sockets, absent = await _turn_runs_out(table, clock)
        voters = [s for s in sockets if s.seat != absent]
        if how == "no":
            await voters[0].act({"type": "vote", "extend": False})
            await settle(sockets)
            await voters[1].act({"type": "vote", "extend": False})
        else:
            await voters[0].act({"type": "vote", "extend": True})  # one yes is no majority
            await settle(sockets)
            assert await tick(clock.advance(34)) == []
            await tick(clock.advance(1.1))  # nobody else voted: no
        await settle(sockets)
        return sockets, absent

    sockets, absent = run(scenario)
    for s in sockets:
        assert s.state["ended"] == {"winner": 1 - absent % 2, "by": "abandonment", "seat": absent}
        assert s.state["status"] == "finished" and s.state["may"] == []
    log = PartidaLog.objects.get(table=table.table, n=1)
    assert log.ended_by == "abandonment" and log.data["abandoned_by"] == absent
    assert log_replay(log.data)[-1].abandoned_by == absent


def test_the_host_moves_removes_fills_with_robots_and_starts(clock):
    host, host_key = guest("Ana")
    table = services.table_create(host=host, appearance="", face="", back="")
    services.table_confirm(table=table, by=host)
    bruno, bruno_key = guest("Bruno")
    carla, _carla_key = guest("Carla")
    services.seat_take(table=table, profile=bruno, seat=1)
    services.seat_take(table=table, profile=carla, seat=2)

    def refused(call, **kwargs):
        with pytest.raises(Refused) as caught:
            call(table=table, **kwargs)
        return caught.value

    async def scenario():
        watcher = await connect(table.pk, bruno_key, seat=1)
        assert watcher.frames[-1]["type"] == "seats" and watcher.frames[-1]["host"] is False
        mover = database_sync_to_async
        assert (await mover(refused)(services.seat_move, by=bruno, from_seat=2, to_seat=3)).kind == "forbidden"
        await mover(services.seat_move)(table=table, by=host, from_seat=2, to_seat=3)
        seats = (await watcher.until(lambda f: f["type"] == "seats" and f["seats"][2] is None))["seats"]
        assert seats[3]["name"] == "Carla"
        assert (await mover(refused)(services.seat_remove, by=bruno, seat=3)).kind == "forbidden"
        await mover(services.seat_remove)(table=table, by=host, seat=3)
        await watcher.until(lambda f: f["type"] == "seats" and f["seats"][3] is None)
        assert "quatro" in str(await mover(refused)(services.table_start, by=host))
        assert (await mover(refused)(services.robots_fill, by=bruno)).kind == "forbidden"
        await mover(services.robots_fill)(table=table, by=host, level="basico")
        seats = (await watcher.until(lambda f: f["type"] == "seats" and f["seats"][3] is not None))["seats"]
        assert [s["robot"] for s in seats] == [None, None, "basico", "basico"]
        assert (await mover(refused)(services.table_start, by=bruno)).kind == "forbidden"
        await mover(services.table_start)(table=table, by=host)
        await watcher.until(lambda f: f["type"] == "event" and f["event"]["type"] == "partida")
        assert watcher.state["status"] == "playing" and len(watcher.state["hand"]) == 3
        assert "andamento" in str(await mover(refused)(services.seat_leave, profile=bruno))
        assert "andamento" in str(await mover(refused)(services.seat_remove, by=host, seat=1))
        await watcher.close()

    run(scenario)


def test_the_host_leaving_before_the_start_empties_the_table(clock):
    host, _host_key = guest("Ana")
    table = services.table_create(host=host, appearance="", face="", back="")
    services.table_confirm(table=table, by=host)
    bruno, bruno_key = guest("Bruno")
    services.seat_take(table=table, profile=bruno)

    async def scenario():
        watcher = await connect(table.pk, bruno_key, seat=1)
        await database_sync_to_async(services.seat_leave)(table=table, profile=host)
        seats = await watcher.until(lambda f: f["type"] == "seats" and f["status"] == "closed")
        assert seats["seats"] == [None, None, None, None]
        await watcher.close()

    run(scenario)
    table.refresh_from_db()
    assert table.status == OnlineTable.CLOSED and not table.seats.exists()


def test_staff_have_the_hosts_powers():
    from django.contrib.auth.models import User

    from tournaments.online import people

    host, _ = guest("Ana")
    table = services.table_create(host=host, appearance="", face="", back="")
    services.table_confirm(table=table, by=host)
    staff = people.profile_for_user(user=User.objects.create_user("equipe", is_staff=True))
    services.robots_fill(table=table, by=staff)
    services.table_start(table=table, by=staff)
    table.refresh_from_db()
    assert table.status == OnlineTable.PLAYING


def test_a_stale_seq_is_refused_and_the_same_id_twice_acts_once(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        turn = sockets[0].state["turn"]
        mover = sockets[turn]
        card = mover.state["hand"][0]
        before = await database_sync_to_async(TableEvent.objects.filter(table_id=table.id).count)()
        clock.advance(1)
        await mover.send({"type": "play", "id": "stale", "seq": mover.seq - 1, "card": card, "closed": False})
        refused = await reply(mover)
        assert refused["type"] == "refused" and refused["id"] == "stale" and "mudou" in refused["reason"]
        await settle(sockets)
        assert await database_sync_to_async(TableEvent.objects.filter(table_id=table.id).count)() == before
        message = {"type": "play", "id": "once", "seq": mover.seq, "card": card, "closed": False}
        await mover.send(message)
        await mover.send(message)  # a retry: the same id
        await drain_all(sockets, wait=0.1)
        return sockets, mover, before

    sockets, mover, before = run(scenario)
    assert TableEvent.objects.filter(table_id=table.id).count() == before + 1
    assert ClientAction.objects.filter(table_id=table.id, client_id="once").count() == 1
    assert len(events(mover, "play")) == 1 and len(events(sockets[(mover.seat + 1) % 4], "play")) == 1
    assert [r["id"] for r in refusals(mover)] == ["stale"]  # the retry was neither refused nor acted again


def test_actions_out_of_turn_against_the_rules_or_by_spectators_are_refused_in_portuguese(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        turn = sockets[0].state["turn"]
        other = sockets[(turn + 1) % 4]
        refused = await other.act({"type": "play", "card": other.state["hand"][0], "closed": False})
        assert refused["reason"] == "não é a sua vez"
        mover = sockets[turn]
        refused = await mover.act({"type": "play", "card": mover.state["hand"][0], "closed": True})
        assert "1ª rodada" in refused["reason"]
        refused = await mover.act({"type": "answer", "accept": "talvez"})
        assert "'accept'" in refused["reason"]
        foreign = next(card for card in ("3p", "4p", "5p", "6p") if card not in mover.state["hand"])
        refused = await mover.act({"type": "play", "card": foreign})
        assert "não está na sua mão" in refused["reason"]
        spectator = await connect(table.id, None)
        assert spectator.state["seat"] is None and spectator.state["hand"] is None and spectator.state["may"] == []
        assert "sentado" in (await spectator.act({"type": "bet"}))["reason"]
        await settle(sockets)
        return sockets

    sockets = run(scenario)
    assert all(events(s, "play") == [] for s in sockets)


def test_malformed_large_and_too_frequent_messages_are_refused_then_the_connection_closes(clock):
    table = seated_table()

    async def scenario():
        socket = await connect(table.id, table.sessions[0], seat=0)
        await settle([socket])
        for text in ("não é json", "[1, 2]", '{"type": 5}', json.dumps({"type": "chat", "text": "x" * 3000})):
            await socket.send_text(text)
            frame = await reply(socket)
            assert frame["type"] == "error" and frame["reason"]
        await socket.comm.send_to(bytes_data=b"\x00\x01")
        assert (await reply(socket))["type"] == "error"
        await socket.send({"type": "dance"})
        assert "desconhecido" in (await reply(socket))["reason"]
        for _ in range(12):
            await socket.send({"type": "hello", "seq": socket.seq}, paced=False)
        frames = await socket.drain(1.0)  # a loaded machine answers the twelve more slowly
        assert any(f["type"] == "refused" and "por segundo" in f["reason"] for f in frames)
        # abuse goes on: closed with 4008
        closed = None
        for _ in range(ABUSE_TRIES):
            await socket.send_text("{")
            output = await socket.comm.receive_output(timeout=1)
            if output["type"] == "websocket.close":
                closed = output
                break
        assert closed is not None and closed["code"] == 4008

    run(scenario)


async def reply(socket: Socket) -> dict[str, Any]:
    """The next frame that answers this socket, past the seats' presence broadcasts (on a loaded machine the one
    its own connection sent may come after the connection's first frames were read)."""
    return await socket.until(lambda frame: frame["type"] != "seats")


ABUSE_TRIES = 25


def test_origin_and_session_are_checked_on_connect(clock):
    table = seated_table()

    async def scenario():
        from tests.support.online import communicator

        foreign = communicator(f"/ws/mesas/{table.id}/", table.sessions[0], origin=b"http://evil.example")
        connected, _ = await foreign.connect()
        assert not connected
        nowhere = communicator("/ws/mesas/999999/", table.sessions[0])
        connected, _ = await nowhere.connect()
        assert not connected
        forged = await connect(table.id, "nao-e-uma-sessao")  # an unknown session is a spectator
        assert forged.state["seat"] is None and forged.state["hand"] is None
        await forged.close()
        mine = await connect(table.id, table.sessions[2], seat=2)
        assert mine.state["seat"] == 2 and len(mine.state["hand"]) == 3
        await mine.close()

    run(scenario)


def test_a_draft_table_is_seen_only_by_its_host(clock):
    host, host_key = guest("Ana")
    other, other_key = guest("Bruno")
    table = services.table_create(host=host, appearance="", face="", back="")

    async def scenario():
        from tests.support.online import communicator

        connected, _ = await communicator(f"/ws/mesas/{table.pk}/", other_key).connect()
        assert not connected
        mine = await connect(table.pk, host_key, seat=0)
        assert mine.state["status"] == "draft"
        await mine.close()

    run(scenario)


def test_reconnecting_with_hello_gets_the_missed_events_and_absence_is_seen(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        turn = sockets[0].state["turn"]
        leaver = sockets[(turn + 2) % 4]
        last_seq = leaver.seq
        await leaver.close()
        sockets.remove(leaver)
        await settle(sockets)
        watcher = next(s for s in sockets if s.seat == turn)
        assert watcher.state["present"][leaver.seat] is False  # "ausente"
        assert events(watcher, "presence")[-1] == {**events(watcher, "presence")[-1], "present": False}
        clock.advance(1)
        await watcher.act({"type": "play", "card": watcher.state["hand"][0], "closed": False})
        await settle(sockets)
        back = await connect(table.id, table.sessions[leaver.seat], seat=leaver.seat)
        assert back.frames[0]["type"] == "state"
        await back.send({"type": "hello", "seq": last_seq})
        missed = await back.drain(0.1)
        await settle([*sockets, back])
        return missed, sockets, back, last_seq

    missed, sockets, back, last_seq = run(scenario)
    by_seq = {f["seq"]: f["event"] for f in missed if f["type"] == "event"}
    assert sorted(by_seq) == list(range(last_seq + 1, back.seq + 1))  # every missed event, none skipped
    assert [by_seq[q]["type"] for q in sorted(by_seq)] == ["presence", "play", "presence"]
    assert by_seq[last_seq + 1]["present"] is False and by_seq[back.seq]["present"] is True
    assert back.state["present"] == [True, True, True, True]


def test_chat_reaches_the_four_seats_not_spectators(clock):
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        spectator = await connect(table.id, None)
        clock.advance(2)
        await sockets[0].send({"type": "chat", "text": "<b>bora</b>"})
        await drain_all([*sockets, spectator], wait=1.0)  # the line goes through the chat's row lock first
        await sockets[1].send({"type": "reaction", "name": "no-such-reaction"})
        await sockets[1].drain(0.1)
        return sockets, spectator

    sockets, spectator = run(scenario)
    for s in sockets:
        (line,) = [f["message"] for f in s.frames if f["type"] == "chat"]
        assert line["text"] == "<b>bora</b>" and line["name"] == "Ana"  # plain text: the page escapes it
    assert not [f for f in spectator.frames if f["type"] == "chat"]
    assert refusals(sockets[1])


def test_an_action_costs_one_transaction_and_few_queries():
    """Measured: the statements of one play through ``services.table_act`` (the row locked, the client id and
    the seats read, the events, the row and the client id written)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from tournaments.online import selectors

    table = seated_table()
    table.table.refresh_from_db()
    state = selectors.seat_state(table=table.table, seat=None)
    turn = state["turn"]
    hand = selectors.seat_state(table=table.table, seat=turn)["hand"]
    message = {"type": "play", "id": "q1", "seq": table.table.seq, "card": hand[0], "closed": False}
    with CaptureQueriesContext(connection) as queries:
        result = services.table_act(
            table_id=table.id, profile=table.profiles[turn], message=message, now=timezone.now()
        )
    assert result.refusal is None
    statements = [q["sql"] for q in queries.captured_queries]
    print(f"queries per action: {len(statements)}")
    assert len(statements) <= 9, statements
