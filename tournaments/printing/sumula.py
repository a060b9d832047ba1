"""The súmula sheet: one A4 page per jogo, blank (pre-filled for the table) or filled (every mão as recorded).

Top to bottom: the event, the title and the QR code of the jogo's page; stage,
group or round, mesa, key and best-of; the two duplas with their players; the
preset's reminders (values, mão de onze, mão de ferro, manilha); a grid per
partida for each dupla's running total mão by mão, with the partida's result;
the jogo's result; observations (penalties, walkover, confirmations, the
referee's decision); signature lines for the four players, the referee and the
technical coordinator (FENACEF Art.33, Art.38 §2–§3).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from .page import (BOLD, GREY, INK, LIGHT, MARGIN, NARROW, NARROW_BOLD, PORTRAIT, REGULAR, SHADE, Footer,
                   caption_box, fit, fit_size, sheet_canvas, wrap)
from .qr import qr_draw

ROWS = 30  # mãos a blank grid holds: a partida of 1-point mãos to 12 x 11 takes 23
GRIDS_PER_BAND = 7  # partidas side by side; a longer best-of takes a second band
QR_SIZE = 30 * mm


@dataclass(frozen=True)
class Side:
    """One dupla as the sheet shows it."""

    letter: str  # "A" or "B": the column of its running total
    name: str
    players: tuple[str, str]
    has_name: bool


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


@dataclass
class SumulaSheet:
    """Everything printed on one súmula (plain text: names, labels and numbers already formatted)."""

    key: str
    url: str  # the jogo's public page (the QR code)
    tournament: str
    when_where: str  # "27/04/2024 · 14h00 · Bar Classe A"
    stage: str
    group_round: str  # "Grupo A · Rodada 2", "Semifinal"
    mesa: str
    best_of: int
    sides: tuple[Side, Side]
    reminders: tuple[str, ...]
    referee: str = ""
    # a filled súmula: the via and its status, the mãos, the result and what was said and decided about it
    filled: bool = False
    via: str = ""  # "1ª via"
    replaces: str = ""  # "2ª via — substitui a 1ª: …"
    status: str = ""
    partidas: tuple[PartidaBox, ...] = ()
    won: tuple[int, int] | None = None
    result: str = ""  # the jogo's result in words
    notes: tuple[str, ...] = field(default_factory=tuple)  # observations, confirmations, signature


def sumulas_pdf(*, sheets: list[SumulaSheet], footer: Footer, title: str) -> bytes:
    """``sheets`` as one PDF, one A4 page each, in the order given."""
    buffer = io.BytesIO()
    c = sheet_canvas(buffer, footer=footer, title=title)
    for sheet in sheets:
        sumula_draw(c, sheet)
        c.showPage()
    if not sheets:
        _nothing(c)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _nothing(c) -> None:
    width, height = PORTRAIT
    c.setFont(BOLD, 14)
    c.drawString(MARGIN, height - MARGIN - 14, _("Nenhum jogo a imprimir"))
    c.setFont(REGULAR, 10)
    c.drawString(MARGIN, height - MARGIN - 32, _("Não há jogos agendados nesta seleção."))


def sumula_draw(c, s: SumulaSheet) -> None:
    width, height = PORTRAIT
    left, right = MARGIN, width - MARGIN
    inner = right - left
    top = height - MARGIN

    # --- head: event, title, QR code -------------------------------------------------------------
    qr_x, qr_y = right - QR_SIZE, top - QR_SIZE
    qr_draw(c, s.url, qr_x, qr_y, QR_SIZE)
    c.setFillColor(INK)
    c.setFont(NARROW, 6.5)
    c.drawCentredString(qr_x + QR_SIZE / 2, qr_y - 2.6 * mm, fit(s.key, NARROW, 6.5, QR_SIZE))
    c.setFillColor(GREY)
    c.setFont(REGULAR, 5.5)
    c.drawCentredString(qr_x + QR_SIZE / 2, qr_y - 5 * mm, _("súmula digital: aponte a câmera"))
    text_w = inner - QR_SIZE - 4 * mm
    c.setFillColor(INK)
    size = fit_size(s.tournament, BOLD, 13, text_w, smallest=9)
    c.setFont(BOLD, size)
    c.drawString(left, top - 11, fit(s.tournament, BOLD, size, text_w))
    c.setFillColor(GREY)
    c.setFont(REGULAR, 8.5)
    c.drawString(left, top - 23, fit(s.when_where, REGULAR, 8.5, text_w))
    c.setFillColor(INK)
    c.setFont(BOLD, 16)
    title = _("SÚMULA DE JOGO")
    c.drawString(left, top - 44, title)
    if s.filled:
        after = left + c.stringWidth(title, BOLD, 16) + 4 * mm
        c.setFont(BOLD, 9)
        label = " · ".join(x for x in (s.via, s.status) if x)
        c.drawString(after, top - 44, fit(label, BOLD, 9, left + text_w - after))
        if s.replaces:
            c.setFont(BOLD, 8)
            for i, line in enumerate(wrap(s.replaces, BOLD, 8, text_w, lines=2)):
                c.drawString(left, top - 56 - i * 9.5, line)

    # --- the jogo: stage, group/round, mesa, key, best-of --------------------------------------------
    y = top - QR_SIZE - 8 * mm - 10 * mm
    widths = [0.27, 0.27, 0.1, 0.22, 0.14]
    values = [(_("Fase"), s.stage), (_("Grupo / rodada"), s.group_round), (_("Mesa"), s.mesa),
              (_("Jogo (código)"), s.key), (_("Disputa"), _("melhor de %(n)s") % {"n": s.best_of})]
    x = left
    for share, (caption, value) in zip(widths, values):
        w = inner * share
        caption_box(c, x, y, w, 10 * mm, caption, value or "—", size=10)
        x += w

    # --- the duplas ----------------------------------------------------------------------------------------
    box_h = 21 * mm
    y -= box_h + 2 * mm
    half = (inner - 3 * mm) / 2
    for i, side in enumerate(s.sides):
        _side_draw(c, side, left + i * (half + 3 * mm), y, half, box_h)

    # --- reminders -----------------------------------------------------------------------------------------
    lines = [line for text in s.reminders for line in wrap(text, REGULAR, 6.8, inner - 4 * mm, lines=2)]
    rem_h = 5 * mm + 3.2 * mm * len(lines)
    y -= rem_h + 2 * mm
    c.setFillColor(SHADE)
    c.rect(left, y, inner, rem_h, stroke=0, fill=1)
    c.setFillColor(INK)
    c.setFont(BOLD, 6.5)
    c.drawString(left + 2 * mm, y + rem_h - 3.4 * mm, _("Lembretes do regulamento"))
    c.setFont(REGULAR, 6.8)
    for i, line in enumerate(lines):
        c.drawString(left + 2 * mm, y + rem_h - 3.4 * mm - (i + 1) * 3.2 * mm, line)

    # --- bottom up: signatures, observations, the jogo's result --------------------------------------
    sig_top = MARGIN + 27 * mm
    _signatures_draw(c, s, left, MARGIN, inner, sig_top)
    obs_h = 17 * mm
    obs_y = sig_top + 2 * mm
    _observations_draw(c, s, left, obs_y, inner, obs_h)
    res_h = 10 * mm
    res_y = obs_y + obs_h + 2 * mm
    _result_draw(c, s, left, res_y, inner, res_h)

    # --- the partidas' grids, in what is left ------------------------------------------------------------
    _grids_draw(c, s, left, res_y + res_h + 3 * mm, inner, y - 3 * mm)


def _side_draw(c, side: Side, x: float, y: float, w: float, h: float) -> None:
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.rect(x, y, w, h)
    c.setFillColor(INK)
    c.rect(x, y + h - 5 * mm, 7 * mm, 5 * mm, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(BOLD, 9)
    c.drawCentredString(x + 3.5 * mm, y + h - 3.7 * mm, side.letter)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 6)
    c.drawString(x + 9 * mm, y + h - 3.4 * mm, _("Dupla %(letter)s") % {"letter": side.letter})
    c.setFillColor(INK)
    room = w - 4 * mm
    if side.has_name:
        size = fit_size(side.name, BOLD, 11, room, smallest=8)
        c.setFont(BOLD, size)
        c.drawString(x + 2 * mm, y + h - 10 * mm, fit(side.name, BOLD, size, room))
        c.setFont(REGULAR, 8.5)
        for i, player in enumerate(side.players):
            c.drawString(x + 2 * mm, y + h - 14.5 * mm - i * 3.8 * mm, fit(f"{i + 1}. {player}", REGULAR, 8.5, room))
    else:  # a dupla without a name is its two players: they are its heading
        c.setFont(BOLD, 10)
        for i, player in enumerate(side.players):
            c.drawString(x + 2 * mm, y + h - 10 * mm - i * 4.6 * mm, fit(f"{i + 1}. {player}", BOLD, 10, room))


def _bands(n: int) -> list[list[int]]:
    """Partida numbers (0-based) in bands of at most ``GRIDS_PER_BAND``, as evenly split as can be."""
    count = -(-n // GRIDS_PER_BAND)
    per = -(-n // count)
    return [list(range(i, min(i + per, n))) for i in range(0, n, per)]


def _grids_draw(c, s: SumulaSheet, left: float, bottom: float, inner: float, top: float) -> None:
    n = max(s.best_of, len(s.partidas), 1)
    bands = _bands(n)
    gap = 3 * mm
    band_h = (top - bottom - gap * (len(bands) - 1)) / len(bands)
    longest = max((len(p.lines) for p in s.partidas), default=0)
    rows = max(ROWS // len(bands), longest)
    boxes = {p.number: p for p in s.partidas}
    for b, band in enumerate(bands):
        band_top = top - b * (band_h + gap)
        grid_w = min(62 * mm, (inner - gap * (len(band) - 1)) / len(band))
        total_w = grid_w * len(band) + gap * (len(band) - 1)
        x = left + (inner - total_w) / 2
        for k in band:
            _grid_draw(c, s, boxes.get(k + 1), k + 1, x, band_top - band_h, grid_w, band_h, rows)
            x += grid_w + gap


def _grid_draw(c, s: SumulaSheet, box: PartidaBox | None, number: int, x: float, y: float, w: float, h: float,
               rows: int) -> None:
    title_h, head_h, result_h = 5 * mm, 4.5 * mm, 7 * mm
    row_h = (h - title_h - head_h - result_h) / rows
    cols = (0.16, 0.22, 0.22, 0.40)  # nº, running total A, running total B, what the mão was
    xs = [x]
    for share in cols:
        xs.append(xs[-1] + w * share)
    top = y + h
    # title
    c.setFillColor(INK)
    c.rect(x, top - title_h, w, title_h, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(BOLD, 8)
    c.drawCentredString(x + w / 2, top - title_h + 1.5 * mm, _("Partida %(n)s") % {"n": number})
    # column heads
    head_top = top - title_h
    c.setFillColor(SHADE)
    c.rect(x, head_top - head_h, w, head_h, stroke=0, fill=1)
    c.setFillColor(INK)
    c.setFont(NARROW_BOLD, 6.5)
    for i, label in enumerate((_("mão"), "A", "B", _("obs."))):
        c.drawCentredString((xs[i] + xs[i + 1]) / 2, head_top - head_h + 1.4 * mm, label)
    # rows
    grid_top = head_top - head_h
    grid_bottom = grid_top - rows * row_h
    c.setLineWidth(0.3)
    c.setStrokeColor(LIGHT)
    lines = c.beginPath()
    for r in range(1, rows):
        ry = grid_top - r * row_h
        lines.moveTo(x, ry)
        lines.lineTo(x + w, ry)
    for cx in xs[1:-1]:
        lines.moveTo(cx, head_top)
        lines.lineTo(cx, grid_bottom)
    c.drawPath(lines, stroke=1, fill=0)
    size = min(7.0, row_h * 0.72)
    filled = {line.number: line for line in box.lines} if box else {}
    c.setFont(NARROW, size)
    for r in range(rows):
        base = grid_top - (r + 1) * row_h + (row_h - size * 0.72) / 2
        line = filled.get(r + 1)
        c.setFillColor(INK if line else LIGHT)
        c.drawCentredString((xs[0] + xs[1]) / 2, base, str(r + 1))
        if line is None:
            continue
        c.setFillColor(INK)
        c.setFont(NARROW_BOLD, size)
        c.drawCentredString((xs[1] + xs[2]) / 2, base, str(line.a))
        c.drawCentredString((xs[2] + xs[3]) / 2, base, str(line.b))
        c.setFont(NARROW, size * 0.92)
        c.drawString(xs[3] + 0.8 * mm, base, fit(line.note, NARROW, size * 0.92, xs[4] - xs[3] - 1.2 * mm))
        c.setFont(NARROW, size)
    # the partida's result
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.rect(x, y, w, h)
    c.line(x, grid_bottom, x + w, grid_bottom)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 5.5)
    c.drawString(x + 1 * mm, grid_bottom - 2.3 * mm, _("resultado da partida"))
    c.setFillColor(INK)
    mid = x + w / 2
    half = min(w / 2 - 2 * mm, 16 * mm)
    c.setFont(BOLD, 9)
    c.drawString(mid - half, y + 1.6 * mm, "A")
    c.drawRightString(mid + half, y + 1.6 * mm, "B")
    c.drawCentredString(mid, y + 1.6 * mm, "x")
    if box and box.score is not None:
        c.setFont(BOLD, 10)
        c.drawCentredString(mid - half / 2, y + 1.6 * mm, str(box.score[0]))
        c.drawCentredString(mid + half / 2, y + 1.6 * mm, str(box.score[1]))
    else:
        c.setStrokeColor(GREY)
        c.setLineWidth(0.4)
        c.line(mid - half + 3 * mm, y + 1.3 * mm, mid - 2 * mm, y + 1.3 * mm)
        c.line(mid + 2 * mm, y + 1.3 * mm, mid + half - 3 * mm, y + 1.3 * mm)
    if box and box.note:
        c.setFillColor(INK)
        c.setFont(NARROW_BOLD, 6.5)
        for i, text in enumerate(wrap(box.note, NARROW_BOLD, 6.5, w - 3 * mm, lines=3)):
            c.drawString(x + 1.5 * mm, grid_top - (i + 1) * 3 * mm, text)


def _result_draw(c, s: SumulaSheet, x: float, y: float, w: float, h: float) -> None:
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.rect(x, y, w, h)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 6)
    c.drawString(x + 1.5 * mm, y + h - 2.6 * mm, _("Resultado do jogo (partidas vencidas)"))
    c.setFillColor(INK)
    base = y + 2 * mm
    if s.filled and s.result:
        c.setFont(BOLD, 10)
        c.drawString(x + 2 * mm, base, fit(s.result, BOLD, 10, w - 4 * mm))
        return
    c.setFont(BOLD, 9)
    c.drawString(x + 2 * mm, base, "A")
    c.drawString(x + 20 * mm, base, "x")
    c.drawString(x + 34 * mm, base, "B")
    c.setStrokeColor(GREY)
    c.setLineWidth(0.4)
    c.line(x + 6 * mm, base - 0.5 * mm, x + 18 * mm, base - 0.5 * mm)
    c.line(x + 23 * mm, base - 0.5 * mm, x + 32 * mm, base - 0.5 * mm)
    c.setFont(REGULAR, 8)
    c.drawString(x + 44 * mm, base, _("Vencedora:"))
    c.line(x + 60 * mm, base - 0.5 * mm, x + 120 * mm, base - 0.5 * mm)
    c.drawString(x + 126 * mm, base, _("WO:  ☐ A   ☐ B   ☐ as duas"))


def _observations_draw(c, s: SumulaSheet, x: float, y: float, w: float, h: float) -> None:
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.rect(x, y, w, h)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 6)
    c.drawString(x + 1.5 * mm, y + h - 2.6 * mm, _("Observações (penalidades com o motivo, WO, ocorrências, "
                                                     "contestação e decisão do árbitro)"))
    if not s.notes:
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.4)
        for i in range(1, 4):
            c.line(x + 2 * mm, y + h - 3.5 * mm - i * 4 * mm, x + w - 2 * mm, y + h - 3.5 * mm - i * 4 * mm)
        return
    c.setFillColor(INK)
    size = 6.8
    lines: list[str] = []
    for note in s.notes:
        lines.extend(wrap(note, REGULAR, size, w - 4 * mm, lines=2))
    room = int((h - 4 * mm) // (size + 1.2))
    if len(lines) > room:
        size = max(5.0, (h - 4 * mm) / len(lines) - 1.2)
        lines = [fit(line, REGULAR, size, w - 4 * mm) for line in lines]
    c.setFont(REGULAR, size)
    for i, line in enumerate(lines[:int((h - 4 * mm) // (size + 1.2))]):
        c.drawString(x + 2 * mm, y + h - 3.5 * mm - (i + 1) * (size + 1.2), line)


def _signatures_draw(c, s: SumulaSheet, x: float, y: float, w: float, top: float) -> None:
    c.setFillColor(INK)
    c.setFont(BOLD, 7)
    c.drawString(x, top - 3 * mm, _("Assinaturas: os atletas conferem e assinam; o árbitro e o coordenador técnico "
                                    "assinam depois (FENACEF Art.38)"))
    cols = 3
    slot_w = (w - 8 * mm) / cols
    a, b = s.sides
    slots = [
        (a.players[0], _("jogador 1 · dupla A")), (a.players[1], _("jogador 2 · dupla A")),
        (s.referee, _("árbitro")),
        (b.players[0], _("jogador 1 · dupla B")), (b.players[1], _("jogador 2 · dupla B")),
        ("", _("coordenador técnico")),
    ]
    row_h = (top - 5 * mm - y) / 2
    c.setLineWidth(0.5)
    c.setStrokeColor(INK)
    for i, (name, role) in enumerate(slots):
        col, row = i % cols, i // cols
        sx = x + col * (slot_w + 4 * mm)
        line_y = top - 5 * mm - (row + 1) * row_h + 7 * mm
        c.line(sx, line_y, sx + slot_w, line_y)
        c.setFillColor(INK)
        c.setFont(REGULAR, 7)
        if name:
            c.drawString(sx, line_y - 3 * mm, fit(name, REGULAR, 7, slot_w))
        c.setFillColor(GREY)
        c.setFont(REGULAR, 6)
        c.drawString(sx, line_y - (5.6 if name else 3) * mm, role)
