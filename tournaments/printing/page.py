"""The page every sheet shares: A4, DejaVu Sans embedded, and a footer with the tournament, the time it was
generated and "página N de M".

Sheets draw on a ``SheetCanvas`` (directly, or through platypus with ``flowable_doc``). The canvas keeps each
finished page aside and writes the footers when the document is saved, once the number of pages is known, so
no sheet has to count its pages in advance.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib.colors import Color
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from ..presenters.labels import time_br

rl_config.useA85 = 0  # streams stay binary: smaller files, written faster (no ASCII-85 pass)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR, BOLD = "DejaVuSans", "DejaVuSans-Bold"
NARROW, NARROW_BOLD = "DejaVuSansCondensed", "DejaVuSansCondensed-Bold"
FONT_FILES = {
    REGULAR: "DejaVuSans.ttf",
    BOLD: "DejaVuSans-Bold.ttf",
    NARROW: "DejaVuSansCondensed.ttf",
    NARROW_BOLD: "DejaVuSansCondensed-Bold.ttf",
}

PORTRAIT, LANDSCAPE = A4, landscape(A4)
MARGIN = 12 * mm
FOOTER_SIZE = 7
FOOTER_Y = 6 * mm  # baseline of the footer, from the bottom edge
INK = Color(0, 0, 0)
GREY = Color(0.38, 0.38, 0.38)
LIGHT = Color(0.75, 0.75, 0.75)
SHADE = Color(0.93, 0.93, 0.93)


@functools.cache
def fonts_register() -> None:
    """Register the DejaVu fonts shipped in ``fonts/`` (once per process): every accent and ♣♥♠♦ prints."""
    for name, file in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    for regular, bold in ((REGULAR, BOLD), (NARROW, NARROW_BOLD)):  # <b> in a paragraph, whichever face it starts in
        pdfmetrics.registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
        pdfmetrics.registerFontFamily(bold, normal=bold, bold=bold, italic=bold, boldItalic=bold)


@dataclass(frozen=True)
class Footer:
    """What the footer of every page says, besides the page number."""

    tournament: str
    generated: str  # "gerado em 24/11/2026 às 14:05"

    @classmethod
    def now(cls, tournament: str, when: dt.datetime | None = None) -> Footer:
        local = timezone.localtime(when or timezone.now())
        return cls(
            tournament=tournament,
            generated=_("gerado em %(date)s às %(time)s")
            % {"date": local.strftime("%d/%m/%Y"), "time": time_br(local)},
        )


class SheetCanvas(canvas.Canvas):
    """A canvas that writes "tournament · gerado em … · página N de M" on every page when it is saved."""

    def __init__(self, *args: Any, footer: Footer, **kwargs: Any) -> None:
        kwargs.setdefault("invariant", 1)  # the same sheet twice gives the same bytes (no creation date inside)
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._held: list[dict] = []

    def showPage(self) -> None:
        self._held.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._held)
        page = _("página %(n)s de %(total)s")
        for number, state in enumerate(self._held, start=1):
            self.__dict__.update(state)
            self._footer_draw(page % {"n": number, "total": total})
            super().showPage()
        super().save()

    def _footer_draw(self, page_label: str) -> None:
        width, _height = self._pagesize
        self.saveState()
        self.setFont(REGULAR, FOOTER_SIZE)
        self.setFillColor(GREY)
        left = f"{self._footer.tournament} · {self._footer.generated}"
        self.drawRightString(width - MARGIN, FOOTER_Y, page_label)
        room = width - 2 * MARGIN - stringWidth(page_label, REGULAR, FOOTER_SIZE) - 6 * mm
        self.drawString(MARGIN, FOOTER_Y, fit(left, REGULAR, FOOTER_SIZE, room))
        self.restoreState()


def sheet_canvas(
    buffer: io.BytesIO, *, footer: Footer, title: str, pagesize: tuple[float, float] = PORTRAIT
) -> SheetCanvas:
    fonts_register()
    c = SheetCanvas(buffer, pagesize=pagesize, footer=footer, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("Zap")
    c.setCreator("Zap")
    c.setSubject(footer.tournament)
    return c


def canvas_maker(footer: Footer) -> Callable[..., SheetCanvas]:
    """For platypus (``doc.build(..., canvasmaker=…)``): a ``SheetCanvas`` with this footer."""
    fonts_register()

    def make(*args: Any, **kwargs: Any) -> SheetCanvas:
        kwargs.setdefault("pageCompression", 1)
        return SheetCanvas(*args, footer=footer, **kwargs)

    return make


# --- text helpers -----------------------------------------------------------------------------------------


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits in ``width`` points (never wider than its box)."""
    if stringWidth(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if stringWidth(text[:mid].rstrip() + "…", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def fit_size(text: str, font: str, size: float, width: float, *, smallest: float) -> float:
    """The font size (at most ``size``, at least ``smallest``) at which ``text`` fits in ``width``."""
    needed = stringWidth(text, font, size)
    if needed <= width or needed == 0:
        return size
    return max(smallest, size * width / needed)


def wrap(text: str, font: str, size: float, width: float, *, lines: int) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` points (the last one cut with …)."""
    out: list[str] = []
    words = text.split()
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if stringWidth(trial, font, size) <= width or not current:
            current = trial
            continue
        out.append(current)
        current = word
        if len(out) == lines - 1:
            current = " ".join(words[i:])
            break
    if current:
        out.append(current)
    return [fit(line, font, size, width) for line in out[:lines]]


def caption_box(c: canvas.Canvas, x: float, y: float, w: float, h: float, caption: str) -> None:
    """A form box: its frame and a small caption in its top-left corner (``box_value`` writes in it)."""
    c.setStrokeColor(INK)
    c.setLineWidth(0.6)
    c.rect(x, y, w, h)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 6)
    c.drawString(x + 1.5 * mm, y + h - 2.6 * mm, fit(caption, REGULAR, 6, w - 3 * mm))


def box_value(
    c: canvas.Canvas, x: float, y: float, w: float, value: str, *, size: float = 10, bold: bool = True
) -> None:
    """The value of a ``caption_box`` at (x, y) of width ``w``, made smaller (then cut) to fit."""
    c.setFillColor(INK)
    font = BOLD if bold else REGULAR
    s = fit_size(value, font, size, w - 3 * mm, smallest=6)
    c.setFont(font, s)
    c.drawString(x + 1.5 * mm, y + 1.8 * mm, fit(value, font, s, w - 3 * mm))


def wrap_whole(text: str, font: str, size: float, width: float, *, lines: int) -> list[str] | None:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` points, or None when it needs more
    (nothing is cut). Two players ("Ana Souza / Bia Lima") break after the slash when both halves fit."""
    if stringWidth(text, font, size) <= width:
        return [text]
    if lines < 2:
        return None
    head, slash, tail = text.partition(" / ")
    if slash and "/" not in tail:
        halves = [f"{head} /", tail]
        if all(stringWidth(h, font, size) <= width for h in halves):
            return halves
    out: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if stringWidth(trial, font, size) <= width:
            current = trial
            continue
        if not current or len(out) == lines - 1:
            return None  # a word wider than the line, or one line too many
        out.append(current)
        current = word
        if stringWidth(current, font, size) > width:
            return None
    out.append(current)
    return out


def wrap_sized(
    text: str, font: str, size: float, width: float, *, lines: int, smallest: float
) -> tuple[float, list[str]]:
    """The largest size (``size`` down to ``smallest``, by half points) at which ``text`` wraps whole into
    ``lines`` lines of ``width``, and those lines; at ``smallest`` the last line is cut with … (last resort)."""
    s = size
    while s >= smallest:
        found = wrap_whole(text, font, s, width, lines=lines)
        if found is not None:
            return s, found
        s -= 0.5
    return smallest, wrap(text, font, smallest, width, lines=lines)
