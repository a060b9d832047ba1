"""The súmula's grids: one per partida, a row per mão with each dupla's running total, and the partida's result.

Up to ``GRIDS_PER_BAND`` partidas side by side; a longer best-of takes more
bands. A blank grid holds ``ROWS`` mãos; a filled one as many as its longest
partida needs (the rows get lower, never cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from .page import BOLD, GREY, INK, LIGHT, NARROW, NARROW_BOLD, REGULAR, SHADE, fit, wrap

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

ROWS = 30  # mãos a blank grid holds: a partida of 1-point mãos to 12 x 11 takes 23
GRIDS_PER_BAND = 7  # partidas side by side; a longer best-of takes a second band


@dataclass(frozen=True)
class MaoLine:
    number: int
    a: int  # running totals after the mão
    b: int
    note: str  # what the mão was, in a word or two ("truco", "correu", "onze", "empate"…)


@dataclass(frozen=True)
class PartidaBox:
    number: int
    lines: tuple[MaoLine, ...] = ()
    score: tuple[int, int] | None = None
    winner: int | None = None  # 0 or 1
    note: str = ""  # "perda da partida: …", "resultado sem as mãos"


@dataclass(frozen=True)
class Grid:
    number: int  # the partida
    x: float
    y: float
    w: float
    h: float
    rows: int
    filled_rows: int  # rows with a mão (their number in ink, the others in grey)

    TITLE_H = 5 * mm
    HEAD_H = 4.5 * mm
    RESULT_H = 7 * mm
    SHARES = (0.16, 0.22, 0.22, 0.40)  # nº, running total A, running total B, what the mão was

    @property
    def row_h(self) -> float:
        return (self.h - self.TITLE_H - self.HEAD_H - self.RESULT_H) / self.rows

    @property
    def grid_top(self) -> float:
        return self.y + self.h - self.TITLE_H - self.HEAD_H

    @property
    def xs(self) -> list[float]:
        out = [self.x]
        for share in self.SHARES:
            out.append(out[-1] + self.w * share)
        return out


def _bands(n: int) -> list[list[int]]:
    """Partida numbers (0-based) in bands of at most ``GRIDS_PER_BAND``, as evenly split as can be."""
    count = -(-n // GRIDS_PER_BAND)
    per = -(-n // count)
    return [list(range(i, min(i + per, n))) for i in range(0, n, per)]


def grids_plan(
    *, best_of: int, partidas: Sequence[PartidaBox], left: float, inner: float, bottom: float, top: float
) -> list[Grid]:
    """Where each partida's grid goes in the box (left, bottom)–(left + inner, top), and its rows."""
    n = max(best_of, len(partidas), 1)
    bands = _bands(n)
    gap = 3 * mm
    band_h = (top - bottom - gap * (len(bands) - 1)) / len(bands)
    filled = {p.number: len(p.lines) for p in partidas}
    rows = max([ROWS // len(bands)] + list(filled.values()))
    out = []
    for b, band in enumerate(bands):
        band_top = top - b * (band_h + gap)
        grid_w = min(62 * mm, (inner - gap * (len(band) - 1)) / len(band))
        total_w = grid_w * len(band) + gap * (len(band) - 1)
        x = left + (inner - total_w) / 2
        for i in band:
            out.append(
                Grid(
                    number=i + 1,
                    x=x,
                    y=band_top - band_h,
                    w=grid_w,
                    h=band_h,
                    rows=rows,
                    filled_rows=filled.get(i + 1, 0),
                )
            )
            x += grid_w + gap
    return out


def grid_frame(c: Canvas, g: Grid, *, blank: bool) -> None:
    """What a grid looks like before any mão: title, heads, lines, numbers, the result's frame."""
    x, y, w, h, xs = g.x, g.y, g.w, g.h, g.xs
    top = y + h
    c.setFillColor(INK)
    c.rect(x, top - g.TITLE_H, w, g.TITLE_H, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(BOLD, 8)
    c.drawCentredString(x + w / 2, top - g.TITLE_H + 1.5 * mm, _("Partida %(n)s") % {"n": g.number})
    head_top = top - g.TITLE_H
    c.setFillColor(SHADE)
    c.rect(x, head_top - g.HEAD_H, w, g.HEAD_H, stroke=0, fill=1)
    c.setFillColor(INK)
    c.setFont(NARROW_BOLD, 6.5)
    for i, label in enumerate((_("mão"), "A", "B", _("obs."))):
        c.drawCentredString((xs[i] + xs[i + 1]) / 2, head_top - g.HEAD_H + 1.4 * mm, label)
    row_h, grid_top = g.row_h, g.grid_top
    grid_bottom = grid_top - g.rows * row_h
    c.setLineWidth(0.3)
    c.setStrokeColor(LIGHT)
    lines = c.beginPath()
    for r in range(1, g.rows):
        lines.moveTo(x, grid_top - r * row_h)
        lines.lineTo(x + w, grid_top - r * row_h)
    for cx in xs[1:-1]:
        lines.moveTo(cx, head_top)
        lines.lineTo(cx, grid_bottom)
    c.drawPath(lines, stroke=1, fill=0)
    size = min(7.0, row_h * 0.72)
    c.setFont(NARROW, size)
    for r in range(g.rows):
        c.setFillColor(INK if r < g.filled_rows else LIGHT)
        c.drawCentredString((xs[0] + xs[1]) / 2, grid_top - (r + 1) * row_h + (row_h - size * 0.72) / 2, str(r + 1))
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.rect(x, y, w, h)
    c.line(x, grid_bottom, x + w, grid_bottom)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 5.5)
    c.drawString(x + 1 * mm, grid_bottom - 2.3 * mm, _("resultado da partida"))
    mid, half = x + w / 2, min(w / 2 - 2 * mm, 16 * mm)
    c.setFillColor(INK)
    c.setFont(BOLD, 9)
    c.drawString(mid - half, y + 1.6 * mm, "A")
    c.drawRightString(mid + half, y + 1.6 * mm, "B")
    c.drawCentredString(mid, y + 1.6 * mm, "x")
    if blank:
        c.setStrokeColor(GREY)
        c.setLineWidth(0.4)
        c.line(mid - half + 3 * mm, y + 1.3 * mm, mid - 2 * mm, y + 1.3 * mm)
        c.line(mid + 2 * mm, y + 1.3 * mm, mid + half - 3 * mm, y + 1.3 * mm)


def grid_fill(c: Canvas, box: PartidaBox | None, g: Grid) -> None:
    """The mãos of a partida in its grid, the partida's score and its note."""
    if box is None:
        return
    xs, row_h, grid_top = g.xs, g.row_h, g.grid_top
    size = min(7.0, row_h * 0.72)
    c.setFillColor(INK)
    for line in box.lines:
        base = grid_top - line.number * row_h + (row_h - size * 0.72) / 2
        c.setFont(NARROW_BOLD, size)
        c.drawCentredString((xs[1] + xs[2]) / 2, base, str(line.a))
        c.drawCentredString((xs[2] + xs[3]) / 2, base, str(line.b))
        if line.note:
            c.setFont(NARROW, size * 0.92)
            c.drawString(xs[3] + 0.8 * mm, base, fit(line.note, NARROW, size * 0.92, xs[4] - xs[3] - 1.2 * mm))
    mid, half = g.x + g.w / 2, min(g.w / 2 - 2 * mm, 16 * mm)
    if box.score is not None:
        c.setFont(BOLD, 10)
        c.drawCentredString(mid - half / 2, g.y + 1.6 * mm, str(box.score[0]))
        c.drawCentredString(mid + half / 2, g.y + 1.6 * mm, str(box.score[1]))
    if box.note:
        c.setFont(NARROW_BOLD, 6.5)
        for i, text in enumerate(wrap(box.note, NARROW_BOLD, 6.5, g.w - 3 * mm, lines=3)):
            c.drawString(g.x + 1.5 * mm, grid_top - (i + 1) * 3 * mm, text)
