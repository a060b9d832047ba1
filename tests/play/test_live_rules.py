"""The live connection with four seats (Channels' WebsocketCommunicator on the site's ASGI application): every rule
of DOMAIN §9.2 with a controlled clock, the host's powers, and the connection's own rules (seq, id, limits,
origin and session)."""

import random

import pytest

from tests.support.online import connect_all, play_random, run, seated_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_seats_play_a_whole_partida_over_the_sockets():
    table = seated_table()

    async def scenario():
        sockets = await connect_all(table)
        for s in sockets:
            assert s.frames[0]["type"] == "state" and s.frames[0]["state"]["seat"] == s.seat
        steps = await play_random(sockets, random.Random(1))
        for s in sockets:
            await s.close()
        return steps, sockets

    steps, sockets = run(scenario)
    assert steps > 10
    assert all(s.state["ended"] is not None for s in sockets)
