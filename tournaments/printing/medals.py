"""The medal list for the ceremony (medalhas.pdf) and a certificate per athlete (certificados.pdf).

Medals go to each athlete of the top three duplas (docs/regras.md §5.4; with a
shared third place both semi-final losers get bronze). The list says, place by
place, the dupla, its athletes with a box to tick when the medal is handed, and
how many medals of each kind to have at hand. A certificate says the athlete's
place (with the medal for the top three) or, for the others, that they took
part and where they finished. Both wait for the final classification; before
it, they say so on their only page (and the medal list leaves lines to fill in).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from reportlab.lib.units import mm

from .page import (
    BOLD,
    GREY,
    INK,
    LANDSCAPE,
    LIGHT,
    MARGIN,
    PORTRAIT,
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

BOX, TICK_SIZE = 3.6 * mm, 9  # the box ticked when an athlete's medal is handed, and its label's size
MEDALS = {"gold": gettext_noop("ouro"), "silver": gettext_noop("prata"), "bronze": gettext_noop("bronze")}


@dataclass(frozen=True)
class Placed:
    """A dupla of the final classification."""

    place: int | None
    medal: str  # gold | silver | bronze | ""
    dupla: str  # its name (its players' names when it has none)
    has_name: bool
    athletes: tuple[str, ...]
    played: bool = True  # False: absent from every jogo it had (lost by WO): no certificate


@dataclass(frozen=True)
class Event:
    name: str
    category: str
    when: str  # "27/04/2024"
    venue: str


def medal_label(medal: str) -> str:
    return _(MEDALS[medal]) if medal in MEDALS else ""


# --- the medal list ----------------------------------------------------------------------------------------------


def medals_pdf(*, event: Event, placed: list[Placed], finished: bool, footer: Footer, title: str) -> bytes:
    buffer = io.BytesIO()
    c = sheet_canvas(buffer, footer=footer, title=title)
    width, height = PORTRAIT
    left, inner = MARGIN, width - 2 * MARGIN
    y = height - MARGIN
    c.setFillColor(GREY)
    c.setFont(REGULAR, 8.5)
    c.drawString(
        left,
        y - 9,
        fit(" · ".join(x for x in (event.name, event.category, event.when, event.venue) if x), REGULAR, 8.5, inner),
    )
    c.setFillColor(INK)
    c.setFont(BOLD, 18)
    c.drawString(left, y - 30, _("Lista de medalhas"))
    y -= 40
    medalists = [p for p in placed if p.medal]
    if not finished or not medalists:
        c.setFont(REGULAR, 10)
        for line in wrap(
            _(
                "A classificação final ainda não está definida: o Zap completa esta lista quando o "
                "último jogo que decide o pódio for confirmado. Até lá, as linhas abaixo podem ser "
                "preenchidas à mão."
            ),
            REGULAR,
            10,
            inner,
            lines=3,
        ):
            c.drawString(left, y - 10, line)
            y -= 13
        y -= 8
        for place, medal in ((1, "gold"), (2, "silver"), (3, "bronze")):
            y = _blank_place(c, left, y, inner, place, medal)
        c.showPage()
        c.save()
        return buffer.getvalue()

    counts = {m: sum(len(p.athletes) for p in medalists if p.medal == m) for m in MEDALS}
    summary = ", ".join(
        ngettext("%(n)s medalha de %(kind)s", "%(n)s medalhas de %(kind)s", n) % {"n": n, "kind": medal_label(m)}
        for m, n in counts.items()
        if n
    )
    c.setFont(REGULAR, 9.5)
    c.drawString(left, y - 10, fit(_("A separar: %(summary)s.") % {"summary": summary}, REGULAR, 9.5, inner))
    y -= 22
    for p in medalists:
        needed = 12 * mm + 7 * mm * len(p.athletes)
        if y - needed < MARGIN + 8 * mm:
            c.showPage()
            y = height - MARGIN
        y = _place_block(c, left, y, inner, p)
    c.showPage()
    c.save()
    return buffer.getvalue()


def _place_head(c: Canvas, x: float, y: float, w: float, place: int | None, medal: str) -> None:
    c.setFillColor(SHADE)
    c.rect(x, y - 9 * mm, w, 9 * mm, stroke=0, fill=1)
    c.setFillColor(INK)
    c.setFont(BOLD, 13)
    head = _("%(place)sº lugar") % {"place": place} if place else ""
    c.drawString(x + 3 * mm, y - 6.3 * mm, head)
    c.setFont(BOLD, 11)
    c.drawRightString(x + w - 3 * mm, y - 6.3 * mm, _("medalha de %(kind)s") % {"kind": medal_label(medal)})


def _place_block(c: Canvas, x: float, y: float, w: float, p: Placed) -> float:
    _place_head(c, x, y, w, p.place, p.medal)
    y -= 15 * mm
    if p.has_name:
        c.setFont(BOLD, 12)
        c.drawString(x + 3 * mm, y, fit(p.dupla, BOLD, 12, w - 6 * mm))
        y -= 7 * mm
    label = _("entregue")
    label_w = c.stringWidth(label, REGULAR, TICK_SIZE)
    box_x = x + w - 3 * mm - label_w - 1.5 * mm - BOX  # the box, then its label, at the row's right end
    for athlete in p.athletes:
        c.setFillColor(INK)
        c.setFont(REGULAR, 11)
        name = fit(athlete, REGULAR, 11, box_x - x - 9 * mm)
        c.drawString(x + 3 * mm, y, name)
        # a dotted leader from the name to its box: which box is whose, across the page
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.6)
        c.setDash(0.6, 2)
        c.line(x + 3 * mm + c.stringWidth(name, REGULAR, 11) + 2 * mm, y, box_x - 2 * mm, y)
        c.setDash()
        c.setStrokeColor(INK)
        c.setLineWidth(0.7)
        c.rect(box_x, y - 0.6 * mm, BOX, BOX)
        c.setFont(REGULAR, TICK_SIZE)
        c.drawString(box_x + BOX + 1.5 * mm, y, label)
        y -= 7 * mm
    return y - 4 * mm


def _blank_place(c: Canvas, x: float, y: float, w: float, place: int, medal: str) -> float:
    _place_head(c, x, y, w, place, medal)
    y -= 17 * mm
    c.setStrokeColor(LIGHT)
    c.setLineWidth(0.5)
    for label in (_("dupla"), _("atleta"), _("atleta")):
        c.line(x + 22 * mm, y, x + w - 3 * mm, y)
        c.setFillColor(GREY)
        c.setFont(REGULAR, 8)
        c.drawString(x + 3 * mm, y + 1, label)
        y -= 9 * mm
    return y - 4 * mm


# --- the certificates --------------------------------------------------------------------------------------------


def certificates_pdf(*, event: Event, placed: list[Placed], finished: bool, footer: Footer, title: str) -> bytes:
    """One landscape page per athlete of the classification, best place first; none for a dupla that never came
    to play (every jogo of it lost by WO: it did not take part)."""
    buffer = io.BytesIO()
    c = sheet_canvas(buffer, footer=footer, title=title, pagesize=LANDSCAPE)
    people = [(p, i) for p in placed if p.place and p.played for i in range(len(p.athletes))] if finished else []
    for p, i in people:
        _certificate_draw(c, event, p, i)
        c.showPage()
    if not people:
        _width, height = LANDSCAPE
        c.setFont(BOLD, 16)
        c.drawString(MARGIN, height - MARGIN - 20, _("Certificados"))
        c.setFont(REGULAR, 11)
        c.drawString(
            MARGIN,
            height - MARGIN - 42,
            _(
                "A classificação final ainda não está definida: os certificados "
                "ficam prontos quando o torneio terminar."
            ),
        )
        c.showPage()
    c.save()
    return buffer.getvalue()


def _certificate_draw(c: Canvas, event: Event, p: Placed, index: int) -> None:
    """The certificate of ``p.athletes[index]`` (by position: two athletes may share a name)."""
    athlete = p.athletes[index]
    width, height = LANDSCAPE
    c.setStrokeColor(INK)
    c.setLineWidth(2.5)
    c.rect(MARGIN, MARGIN + 4 * mm, width - 2 * MARGIN, height - 2 * MARGIN - 4 * mm)
    c.setLineWidth(0.6)
    c.rect(MARGIN + 3 * mm, MARGIN + 7 * mm, width - 2 * MARGIN - 6 * mm, height - 2 * MARGIN - 10 * mm)
    centre = width / 2
    room = width - 2 * MARGIN - 30 * mm
    c.setFillColor(GREY)
    c.setFont(REGULAR, 11)
    c.drawCentredString(centre, height - 42 * mm, fit(event.name, REGULAR, 11, room))
    c.setFillColor(INK)
    c.setFont(BOLD, 34)
    c.drawCentredString(centre, height - 62 * mm, _("CERTIFICADO"))
    c.setFont(REGULAR, 13)
    c.drawCentredString(centre, height - 80 * mm, _("Certificamos que"))
    size = fit_size(athlete, BOLD, 26, room, smallest=14)
    c.setFont(BOLD, size)
    c.drawCentredString(centre, height - 95 * mm, fit(athlete, BOLD, size, room))
    if p.medal:
        feat = _("conquistou o %(place)sº lugar, com medalha de %(kind)s,") % {
            "place": p.place,
            "kind": medal_label(p.medal),
        }
    else:
        feat = _("participou e classificou-se em %(place)sº lugar") % {"place": p.place}
    partner = [a for i, a in enumerate(p.athletes) if i != index]
    if p.has_name:
        dupla = _("na dupla %(dupla)s") % {"dupla": p.dupla}
    elif partner:
        dupla = _("em dupla com %(partner)s") % {"partner": partner[0]}
    else:
        dupla = ""
    where = _("no torneio %(event)s") % {"event": event.name}
    if event.category:
        where += f" ({event.category})"
    if event.when:
        where += ", " + _("realizado em %(date)s") % {"date": event.when}
    if event.venue:
        where += " " + _("em %(venue)s") % {"venue": event.venue}
    text = ", ".join(x for x in (feat.rstrip(","), dupla, where) if x) + "."
    c.setFont(REGULAR, 13)
    for i, line in enumerate(wrap(text, REGULAR, 13, room, lines=4)):
        c.drawCentredString(centre, height - 112 * mm - i * 7 * mm, line)
    line_w = 70 * mm
    for k, label in enumerate((_("Comissão organizadora"), _("Coordenação técnica"))):
        x = centre + (-1 if k == 0 else 1) * 55 * mm
        c.setLineWidth(0.6)
        c.line(x - line_w / 2, MARGIN + 30 * mm, x + line_w / 2, MARGIN + 30 * mm)
        c.setFont(REGULAR, 9)
        c.drawCentredString(x, MARGIN + 25 * mm, label)
