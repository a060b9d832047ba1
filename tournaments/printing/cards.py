"""Dupla cards (``dupla_pins --pdf`` and the desk's PIN page): each dupla's name, players, PIN, private link
and its QR code, eight cards to an A4 page, with cut lines and crop marks.

Cards are 105 × 71.75 mm (the page's width in two, its height less the footer
strip in four): every edge between cards is a dashed cut line, and marks at
the page's edges show where to cut after stacking the sheets.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from .page import BOLD, GREY, INK, LIGHT, PORTRAIT, REGULAR, Footer, fit, sheet_canvas, wrap, wrap_sized
from .qr import qr_draw

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

COLUMNS, ROWS = 2, 4
FOOTER_STRIP = 10 * mm  # below the cards: the page's footer
QR_SIZE = 34 * mm


def card_labels(*, tournament_name: str) -> dict:
    return {
        "pin": _("PIN da dupla"),
        "title": _("Cartões das duplas · %(name)s") % {"name": tournament_name},
        "hint": _("Abra o link (ou o QR code) para ver os jogos da dupla; o PIN confirma as súmulas."),
    }


def cards_pdf(
    *, tournament_name: str, cards: list[dict], labels: dict | None = None, footer: Footer | None = None
) -> bytes:
    """The cards (``staff.selectors.dupla_cards``) as an A4 PDF, ``COLUMNS × ROWS`` a page, in the order given.

    ``labels``: ``pin`` (the caption over the PIN), ``hint`` (one line on what the
    card is for), ``title`` (the document's title); default ``card_labels``.
    """
    labels = labels or card_labels(tournament_name=tournament_name)
    buffer = io.BytesIO()
    c = sheet_canvas(buffer, footer=footer or Footer.now(tournament_name), title=labels.get("title", tournament_name))
    page_w, page_h = PORTRAIT
    w = page_w / COLUMNS
    h = (page_h - FOOTER_STRIP) / ROWS
    per_page = COLUMNS * ROWS
    for start in range(0, max(len(cards), 1), per_page):
        for i, card in enumerate(cards[start : start + per_page]):
            col, row = i % COLUMNS, i // COLUMNS
            _card_draw(c, card, tournament_name, col * w, page_h - (row + 1) * h, w, h, labels)
        _cut_lines(c, page_w, page_h, w, h)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _card_draw(
    c: Canvas, card: dict, tournament_name: str, x: float, y: float, w: float, h: float, labels: dict
) -> None:
    pad = 6 * mm
    text_w = w - 2 * pad - QR_SIZE - 4 * mm
    top = y + h - pad
    c.setFillColor(GREY)
    c.setFont(REGULAR, 7.5)
    c.drawString(x + pad, top - 8, fit(tournament_name, REGULAR, 7.5, w - 2 * pad))
    c.setFillColor(INK)
    if card.get("has_name", True):
        size, lines = wrap_sized(card["name"], BOLD, 13, text_w, lines=2, smallest=9)
        line = top - 26
        c.setFont(BOLD, size)
        for i, text in enumerate(lines):
            if i:
                line -= size + 2
            c.drawString(x + pad, line, text)
        line -= 14  # the players' first line 14 points under the name's last
        for player in card["players"]:
            small, player_lines = wrap_sized(player, REGULAR, 9, text_w, lines=2, smallest=7.5)
            c.setFont(REGULAR, small)
            for text in player_lines:
                c.drawString(x + pad, line, text)
                line -= small + 2
            line -= 2 * (len(player_lines) - 1)  # a player on two lines stands apart from the other
    else:  # a dupla without a name is its two players: one per line, as its heading
        line = top - 26
        for player in card["players"]:
            size, player_lines = wrap_sized(player, BOLD, 11.5, text_w, lines=2, smallest=9)
            c.setFont(BOLD, size)
            for text in player_lines:
                c.drawString(x + pad, line, text)
                line -= size + 2.5
            line -= 2 * (len(player_lines) - 1)  # a player on two lines stands apart from the other
        line += 3
    c.setFont(REGULAR, 8)
    c.drawString(x + pad, line - 8, labels["pin"])
    c.setFont(BOLD, 24)
    c.drawString(x + pad, line - 32, card["pin_spaced"])
    c.setFont(REGULAR, 6.5)
    c.setFillColor(GREY)
    for i, line in enumerate(wrap(labels["hint"], REGULAR, 6.5, w - 2 * pad, lines=2)):
        c.drawString(x + pad, y + pad + 18 - i * 8, line)
    c.setFillColor(INK)
    c.setFont(REGULAR, 7)
    c.drawString(x + pad, y + pad, fit(card["link"], REGULAR, 7, w - 2 * pad))
    qr_draw(c, card["link"], x + w - pad - QR_SIZE, y + h - pad - QR_SIZE - 4 * mm, QR_SIZE)


def _cut_lines(c: Canvas, page_w: float, page_h: float, w: float, h: float) -> None:
    c.saveState()
    c.setStrokeColor(LIGHT)
    c.setLineWidth(0.5)
    c.setDash(3, 3)
    for col in range(1, COLUMNS):
        c.line(col * w, page_h, col * w, FOOTER_STRIP)
    for row in range(1, ROWS + 1):
        c.line(0, page_h - row * h, page_w, page_h - row * h)
    c.setDash()
    c.setStrokeColor(INK)
    mark = 4 * mm  # crop marks at the page's edges, where each cut line starts
    for col in range(1, COLUMNS):
        c.line(col * w, page_h, col * w, page_h - mark)
        c.line(col * w, FOOTER_STRIP, col * w, FOOTER_STRIP + mark)
    for row in range(1, ROWS + 1):
        c.line(0, page_h - row * h, mark, page_h - row * h)
        c.line(page_w - mark, page_h - row * h, page_w, page_h - row * h)
    c.restoreState()
