"""Dupla cards: each dupla's PIN, private link and its QR code, as inline SVG (the desk page) or an A4 PDF.

A PDF page holds ``COLUMNS × ROWS`` cards of 105 × 74 mm (A4 cut in eight),
separated by dashed cut lines.
"""

from __future__ import annotations

import io

import segno
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

COLUMNS, ROWS = 2, 4
MARGIN = 0  # cards fill the page: every edge is a cut line


def qr_code(text: str) -> segno.QRCode:
    return segno.make(text, error="m", micro=False)


def qr_svg(text: str, *, label: str = "") -> SafeString:
    """The QR code of ``text`` as inline SVG markup that scales with CSS (no fixed size)."""
    svg = qr_code(text).svg_inline(scale=1, border=2, omitsize=True, title=label or None, svgclass="qr",
                                   lineclass=None)
    return mark_safe(svg)  # noqa: S308 - segno's own markup; ``label`` is escaped by segno


def _fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits in ``width`` points."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def _qr_draw(c: canvas.Canvas, text: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``text`` as a ``size``-point square with its lower-left corner at (x, y)."""
    matrix = qr_code(text).matrix
    border = 2
    n = len(matrix) + 2 * border
    cell = size / n
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(matrix):
        run_start = None
        for col, dark in enumerate(list(row) + [0]):
            if dark and run_start is None:
                run_start = col
            elif not dark and run_start is not None:
                c.rect(x + (run_start + border) * cell, y + size - (r + border + 1) * cell,
                       (col - run_start) * cell, cell, stroke=0, fill=1)
                run_start = None


def _card_draw(c: canvas.Canvas, card: dict, tournament_name: str, x: float, y: float, w: float, h: float,
               labels: dict) -> None:
    pad = 6 * mm
    qr_size = 34 * mm
    text_w = w - 2 * pad - qr_size - 4 * mm
    top = y + h - pad
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.setFont("Helvetica", 8)
    c.drawString(x + pad, top - 8, _fit(tournament_name, "Helvetica", 8, w - 2 * pad))
    c.setFillColorRGB(0, 0, 0)
    if card.get("has_name", True):
        c.setFont("Helvetica-Bold", 13)
        c.drawString(x + pad, top - 26, _fit(card["name"], "Helvetica-Bold", 13, text_w))
        c.setFont("Helvetica", 9)
        line = top - 40
        for player in card["players"]:
            c.drawString(x + pad, line, _fit(player, "Helvetica", 9, text_w))
            line -= 11
    else:  # a dupla without a name is its two players: one per line, as its heading
        c.setFont("Helvetica-Bold", 12)
        line = top - 26
        for player in card["players"]:
            c.drawString(x + pad, line, _fit(player, "Helvetica-Bold", 12, text_w))
            line -= 14
        line += 3
    c.setFont("Helvetica", 8)
    c.drawString(x + pad, line - 8, labels["pin"])
    c.setFont("Courier-Bold", 24)
    c.drawString(x + pad, line - 32, card["pin_spaced"])
    c.setFont("Helvetica", 7)
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.drawString(x + pad, y + pad + 10, _fit(labels["hint"], "Helvetica", 7, w - 2 * pad))
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Courier", 7.5)
    c.drawString(x + pad, y + pad, _fit(card["link"], "Courier", 7.5, w - 2 * pad))
    _qr_draw(c, card["link"], x + w - pad - qr_size, y + h - pad - qr_size - 4 * mm, qr_size)
    c.linkURL(card["link"], (x + w - pad - qr_size, y + h - pad - qr_size - 4 * mm, x + w - pad, y + h - pad - 4 * mm),
              relative=0)


def _cut_lines(c: canvas.Canvas, page_w: float, page_h: float, w: float, h: float) -> None:
    c.saveState()
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.5)
    c.setDash(3, 3)
    for col in range(1, COLUMNS):
        c.line(MARGIN + col * w, 0, MARGIN + col * w, page_h)
    for row in range(1, ROWS):
        c.line(0, page_h - MARGIN - row * h, page_w, page_h - MARGIN - row * h)
    c.restoreState()


def card_labels(*, tournament_name: str) -> dict:
    return {"pin": _("PIN da dupla"), "title": _("Cartões das duplas · %(name)s") % {"name": tournament_name},
            "hint": _("Abra o link (ou o QR code) para ver os jogos da dupla; o PIN confirma as súmulas.")}


def cards_pdf(*, tournament_name: str, cards: list[dict], labels: dict | None = None) -> bytes:
    """The cards (``selectors.dupla_cards``) as an A4 PDF, ``COLUMNS × ROWS`` a page, in the order given.

    ``labels``: ``pin`` (the caption over the PIN), ``hint`` (one line on what the
    card is for), ``title`` (the document's title); default ``card_labels``.
    """
    labels = labels or card_labels(tournament_name=tournament_name)
    buffer = io.BytesIO()
    page_w, page_h = A4
    c = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    c.setTitle(labels.get("title", tournament_name))
    c.setAuthor("Zap")
    w = (page_w - 2 * MARGIN) / COLUMNS
    h = (page_h - 2 * MARGIN) / ROWS
    per_page = COLUMNS * ROWS
    for start in range(0, max(len(cards), 1), per_page):
        for i, card in enumerate(cards[start:start + per_page]):
            col, row = i % COLUMNS, i // COLUMNS
            _card_draw(c, card, tournament_name, MARGIN + col * w, page_h - MARGIN - (row + 1) * h, w, h, labels)
        _cut_lines(c, page_w, page_h, w, h)
        c.showPage()
    c.save()
    return buffer.getvalue()
