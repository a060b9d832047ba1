"""The bracket sheet (chave.pdf): each knockout stage drawn as a bracket, with lines, winners and scores.

A4 landscape. Up to 32 duplas (five rounds) a bracket fits one page. A bigger
one is cut into sections of 32 first-round places, one page each, followed by
the pages of the later rounds (again up to five rounds a page, the final's
page last). The pages join by their labels: the last jogo of a section says
which page and jogo its winner goes to, and every place of a later page says
which page its dupla comes from. Type is never smaller than 6.5 points.

Input: ``presenters.bracket_present(state, whole=True)`` (a ``BracketPage``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

if TYPE_CHECKING:
    from ..presenters.bracket import BracketJogo, BracketPage, BracketStage
    from ..presenters.standings import ClassificationRow

from .page import (
    BOLD,
    GREY,
    INK,
    LANDSCAPE,
    LIGHT,
    MARGIN,
    NARROW,
    NARROW_BOLD,
    REGULAR,
    SHADE,
    Footer,
    fit,
    fit_size,
    sheet_canvas,
    wrap,
)

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

ROUNDS_PER_PAGE = 5  # 32 places in the first column of a page
HEAD_H = 17 * mm  # title lines on top of each page
MIN_SIZE = 6.5


@dataclass(frozen=True)
class PagePlan:
    stage: int  # index in the presented stages
    first: int  # first round shown (1-based)
    last: int  # last round shown
    index: int  # which part of the rounds first..last (0-based, top to bottom of the bracket)
    parts: int  # how many pages show rounds first..last


def _levels(total: int) -> list[tuple[int, int]]:
    """Rounds shown together, from the first round up: (1, 5), (6, 10)… the last level ends at the final."""
    out, start = [], 1
    while start <= total:
        end = min(start + ROUNDS_PER_PAGE - 1, total)
        out.append((start, end))
        start = end + 1
    return out


def bracket_plan(stages: list[BracketStage]) -> list[PagePlan]:
    """Every page of the sheet, in print order (a stage's sections, then its later rounds; the final last)."""
    plans: list[PagePlan] = []
    for si, stage in enumerate(stages):
        total = len(stage.rounds)
        if not total:
            plans.append(PagePlan(stage=si, first=0, last=0, index=0, parts=1))
            continue
        for first, last in _levels(total):
            parts = 2 ** (total - last)
            plans.extend(PagePlan(stage=si, first=first, last=last, index=i, parts=parts) for i in range(parts))
    return plans


def bracket_pdf(*, bracket: BracketPage, footer: Footer, title: str) -> bytes:
    buffer = io.BytesIO()
    c = sheet_canvas(buffer, footer=footer, title=title, pagesize=LANDSCAPE)
    stages = bracket.stages
    plans = bracket_plan(stages)
    page_of = {(p.stage, p.first, p.index): n for n, p in enumerate(plans, start=1)}
    if not plans:
        _head(c, footer.tournament, _("Chave"), "")
        _message(c, _("Este torneio não tem fase eliminatória."))
        c.showPage()
    for plan in plans:
        stage = stages[plan.stage]
        if not plan.last:
            _head(c, footer.tournament, stage.title, "")
            _message(c, stage.waiting or _("A chave ainda não foi sorteada."))
        else:
            _page_draw(c, footer.tournament, stage, plan, page_of, classification=bracket.classification)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _head(c: Canvas, tournament: str, title: str, subtitle: str) -> None:
    width, height = LANDSCAPE
    top = height - MARGIN
    c.setFillColor(GREY)
    c.setFont(REGULAR, 8)
    c.drawString(MARGIN, top - 8, fit(tournament, REGULAR, 8, width - 2 * MARGIN))
    c.setFillColor(INK)
    c.setFont(BOLD, 14)
    c.drawString(MARGIN, top - 24, fit(title, BOLD, 14, width - 2 * MARGIN))
    if subtitle:
        c.setFont(REGULAR, 9)
        c.drawRightString(width - MARGIN, top - 24, subtitle)


def _message(c: Canvas, text: str) -> None:
    _width, height = LANDSCAPE
    c.setFont(REGULAR, 11)
    c.setFillColor(INK)
    c.drawString(MARGIN, height - MARGIN - HEAD_H - 10 * mm, text)


def _page_draw(
    c: Canvas,
    tournament: str,
    stage: BracketStage,
    plan: PagePlan,
    page_of: dict,
    *,
    classification: list[ClassificationRow],
) -> None:
    width, height = LANDSCAPE
    rounds = stage.rounds
    total = len(rounds)
    span = plan.last - plan.first + 1
    is_top = plan.last == total
    title = _("%(stage)s — chave") % {"stage": stage.title}
    names = [rounds[r - 1].name for r in (plan.first, plan.last)]
    subtitle = names[0] if span == 1 else _("%(a)s a %(b)s") % {"a": names[0], "b": names[1]}
    if plan.parts > 1:
        subtitle = _("Seção %(n)s de %(total)s · %(rounds)s") % {
            "n": plan.index + 1,
            "total": plan.parts,
            "rounds": subtitle,
        }
    _head(c, tournament, title, subtitle)

    left, right = MARGIN, width - MARGIN
    top, bottom = height - MARGIN - HEAD_H, MARGIN + 6 * mm
    extra = 1 if is_top and (stage.champion or stage.third or classification) else 0
    col_w = min(95 * mm, (right - left) / (span + extra * 0.9))
    box_w = col_w - 7 * mm
    first_count = 2 ** (span - 1)  # jogos of the first column on this page
    pitch = (top - bottom) / first_count
    slot_h = max(MIN_SIZE + 3.5, min(15, (pitch - 9) / 2))
    size = max(MIN_SIZE, min(8.5, slot_h - 3.5))

    centres: list[float] = []
    for col in range(span):
        r = plan.first + col
        count = 2 ** (span - 1 - col)
        start = plan.index * count
        jogos = rounds[r - 1].jogos[start : start + count]
        x = left + col * col_w
        if col == 0:
            new = [top - (i + 0.5) * pitch for i in range(count)]
        else:
            new = [(centres[2 * i] + centres[2 * i + 1]) / 2 for i in range(count)]
            _connectors(c, x - 7 * mm, x, centres, new)
        c.setFillColor(GREY)
        c.setFont(BOLD, 7.5)
        c.drawString(x, top + 2 * mm, fit(rounds[r - 1].name, BOLD, 7.5, box_w))
        c.setFont(REGULAR, 6.5)
        c.drawRightString(x + box_w, top + 2 * mm, rounds[r - 1].best_of_label)
        for i, (jogo, cy) in enumerate(zip(jogos, new, strict=False)):
            sources = None
            if col == 0 and plan.first > 1:  # places filled by the winners of the pages before
                position = start + i  # 0-based in its round
                feeder_first = plan.first - ROUNDS_PER_PAGE
                sources = [page_of.get((plan.stage, feeder_first, 2 * position + s)) for s in (0, 1)]
            _jogo_draw(c, jogo, x, cy, box_w, slot_h, size, sources=sources, label_room=pitch * 2**col)
        if col == span - 1 and not is_top:
            nxt = page_of.get((plan.stage, plan.last + 1, plan.index // 2 ** min(ROUNDS_PER_PAGE, total - plan.last)))
            position = plan.index // 2 + 1
            c.setFillColor(INK)
            c.setFont(BOLD, 7)
            c.drawString(x, new[0] - slot_h - 4.5 * mm, _("o vencedor segue na página %(page)s") % {"page": nxt})
            c.setFont(REGULAR, 7)
            c.drawString(
                x,
                new[0] - slot_h - 8 * mm,
                _("%(round)s, jogo %(n)s") % {"round": rounds[plan.last].name, "n": position},
            )
        centres = new

    if is_top and extra:
        _podium_draw(c, stage, classification, left + span * col_w + 2 * mm, top, right, bottom, slot_h, size)


def _connectors(c: Canvas, x0: float, x1: float, before: list[float], after: list[float]) -> None:
    """The lines from each pair of jogos of a column to the jogo they feed in the next one."""
    mid = (x0 + x1) / 2
    c.setStrokeColor(INK)
    c.setLineWidth(0.6)
    path = c.beginPath()
    for i, y in enumerate(after):
        a, b = before[2 * i], before[2 * i + 1]
        path.moveTo(x0, a)
        path.lineTo(mid, a)
        path.lineTo(mid, b)
        path.lineTo(x0, b)
        path.moveTo(mid, y)
        path.lineTo(x1, y)
    c.drawPath(path, stroke=1, fill=0)


def _jogo_draw(
    c: Canvas,
    jogo: BracketJogo,
    x: float,
    cy: float,
    w: float,
    slot_h: float,
    size: float,
    *,
    sources: list | None,
    label_room: float,
) -> None:
    """One jogo: two places (name and partidas won), the winner in bold on a shaded place; key and mesa above."""
    score_w = 6 * mm
    y_top = cy + slot_h
    for side, slot in enumerate(jogo.slots):
        y = y_top - (side + 1) * slot_h
        if slot.winner:
            c.setFillColor(SHADE)
            c.rect(x, y, w, slot_h, stroke=0, fill=1)
        base = y + (slot_h - size * 0.72) / 2
        font = NARROW_BOLD if slot.winner else NARROW
        c.setFillColor(GREY if slot.empty or slot.absent else INK)
        c.setFont(font, size)
        label = slot.label
        if slot.empty and sources and sources[side]:
            label = _("vencedor da página %(page)s") % {"page": sources[side]}
        room = w - score_w - 2 * mm
        own = fit_size(label, font, size, room, smallest=MIN_SIZE)  # smaller type before an ellipsis
        c.setFont(font, own)
        c.drawString(x + 1.2 * mm, base, fit(label, font, own, room))
        if slot.score is not None:
            c.setFont(BOLD, size)
            c.setFillColor(INK)
            c.drawCentredString(x + w - score_w / 2, base, str(slot.score))
    c.setStrokeColor(INK if not jogo.bye else LIGHT)
    c.setLineWidth(0.7)
    c.rect(x, cy - slot_h, w, 2 * slot_h)
    c.setLineWidth(0.3)
    c.line(x, cy, x + w, cy)
    c.line(x + w - score_w, cy - slot_h, x + w - score_w, cy + slot_h)
    # above the box, when there is room: the jogo's key and mesa, or where its places come from
    if label_room - 2 * slot_h >= 7:
        bits = []
        if jogo.key:
            bits.append(jogo.key)
        if jogo.mesa:
            bits.append(_("mesa %(n)s") % {"n": jogo.mesa})
        if sources and not all(s.empty for s in jogo.slots) and any(sources):
            bits.append(_("de: p. %(a)s / p. %(b)s") % {"a": sources[0] or "—", "b": sources[1] or "—"})
        if bits:
            c.setFillColor(GREY)
            c.setFont(REGULAR, 5.8)
            c.drawString(x + 0.5 * mm, cy + slot_h + 1.2, fit(" · ".join(bits), REGULAR, 5.8, w))


def _podium_draw(
    c: Canvas,
    stage: BracketStage,
    classification: list[ClassificationRow],
    x: float,
    top: float,
    right: float,
    bottom: float,
    slot_h: float,
    size: float,
) -> None:
    w = right - x
    y = top - 4 * mm
    if stage.champion:
        c.setFillColor(INK)
        c.setFont(BOLD, 8)
        c.drawString(x, y, _("Campeã"))
        name = stage.champion.name
        size = fit_size(name, BOLD, 11, w, smallest=9)
        lines = wrap(name, BOLD, size, w, lines=3)
        c.setFont(BOLD, size)
        for i, line in enumerate(lines):
            c.drawString(x, y - 5 * mm - i * (size + 2), line)
        y -= 7 * mm + len(lines) * (size + 2)
    medals = [r for r in classification if r.medal]
    if medals:
        c.setFont(BOLD, 8)
        c.drawString(x, y, _("Pódio"))
        y -= 4.5 * mm
        for row in medals:
            for i, line in enumerate(wrap(f"{row.place}º · {row.dupla.name}", NARROW, 7.5, w - 3 * mm, lines=2)):
                c.setFont(NARROW, 7.5)
                c.drawString(x + (3 * mm if i else 0), y, line)
                y -= 3.4 * mm
            y -= 0.6 * mm
        y -= 3 * mm
    if stage.third:
        c.setFillColor(INK)
        c.setFont(BOLD, 8)
        c.drawString(x, bottom + 2 * slot_h + 4 * mm, _("Disputa de 3º lugar"))
        _jogo_draw(
            c, stage.third, x, bottom + slot_h + 1 * mm, min(w, 55 * mm), slot_h, size, sources=None, label_room=0
        )
