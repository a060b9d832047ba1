"""The standings sheet (classificacao.pdf): the general classification when the event is over, then every
group's table with the page's columns, qualification marks and tiebreak notes, and each stage's comparison
between groups.

Input: ``presenters.standings_present(state, whole=True)`` (a ``StandingsPage``), drawn with platypus flowables
on the shared page (``page.canvas_maker``).
"""

from __future__ import annotations

import html
import io
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

if TYPE_CHECKING:
    from ..presenters.standings import ClassificationRow, GroupStage, StandingRow, StandingsPage

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

STYLES = {
    "title": ParagraphStyle("title", fontName=BOLD, fontSize=15, leading=18, spaceAfter=1 * mm),
    "event": ParagraphStyle("event", fontName=REGULAR, fontSize=8.5, leading=11, textColor=GREY, spaceAfter=3 * mm),
    "stage": ParagraphStyle("stage", fontName=BOLD, fontSize=12, leading=15, spaceBefore=3 * mm, spaceAfter=1 * mm),
    "group": ParagraphStyle("group", fontName=BOLD, fontSize=10, leading=12, spaceBefore=2 * mm, spaceAfter=1 * mm),
    "hint": ParagraphStyle("hint", fontName=REGULAR, fontSize=7.5, leading=9.5, textColor=GREY, spaceAfter=1.5 * mm),
    "cell": ParagraphStyle("cell", fontName=NARROW, fontSize=8, leading=9.5),
    "small": ParagraphStyle("small", fontName=NARROW, fontSize=6.8, leading=8.2, textColor=GREY),
}
# a table of the sheet: a shaded head, light lines between rows, a frame; the first column centred
TABLE_STYLE = [
    ("FONT", (0, 0), (-1, 0), NARROW_BOLD, 7.5),
    ("FONT", (0, 1), (-1, -1), NARROW, 8.5),
    ("BACKGROUND", (0, 0), (-1, 0), SHADE),
    ("TEXTCOLOR", (0, 0), (-1, -1), INK),
    ("ALIGN", (0, 0), (0, -1), "CENTER"),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
    ("LINEBELOW", (0, 1), (-1, -1), 0.3, LIGHT),
    ("BOX", (0, 0), (-1, -1), 0.8, INK),
    ("TOPPADDING", (0, 0), (-1, -1), 1.6),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
]
NUMBER_KEYS = (
    "points",
    "jogos",
    "won",
    "lost",
    "partidas_won",
    "partidas_lost",
    "points_for",
    "points_against",
    "saldo",
    "average",
)


def standings_pdf(*, standings: StandingsPage, tournament: str, when_where: str, footer: Footer, title: str) -> bytes:
    fonts_register()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PORTRAIT,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 2 * mm,
        title=title,
        author="Zap",
        creator="Zap",
        subject=tournament,
    )
    story: list = [
        Paragraph(escape(_("Classificação")), STYLES["title"]),
        Paragraph(escape(" · ".join(x for x in (tournament, when_where) if x)), STYLES["event"]),
    ]
    if standings.classification:
        story.append(Paragraph(escape(_("Classificação geral")), STYLES["stage"]))
        story.append(_classification_table(standings.classification))
    stages = standings.stages
    if stages:
        story.append(Spacer(1, 3 * mm))
        story.append(
            Paragraph(
                escape(
                    _(
                        "P pontos classificatórios · J jogos · V vitórias · D derrotas · PV partidas "
                        "vencidas · PP partidas perdidas · PF pontos-partida a favor · PC pontos-partida "
                        "contra · ✓ classificada"
                    )
                ),
                STYLES["hint"],
            )
        )
    for stage in stages:
        story.extend(_stage_flowables(stage, titled=standings.show_stage_titles or len(stages) > 1))
    if not stages and not standings.classification:
        story.append(Paragraph(escape(_("Este torneio não tem fase de grupos.")), STYLES["cell"]))
    doc.build(story, canvasmaker=canvas_maker(footer))
    return buffer.getvalue()


def _stage_flowables(stage: GroupStage, *, titled: bool) -> list:
    out: list = []
    if titled:
        out.append(Paragraph(escape(stage.title), STYLES["stage"]))
    if stage.per_group or stage.best_others:
        text = ngettext(
            "Classifica-se %(n)s dupla por grupo", "Classificam-se %(n)s duplas por grupo", stage.per_group
        ) % {"n": stage.per_group}
        if stage.best_others:
            text += ", " + ngettext(
                "mais %(n)s melhor entre os demais colocados",
                "mais %(n)s melhores entre os demais colocados",
                stage.best_others,
            ) % {"n": stage.best_others}
        out.append(Paragraph(escape(text + "."), STYLES["hint"]))
    for table in stage.tables:
        state = _("grupo encerrado") if table.complete else table.progress
        parts = [
            Paragraph(
                f"{escape(table.title)} <font name='{REGULAR}' size='8' color='#606060'>· {escape(state)}</font>",
                STYLES["group"],
            ),
            _group_table(table.rows, show_group=False),
        ]
        if table.awaiting_draw:
            parts.append(
                Paragraph(
                    escape(_("Há duplas empatadas em tudo: a ordem será decidida por sorteio da organização.")),
                    STYLES["hint"],
                )
            )
        out.append(KeepTogether(parts))
    if stage.others:
        heading = ngettext(
            "Comparação entre grupos: %(n)s vaga para os demais colocados",
            "Comparação entre grupos: %(n)s vagas para os demais colocados",
            stage.best_others,
        ) % {"n": stage.best_others}
        out.append(Paragraph(escape(heading), STYLES["group"]))
        out.append(
            Paragraph(
                escape(
                    _(
                        "Entre grupos: pontos; com grupos do mesmo tamanho, partidas vencidas e saldo; "
                        "com tamanhos diferentes, average; por fim, sorteio."
                    )
                ),
                STYLES["hint"],
            )
        )
        out.append(_group_table(stage.others, show_group=True))
    out.append(Spacer(1, 2 * mm))
    return out


def _dupla_cell(row: StandingRow) -> Paragraph:
    dupla = row.dupla
    text = f"<font name='{NARROW_BOLD}'>{escape(dupla.name)}</font>"
    if dupla.has_name:
        text += f"<br/><font size='6.8' color='#606060'>{escape(dupla.players)}</font>"
    tags = []
    if row.qualified:
        tags.append("✓ " + _("classificada"))
    if row.tied:
        tags.append(_("empate: aguarda sorteio"))
    if dupla.disqualified:
        tags.append(_("desclassificada"))
    if row.note:
        tags.append(row.note)
    if tags:
        text += f"<br/><font size='6.8' color='#404040'>{escape(' · '.join(tags))}</font>"
    return Paragraph(text, STYLES["cell"])


def _group_table(rows: list[StandingRow], *, show_group: bool) -> Table:
    head = [
        "#",
        _("Dupla"),
        pgettext("coluna", "P"),
        pgettext("coluna", "J"),
        pgettext("coluna", "V"),
        pgettext("coluna", "D"),
        pgettext("coluna", "PV"),
        pgettext("coluna", "PP"),
        pgettext("coluna", "PF"),
        pgettext("coluna", "PC"),
        _("Saldo"),
        _("Average"),
    ]
    if show_group:
        head.insert(2, _("Grupo"))
    data = [head]
    for row in rows:
        cells = [str(row.rank_label), _dupla_cell(row)]
        if show_group:
            cells.append(row.group)
        cells.extend(str(getattr(row, k)) for k in NUMBER_KEYS)
        data.append(cells)
    number_w = [9 * mm, 8 * mm, 8 * mm, 8 * mm, 8 * mm, 9 * mm, 9 * mm, 10 * mm, 10 * mm, 12 * mm, 14 * mm]
    widths = [number_w[0], None] + ([18 * mm] if show_group else []) + number_w[1:]
    fixed = sum(w for w in widths if w is not None)
    widths[1] = PORTRAIT[0] - 2 * MARGIN - fixed
    table = Table(data, colWidths=widths, repeatRows=1)
    style = TABLE_STYLE + [
        ("FONT", (2 + show_group, 1), (2 + show_group, -1), NARROW_BOLD, 9),  # P: what ranks
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
    ]
    for i, row in enumerate(rows, start=1):
        if row.qualified:
            style.append(("BACKGROUND", (0, i), (0, i), SHADE))
    table.setStyle(TableStyle(style))
    return table


def _classification_table(rows: list[ClassificationRow]) -> Table:
    data = [[_("Lugar"), _("Dupla e atletas"), _("Medalha")]]
    for row in rows:
        dupla = row.dupla
        text = f"<font name='{NARROW_BOLD}'>{escape(dupla.name)}</font>"
        if dupla.has_name:
            text += f" <font color='#505050'>· {escape(row.players_text)}</font>"
        data.append([str(row.place_label), Paragraph(text, STYLES["cell"]), html.unescape(row.medal_label)])
    inner = PORTRAIT[0] - 2 * MARGIN
    table = Table(data, colWidths=[14 * mm, inner - 34 * mm, 20 * mm], repeatRows=1)
    table.setStyle(TableStyle(TABLE_STYLE))
    return table
