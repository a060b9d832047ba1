"""A place of the bracket sheet: a dupla's name in bold and its players under it, in a box of the bracket.

Each wraps to two lines; the type is made smaller, down to ``MIN_SIZE`` points, before anything else gives way;
where a box has no room for both, the players run on after the name, then (later rounds only, the players being
in the first one) the name stands alone; an ellipsis is the last resort. Used by ``bracket`` (chave.pdf).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from .page import NARROW, NARROW_BOLD, wrap, wrap_whole

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from ..presenters.bracket import BracketJogo
    from ..presenters.duplas import DuplaRef

MIN_SIZE = 6.5
NAME_SIZE = 8.5  # the dupla's name at its largest; the players one point smaller
LEAD = 0.3  # between two lines of a place


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of a line in one font: a place's line is one run, or two when the players run on after the name."""

    text: str
    font: str
    size: float


Line = tuple[Run, ...]


def lines_height(lines: list[Line]) -> float:
    return sum(max(r.size for r in line) for line in lines) + LEAD * (len(lines) - 1)


def place_lines(
    dupla: DuplaRef, width: float, room: float, *, players: bool = True, largest: float = NAME_SIZE
) -> list[Line]:
    """What a place of the bracket says of ``dupla`` in ``width`` × ``room`` points (see the module's doc).

    ``players``: the players are wanted (the first round; later rounds drop them before cutting the name);
    ``largest``: the name's type at most."""
    names = tuple(dupla.player_names)
    under = " / ".join(names) if dupla.has_name and len(names) == 2 else ""
    top = min(largest, room)
    sizes = [top - 0.5 * k for k in range(int((top - MIN_SIZE) / 0.5) + 1)]
    tries = [(under, False)] + ([(under, True)] if under else [])
    if not players and under:
        tries += [("", False), ("", True)]
    elif not under:
        tries += [("", True)]
    for text, run_in in tries:
        for s in sizes:
            found = _run_in(dupla.name, text, s, width, room) if run_in else _stacked(dupla.name, text, s, width, room)
            if found is not None:
                return found
    lines = max(1, int((room + LEAD) // (MIN_SIZE + LEAD)))  # last resort: the name cut with …
    return [(Run(t, NARROW_BOLD, MIN_SIZE),) for t in wrap(dupla.name, NARROW_BOLD, MIN_SIZE, width, lines=lines)]


def column_places(jogos: list[BracketJogo], w: float, slot_h: float, *, players: bool) -> dict[int, list[Line]]:
    """The lines of every place of a column (by ``id`` of the slot), the names in one size: the largest at which
    every one of them fits (a column in two sizes looks accidental)."""
    width, room = w - 6 * mm - 2 * mm, slot_h - 0.4
    slots = [s for j in jogos for s in j.slots if s.dupla is not None and not s.empty]
    first = {id(s): place_lines(s.dupla, width, room, players=players) for s in slots if s.dupla is not None}
    if not first:
        return first
    size = min(lines[0][0].size for lines in first.values())
    for s in slots:
        if first[id(s)][0][0].size > size and s.dupla is not None:
            first[id(s)] = place_lines(s.dupla, width, room, players=players, largest=size)
    return first


def _stacked(name: str, under: str, size: float, width: float, room: float) -> list[Line] | None:
    """The name (bold, up to two lines) and under it the players (regular, a point smaller, up to two lines)."""
    if size + (max(MIN_SIZE, size - 1) + LEAD if under else 0) > room:
        return None
    top = wrap_whole(name, NARROW_BOLD, size, width, lines=2)
    if top is None:
        return None
    out: list[Line] = [(Run(t, NARROW_BOLD, size),) for t in top]
    if under:
        small = max(MIN_SIZE, size - 1)
        rest = wrap_whole(under, NARROW, small, width, lines=2)
        if rest is None:
            return None
        out += [(Run(t, NARROW, small),) for t in rest]
    return out if lines_height(out) <= room else None


def _run_in(name: str, under: str, size: float, width: float, room: float) -> list[Line] | None:
    """The name (bold) and the players (regular) as one paragraph, as many lines as the room holds."""
    most = int((room + LEAD) // (size + LEAD))
    space = stringWidth(" ", NARROW, size)
    if stringWidth(name, NARROW_BOLD, size) + space + stringWidth(under, NARROW, size) > most * width:
        return None
    words = [(w, NARROW_BOLD) for w in name.split()] + [(w, NARROW) for w in under.split()]
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    for word, font in words:
        ww = stringWidth(word, font, size)
        if ww > width:
            return None
        if lines[-1] and used + space + ww <= width:
            lines[-1].append((word, font))
            used += space + ww
            continue
        if lines[-1]:
            if len(lines) == most:
                return None
            lines.append([])
        lines[-1].append((word, font))
        used = ww
    out: list[Line] = []
    for words_of_line in lines:
        runs: list[Run] = []
        for word, font in words_of_line:
            if runs and runs[-1].font == font:
                runs[-1] = Run(f"{runs[-1].text} {word}", font, size)
            else:
                runs.append(Run(f" {word}" if runs else word, font, size))
        out.append(tuple(runs))
    return out


def lines_draw(c: Canvas, lines: list[Line], x: float, y_top: float, slot_h: float) -> None:
    """``lines`` centred in the place whose top is ``y_top`` (one text object: a run goes on where the last ended)."""
    y = y_top - (slot_h - lines_height(lines)) / 2
    text = c.beginText()
    for line in lines:
        size = max(r.size for r in line)
        text.setTextOrigin(x, y - 0.76 * size)
        for run in line:
            text.setFont(run.font, run.size)
            text.textOut(run.text)
        y -= size + LEAD
    c.drawText(text)
