"""The súmula sheet: one A4 page per jogo, blank (pre-filled for the table) or filled (every mão as recorded).

Top to bottom: the event, the title and the QR code of the jogo's page; stage,
group or round, mesa, key and best-of; the two duplas with their players; the
preset's reminders (values, mão de onze, mão de ferro, manilha); a grid per
partida for each dupla's running total mão by mão, with the partida's result;
the jogo's result; observations (penalties, walkover, confirmations, the
referee's decision); signature lines for the four players, the referee and the
technical coordinator (FENACEF Art.33, Art.38 §2–§3); the line names the article only when the event's own
regulation has one (``signature_rule``).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from .page import (
    BOLD,
    GREY,
    INK,
    LIGHT,
    MARGIN,
    PORTRAIT,
    REGULAR,
    SHADE,
    Footer,
    box_value,
    caption_box,
    fit,
    fit_size,
    sheet_canvas,
    wrap,
    wrap_sized,
)
from .qr import qr_draw
from .sumula_grids import Grid, PartidaBox, grid_fill, grid_frame, grids_plan

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

QR_SIZE = 30 * mm


@dataclass(frozen=True)
class Side:
    """One dupla as the sheet shows it."""

    letter: str  # "A" or "B": the column of its running total
    name: str
    players: tuple[str, str]
    has_name: bool


@dataclass
class SumulaSheet:
    """Everything printed on one súmula (plain text: names, labels and numbers already formatted)."""

    key: str
    url: str  # the jogo's public page (the QR code)
    tournament: str
    when_where: str  # "27/04/2024 · 14h00 · Bar Classe A"
    stage: str
    group_round: str  # the jogo as people know it: "Grupo A · Rodada 2", "Quartas de final · jogo 2", "Final"
    in_group: bool  # a group jogo (its box is "Grupo / rodada"); a knockout jogo's is "Rodada": no word of grupos
    mesa: str
    best_of: int
    sides: tuple[Side, Side]
    reminders: tuple[str, ...]
    referee: str = ""
    signature_rule: str = ""  # "FENACEF Art. 38": the article of the event's regulation on signing, if it has one
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
    """``sheets`` as one PDF, one A4 page each, in the order given.

    What blank sheets of the same tournament and best-of share (frames,
    captions, the grid, the reminders, signature lines: most of the page) is
    drawn once as a PDF form and placed on each of their pages; each page
    then adds only what is its own (QR code, duplas, names, the jogo's data).
    """
    buffer = io.BytesIO()
    c = sheet_canvas(buffer, footer=footer, title=title)
    forms: dict[tuple, str] = {}
    for sheet in sheets:
        layout = _layout(sheet)
        if sheet.filled:
            _static_draw(c, sheet, layout)
        else:
            key = (
                sheet.tournament,
                sheet.when_where,
                sheet.reminders,
                sheet.best_of,
                sheet.signature_rule,
                sheet.in_group,
            )
            name = forms.get(key)
            if name is None:
                name = forms[key] = f"sumula{len(forms) + 1}"
                c.beginForm(name)
                _static_draw(c, sheet, layout)
                c.endForm()
            c.doForm(name)
        _own_draw(c, sheet, layout)
        c.showPage()
        if sheet.filled and _notes_continued(c, sheet, layout):
            c.showPage()
    if not sheets:
        _nothing(c)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _nothing(c: Canvas) -> None:
    _width, height = PORTRAIT
    c.setFont(BOLD, 14)
    c.drawString(MARGIN, height - MARGIN - 14, _("Nenhum jogo a imprimir"))
    c.setFont(REGULAR, 10)
    c.drawString(MARGIN, height - MARGIN - 32, _("Não há jogos agendados nesta seleção."))


@dataclass(frozen=True)
class Layout:
    """Where the parts of a sheet go (points from the bottom-left corner)."""

    left: float
    inner: float
    top: float
    info_y: float
    sides_y: float
    reminder_lines: tuple[str, ...]
    reminders_y: float
    reminders_h: float
    signatures_top: float
    observations_y: float
    observations_h: float
    note_lines: tuple[str, ...]  # the observations, wrapped to the box
    note_size: float
    result_y: float
    grids_bottom: float
    grids_top: float


INFO_H, SIDE_H, OBS_H, RESULT_H = 10 * mm, 21 * mm, 17 * mm, 10 * mm
OBS_MAX_H = 80 * mm  # the observations may take this much of the grids' room; past it, a page of their own
NOTE_SIZE, NOTE_SMALLEST, NOTE_LEADING = 6.8, 5.5, 1.2
INFO_SHARES = (0.27, 0.45, 0.12, 0.16)  # fase, grupo / rodada (and the jogo in it), mesa, disputa


def _layout(s: SumulaSheet) -> Layout:
    width, height = PORTRAIT
    inner = width - 2 * MARGIN
    top = height - MARGIN
    info_y = top - QR_SIZE - 8 * mm - INFO_H
    sides_y = info_y - SIDE_H - 2 * mm
    lines = tuple(line for text in s.reminders for line in wrap(text, REGULAR, 6.8, inner - 4 * mm, lines=2))
    rem_h = 5 * mm + 3.2 * mm * len(lines)
    rem_y = sides_y - rem_h - 2 * mm
    sig_top = MARGIN + 27 * mm
    obs_y = sig_top + 2 * mm
    notes, size = _notes_fitted(s.notes if s.filled else (), inner - 4 * mm)
    obs_h = max(OBS_H, min(OBS_MAX_H, 4.5 * mm + len(notes) * (size + NOTE_LEADING)))
    res_y = obs_y + obs_h + 2 * mm
    return Layout(
        left=MARGIN,
        inner=inner,
        top=top,
        info_y=info_y,
        sides_y=sides_y,
        reminder_lines=lines,
        reminders_y=rem_y,
        reminders_h=rem_h,
        signatures_top=sig_top,
        observations_y=obs_y,
        observations_h=obs_h,
        note_lines=notes,
        note_size=size,
        result_y=res_y,
        grids_bottom=res_y + RESULT_H + 3 * mm,
        grids_top=rem_y - 3 * mm,
    )


def _static_draw(c: Canvas, s: SumulaSheet, k: Layout) -> None:
    """What every sheet of this tournament and best-of shows alike: frames, captions, the grid, the rules."""
    left, inner, top = k.left, k.inner, k.top
    text_w = inner - QR_SIZE - 4 * mm
    qr_x = left + inner - QR_SIZE
    c.setFillColor(GREY)
    c.setFont(REGULAR, 5.5)
    c.drawCentredString(qr_x + QR_SIZE / 2, top - QR_SIZE - 5 * mm, _("súmula digital: aponte a câmera"))
    c.setFillColor(INK)
    size = fit_size(s.tournament, BOLD, 13, text_w, smallest=9)
    c.setFont(BOLD, size)
    c.drawString(left, top - 11, fit(s.tournament, BOLD, size, text_w))
    c.setFillColor(GREY)
    c.setFont(REGULAR, 8.5)
    c.drawString(left, top - 23, fit(s.when_where, REGULAR, 8.5, text_w))
    c.setFillColor(INK)
    c.setFont(BOLD, 16)
    c.drawString(left, top - 44, _("SÚMULA DE JOGO"))

    captions = (_("Fase"), _("Grupo / rodada") if s.in_group else _("Rodada"), _("Mesa"), _("Disputa"))
    x = left
    for share, caption in zip(INFO_SHARES, captions, strict=False):
        caption_box(c, x, k.info_y, inner * share, INFO_H, caption)
        x += inner * share
    half = (inner - 3 * mm) / 2
    for i, letter in enumerate("AB"):
        _side_frame(c, letter, left + i * (half + 3 * mm), k.sides_y, half, SIDE_H)

    c.setFillColor(SHADE)
    c.rect(left, k.reminders_y, inner, k.reminders_h, stroke=0, fill=1)
    c.setFillColor(INK)
    c.setFont(BOLD, 6.5)
    c.drawString(left + 2 * mm, k.reminders_y + k.reminders_h - 3.4 * mm, _("Lembretes do regulamento"))
    c.setFont(REGULAR, 6.8)
    for i, line in enumerate(k.reminder_lines):
        c.drawString(left + 2 * mm, k.reminders_y + k.reminders_h - 3.4 * mm - (i + 1) * 3.2 * mm, line)

    _signatures_frame(c, s, left, MARGIN, inner, k.signatures_top)
    _observations_frame(c, s, left, k.observations_y, inner, k.observations_h)
    _result_frame(c, s, left, k.result_y, inner, RESULT_H)
    for grid in _grids(s, k):
        grid_frame(c, grid, blank=not s.filled)


def _own_draw(c: Canvas, s: SumulaSheet, k: Layout) -> None:
    """What is this jogo's own: the QR code, its data, the duplas, the names, and (filled) what was recorded."""
    left, inner, top = k.left, k.inner, k.top
    text_w = inner - QR_SIZE - 4 * mm
    qr_x, qr_y = left + inner - QR_SIZE, top - QR_SIZE
    qr_draw(c, s.url, qr_x, qr_y, QR_SIZE)  # the jogo's key is in its address only: no person reads it
    if s.filled:
        title_w = c.stringWidth(_("SÚMULA DE JOGO"), BOLD, 16)
        after = left + title_w + 4 * mm
        c.setFont(BOLD, 9)
        label = " · ".join(x for x in (s.via, s.status) if x)
        c.drawString(after, top - 44, fit(label, BOLD, 9, left + text_w - after))
        if s.replaces:
            c.setFont(BOLD, 8)
            for i, line in enumerate(wrap(s.replaces, BOLD, 8, text_w, lines=2)):
                c.drawString(left, top - 56 - i * 9.5, line)
    values = (s.stage, s.group_round, s.mesa, _("melhor de %(n)s") % {"n": s.best_of})
    x = left
    for share, value in zip(INFO_SHARES, values, strict=False):
        box_value(c, x, k.info_y, inner * share, value or "—", size=10)
        x += inner * share
    half = (inner - 3 * mm) / 2
    for i, side in enumerate(s.sides):
        _side_names(c, side, left + i * (half + 3 * mm), k.sides_y, half, SIDE_H)
    _signature_names(c, s, left, inner, k.signatures_top)
    if s.filled:
        _observations_text(c, k, left, k.observations_y)
        _result_text(c, s, left, k.result_y, inner, RESULT_H)
    boxes = {p.number: p for p in s.partidas}
    for grid in _grids(s, k):
        grid_fill(c, boxes.get(grid.number), grid)


def _grids(s: SumulaSheet, k: Layout) -> list[Grid]:
    return grids_plan(
        best_of=s.best_of, partidas=s.partidas, left=k.left, inner=k.inner, bottom=k.grids_bottom, top=k.grids_top
    )


def _side_frame(c: Canvas, letter: str, x: float, y: float, w: float, h: float) -> None:
    c.setStrokeColor(INK)
    c.setLineWidth(0.8)
    c.rect(x, y, w, h)
    c.setFillColor(INK)
    c.rect(x, y + h - 5 * mm, 7 * mm, 5 * mm, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(BOLD, 9)
    c.drawCentredString(x + 3.5 * mm, y + h - 3.7 * mm, letter)
    c.setFillColor(GREY)
    c.setFont(REGULAR, 6)
    c.drawString(x + 9 * mm, y + h - 3.4 * mm, _("Dupla %(letter)s") % {"letter": letter})


def _side_names(c: Canvas, side: Side, x: float, y: float, w: float, h: float) -> None:
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


# --- the bottom of the sheet --------------------------------------------------------------------------------


def _result_frame(c: Canvas, s: SumulaSheet, x: float, y: float, w: float, h: float) -> None:
    caption_box(c, x, y, w, h, _("Resultado do jogo (partidas vencidas)"))
    if s.filled:
        return
    base = y + 2 * mm
    c.setFillColor(INK)
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


def _result_text(c: Canvas, s: SumulaSheet, x: float, y: float, w: float, h: float) -> None:
    """The jogo's result in words: one line, its type made smaller down to 8 points; else two lines (7.5 points,
    down to 6.5) under the caption; cut with … only when not even those hold it (a WO names two duplas)."""
    if not s.result:
        return
    room = w - 4 * mm
    size = fit_size(s.result, BOLD, 10, room, smallest=8)
    lines = [s.result]
    if c.stringWidth(s.result, BOLD, size) > room + 0.01:  # not even at 8 points
        size, lines = wrap_sized(s.result, BOLD, 7.5, room, lines=2, smallest=6.5)
    c.setFillColor(INK)
    c.setFont(BOLD, size)
    for i, line in enumerate(lines):
        c.drawString(x + 2 * mm, y + 1.8 * mm + (len(lines) - 1 - i) * (size + 1), line)


def _observations_frame(c: Canvas, s: SumulaSheet, x: float, y: float, w: float, h: float) -> None:
    caption_box(
        c, x, y, w, h, _("Observações (penalidades com o motivo, WO, ocorrências, contestação e decisão do árbitro)")
    )
    if s.filled and s.notes:
        return
    c.setStrokeColor(LIGHT)
    c.setLineWidth(0.4)
    for i in range(1, 4):
        c.line(x + 2 * mm, y + h - 3.5 * mm - i * 4 * mm, x + w - 2 * mm, y + h - 3.5 * mm - i * 4 * mm)


def _notes_fitted(notes: Sequence[str], width: float) -> tuple[tuple[str, ...], float]:
    """The observations wrapped to ``width`` at the largest size (down to ``NOTE_SMALLEST``) that keeps them
    within ``OBS_MAX_H``; at the smallest size they may still be longer (the rest goes on a page of its own)."""
    size = NOTE_SIZE
    while True:
        lines = tuple(line for note in notes for line in wrap(note, REGULAR, size, width, lines=6))
        if 4.5 * mm + len(lines) * (size + NOTE_LEADING) <= OBS_MAX_H or size <= NOTE_SMALLEST:
            return lines, size
        size = max(NOTE_SMALLEST, size - 0.5)


def _notes_room(k: Layout) -> int:
    return int((k.observations_h - 4.5 * mm) // (k.note_size + NOTE_LEADING))


def _observations_text(c: Canvas, k: Layout, x: float, y: float) -> None:
    lines = list(k.note_lines)
    room = _notes_room(k)
    if len(lines) > room:  # never dropped: the rest follows on a page of its own
        lines = lines[: room - 1] + [_("(as observações continuam na página seguinte)")]
    c.setFillColor(INK)
    c.setFont(REGULAR, k.note_size)
    for i, line in enumerate(lines):
        c.drawString(x + 2 * mm, y + k.observations_h - 3.5 * mm - (i + 1) * (k.note_size + NOTE_LEADING), line)


def _notes_continued(c: Canvas, s: SumulaSheet, k: Layout) -> bool:
    """The observations that did not fit on the sheet, on a page of their own; False when they all fit."""
    room = _notes_room(k)
    if len(k.note_lines) <= room:
        return False
    width, height = PORTRAIT
    c.setFillColor(INK)
    c.setFont(BOLD, 11)
    heading = _("Súmula de %(a)s x %(b)s (%(jogo)s) — observações (continuação)") % {
        "a": s.sides[0].name,
        "b": s.sides[1].name,
        "jogo": s.group_round,
    }
    c.drawString(MARGIN, height - MARGIN - 12, fit(heading, BOLD, 11, width - 2 * MARGIN))
    step = k.note_size + NOTE_LEADING + 1
    y = height - MARGIN - 30
    for line in k.note_lines[room - 1 :]:  # wrapped to the sheet's width: the same width here
        if y < MARGIN + 10 * mm:
            c.showPage()
            y = height - MARGIN - 12
        c.setFillColor(INK)
        c.setFont(REGULAR, k.note_size)
        c.drawString(MARGIN + 2 * mm, y, line)
        y -= step
    return True


def _signature_slots(x: float, w: float, top: float, y: float) -> Iterator[tuple[float, float, float]]:
    """(x, line y, width) of the six signature lines: the players of A, the referee; of B, the coordinator."""
    cols, gap = 3, 4 * mm
    slot_w = (w - 2 * gap) / cols
    row_h = (top - 5 * mm - y) / 2
    for i in range(6):
        col, row = i % cols, i // cols
        yield x + col * (slot_w + gap), top - 5 * mm - (row + 1) * row_h + 7 * mm, slot_w


def _signatures_frame(c: Canvas, s: SumulaSheet, x: float, y: float, w: float, top: float) -> None:
    heading = _("Assinaturas: os atletas conferem e assinam; o árbitro e o coordenador técnico assinam depois")
    if s.signature_rule:
        heading += f" ({s.signature_rule})"
    c.setFillColor(INK)
    c.setFont(BOLD, 7)
    c.drawString(x, top - 3 * mm, fit(heading, BOLD, 7, w))
    roles = (
        _("jogador 1 · dupla A"),
        _("jogador 2 · dupla A"),
        _("árbitro"),
        _("jogador 1 · dupla B"),
        _("jogador 2 · dupla B"),
        _("coordenador técnico"),
    )
    c.setLineWidth(0.5)
    c.setStrokeColor(INK)
    for (sx, line_y, slot_w), role in zip(_signature_slots(x, w, top, y), roles, strict=False):
        c.line(sx, line_y, sx + slot_w, line_y)
        c.setFillColor(GREY)
        c.setFont(REGULAR, 6)
        c.drawString(sx, line_y - 5.6 * mm, role)


def _signature_names(c: Canvas, s: SumulaSheet, x: float, w: float, top: float) -> None:
    a, b = s.sides
    names = (a.players[0], a.players[1], s.referee, b.players[0], b.players[1], "")  # the order of the slots
    c.setFillColor(INK)
    c.setFont(REGULAR, 7)
    for (sx, line_y, slot_w), name in zip(_signature_slots(x, w, top, MARGIN), names, strict=False):
        if name:
            c.drawString(sx, line_y - 3 * mm, fit(name, REGULAR, 7, slot_w))
