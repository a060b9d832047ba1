"""Printing in the benchmark: a round of 256 blank súmulas and the bracket of 1,024 duplas, next to a baseline.

The baseline is a plain reportlab canvas drawing 256 A4 pages with the same
amount of content as a súmula (40 short strings, a grid of 60 lines and a QR
code each) with the same embedded font, and nothing else: no database, no
templates, no tournament. It is timed two ways, its QR code drawn as one path
of rectangles (as the sheets do) and with reportlab's own QR widget; the faster
of the two is the one the target is measured against.

The requests are timed whole through the test client (session, middleware,
view, queries, drawing), with the tournament's cached state emptied first, as
after a write. While the round is drawn in one thread, another thread asks for
a cached public page again and again: its times show whether printing holds the
other requests up.
"""

from __future__ import annotations

import io
import statistics
import threading
import time
import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader
from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from tournaments.caching import pages_clear
from tournaments.models import Jogo, Tournament
from tournaments.printing.page import REGULAR, fonts_register
from tournaments.printing.qr import qr_draw
from tournaments.roles import role_grant
from tournaments.selectors import tournament_state_cache_clear
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament

BATCH = 256
MESAS = 64


@dataclass
class PrintingBench:
    baseline_path_s: float = 0.0
    baseline_widget_s: float = 0.0
    batch_s: float = 0.0
    batch_pages: int = 0
    batch_kb: float = 0.0
    batch_queries: int = 0
    batch_queries_small: int = 0
    bracket_s: float = 0.0
    bracket_pages: int = 0
    bracket_drawn_s: float = 0.0
    bracket_drawn_pages: int = 0
    page_alone_ms: float = 0.0
    page_during_ms: float = 0.0
    page_during_max_ms: float = 0.0

    @property
    def baseline_s(self) -> float:
        return min(self.baseline_path_s, self.baseline_widget_s)


def baseline(*, pages: int = BATCH, widget: bool = False) -> bytes:
    """A plain canvas: per page 40 short strings, a grid of 60 lines and a QR code (the same font)."""
    fonts_register()
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=A4, invariant=1, pageCompression=1)
    for i in range(pages):
        c.setFont(REGULAR, 9)
        for k in range(40):
            c.drawString(40, 800 - k * 12, f"Linha {k} · página {i} · Súmula")
        for k in range(30):
            c.line(300, 100 + k * 12, 560, 100 + k * 12)
        for k in range(30):
            c.line(300 + k * 9, 100, 300 + k * 9, 448)
        url = f"http://127.0.0.1:8000/torneios/olimpiada-de-truco-2026/jogos/g-{i:04d}/"
        if widget:
            qr = QrCodeWidget(url, barLevel="M")
            drawing = Drawing(85, 85)
            drawing.add(qr)
            renderPDF.draw(drawing, c, 470, 700)
        else:
            qr_draw(c, url, 470, 700, 85, link=False)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _scheduled_file(n: int, seed: int) -> dict:
    """A synthetic tournament of ``n`` duplas with its groups drawn and nothing played (jogos scheduled)."""
    data = synthetic_tournament(duplas=n, seed=seed)
    data["jogos"] = []
    data["tournament"]["slug"] = f"bench-imprimir-{n}-{uuid.uuid4().hex[:6]}"
    return data


def _knockout_file(n: int, seed: int) -> dict:
    """``n`` duplas straight into a seeded knockout: drawn, nothing played."""
    data = synthetic_tournament(duplas=n, seed=seed)
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": [d["key"] for d in data["duplas"]],
            "draw": {"method": "seeded"},
        }
    ]
    data["jogos"] = []
    data["tournament"]["slug"] = f"bench-chave-{n}-{uuid.uuid4().hex[:6]}"
    return data


def _timed(func, repeat: int):
    times, value = [], None
    for _ in range(repeat):
        tournament_state_cache_clear()
        pages_clear()
        start = time.perf_counter()
        value = func()
        times.append(time.perf_counter() - start)
    return value, statistics.median(times)


def _pages(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def printing_bench(*, bracket_tournament: Tournament, repeat: int, seed: int, created: list) -> PrintingBench:
    out = PrintingBench()
    _, out.baseline_path_s = _timed(lambda: baseline(), repeat)
    _, out.baseline_widget_s = _timed(lambda: baseline(widget=True), max(1, repeat // 2))

    small = tournament_import(data=_scheduled_file(64, seed))
    created.append(small)
    big = tournament_import(data=_scheduled_file(2 * BATCH, seed))  # groups of 4: round 1 has 256 jogos
    created.append(big)
    for t in (small, big):
        for i, jogo in enumerate(Jogo.objects.filter(tournament=t, round=1).order_by("id").only("id")):
            Jogo.objects.filter(pk=jogo.pk).update(mesa=i % MESAS + 1)
    user = get_user_model().objects.create_user(username=f"bench-print-{uuid.uuid4().hex[:8]}")
    for t in (small, big, bracket_tournament):
        role_grant(tournament=t, user=user, role="referee")
    client = Client()
    client.force_login(user)

    def batch(t: Tournament) -> bytes:
        response = client.get(f"/organizar/{t.slug}/imprimir/sumulas.pdf?stage=grupos&round=1")
        assert response.status_code == 200, response.status_code
        return response.content

    batch(big)  # warm-up: fonts, templates, URL resolving
    body, out.batch_s = _timed(lambda: batch(big), repeat)
    out.batch_pages, out.batch_kb = _pages(body), len(body) / 1024
    for t, attr in ((small, "batch_queries_small"), (big, "batch_queries")):
        tournament_state_cache_clear()
        with CaptureQueriesContext(connection) as queries:
            batch(t)
        setattr(out, attr, len(queries.captured_queries))

    def chave(t: Tournament) -> bytes:
        response = Client().get(f"/torneios/{t.slug}/chave.pdf")
        assert response.status_code == 200, response.status_code
        return response.content

    body, out.bracket_s = _timed(lambda: chave(bracket_tournament), repeat)
    out.bracket_pages = _pages(body)
    drawn = tournament_import(data=_knockout_file(1024, seed))
    created.append(drawn)
    body, out.bracket_drawn_s = _timed(lambda: chave(drawn), repeat)
    out.bracket_drawn_pages = _pages(body)

    out.page_alone_ms, out.page_during_ms, out.page_during_max_ms = _while_printing(client, big, batch)
    return out


def _while_printing(client: Client, t: Tournament, batch) -> tuple[float, float, float]:
    """A cached public page timed alone, then again and again while another thread draws the round."""
    url = f"/torneios/{t.slug}/classificacao/"
    other = Client()
    other.get(url)  # cached from here on
    alone = []
    for _ in range(20):
        start = time.perf_counter()
        other.get(url)
        alone.append(time.perf_counter() - start)
    done = threading.Event()

    def draw():
        try:
            batch(t)
        finally:
            connection.close()
            done.set()

    worker = threading.Thread(target=draw)
    worker.start()
    during = []
    while not done.is_set():
        start = time.perf_counter()
        other.get(url)
        during.append(time.perf_counter() - start)
    worker.join()
    return (statistics.median(alone) * 1000, statistics.median(during or [0]) * 1000, max(during or [0]) * 1000)
