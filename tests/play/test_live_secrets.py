"""No card reaches a socket whose seat may not see it (DOMAIN §9.3): every frame sent to four seats and a
spectator over many random partidas (clocks running out now and then, so votes, expiries and abandonments
come too) is searched for cards, and each card found must be one that seat may know at that moment.

What a seat may know in a mão, from the log the table wrote (its seeds give the deal): its own cards as dealt
(none in a mão de ferro), its partner's during a mão de onze its dupla decides, the vira, and every card already
played open, or closed by itself. A seed is published only once its mão ended."""

import random

import pytest

from tests.support.online import Clock, connect, connect_all, play_random, run, seated_table
from tournaments.models import PartidaLog
from truco.cards import is_card
from truco.deal import deal
from truco.log import log_replay

pytestmark = pytest.mark.django_db(transaction=True)

PARTIDAS = 30


def cards_in(value, path=""):
    """Every (path, card) in a JSON value."""
    if isinstance(value, str):
        if is_card(value):
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from cards_in(item, f"{path}[{i}]")


def seeds_in(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "seed" and isinstance(item, str):
                yield item
            else:
                yield from seeds_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from seeds_in(item)


class Truth:
    """What each seat may know at each seq, from the partida's log (its replay gives each mão's kind)."""

    def __init__(self, log):
        first = {}
        for state in log_replay(log):
            first.setdefault(state.mao.n, state)
        kinds = {n: state.mao.kind for n, state in first.items()}
        self.on_eleven = {n: (0 if state.score[0] == 11 else 1) for n, state in first.items()}
        self.maos = []
        for mao in log["maos"]:
            dealt = deal(seed=bytes.fromhex(mao["seed"]), first=mao["first"], with_vira=True)
            events = mao["events"]
            self.maos.append(
                {
                    "from": mao["seq"],
                    "to": events[-1]["seq"] if events else mao["seq"],
                    "dealt": dealt,
                    "kind": kinds[mao["n"]],
                    "on_eleven": self.on_eleven[mao["n"]],
                    "events": events,
                    "seed": mao["seed"],
                }
            )

    def relevant(self, seq):
        """The mãos a frame at ``seq`` may show: the one its event belongs to and the one it dealt."""
        found = [m for m in self.maos if m["from"] <= seq <= m["to"]]
        if not found and seq > self.maos[-1]["to"]:
            found = [self.maos[-1]]
        return found

    def allowed(self, seat, seq):
        known = set()
        for mao in self.relevant(seq):
            dealt = mao["dealt"]
            known.add(dealt.vira)
            if seat is not None and mao["kind"] != "mao_de_ferro":
                known.update(dealt.hands[seat])
                if mao["kind"] == "mao_de_onze" and seat % 2 == mao["on_eleven"]:  # partners on 11 see both hands
                    known.update(dealt.hands[(seat + 2) % 4])
            for event in mao["events"]:
                if event["seq"] <= seq and event["type"] == "play" and (not event["closed"] or event["seat"] == seat):
                    known.add(event["card"])
        return known

    def seeds_published(self, seq):
        return {m["seed"] for m in self.maos if m["to"] <= seq}


def test_no_frame_carries_a_card_its_seat_may_not_see():
    rng = random.Random(43)
    checked = {"frames": 0, "cards": 0}
    for _n in range(PARTIDAS):
        table = seated_table()
        clock = Clock()

        async def scenario(table=table, clock=clock):
            sockets = await connect_all(table)
            spectator = await connect(table.id, None)
            await play_random([*sockets, spectator], rng, expire_every=0.03, clock=clock)
            for s in [*sockets, spectator]:
                await s.close()
            return [*sockets, spectator]

        from unittest import mock

        with mock.patch("tournaments.play.consumers.now", clock):
            sockets = run(scenario)
        log = PartidaLog.objects.get(table=table.table, n=1).data
        truth = Truth(log)
        for socket in sockets:
            for frame in socket.frames:
                if frame["type"] not in ("state", "event"):
                    continue
                seq = frame["seq"]
                allowed = truth.allowed(socket.seat, seq)
                for path, card in cards_in(frame):
                    checked["cards"] += 1
                    assert card in allowed, (
                        f"table {table.id} seat {socket.seat} seq {seq}: {card} at {path} may not be seen"
                    )
                for seed in seeds_in(frame):
                    assert seed in truth.seeds_published(seq), f"seat {socket.seat} seq {seq}: seed of a mão in play"
                checked["frames"] += 1
    print(f"{PARTIDAS} partidas, {checked['frames']} frames, {checked['cards']} cards checked")
    assert checked["frames"] > PARTIDAS * 100 and checked["cards"] > PARTIDAS * 100
