"""QR codes made here (segno, no network): drawn on a PDF page as one vector path, or as inline SVG for a page."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe
from reportlab.pdfgen import canvas

QUIET = 2  # modules of white border around the code (the printed box around it adds more)


def qr_code(text: str) -> segno.QRCode:
    """A QR code (not a Micro QR) with error correction M: still read with a fold or a coffee stain."""
    return segno.make(text, error="m", micro=False)


def qr_svg(text: str, *, label: str = "") -> SafeString:
    """The QR code of ``text`` as inline SVG markup that scales with CSS (no fixed size)."""
    svg = qr_code(text).svg_inline(
        scale=1, border=QUIET, omitsize=True, title=label or None, svgclass="qr", lineclass=None
    )
    return mark_safe(svg)


def qr_draw(c: canvas.Canvas, text: str, x: float, y: float, size: float, *, link: bool = True) -> None:
    """Draw the QR code of ``text`` as a ``size``-point square (quiet border included), lower-left at (x, y).

    Each run of dark modules in a row is one rectangle of a single filled path,
    so the code stays sharp at any zoom and on any printer. With ``link``, the
    square is also a clickable link in PDF readers.
    """
    matrix = qr_code(text).matrix
    n = len(matrix) + 2 * QUIET
    cell = size / n
    path = c.beginPath()
    top = y + size - QUIET * cell
    for r, row in enumerate(matrix):
        start = None
        row_y = top - (r + 1) * cell
        for col, dark in enumerate(row):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                path.rect(x + (start + QUIET) * cell, row_y, (col - start) * cell, cell)
                start = None
        if start is not None:
            path.rect(x + (start + QUIET) * cell, row_y, (len(row) - start) * cell, cell)
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.drawPath(path, stroke=0, fill=1)
    c.restoreState()
    if link:
        c.linkURL(text, (x, y, x + size, y + size), relative=0)
