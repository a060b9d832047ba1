"""The circuit's ranking for the club's wall (/circuitos/<slug>/ranking.pdf): A4 portrait, the circuit's name, the
date, the etapas, the table (position, atleta, points, etapas played and, when they fit, the points of each etapa,
an uncounted one in parentheses) and the qualification lines as rows across the table; then, when the etapas name
equipes, the equipe ranking (each equipe's points and the atletas whose points count).

Input: ``circuits.selectors.circuit_standing`` (a ``CircuitStanding``), drawn with platypus flowables on the
shared page (``page.canvas_maker``).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ..circuits.selectors import standing_lines
from .page import (
    BOLD,
    GREY,
    INK,
    LIGHT,
    MARGIN,
    NARROW,
    NARROW_BOLD,
    PORTRAIT,
    REGULAR,
    SHADE,
    Footer,
    canvas_maker,
    fonts_register,
)

if TYPE_CHECKING:
    from ..circuits.selectors import CircuitStanding, StandingRow

STYLES = {
    "title": ParagraphStyle("title", fontName=BOLD, fontSize=16, leading=19, spaceAfter=1 * mm),
    "sub": ParagraphStyle("sub", fontName=REGULAR, fontSize=9, leading=12, textColor=GREY, spaceAfter=2.5 * mm),
    "hint": ParagraphStyle("hint", fontName=REGULAR, fontSize=7.5, leading=9.5, textColor=GREY, spaceAfter=2 * mm),
    "name": ParagraphStyle("name", fontName=NARROW, fontSize=9, leading=10.5),
    "line": ParagraphStyle("line", fontName=NARROW_BOLD, fontSize=7.5, leading=9, alignment=1),
    "heading": ParagraphStyle("heading", fontName=BOLD, fontSize=12, leading=15, spaceAfter=1 * mm, keepWithNext=1),
}
RANK_W, POINTS_W, ETAPAS_W, ETAPA_W = 11 * mm, 15 * mm, 13 * mm, 11 * mm
NAME_MIN = 62 * mm
QUALIFY_MARK = {"qualified": "✓", "alternate": "S", "tied": "="}


def _etapa_cell(row: StandingRow, key: str) -> str:
    result = row.results.get(key)
    if result is None:
        return "–"
    if result.place is None:
        return "DQ"
    return str(result.points) if result.counted else f"({result.points})"


def circuit_pdf(*, standing: CircuitStanding, footer: Footer) -> bytes:
    fonts_register()
    width = PORTRAIT[0] - 2 * MARGIN
    counted = set(standing.counted)
    numbered = [(n, e) for n, e in enumerate(standing.etapas, start=1) if e.key in counted]
    room = width - RANK_W - POINTS_W - ETAPAS_W - NAME_MIN
    columns = numbered if len(numbered) * ETAPA_W <= room else []  # too many etapas: the totals only
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PORTRAIT,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 2 * mm,
        title=standing.circuit_name,
        author="Zap",
        creator="Zap",
        subject=_("Ranking do circuito"),
    )
    after = next((e.name for e in standing.etapas if e.key == standing.after), "")
    today = timezone.localdate().strftime("%d/%m/%Y")
    sub = (
        _("Ranking depois de %(etapa)s · %(date)s") % {"etapa": after, "date": today}
        if after
        else _("Ranking em %(date)s") % {"date": today}
    )
    story: list = [Paragraph(escape(standing.circuit_name), STYLES["title"]), Paragraph(escape(sub), STYLES["sub"])]
    legend = [f"E{n} {e.name}" + (" (" + _("final") + ")" if e.final else "") for n, e in numbered]
    if legend:
        story.append(Paragraph(escape(" · ".join(legend)), STYLES["hint"]))
    notes = []
    if columns:
        notes.append(_("(30): pontos que não contam · DQ: desclassificado"))
    elif numbered:
        notes.append(_("Etapas demais para caber na folha: só os totais (o site mostra cada etapa)."))
    if standing.qualify:
        notes.append(_("✓ classificado · S suplente · = empatado na linha: aguarda sorteio"))
    if notes:
        story.append(Paragraph(escape(" · ".join(notes)), STYLES["hint"]))
    if not standing.rows:
        story.append(Paragraph(escape(_("Nenhuma etapa terminada ainda.")), STYLES["name"]))
    else:
        story.append(_table(standing, columns, width))
    if standing.teams:
        story += _teams(standing, width)
    doc.build(story, canvasmaker=canvas_maker(footer))
    return buffer.getvalue()


def _table(standing: CircuitStanding, columns: list, width: float) -> Table:
    head = ["#", _("Atleta"), _("Pontos"), _("Etapas")] + [f"E{n}" for n, _e in columns]
    data: list[list] = [head]
    style = [
        ("FONT", (0, 0), (-1, 0), NARROW_BOLD, 8),
        ("FONT", (0, 1), (-1, -1), NARROW, 9),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("ALIGN", (1, 0), (1, -1), "LEFT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, LIGHT),
        ("BOX", (0, 0), (-1, -1), 0.8, INK),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
    ]
    lines = standing_lines(standing=standing)
    for i, row in enumerate(standing.rows):
        mark = QUALIFY_MARK.get(row.qualify, "")
        name = escape(row.name) + (f" <font color='#606060'>{mark}</font>" if mark else "")
        data.append(
            [f"{row.rank}º", Paragraph(name, STYLES["name"]), str(row.points), str(row.etapas)]
            + [_etapa_cell(row, e.key) for _n, e in columns]
        )
        style.append(("FONT", (2, len(data) - 1), (2, len(data) - 1), NARROW_BOLD, 9.5))
        line = lines.get(i)
        if line:
            text = _("linha de classificação para a final") if line == "qualified" else _("linha dos suplentes")
            data.append([Paragraph(escape(text), STYLES["line"])] + [""] * (len(head) - 1))
            at = len(data) - 1
            style += [
                ("SPAN", (0, at), (-1, at)),
                ("LINEABOVE", (0, at), (-1, at), 1.4, INK),
                ("LINEBELOW", (0, at), (-1, at), 1.4, INK),
            ]
    name_w = width - RANK_W - POINTS_W - ETAPAS_W - len(columns) * ETAPA_W
    widths = [RANK_W, name_w, POINTS_W, ETAPAS_W] + [ETAPA_W] * len(columns)
    table = Table(data, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def _teams(standing: CircuitStanding, width: float) -> list:
    """The equipe ranking under the atletas' (DOMAIN §7.3): position, equipe, points and the atletas whose points
    count, each with their points, best first."""
    names = {r.key: r.name for r in standing.rows}
    points = {r.key: r.points for r in standing.rows}
    head = ["#", _("Equipe"), _("Pontos"), _("Atletas que contam")]
    data: list[list] = [head]
    for team in standing.teams:
        members = " · ".join(f"{escape(names.get(k, k))} ({points.get(k, 0)})" for k in team.atletas)
        data.append(
            [
                f"{team.rank}º",
                Paragraph(escape(team.team), STYLES["name"]),
                str(team.points),
                Paragraph(members, STYLES["name"]),
            ]
        )
    team_w = 48 * mm
    table = Table(data, colWidths=[RANK_W, team_w, POINTS_W, width - RANK_W - team_w - POINTS_W], repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), NARROW_BOLD, 8),
                ("FONT", (0, 1), (-1, -1), NARROW, 9),
                ("FONT", (2, 1), (2, -1), NARROW_BOLD, 9.5),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("TEXTCOLOR", (0, 0), (-1, -1), INK),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("ALIGN", (1, 0), (1, -1), "LEFT"),
                ("ALIGN", (3, 0), (3, -1), "LEFT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, LIGHT),
                ("BOX", (0, 0), (-1, -1), 0.8, INK),
                ("TOPPADDING", (0, 0), (-1, -1), 1.6),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
            ]
        )
    )
    hint = _("Soma dos pontos que contam dos 4 melhores atletas de cada equipe.")
    return [
        Spacer(1, 6 * mm),
        Paragraph(escape(_("Ranking de equipes")), STYLES["heading"]),
        Paragraph(escape(hint), STYLES["hint"]),
        table,
    ]
