"""Tables shared by several servers (INTERCHANGE.md "Serving"): two ASGI servers (uvicorn, subprocesses, as
``make serve`` runs them) on one Redis (the channel layer) and one PostgreSQL database, a table's players on
different servers; one server killed in the middle of a mão, its players reconnecting to the other with the
``seq`` they had, and the table going on. Then ``bin/serve`` itself: nginx in front of gunicorn and uvicorn on
one port, stopped whole by SIGTERM (on SQLite too, through a shared file).

The two servers need PostgreSQL: they share the tables through the database (an SQLite file is one machine's),
and the test database must be reachable by other processes (``shared_db_url``). Needs redis-server
(``redis_url``); the bin/serve test needs nginx (``make nginx-deps``).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from websockets.exceptions import ConnectionClosed

from tests.support.processes import BASE_DIR, process_env
from truco.actions import AnswerBet, AskBet, CastVote, DecideOnze, PlayCard
from truco.robots import BASICO, robot_action

pytestmark = pytest.mark.django_db(transaction=True)

UVICORN = Path(sys.executable).parent / "uvicorn"
WAIT = 30  # seconds a socket may wait for what must come


@pytest.fixture
def postgres(request):
    """The test database's URL, for servers that share its tables; PostgreSQL only."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "servidores que compartilham mesas precisam do PostgreSQL (rode com DATABASE_URL=postgres://…): "
            "um arquivo SQLite é de uma máquina só"
        )
    return request.getfixturevalue("shared_db_url")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    return process_env(
        database_url,
        REDIS_URL=redis_url,
        ZAP_ONLINE_CLOCK="1",
        REQUEST_LOG_LEVEL="WARNING",
        **extra,
    )


class Asgi:
    """One uvicorn serving config.asgi on its own port, in its own process group."""

    def __init__(self, env: dict[str, str], log: Path):
        self.port = _free_port()
        self.log = log
        self.process = subprocess.Popen(
            [str(UVICORN), "config.asgi:application", "--host", "127.0.0.1", "--port", str(self.port)]
            + ["--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio", "--log-level", "warning"],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(log, "w"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, log.read_text()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"uvicorn não aceitou conexões:\n{log.read_text()}")

    def kill(self) -> None:
        """As a machine that dies: no goodbye to anyone."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


SETUP = """
import json
import django
django.setup()
from importlib import import_module
from django.conf import settings
from tournaments.online import people, services
from tournaments.play.identity import GUEST_SESSION_KEY
store = import_module(settings.SESSION_ENGINE).SessionStore
names = ("Ana", "Bruno", "Carla", "Davi")
profiles = [people.profile_for_guest(guest_key=None, display_name=n, avatar="marreco") for n in names]
table = services.table_create(host=profiles[0], appearance="", face="", back="", auto_start=True)
services.table_confirm(table=table, by=profiles[0])
for seat in (1, 2, 3):
    services.seat_take(table=table, profile=profiles[seat], seat=seat)
sessions = []
for profile in profiles:
    session = store()
    session[GUEST_SESSION_KEY] = profile.guest_key
    session.create()
    sessions.append(session.session_key)
print(json.dumps({"table": table.pk, "sessions": sessions}))
"""


def _table_of_four(env: dict[str, str]) -> tuple[int, list[str]]:
    """A "jogar agora" table whose four guests sit (it starts by itself), with a session for each: made by the
    site's services in a child process on the servers' database (on SQLite this test's own is private)."""
    run = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    made = json.loads(run.stdout.strip().splitlines()[-1])
    return made["table"], made["sessions"]


class Player:
    """One seat's browser: its socket, the last state and ``seq`` it received."""

    def __init__(self, seat: int, table: int, session: str):
        self.seat, self.table, self.session = seat, table, session
        self.ws = None
        self.state: dict | None = None
        self.seq = -1
        self.events: list[dict] = []

    def connect(self, port: int, *, hello: bool = False) -> None:
        from websockets.sync.client import connect

        self.ws = connect(
            f"ws://127.0.0.1:{port}/ws/mesas/{self.table}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session}"},
            open_timeout=WAIT,
            proxy=None,
            legacy=True,
        )
        if hello:
            self.ws.send(json.dumps({"type": "hello", "seq": self.seq}))
        self.read_until(lambda m: m.get("type") == "state")

    def take(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "state":
            assert message["seq"] >= self.seq or self.seq < 0, (self.seat, message["seq"], self.seq)
            self.state, self.seq = message["state"], message["seq"]
        elif kind == "event":
            if message["seq"] <= self.seq:  # resent by our hello, after the state the connection began with
                return
            assert message["seq"] == self.seq + 1, f"seat {self.seat}: event {message['seq']} after {self.seq}"
            self.state, self.seq = message["state"], message["seq"]
            self.events.append(message["event"])
        assert kind not in ("error",), message

    def read_until(self, done, timeout: float = WAIT) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"seat {self.seat}: nothing matched in {timeout} s (seq {self.seq})"
            message = json.loads(self.ws.recv(timeout=left))
            self.take(message)
            if done(message):
                return message

    def catch_up(self, seq: int) -> None:
        if self.seq < seq:
            self.read_until(lambda m: self.seq >= seq)

    def drain(self) -> None:
        """Whatever has arrived (seats, presence): nothing waits."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.3))
            except TimeoutError:
                return
            self.take(message)


def _message(action, *, seq: int) -> dict:
    out = {"id": secrets.token_hex(8), "seq": seq}
    if isinstance(action, PlayCard):
        out |= {"type": "play", "closed": action.closed}
        out |= {"slot": action.slot} if action.slot is not None else {"card": action.card}
    elif isinstance(action, AskBet):
        out["type"] = "bet"
    elif isinstance(action, AnswerBet):
        out |= {"type": "answer", "accept": action.accept}
    elif isinstance(action, DecideOnze):
        out |= {"type": "onze", "play": action.play}
    elif isinstance(action, CastVote):
        out |= {"type": "vote", "extend": action.extend}
    return out


def _act(players: list[Player], rng: random.Random, *, only: set[int] | None = None) -> int | None:
    """The seat that may act (among ``only``) does what the "básico" robot does, and every connected seat receives
    the event; the seat, or None when no such seat may act now."""
    connected = [p for p in players if p.ws is not None]
    newest = max(p.seq for p in connected)
    for p in connected:
        p.catch_up(newest)
    actor = next((p for p in connected if p.state["may"] and (only is None or p.seat in only)), None)
    if actor is None:
        return None
    action = robot_action(actor.state, level=BASICO, rng=rng)
    message = _message(action, seq=actor.seq)
    actor.ws.send(json.dumps(message))
    done = actor.read_until(lambda m: m.get("type") in ("event", "refused"))
    assert done["type"] == "event", done
    assert done["event"]["seat"] == actor.seat and done["event"]["type"] == message["type"], done
    for p in connected:
        p.catch_up(actor.seq)
    return actor.seat


def _mid_mao(state: dict) -> bool:
    return any(card is not None for card in state["played"]) or bool(state["rodadas"])


def test_players_on_two_servers_and_one_killed_mid_mao(postgres, redis_url, tmp_path):
    from tournaments.models import OnlineTable

    env = _server_env(postgres, redis_url)
    table, sessions = _table_of_four(env)
    a, b = Asgi(env, tmp_path / "a.log"), Asgi(env, tmp_path / "b.log")
    players = [Player(seat, table, sessions[seat]) for seat in range(4)]
    rng = random.Random(43)
    try:
        for p in players:
            p.connect(a.port if p.seat % 2 == 0 else b.port)  # Ana and Carla on A, Bruno and Davi on B
        for p in players:
            p.drain()
        assert [p.state["seat"] for p in players] == [0, 1, 2, 3]
        # play until a card lies on the table and both servers' players have acted: each action reached all four
        # seats, two of them through the other server (Redis)
        servers_acted = set()
        for _ in range(60):
            seat = _act(players, rng)
            assert seat is not None, "nobody may act at a table being played"
            servers_acted.add("A" if seat % 2 == 0 else "B")
            if servers_acted == {"A", "B"} and _mid_mao(players[0].state):
                break
        assert servers_acted == {"A", "B"} and _mid_mao(players[0].state)
        assert len({p.seq for p in players}) == 1

        a.kill()  # server A dies in the middle of the mão
        for p in players[0::2]:
            with pytest.raises(ConnectionClosed):  # the socket closes: no more frames
                while True:
                    p.take(json.loads(p.ws.recv(timeout=WAIT)))
            p.ws = None
        away = _act(players, rng, only={1, 3})  # B's players go on while A's are away, if it is their turn
        assert (players[0].seq < players[1].seq) == (away is not None)
        # Ana and Carla come back on B with the seq they had: they get what they missed (events or a state)
        for p in players[0::2]:
            p.connect(b.port, hello=True)
            p.drain()
        for p in players:
            p.drain()
        assert len({p.seq for p in players}) == 1
        assert len({json.dumps(p.state["score"]) for p in players}) == 1
        mao = players[0].state["mao"]["n"]
        assert [p.state["seat"] for p in players] == [0, 1, 2, 3]
        # the mão is played to its end on B, and the next one is dealt
        for _ in range(60):
            if players[0].state["mao"]["n"] > mao:
                break
            assert _act(players, rng) is not None, "nobody may act, yet the mão has not ended"
        assert players[0].state["mao"]["n"] == mao + 1
        for p in players:
            p.drain()
        assert len({p.seq for p in players}) == 1
        assert len({json.dumps(p.state["score"]) for p in players}) == 1
        assert sum(players[0].state["score"]) > 0
        assert OnlineTable.objects.get(pk=table).seq == players[0].seq
        assert _act(players, rng) is not None  # and the table plays on
    finally:
        for p in players:
            if p.ws is not None:
                p.ws.close()
        for server in (a, b):
            if server.process.poll() is None:
                server.stop()


# --- bin/serve: one port, nginx in front -------------------------------------------------------------------------

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)


@pytest.mark.skipif(NGINX is None, reason="nginx não instalado (make nginx-deps instala o nginx-light)")
def test_bin_serve_splits_ws_from_the_pages_and_stops_whole(shared_db_url, redis_url, tmp_path):
    port = _free_port()
    env = _server_env(
        shared_db_url,
        redis_url,
        PORT=str(port),
        HOST="127.0.0.1",
        WEB_CONCURRENCY="1",
        XDG_RUNTIME_DIR=str(tmp_path),
    )
    table, sessions = _table_of_four(env)
    serve = subprocess.Popen(
        [sys.executable, "bin/serve"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "serve.log", "w"),
        start_new_session=True,
    )
    state_file = BASE_DIR / ".serve" / str(port) / "serve.json"
    try:
        deadline = time.monotonic() + 90
        while not state_file.exists():
            assert serve.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        served = json.loads(state_file.read_text())
        # a second server on the same port is refused, the first one untouched
        again = subprocess.run(
            [sys.executable, "bin/serve"], cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=60
        )
        assert again.returncode == 1 and "já há um servidor nesta porta" in again.stderr
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/saude/")
        response = conn.getresponse()
        assert response.status == 200 and json.loads(response.read())["database"] == "ok"
        assert response.getheader("Server") == "nginx"  # through the front
        conn.close()
        player = Player(0, table, sessions[0])
        player.connect(port)  # /ws/ goes to uvicorn, through nginx
        assert player.state["seat"] == 0 and len(player.state["hand"]) == 3
        player.ws.close()

        children = [served["pids"][name] for name in ("nginx", "gunicorn", "uvicorn")]
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=90) == 0, (tmp_path / "serve.log").read_text()
        for pid in children:
            assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        assert not state_file.exists()
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(timeout=10)
        shutil.rmtree(state_file.parent, ignore_errors=True)  # this run's port: nothing to keep
