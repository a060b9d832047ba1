"""The production server as deployed: gunicorn (config/gunicorn.py), DEBUG off, Redis, collected static files.

Two servers of two worker processes each, on one SQLite file and one Redis, as two app servers behind a
load balancer would be: they serve the same pages, and a result entered through one is on the other's
pages at the next request. Needs redis-server (the ``redis_url`` fixture; CI requires it).
"""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.sumula import PIN, cup_file

BASE_DIR = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"
SECRET = "serving-test-" + "s" * 40


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(args: list[str], env: dict, **kwargs) -> subprocess.CompletedProcess:
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )
    assert run.returncode == 0, (args, run.stdout, run.stderr)
    return run


SETUP = """
import json
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from tournaments.models import Dupla, Jogo, Tournament
from tournaments.roles import role_grant
from tournaments.staff.pins import pin_hash_make
pins = json.loads('%(pins)s')
t = Tournament.objects.get(slug="copa-servida")
for d in Dupla.objects.filter(tournament=t):
    d.pin_hash = pin_hash_make(pins[d.key]); d.save(update_fields=["pin_hash"])
user = get_user_model().objects.create_user(username="arbitro-servido", password="senha-do-teste-1")
role_grant(tournament=t, user=user, role="referee")
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
jogo = Jogo.objects.get(tournament=t, dupla_a__key="d1", dupla_b__key="d2")
print(json.dumps({"session": session.session_key, "jogo": jogo.key}))
"""


class Server:
    def __init__(self, port: int, process: subprocess.Popen):
        self.port, self.process = port, process

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, path: str, **headers):
        return self.request("GET", path, headers=headers)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory, redis_url):
    folder = tmp_path_factory.mktemp("serving")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"ZAP_DEV", "DEBUG", "SECRET_KEY", "SITE_URL"}
        and not k.startswith(("SECURE_", "SESSION_", "CSRF_"))
    }
    env |= {
        "SECRET_KEY": SECRET,
        "DATABASE_URL": f"sqlite:///{folder / 'zap.sqlite3'}",
        "REDIS_URL": redis_url,
        "STATIC_ROOT": str(folder / "static"),
        "WEB_CONCURRENCY": "2",
        "GUNICORN_THREADS": "2",
        "REQUEST_LOG_LEVEL": "WARNING",
        "XDG_RUNTIME_DIR": str(folder),  # where gunicorn keeps its control sockets (config/gunicorn.py)
    }
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    _run(["migrate", "--noinput", "-v0"], env)
    _run(["collectstatic", "--noinput", "-v0"], env)
    file = folder / "copa.json"
    file.write_text(json.dumps(cup_file("copa-servida")), encoding="utf-8")
    _run(["import_tournament", str(file)], env)
    setup = json.loads(_run(["shell", "-c", SETUP % {"pins": json.dumps(PIN)}], env).stdout.strip().splitlines()[-1])
    servers = []
    try:
        for _ in range(2):
            port = _free_port()
            process = subprocess.Popen(
                [str(GUNICORN), "-c", "config/gunicorn.py", "config.wsgi"],
                cwd=BASE_DIR,
                env={**env, "PORT": str(port)},
                stdout=subprocess.DEVNULL,
                stderr=open(folder / f"gunicorn-{port}.log", "w"),
            )
            servers.append(Server(port, process))
        for server in servers:
            for _ in range(200):
                try:
                    if server.get("/saude/")[0] == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            else:
                pytest.fail(f"gunicorn não respondeu: {(folder / f'gunicorn-{server.port}.log').read_text()}")
        logs = [folder / f"gunicorn-{server.port}.log" for server in servers]
        yield {"servers": servers, "redis": redis_url, "logs": logs, "folder": folder, **setup}
    finally:
        for server in servers:
            server.process.terminate()
        for server in servers:
            server.process.wait(timeout=30)


def _page(server: Server, path: str) -> str:
    status, _headers, body = server.get(path)
    assert status == 200, (path, status, body[:500])
    return re.sub(r"Atualizado às \d\d:\d\d", "", body.decode())


def test_each_server_on_the_host_keeps_its_own_control_socket(deployment):
    """Two servers on one host (two ``make serve`` on two ports): ``gunicornc`` reaches each through its own
    control socket, named by its port; gunicorn's default gave both one path, the second server's."""
    from gunicorn.ctl.client import ControlClient

    for server in deployment["servers"]:
        path = deployment["folder"] / f"gunicorn-{server.port}.ctl"
        for _ in range(100):  # the arbiter opens it beside its workers: it may come a moment after the first page
            if path.exists():
                break
            time.sleep(0.1)
        with ControlClient(str(path), timeout=10) as control:
            stats = control.send_command("show stats")
            listeners = control.send_command("show listeners")
        assert stats["pid"] == server.process.pid
        assert [item["address"] for item in listeners["listeners"]] == [f"http://127.0.0.1:{server.port}"]
    assert not (deployment["folder"] / "gunicorn.ctl").exists()


def test_the_servers_run_the_worker_that_takes_writes_first(deployment):
    """config/gunicorn.py's worker (config/workers.py), serving reads and writes alike."""
    for log in deployment["logs"]:
        assert "Using worker: config.workers.WritesFirstWorker" in log.read_text()
    a, _b = deployment["servers"]
    status, _headers, body = a.request("POST", "/api/v1/torneios/copa-servida/jogos/nao-existe/maos/", {})
    assert status in (401, 403, 404) and body.startswith(b"{"), (status, body[:300])
    status, headers, _body = a.get("/saude/")
    assert status == 200
    # the worker's pool tells the application how long the request waited for a thread (config/timing.py)
    assert re.fullmatch(r"app;dur=[0-9.]+, queue;dur=[0-9.]+", headers["Server-Timing"]), headers


def test_silent_connections_wait_on_the_poller_not_in_the_threads(deployment):
    """Connections on which nothing has arrived take no thread (gunicorn's own worker would give each a thread
    that waits up to 5 s): with more of them open than the server has threads, a request is answered at once,
    and each of them once its request comes."""
    a, _b = deployment["servers"]
    silent = [socket.create_connection(("127.0.0.1", a.port), timeout=10) for _ in range(8)]  # 2 × 2 threads
    try:
        time.sleep(0.3)
        began = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=3)
        conn.request("GET", "/saude/")
        assert conn.getresponse().status == 200
        conn.close()
        assert time.monotonic() - began < 2
        for sock in silent:
            sock.sendall(b"GET /saude/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        for sock in silent:
            assert sock.recv(64).startswith(b"HTTP/1.1 200")
    finally:
        for sock in silent:
            sock.close()


def test_two_servers_serve_the_same_pages_from_one_redis(deployment):
    a, b = deployment["servers"]
    for tab in ("", "classificacao/", "chave/", "jogos/"):
        path = f"/torneios/copa-servida/{tab}"
        assert _page(a, path) == _page(b, path)
    import redis

    keys = [k.decode() for k in redis.Redis.from_url(deployment["redis"]).keys("*page:*")]
    assert any(":standings:" in k for k in keys) and any(":jogos:" in k for k in keys), keys


def _tables(html: str) -> str:
    """The classificação's group tables (the live partial), without the event's header."""
    return html[html.index('id="tabelas"') :]


def test_a_result_entered_through_one_server_shows_on_the_other(deployment):
    a, b = deployment["servers"]
    jogo, session = deployment["jogo"], deployment["session"]
    before_jogos, before_table = (
        _page(b, "/torneios/copa-servida/jogos/"),
        _page(b, "/torneios/copa-servida/classificacao/"),
    )
    token = "t" * 32
    headers = {
        "Content-Type": "application/json",
        "Cookie": f"sessionid={session}; csrftoken={token}",
        "X-CSRFToken": token,
    }
    url = f"/api/v1/torneios/copa-servida/jogos/{jogo}/"
    status, _h, body = a.request("POST", url + "resultado/", {"partidas": [[12, 7], [12, 9]]}, headers)
    assert status == 200, body
    # the next request on the other server: the provisional result on the jogos page…
    jogos = _page(b, "/torneios/copa-servida/jogos/")
    assert jogos != before_jogos and "12" in jogos
    # … not counted yet (the event's pill now says "em andamento": its first jogo is at the table)
    assert _tables(_page(b, "/torneios/copa-servida/classificacao/")) == _tables(before_table)
    assert "em andamento" in _page(b, "/torneios/copa-servida/classificacao/")
    for dupla in ("d1", "d2"):
        status, _h, body = a.request(
            "POST",
            url + "confirmacao/",
            {"dupla": dupla, "pin": PIN[dupla], "via": 1, "accept": True},
            {"Content-Type": "application/json"},
        )
        assert status == 200, body
    assert json.loads(body)["status"] == "confirmed"
    # confirmed: it counts, and the other server's standings say so at once
    table = _page(b, "/torneios/copa-servida/classificacao/")
    assert table != before_table
    assert _page(a, "/torneios/copa-servida/classificacao/") == table
    status, _h, body = b.get(url)
    assert status == 200 and json.loads(body)["status"] == "confirmed"


def test_static_files_are_hashed_compressed_and_cached_for_a_year(deployment):
    a, _b = deployment["servers"]
    html = _page(a, "/torneios/copa-servida/jogos/")  # a page with live parts: it loads htmx
    css = re.search(r'href="(/static/css/zap\.[0-9a-f]{12}\.css)"', html)
    script = re.search(r'src="(/static/django_htmx/htmx-2\.min\.[0-9a-f]{12}\.js)"', html)
    assert css and script, html[:1500]
    status, headers, body = a.get(css.group(1), **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert "immutable" in headers["Cache-Control"] and "max-age=315360000" in headers["Cache-Control"]
    status, headers, _body = a.get("/static/css/zap.css")  # the unhashed name still answers, briefly cached
    assert status == 200 and "immutable" not in headers.get("Cache-Control", "")


def test_production_server_headers_and_errors(deployment):
    a, _b = deployment["servers"]
    status, headers, body = a.get("/torneios/nao-existe/")
    assert status == 404 and b"Traceback" not in body  # DEBUG is off
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff" and re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-ID"])
    status, headers, body = a.get("/saude/", Host="10.1.2.3")
    assert status == 200 and json.loads(body) == {"status": "ok", "database": "ok", "cache": "ok"}
