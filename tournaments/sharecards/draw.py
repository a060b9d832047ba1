"""One share card, drawn: a 1200×630 PNG in the site's colours (the felt green, the gold of the brand).

Every card has the same frame: the brand and a status badge on top, a title (up to two lines, shrunk to fit),
a subtitle, a light panel with the card's content, and the page's address at the foot. The panel shows one of:

- ``facts``: up to four big numbers with their labels (the event: duplas, jogos played…), and a highlighted line
  under them (the champion);
- ``rows``: places with a name, a detail and a value, medals drawn as coloured discs (the podium, a circuit's
  ranking, an atleta's latest results); more than five rows go in two columns;
- ``rounds``: the last rounds of a bracket, column by column, the winner of each jogo in bold.

Text is drawn with the DejaVu fonts the printed sheets ship (``tournaments/printing/fonts``): every accent and
♣♥♠♦ is there. A text too long for its place is cut with "…". Nothing here reads a clock, a file other than the
fonts, or the database: the same card gives the same bytes.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
FONT_DIR = Path(__file__).resolve().parent.parent / "printing" / "fonts"
REGULAR, BOLD, NARROW, NARROW_BOLD = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold.ttf",
)

FELT = (15, 81, 50)
FELT_DARK = (10, 54, 34)
FELT_SHADE = (20, 96, 61)
GOLD = (245, 200, 76)
PAPER = (251, 248, 241)
INK = (22, 24, 29)
MUTED = (79, 86, 99)
LINE = (216, 210, 196)
MINT = (207, 232, 216)
WHITE = (255, 255, 255)
LIVE = (217, 45, 32)
MEDALS = {"gold": (212, 160, 23), "silver": (158, 166, 178), "bronze": (184, 115, 51)}
BADGES = {"live": (LIVE, WHITE), "finished": (MINT, FELT_DARK), "upcoming": (GOLD, FELT_DARK), "": (MINT, FELT_DARK)}

MARGIN = 48
COLOURS = 96  # in the PNG's palette
PANEL_BOTTOM = 560


@dataclass(frozen=True, slots=True)
class CardRow:
    """A line of a ranking or of the podium: "1º", the name, what is under it, the points on the right."""

    place: str
    name: str
    detail: str = ""
    value: str = ""
    medal: str = ""  # "gold" | "silver" | "bronze" | ""


@dataclass(frozen=True, slots=True)
class CardMatch:
    """A jogo of the bracket: the two sides, their partidas won (as text), the winner (0, 1 or None)."""

    a: str
    b: str
    score_a: str = ""
    score_b: str = ""
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """What a card says. ``badge_tone``: "live", "finished", "upcoming" or "" (the badge's colours)."""

    title: str
    subtitle: str = ""
    badge: str = ""
    badge_tone: str = ""
    facts: tuple[tuple[str, str], ...] = ()  # (value, label)
    highlight: str = ""
    rows: tuple[CardRow, ...] = ()
    rounds: tuple[tuple[str, tuple[CardMatch, ...]], ...] = ()  # (round name, jogos)
    empty: str = ""  # the panel's text when there is nothing else to show
    footer: str = ""


@functools.cache
def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / name), size)


def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, cut with "…" where it would pass ``width`` pixels."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid].rstrip() + "…") <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def wrap(text: str, face: ImageFont.FreeTypeFont, width: float, lines: int) -> list[str] | None:
    """``text`` in at most ``lines`` lines of ``width`` pixels, broken between words; None when it does not fit."""
    out: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if face.getlength(trial) <= width:
            current = trial
            continue
        if not current or len(out) + 1 >= lines:
            return None
        out.append(current)
        current = word
    if current:
        out.append(current)
    return out if len(out) <= lines else None


def _title(draw: ImageDraw.ImageDraw, text: str, top: int) -> int:
    """The title, as large as fits in two lines (64 px down to 40 px; then cut); the y below it."""
    width = WIDTH - 2 * MARGIN
    face, lines = font(BOLD, 40), [fit(text, font(BOLD, 40), width)]
    for size, most in ((64, 1), (56, 1), (52, 2), (46, 2), (40, 2)):
        found = wrap(text, font(BOLD, size), width, most)
        if found:
            face, lines = font(BOLD, size), found
            break
    y = top
    for line in lines:
        draw.text((MARGIN, y), line, font=face, fill=WHITE)
        y += int(face.size * 1.18)
    return y


def _frame(draw: ImageDraw.ImageDraw, card: Card) -> int:
    """Background, brand, badge, title, subtitle and footer; the y where the panel starts."""
    draw.rectangle((0, 0, WIDTH, HEIGHT), fill=FELT)
    draw.text((WIDTH - 330, HEIGHT - 520), "♣", font=font(BOLD, 560), fill=FELT_SHADE)  # the felt's watermark
    draw.rectangle((0, 0, WIDTH, 10), fill=GOLD)
    brand = font(BOLD, 38)
    draw.text((MARGIN, 34), "♣", font=brand, fill=GOLD)
    draw.text((MARGIN + brand.getlength("♣ "), 34), "Zap", font=brand, fill=WHITE)
    draw.text(
        (MARGIN + brand.getlength("♣ Zap") + 16, 48), "truco em dupla", font=font(REGULAR, 22), fill=MINT
    )  # the brand's words, as the site's footer says them
    if card.badge:
        face = font(BOLD, 24)
        label = card.badge.upper()
        background, ink = BADGES.get(card.badge_tone, BADGES[""])
        dot = 22 if card.badge_tone == "live" else 0
        w = face.getlength(label) + 40 + dot
        x0 = WIDTH - MARGIN - w
        draw.rounded_rectangle((x0, 34, WIDTH - MARGIN, 80), radius=23, fill=background)
        if dot:
            draw.ellipse((x0 + 18, 51, x0 + 30, 63), fill=WHITE)
        draw.text((x0 + 20 + dot, 43), label, font=face, fill=ink)
    y = _title(draw, card.title, 104)
    if card.subtitle:
        face = font(REGULAR, 28)
        draw.text((MARGIN, y + 4), fit(card.subtitle, face, WIDTH - 2 * MARGIN), font=face, fill=MINT)
        y += 44
    if card.footer:
        face = font(REGULAR, 22)
        draw.text((MARGIN, HEIGHT - 52), fit(card.footer, face, WIDTH - 2 * MARGIN), font=face, fill=MINT)
    return y + 22


def _facts(draw: ImageDraw.ImageDraw, card: Card, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    facts = card.facts[:4]
    top = y0 + 28
    if facts:
        column = (x1 - x0 - 40) / len(facts)
        for n, (value, label) in enumerate(facts):
            x = x0 + 32 + n * column
            big = font(BOLD, 60)
            draw.text((x, top), fit(value, big, column - 24), font=big, fill=FELT)
            small = font(REGULAR, 24)
            draw.text((x, top + 74), fit(label, small, column - 24), font=small, fill=MUTED)
            if n:
                draw.line((x - 18, top + 6, x - 18, top + 100), fill=LINE, width=2)
        top += 128
    if card.highlight:
        face = font(BOLD, 34)
        space = y1 - 24 - top
        y = top + max(0, (space - 40) // 2) if not facts else top + 8
        draw.text((x0 + 32, y), "★", font=face, fill=MEDALS["gold"])
        draw.text((x0 + 80, y), fit(card.highlight, face, x1 - x0 - 112), font=face, fill=INK)


def _rows(draw: ImageDraw.ImageDraw, card: Card, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    rows = card.rows[:10]
    columns = 2 if len(rows) > 5 else 1
    per_column = -(-len(rows) // columns)
    height = min(96.0, (y1 - y0 - 24) / max(per_column, 1))
    width = (x1 - x0 - 32 * (columns + 1)) / columns
    big = height >= 80
    name_face = font(BOLD, 34 if big else 28)
    detail_face = font(REGULAR, 22 if big else 20)
    value_face = font(BOLD, 30 if big else 26)
    for n, row in enumerate(rows):
        column, line = divmod(n, per_column)
        x = x0 + 32 + column * (width + 32)
        y = y0 + 12 + line * height
        if line:
            draw.line((x, y, x + width, y), fill=LINE, width=1)
        middle = y + height / 2
        disc = 25 if big else 21
        if row.medal:
            draw.ellipse((x, middle - disc, x + 2 * disc, middle + disc), fill=MEDALS.get(row.medal, LINE))
            face = font(BOLD, 22 if big else 19)
            draw.text((x + disc, middle), row.place, font=face, fill=WHITE, anchor="mm")
        else:
            face = font(BOLD, 26 if big else 22)
            draw.text((x + disc, middle), row.place, font=face, fill=FELT, anchor="mm")
        text_x = x + 2 * disc + 18
        value_w = value_face.getlength(row.value) + 16 if row.value else 0
        room = width - (text_x - x) - value_w
        if row.detail:
            draw.text((text_x, middle - 2), fit(row.name, name_face, room), font=name_face, fill=INK, anchor="ls")
            draw.text(
                (text_x, middle + 6), fit(row.detail, detail_face, room), font=detail_face, fill=MUTED, anchor="lt"
            )
        else:
            draw.text((text_x, middle), fit(row.name, name_face, room), font=name_face, fill=INK, anchor="lm")
        if row.value:
            draw.text((x + width, middle), row.value, font=value_face, fill=FELT, anchor="rm")


def _rounds(draw: ImageDraw.ImageDraw, card: Card, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    rounds = card.rounds[-3:]
    gap = 44
    width = (x1 - x0 - 48 - gap * (len(rounds) - 1)) / len(rounds)
    head = font(BOLD, 22)
    top = y0 + 56
    bottom = y1 - 16
    centres: list[list[float]] = []
    for n, (name, matches) in enumerate(rounds):
        x = x0 + 24 + n * (width + gap)
        draw.text((x, y0 + 18), fit(name.upper(), head, width), font=head, fill=MUTED)
        slot = (bottom - top) / max(len(matches), 1)
        box_h = min(78.0, slot - 10)
        face = font(NARROW_BOLD if len(matches) > 2 else BOLD, 22 if box_h < 70 else 24)
        thin = font(NARROW if len(matches) > 2 else REGULAR, 22 if box_h < 70 else 24)
        here = []
        for k, match in enumerate(matches):
            middle = top + slot * (k + 0.5)
            here.append(middle)
            draw.rounded_rectangle(
                (x, middle - box_h / 2, x + width, middle + box_h / 2), radius=10, fill=WHITE, outline=LINE, width=2
            )
            for side, (label, score) in enumerate(((match.a, match.score_a), (match.b, match.score_b))):
                y = middle - box_h / 4 if side == 0 else middle + box_h / 4
                won = match.winner == side
                f = face if won else thin
                room = width - 28 - (f.getlength(score) + 12 if score else 0)
                draw.text(
                    (x + 14, y),
                    fit(label, f, room),
                    font=f,
                    fill=INK if won or match.winner is None else MUTED,
                    anchor="lm",
                )
                if score:
                    draw.text((x + width - 14, y), score, font=f, fill=FELT if won else MUTED, anchor="rm")
            draw.line((x + 10, middle, x + width - 10, middle), fill=LINE, width=1)
        if centres:  # lines from the two jogos that feed each jogo of this round
            before = centres[-1]
            left = x - gap
            for k, middle in enumerate(here):
                feeders = before[2 * k : 2 * k + 2]
                for y in feeders:
                    draw.line((left, y, left + gap / 2, y), fill=LINE, width=3)
                if feeders:
                    draw.line((left + gap / 2, feeders[0], left + gap / 2, feeders[-1]), fill=LINE, width=3)
                    draw.line((left + gap / 2, middle, x, middle), fill=LINE, width=3)
        centres.append(here)
    if card.highlight:  # the champion, under the final
        x = x0 + 24 + (len(rounds) - 1) * (width + gap)
        face = font(BOLD, 24)
        draw.text((x, bottom - 30), "★", font=face, fill=MEDALS["gold"])
        draw.text((x + 32, bottom - 30), fit(card.highlight, face, width - 32), font=face, fill=INK)


def card_png(card: Card) -> bytes:
    """The card as a PNG of ``WIDTH``×``HEIGHT`` pixels."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    top = _frame(draw, card)
    box = (MARGIN, top, WIDTH - MARGIN, PANEL_BOTTOM)
    draw.rounded_rectangle(box, radius=22, fill=PAPER)
    if card.rounds:
        _rounds(draw, card, box)
    elif card.rows:
        _rows(draw, card, box)
    elif card.facts or card.highlight:
        _facts(draw, card, box)
    elif card.empty:
        face = font(REGULAR, 30)
        draw.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
            fit(card.empty, face, box[2] - box[0] - 64),
            font=face,
            fill=MUTED,
            anchor="mm",
        )
    # a palette of the card's few colours and their antialiasing: a third of the bytes, and half the time to
    # compress (a card is drawn after a write, while the page waits)
    out = io.BytesIO()
    image.quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=1)
    return out.getvalue()
