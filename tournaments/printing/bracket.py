"""The bracket sheet (chave.pdf): each knockout stage drawn as a bracket, with lines, winners and scores.

A4 landscape. Up to 32 duplas (five rounds) a bracket fits one page. A bigger
one is cut into sections of 32 first-round places, one page each, followed by
the pages of the later rounds (again up to five rounds a page, the final's
page last). The pages join by their labels: the last jogo of a section says
which page and jogo its winner goes to, and every place of a later page says
which page its dupla comes from. Type is never smaller than 6.5 points.

The rounds share the page's width unevenly: the first round, which holds the
most names and the least height, gets the widest boxes. Each place shows the
dupla's name in bold and its players under it (a dupla without a name is its
players), each wrapping to two lines, the type made smaller down to 6.5 points
before anything else gives way; where a box has no room for both, the players
run on after the name, then (later rounds only, the players being in the first
one) the name stands alone; an ellipsis is the last resort (``places``).

Input: ``presenters.bracket_present(state, whole=True)`` (a ``BracketPage``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

if TYPE_CHECKING:
    from ..presenters.bracket import BracketJogo, BracketPage, BracketRound, BracketStage
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
    wrap_sized,
)
from .places import LEAD, MIN_SIZE, NAME_SIZE, Line, column_places, lines_draw, place_lines

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

ROUNDS_PER_PAGE = 5  # 32 places in the first column of a page
HEAD_H = 17 * mm  # title lines on top of each page
GUTTER = 6 * mm  # between two rounds: the connecting lines
WEIGHTS = (3.0, 1.4, 1.1, 1.1, 1.1)  # the rounds' share of the width, first round first
PODIUM_WEIGHT = 1.35
COLUMN_MAX = 100 * mm
SLOT_MAX = 32.0  # a place's height at most (two lines of name and two of players)


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
    top, bottom = height - MARGIN - HEAD_H, MARGIN
    extra = 1 if is_top and (stage.champion or stage.third or classification) else 0
    first_count = 2 ** (span - 1)  # jogos of the first column on this page
    pitch = (top - bottom) / first_count
    dense = (pitch - 9) / 2 < 2 * MIN_SIZE + LEAD + 1  # no room above each jogo of the first column for its mesa
    first_jogos = rounds[plan.first - 1].jogos[plan.index * first_count : (plan.index + 1) * first_count]
    mesa = _("mesa %(n)s")
    strip = _strip_width(first_jogos, sourced=plan.first > 1, mesa=mesa) if dense else 0.0
    widths = _column_widths(span, extra, right - left - strip, _first_need(first_jogos))
    xs = [left + strip]
    for w in widths[: span - 1]:
        xs.append(xs[-1] + w + GUTTER)

    centres: list[float] = []
    slot_h = size = 0.0
    for col in range(span):
        r = plan.first + col
        count = 2 ** (span - 1 - col)
        start = plan.index * count
        jogos = rounds[r - 1].jogos[start : start + count]
        x, box_w = xs[col], widths[col]
        room = pitch * 2**col
        slot_h = (room - 1.2) / 2 if dense and col == 0 else min(SLOT_MAX, (room - 9) / 2)
        size = max(MIN_SIZE, min(8.5, slot_h - 3.5))
        if col == 0:
            new = [top - (i + 0.5) * pitch for i in range(count)]
        else:
            new = [(centres[2 * i] + centres[2 * i + 1]) / 2 for i in range(count)]
            _connectors(c, x - GUTTER, x, centres, new)
        _round_head(c, rounds[r - 1], x, top + 2 * mm, box_w)
        places = column_places(jogos, box_w, slot_h, players=col == 0)
        for i, (jogo, cy) in enumerate(zip(jogos, new, strict=False)):
            sources = None
            if col == 0 and plan.first > 1:  # places filled by the winners of the pages before
                position = start + i  # 0-based in its round
                feeder_first = plan.first - ROUNDS_PER_PAGE
                sources = [page_of.get((plan.stage, feeder_first, 2 * position + s)) for s in (0, 1)]
            if dense and col == 0:
                _strip_draw(c, jogo, x - 1 * mm, cy, sources, mesa)
            _jogo_draw(
                c,
                jogo,
                x,
                cy,
                box_w,
                slot_h,
                size,
                sources=sources,
                label_room=0 if dense and col == 0 else room,
                players=col == 0,
                places=places,
            )
        if col == span - 1 and not is_top:
            nxt = page_of.get((plan.stage, plan.last + 1, plan.index // 2 ** min(ROUNDS_PER_PAGE, total - plan.last)))
            position = plan.index // 2 + 1
            c.setFillColor(INK)
            goes = _("o vencedor segue na página %(page)s") % {"page": nxt}
            where = _("%(round)s, jogo %(n)s") % {"round": rounds[plan.last].name, "n": position}
            text_x = min(x, right - stringWidth(goes, BOLD, 7), right - stringWidth(where, REGULAR, 7))
            c.setFont(BOLD, 7)
            c.drawString(text_x, new[0] - slot_h - 4.5 * mm, goes)
            c.setFont(REGULAR, 7)
            c.drawString(text_x, new[0] - slot_h - 8 * mm, where)
        centres = new

    if is_top and extra:
        podium_x = xs[span - 1] + widths[span - 1] + 2 * mm
        _podium_draw(c, stage, classification, podium_x, top, right, bottom + 6 * mm, min(slot_h, 24.0), size)


def _round_head(c: Canvas, rnd: BracketRound, x: float, y: float, w: float) -> None:
    """The round's name over its column, "melhor de N" on its right (above it, when both do not fit a line)."""
    c.setFillColor(GREY)
    c.setFont(BOLD, 7.5)
    c.drawString(x, y, fit(rnd.name, BOLD, 7.5, w))
    c.setFont(REGULAR, 6.5)
    side_by_side = stringWidth(rnd.name, BOLD, 7.5) + 2 * mm + stringWidth(rnd.best_of_label, REGULAR, 6.5) <= w
    c.drawRightString(x + w, y if side_by_side else y + 8, rnd.best_of_label)


def _first_need(jogos: list[BracketJogo]) -> float:
    """The width of the first round's boxes with every place on one line at the largest type."""
    widest = 0.0
    for jogo in jogos:
        for slot in jogo.slots:
            if slot.dupla is None or slot.empty:
                widest = max(widest, stringWidth(slot.label, NARROW, NAME_SIZE))
                continue
            widest = max(widest, stringWidth(slot.dupla.name, NARROW_BOLD, NAME_SIZE))
            if slot.dupla.has_name:
                under = " / ".join(slot.dupla.player_names)
                widest = max(widest, stringWidth(under, NARROW, NAME_SIZE - 1))
    return max(widest + 6 * mm + 2 * mm + 2, 45 * mm)


def _column_widths(span: int, extra: int, room: float, first_need: float = COLUMN_MAX) -> list[float]:
    """The boxes' widths of the ``span`` rounds (then the podium's, when ``extra``) sharing ``room`` by WEIGHTS,
    no round wider than COLUMN_MAX, nor the first wider than its longest place needs (``first_need``): what they
    leave goes to the later rounds (and the podium takes what is left)."""
    caps = [min(COLUMN_MAX, first_need) if i == 0 else COLUMN_MAX for i in range(span)]
    weights = list(WEIGHTS[:span]) + ([PODIUM_WEIGHT] if extra else [])
    room -= GUTTER * (span - 1) + (2 * mm if extra else 0)
    widths: list[float | None] = [None] * len(weights)
    while True:
        free = [i for i, w in enumerate(widths) if w is None]
        if not free:
            return [w or 0.0 for w in widths]
        unit = (room - sum(w for w in widths if w is not None)) / sum(weights[i] for i in free)
        capped = [i for i in free if i < span and weights[i] * unit > caps[i]]
        if not capped:
            return [w if w is not None else weights[i] * unit for i, w in enumerate(widths)]
        for i in capped:
            widths[i] = caps[i]


STRIP_SIZE = 5.8


def _strip_bits(jogo: BracketJogo, sources: list | None, mesa: str) -> list[str]:
    bits = []  # the jogo's place in the bracket says which it is: its key is for addresses only
    if jogo.mesa:
        bits.append(mesa % {"n": jogo.mesa})
    if sources and not all(s.empty for s in jogo.slots) and any(sources):
        bits.append(_("de: p. %(a)s / p. %(b)s") % {"a": sources[0] or "—", "b": sources[1] or "—"})
    return bits


def _strip_width(jogos: list[BracketJogo], *, sourced: bool, mesa: str) -> float:
    """A dense first round has each jogo's mesa on its left (no room above): the widest of them."""
    bits = [b for j in jogos for b in _strip_bits(j, None, mesa)]
    if sourced:
        bits.append(_("de: p. %(a)s / p. %(b)s") % {"a": 999, "b": 999})
    return max((stringWidth(b, REGULAR, STRIP_SIZE) for b in bits), default=0.0) + 2 * mm


def _strip_draw(c: Canvas, jogo: BracketJogo, right: float, cy: float, sources: list | None, mesa: str) -> None:
    bits = _strip_bits(jogo, sources, mesa)
    c.setFillColor(GREY)
    text = c.beginText()
    text.setFont(REGULAR, STRIP_SIZE)
    y = cy + (len(bits) - 1) * 3.4 - 2
    for bit in bits:
        text.setTextOrigin(right - stringWidth(bit, REGULAR, STRIP_SIZE), y)
        text.textOut(bit)
        y -= 6.8
    c.drawText(text)


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
    players: bool = True,
    places: dict[int, list[Line]] | None = None,
) -> None:
    """One jogo: two places (name and partidas won), the winner's place shaded; its mesa above."""
    score_w = 6 * mm
    y_top = cy + slot_h
    room = w - score_w - 2 * mm
    for side, slot in enumerate(jogo.slots):
        y = y_top - (side + 1) * slot_h
        if slot.winner:
            c.setFillColor(SHADE)
            c.rect(x, y, w, slot_h, stroke=0, fill=1)
        base = y + (slot_h - size * 0.72) / 2
        c.setFillColor(GREY if slot.empty or slot.absent else INK)
        if slot.dupla is None or slot.empty:
            label = slot.label
            if slot.empty and sources and sources[side]:
                label = _("vencedor da página %(page)s") % {"page": sources[side]}
            own = fit_size(label, NARROW, size, room, smallest=MIN_SIZE)  # smaller type before an ellipsis
            c.setFont(NARROW, own)
            c.drawString(x + 1.2 * mm, base, fit(label, NARROW, own, room))
        else:
            lines = (places or {}).get(id(slot)) or place_lines(slot.dupla, room, slot_h - 0.4, players=players)
            lines_draw(c, lines, x + 1.2 * mm, y_top - side * slot_h, slot_h)
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
    # above the box, when there is room: the jogo's mesa, or where its places come from
    if label_room - 2 * slot_h >= 7:
        bits = _strip_bits(jogo, sources, _("mesa %(n)s"))
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
        # whole, on up to four lines, the type smaller before anything is cut (issue 41: names cut with room left)
        big, lines = wrap_sized(stage.champion.name, BOLD, 11, w, lines=4, smallest=8)
        c.setFont(BOLD, big)
        for i, line in enumerate(lines):
            c.drawString(x, y - 5 * mm - i * (big + 2), line)
        y -= 7 * mm + len(lines) * (big + 2)
    medals = [r for r in classification if r.medal]
    if medals:
        c.setFont(BOLD, 8)
        c.drawString(x, y, _("Pódio"))
        y -= 4.5 * mm
        for row in medals:
            own, lines = wrap_sized(f"{row.place}º · {row.dupla.name}", NARROW, 7.5, w - 3 * mm, lines=3, smallest=6)
            c.setFont(NARROW, own)
            for i, line in enumerate(lines):
                c.drawString(x + (3 * mm if i else 0), y, line)
                y -= own + 2.2  # 3.4 mm at 7.5 points
            y -= 0.6 * mm
        y -= 3 * mm
    if stage.third:
        c.setFillColor(INK)
        c.setFont(BOLD, 8)
        c.drawString(x, bottom + 2 * slot_h + 4 * mm, stage.third.name)  # knockout_round_title: the round's name
        _jogo_draw(
            c, stage.third, x, bottom + slot_h + 1 * mm, min(w, 55 * mm), slot_h, size, sources=None, label_room=0
        )
