"""The chart of a player's online score over their counted partidas (``/jogar/jogadores/<username>/``): an SVG
drawn on the server, no script and no library. The score after each partida is a point on a line; the levels'
floors (DOMAIN §7.2) are faint lines with their names, so the line shows which level each partida left the
player at. Everything written into the SVG is escaped."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.ranking import LEVELS

WIDE: Final = 640  # the chart's width on a large screen; a phone gets a narrower one (``width``), its text as large
NARROW: Final = 360
HEIGHT: Final = 240
LEFT, RIGHT, TOP, BOTTOM = 40, 70, 12, 40
MAX_POINTS: Final = 400  # more partidas than this are drawn one in every few (the last one always)


def _sampled(points: Sequence[tuple[int, int, datetime]]) -> list[tuple[int, int, datetime]]:
    if len(points) <= MAX_POINTS:
        return list(points)
    step = len(points) / MAX_POINTS
    picked = [points[int(i * step)] for i in range(MAX_POINTS - 1)]
    return [*picked, points[-1]]


def score_chart(*, points: Sequence[tuple[int, int, datetime]], name: str, width: int = WIDE) -> SafeString:
    """The SVG of ``points`` ((n, score after it, when), in order) for the player ``name``, ``width`` units wide
    (its text keeps its size: a narrower chart for a phone); an empty string when there is no point."""
    if not points:
        return mark_safe("")
    shown = _sampled(points)
    top = max(1000, ((max(score for _n, score, _at in shown) + 99) // 100) * 100)
    first_n, last_n = shown[0][0], shown[-1][0]
    plot_w, plot_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    ids = f"grafico-{width}"

    def x(n: int) -> float:
        return LEFT + (plot_w / 2 if last_n == first_n else (n - first_n) * plot_w / (last_n - first_n))

    def y(score: int) -> float:
        return TOP + plot_h - score * plot_h / top

    parts: list[str] = []
    title = _("Pontos de %(name)s no ranking online, partida a partida") % {"name": name}
    scores = [score for _n, score, _at in points]
    desc = _(
        "%(count)d partidas contadas: começou com %(first)d pontos e está com %(last)d; o máximo foi %(best)d."
    ) % {
        "count": len(points),
        "first": scores[0],
        "last": scores[-1],
        "best": max(scores),
    }
    parts.append(
        f'<svg class="grafico-pontos" viewBox="0 0 {width} {HEIGHT}" role="img" '
        f'aria-labelledby="{ids}-titulo {ids}-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ids}-titulo">{escape(title)}</title><desc id="{ids}-desc">{escape(desc)}</desc>'
    )
    # the levels' floors, faint, with their names at the right
    for level, floor in LEVELS[1:]:
        if floor <= top:
            yy = y(floor)
            parts.append(
                f'<line class="nivel-linha" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{yy:.1f}" y2="{yy:.1f}"/>'
                f'<text class="nivel-nome" x="{LEFT + plot_w + 4}" y="{yy + 3:.1f}">{escape(level)}</text>'
            )
    # the axes: scores at the left, partida numbers below
    for tick in range(0, top + 1, 250 if top <= 1500 else 500):
        yy = y(tick)
        parts.append(f'<text class="eixo" x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">{tick}</text>')
    parts.append(
        f'<line class="eixo-linha" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + plot_h}"/>'
        f'<line class="eixo-linha" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{TOP + plot_h}" y2="{TOP + plot_h}"/>'
    )
    ticks = sorted({first_n, last_n, (first_n + last_n) // 2} if last_n - first_n >= 2 else {first_n, last_n})
    for n in ticks:
        parts.append(f'<text class="eixo" x="{x(n):.1f}" y="{HEIGHT - 22}" text-anchor="middle">{n}</text>')
    parts.append(
        f'<text class="eixo eixo-titulo" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 3}" text-anchor="middle">'
        f"{escape(_('partidas'))}</text>"
    )
    line = " ".join(f"{x(n):.1f},{y(score):.1f}" for n, score, _at in shown)
    parts.append(f'<polyline class="linha-pontos" points="{line}"/>')
    if len(shown) <= width // 10:
        for n, score, _at in shown:
            parts.append(f'<circle class="ponto" cx="{x(n):.1f}" cy="{y(score):.1f}" r="3"/>')
    n, score, _at = shown[-1]
    parts.append(f'<circle class="ponto-atual" cx="{x(n):.1f}" cy="{y(score):.1f}" r="5"/>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
