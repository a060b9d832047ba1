"""A tournament jogo played online, in Chromium, against the real ASGI server (daphne, its own SQLite database, the
in-memory channel layer, the server's own clock): the two duplas' four players take their seats from their
private links on phones (390 px: the page asks which of the two is sitting; partners opposite), the referee
watches the event's online tables at 1,366 px, suspends the table for a technical problem (every phone sees it
stopped) and resumes it, the jogo is played to its end (best of 3, partida after partida on the same table),
each dupla confirms the súmula at the table, and the referee's súmula screen shows the partidas' replay beside it.

The players' moves are the robots' legal choices, sent by the test through each page's own live connection (the
page's WebSocket, caught by an init script): the pages show every move as it happens. The test reads the
server's database only to find the duplas' private links and to know when the jogo has ended; everything else
goes through the pages. Screenshots go to /tmp/shots-tdesk/ (look at them when these pages change).
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import shot
from tests.support.online import message_of
from tests.support.online_tournament import knockout_online_file
from truco.robots import legal_actions

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp/shots-tdesk")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "pt-BR"}
DESKTOP = {"viewport": {"width": 1366, "height": 900}, "locale": "pt-BR"}
SLUG = "copa-celular"
REFEREE, PASSWORD = "arbitra", "senha-da-arbitra-1"
PLAY_LIMIT_S = 600  # the whole jogo: up to three partidas, 10 s between them

# Every frame of the page's own live connection, kept where the test can read it: the last state and seq, the
# last refusal; the socket itself, to send the seat's moves through it.
SPY = """(() => {
  const Native = window.WebSocket;
  class Spy extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      window.__zap = {ws: this, seq: -1, state: null, refused: null};
      this.addEventListener("message", (e) => {
        let f;
        try { f = JSON.parse(e.data); } catch (err) { return; }
        if (f.type === "state" || f.type === "event") { window.__zap.seq = f.seq; window.__zap.state = f.state; }
        if (f.type === "refused") { window.__zap.refused = f; }
      });
    }
  }
  window.WebSocket = Spy;
})();"""
SNAP = (
    "() => window.__zap && window.__zap.ws.readyState === 1 ? {seq: window.__zap.seq, state: window.__zap.state} : null"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _shot(page, name: str) -> None:
    shot(page, name, folder=SHOTS)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """daphne serving the site on loopback, with its own migrated SQLite database holding a 4-dupla online
    knockout (its first jogo at this hour) and the event's referee."""
    folder = tmp_path_factory.mktemp("jogo-online-server")
    database = folder / "db.sqlite3"
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{database}",
        "ZAP_DEV": "1",
        "REDIS_URL": "",
        "ZAP_ONLINE_CLOCK": "1",
        "ZAP_ROBOT_DELAY_MS": "0",
        "REQUEST_LOG_LEVEL": "WARNING",
        "ZAP_PASSWORD": PASSWORD,
    }

    def manage(*args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, timeout=300)

    manage("migrate", "--noinput", "-v0")
    event_file = folder / "copa.json"
    event_file.write_text(json.dumps(knockout_online_file(duplas=4, slug=SLUG)), encoding="utf-8")
    manage("import_tournament", str(event_file))
    manage("staff_add", SLUG, REFEREE, "referee")
    port = _free_port()
    log = open(folder / "daphne.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/jogar/", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("daphne não subiu: " + (folder / "daphne.log").read_text()[-3000:])
        time.sleep(0.3)
    yield url, database
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


def _read(database: Path, sql: str, *params) -> list[tuple]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as db:
        return db.execute(sql, params).fetchall()


def _first_jogo(database: Path) -> dict:
    """The first jogo of round 1: its key and each dupla's private token and players' names."""
    ((key, a_id, b_id),) = _read(
        database,
        "SELECT j.key, j.dupla_a_id, j.dupla_b_id FROM tournaments_jogo j JOIN tournaments_tournament t "
        "ON t.id = j.tournament_id WHERE t.slug = ? AND j.round = 1 ORDER BY j.position LIMIT 1",
        SLUG,
    )
    duplas = []
    for dupla_id in (a_id, b_id):
        ((token, p1, p2),) = _read(
            database,
            "SELECT d.token, p1.name, p2.name FROM tournaments_dupla d JOIN tournaments_player p1 ON p1.id = "
            "d.player1_id JOIN tournaments_player p2 ON p2.id = d.player2_id WHERE d.id = ?",
            dupla_id,
        )
        duplas.append({"token": token, "players": (p1, p2)})
    return {"key": key, "duplas": duplas}


def _jogo_status(database: Path, key: str) -> str:
    ((status,),) = _read(
        database,
        "SELECT j.status FROM tournaments_jogo j JOIN tournaments_tournament t ON t.id = j.tournament_id "
        "WHERE t.slug = ? AND j.key = ?",
        SLUG,
        key,
    )
    return status


def test_two_duplas_sit_from_their_links_on_phones_play_a_jogo_and_confirm(browser, server):
    url, database = server
    jogo = _first_jogo(database)
    phones = [browser.new_context(**PHONE, **(AXE_CONTEXT if n == 0 else {})) for n in range(4)]
    desk = browser.new_context(**DESKTOP, **AXE_CONTEXT)
    errors: list[str] = []
    pages = []
    for context in phones:
        context.add_init_script(SPY)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    referee = desk.new_page()
    referee.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _play(url, database, jogo, pages, referee)
    finally:
        for context in (*phones, desk):
            context.close()
    assert not errors, errors


def _sit(page, url: str, jogo: dict, seat: int) -> None:
    """Seat ``seat``'s player from the dupla's private page: dupla A holds seats 0 and 2, dupla B 1 and 3."""
    dupla = jogo["duplas"][seat % 2]
    name = dupla["players"][0 if seat < 2 else 1]
    page.goto(f"{url}/d/{dupla['token']}/")
    section = page.locator("#mesa-online")
    assert "Quem vai jogar neste aparelho?" in section.inner_text()
    if seat == 0:
        assert_no_axe_violations(page, "página da dupla, Mesa online (390 px)", include="#mesa-online")
        _shot(page, "jogo-online-0-dupla-390")
    section.get_by_label(name).check()
    with page.expect_navigation():
        section.get_by_role("button", name="Sentar à mesa").click()
    assert page.url == f"{url}/torneios/{SLUG}/jogos/{jogo['key']}/mesa/"
    assert "Você joga por" in page.content()


def _wait_all(pages, script: str, timeout: float = 20_000) -> None:
    for page in pages:
        page.wait_for_function(script, timeout=timeout)


def _play(url: str, database: Path, jogo: dict, pages, referee) -> None:
    for seat, page in enumerate(pages):
        _sit(page, url, jogo, seat)
    # four seated: the partida starts; each phone holds three cards, partners opposite (seat 2 in front of 0)
    _wait_all(pages, "() => document.querySelectorAll('#mao-cartas .carta-btn').length === 3")
    assert pages[0].locator(".lugar-0 .lugar-nome").inner_text() == "Você"
    assert pages[0].locator(".lugar-2 .lugar-nome").inner_text() == jogo["duplas"][0]["players"][1]
    _shot(pages[0], "jogo-online-1-mesa-390")

    # the referee signs in and sees the four seated at the event's online tables
    referee.goto(f"{url}/entrar/?next=/organizar/{SLUG}/mesas-online/")
    referee.locator("input[name=username]").fill(REFEREE)
    referee.locator("input[name=password]").fill(PASSWORD)
    with referee.expect_navigation():
        referee.locator("input[name=password]").press("Enter")
    assert referee.url.endswith(f"/organizar/{SLUG}/mesas-online/")
    card = referee.locator(".online-desk-table").first
    assert "em jogo" in card.inner_text()
    for dupla in jogo["duplas"]:
        for name in dupla["players"]:
            assert name in card.inner_text()
    assert_no_axe_violations(referee, "mesas online da arbitragem (1.366 px)")
    _shot(referee, "jogo-online-2-arbitragem-1366")

    # a technical problem: the referee suspends the table with a reason; every phone sees it stopped
    card.get_by_role("link", name="Suspender…").click()
    referee.wait_for_url("**/suspender/")
    referee.get_by_label(re.compile("Motivo")).fill("queda de energia no clube")
    with referee.expect_navigation():
        referee.get_by_role("button", name="Suspender a mesa").click()
    assert "suspensa" in referee.locator(".online-desk-table").first.inner_text()
    assert "queda de energia no clube" in referee.content()
    _wait_all(pages, "() => document.getElementById('mesa-log').textContent.includes('Mesa suspensa')")
    for page in pages:
        state = page.evaluate(SNAP)["state"]
        assert state["may"] == [] and state["deadline"] is None  # nobody plays, no clock runs
    _shot(pages[1], "jogo-online-3-suspensa-390")
    _shot(referee, "jogo-online-3-suspensa-1366")
    referee.set_viewport_size({"width": 390, "height": 844})  # the referee's phone
    assert_no_axe_violations(referee, "mesas online da arbitragem, suspensa (390 px)")
    assert referee.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # no side scroll
    _shot(referee, "jogo-online-3-suspensa-arbitragem-390")
    referee.set_viewport_size(DESKTOP["viewport"])
    with referee.expect_navigation():
        referee.get_by_role("button", name="Retomar a mesa").click()
    assert "Mesa retomada" in referee.content()
    _wait_all(pages, "() => window.__zap && window.__zap.state && window.__zap.state.deadline !== null")

    # the jogo, played to its end through the pages' own connections
    rng = random.Random(44)
    ids = iter(range(1, 1_000_000))
    started = time.monotonic()
    moves = 0
    while _jogo_status(database, jogo["key"]) in ("scheduled", "in_progress"):
        assert time.monotonic() - started < PLAY_LIMIT_S, "o jogo não terminou a tempo"
        moved = False
        for page in pages:
            snap = page.evaluate(SNAP)
            state = snap and snap["state"]
            if not state or not state.get("may"):
                continue
            choices = legal_actions(state)
            if not choices:
                continue
            message = message_of(rng.choice(choices)) | {"id": f"t{next(ids)}", "seq": snap["seq"]}
            page.evaluate("(m) => { window.__zap.refused = null; window.__zap.ws.send(JSON.stringify(m)); }", message)
            page.wait_for_function(
                "(s) => window.__zap.seq > s || window.__zap.refused !== null", arg=snap["seq"], timeout=10_000
            )
            moves += 1
            moved = True
            break
        if not moved:
            time.sleep(0.15)  # between partidas (the next one is dealt after a pause), or a move on its way
    assert moves > 20
    assert _jogo_status(database, jogo["key"]) == "awaiting_confirmation"

    # each dupla confirms at the table (one phone each); the partners' pages say so
    for page in pages:
        page.reload()
    form = pages[0].locator("#mesa-resposta")
    assert "confirma a súmula ou contesta?" in form.inner_text()
    assert pages[0].locator(".tabela-partidas tbody tr").count() in (2, 3)
    assert_no_axe_violations(pages[0], "mesa online ao fim do jogo (390 px)")
    _shot(pages[0], "jogo-online-4-confirmar-390")
    for page in (pages[0], pages[1]):
        with page.expect_navigation():
            page.locator("#mesa-resposta").get_by_role("button", name="Confirmar a súmula").click()
        assert "Sua dupla confirmou a súmula." in page.content()
    pages[2].reload()
    assert "Sua dupla confirmou a súmula." in pages[2].content()
    assert _jogo_status(database, jogo["key"]) == "confirmed"
    _shot(pages[1], "jogo-online-5-confirmada-390")

    # the referee's súmula screen has the partidas' replay beside it (every deal checked)
    referee.goto(f"{url}/organizar/{SLUG}/arbitragem/{jogo['key']}/")
    beside = referee.locator("#replay")
    assert "Replay da mesa online" in beside.inner_text()
    assert "Todas as mãos conferidas" in beside.inner_text()
    assert_no_axe_violations(referee, "súmula do árbitro com o replay ao lado (1.366 px)")
    box_sumula, box_replay = referee.locator("#sumula").bounding_box(), beside.bounding_box()
    assert box_sumula and box_replay and box_replay["x"] > box_sumula["x"] + box_sumula["width"] - 1  # beside it
    _shot(referee, "jogo-online-6-sumula-replay-1366")
    referee.set_viewport_size({"width": 390, "height": 844})
    assert referee.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    _shot(referee, "jogo-online-6-sumula-replay-390")
    referee.set_viewport_size(DESKTOP["viewport"])

    # the referee's desk and the public pages tell the jogo as any other, badge and all
    referee.goto(f"{url}/organizar/{SLUG}/arbitragem/?todos=1")
    assert "Mesa online (" in referee.content() or "Mesas online (" in referee.content()
    referee.goto(f"{url}/torneios/{SLUG}/jogos/")
    assert referee.locator(".badge-online").count() >= 2
    _shot(referee, "jogo-online-7-jogos-1366")
    sumula = referee.goto(f"{url}/torneios/{SLUG}/jogos/{jogo['key']}/")
    assert sumula is not None and sumula.status == 200
    assert "confirmada" in referee.content()
