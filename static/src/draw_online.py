"""Draw the online table's art: the 40-card truco deck in two faces, the backs, the felts' texture, the avatars, the
level icons of the online ranking and the table's sounds.

Pure Python (standard library only), deterministic: the same script writes the same bytes, so the committed files
can be checked against it (tests/online_assets/). Run it from the repository's root after a change:

    .venv/bin/python static/src/draw_online.py            # writes under static/
    .venv/bin/python static/src/draw_online.py /tmp/out   # writes under /tmp/out/ instead

What it writes (paths under static/):
    img/online/cards/<face>/<card>.svg   face = classico | grande; card = rank + suit as INTERCHANGE.md writes it
    img/online/backs/<back>.svg          back = azul | vermelho | verde | zap
    img/online/felts/trama.svg           the felts' texture (static/css/online-art.css uses it)
    img/online/avatars/<key>.svg         the players' avatars (AVATARS, "marreco" first: the guests' duck)
    img/online/levels/<slug>.svg         one icon per level of 004's ranking table (LEVELS)
    sounds/online/<name>.wav             16-bit mono PCM at 16 kHz (SOUNDS)
"""

from __future__ import annotations

import io
import math
import random
import struct
import sys
import wave
from collections.abc import Callable
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1]

RANKS = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
SUITS = ("p", "c", "e", "o")
CARDS = tuple(rank + suit for rank in RANKS for suit in SUITS)
FACES = ("classico", "grande")
BACKS = ("azul", "vermelho", "verde", "zap")
AVATARS = (
    "marreco",
    "tatu",
    "capivara",
    "onca",
    "arara",
    "tucano",
    "jabuti",
    "boto",
    "mico",
    "lobo-guara",
    "quero-quero",
    "sagui",
)
# 004, "Classificação por Níveis": (slug, name), lowest first; Marreco is the guests' level.
LEVELS = (
    ("marreco", "Marreco"),
    ("fichinha", "Fichinha"),
    ("blefador", "Blefador"),
    ("coringa", "Coringa"),
    ("pica-fumo", "Pica-Fumo"),
    ("espadilha", "Espadilha"),
    ("escopeta", "Escopeta"),
    ("zap", "ZAP"),
)
SOUNDS = ("deal", "play", "truco", "accept", "run", "win-mao", "win-partida", "tick", "notify")

SUIT_NAMES = {"p": "paus", "c": "copas", "e": "espadas", "o": "ouros"}
RANK_NAMES = {"Q": "Dama", "J": "Valete", "K": "Rei", "A": "Ás"}
RED = "#c4122f"
BLACK = "#1b1b1f"
INK = "#1b1b1f"
GOLD = "#e2b13c"
SKIN = "#f6d6b0"
PAPER = "#fffdf7"
SERIF = "Georgia,'DejaVu Serif','Times New Roman',serif"
SANS = "'DejaVu Sans','Helvetica Neue',Arial,sans-serif"

W, H = 250, 350  # a card's viewBox (the 63 × 88 mm of a real card)


def suit_color(suit: str) -> str:
    return RED if suit in "co" else BLACK


def card_title(card: str) -> str:
    rank, suit = card[0], card[1]
    return f"{RANK_NAMES.get(rank, rank)} de {SUIT_NAMES[suit]}"


def svg(*, view: str, title: str, body: str, defs: str = "") -> str:
    """A standalone SVG document with its accessible name."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}" role="img" aria-labelledby="t">'
        f'<title id="t">{title}</title>'
    )
    return head + (f"<defs>{defs}</defs>" if defs else "") + body + "</svg>\n"


# --- the suits: paths in a 100 × 100 box -----------------------------------------------------------------------

SUIT_PATHS = {
    "c": "M50 30C50 14 38 6 27 6 13 6 4 17 4 31c0 24 26 39 46 63 20-24 46-39 46-63C96 17 87 6 73 6 62 6 50 14 50 30Z",
    "o": "M50 2c8 16 22 34 36 48-14 14-28 32-36 48C42 82 28 64 14 50 28 36 42 18 50 2Z",
    "e": "M50 4C40 22 4 38 4 62c0 14 11 23 23 23 10 0 17-5 20-11-1 10-5 18-14 22h34c-9-4-13-12-14-22 3 6 10 11 20 11 "
    "12 0 23-9 23-23C96 38 60 22 50 4Z",
    "p": "M50 56c0 20-4 30-18 40h36C54 86 50 76 50 56Z",
}
# The club is three balls on a stem: circles drawn with the stem (a path's overlapping circles could cancel out).
CLUB_BALLS = '<circle cx="50" cy="27" r="21"/><circle cx="27" cy="57" r="21"/><circle cx="73" cy="57" r="21"/>'


def suit_symbol(suit: str, ident: str | None = None) -> str:
    balls = CLUB_BALLS if suit == "p" else ""
    return f'<symbol id="{ident or suit}" viewBox="0 0 100 100">{balls}<path d="{SUIT_PATHS[suit]}"/></symbol>'


def use(ref: str, x: float, y: float, size: float, *, fill: str | None = None, flip: bool = False) -> str:
    """A suit (or any square symbol) of side `size` centred on (x, y); `flip` turns it upside down, as the lower half
    of a real card's pips are."""
    attrs = f'href="#{ref}" x="{n(x - size / 2)}" y="{n(y - size / 2)}" width="{n(size)}" height="{n(size)}"'
    if fill:
        attrs += f' fill="{fill}"'
    if flip:
        attrs += f' transform="rotate(180 {n(x)} {n(y)})"'
    return f"<use {attrs}/>"


def n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def card_blank(*, fill: str = PAPER) -> str:
    return f'<rect x="1.5" y="1.5" width="247" height="347" rx="16" fill="{fill}" stroke="#b9b2a4" stroke-width="3"/>'


# --- the classic face ------------------------------------------------------------------------------------------

PIP_X = (80, 125, 170)
PIP_ROWS = {"top": 78, "upper": 126, "mid": 175, "bottom": 272}
PIPS: dict[str, list[tuple[int, str]]] = {
    "2": [(1, "top"), (1, "bottom")],
    "3": [(1, "top"), (1, "mid"), (1, "bottom")],
    "4": [(0, "top"), (2, "top"), (0, "bottom"), (2, "bottom")],
    "5": [(0, "top"), (2, "top"), (1, "mid"), (0, "bottom"), (2, "bottom")],
    "6": [(0, "top"), (2, "top"), (0, "mid"), (2, "mid"), (0, "bottom"), (2, "bottom")],
    "7": [(0, "top"), (2, "top"), (1, "upper"), (0, "mid"), (2, "mid"), (0, "bottom"), (2, "bottom")],
}


def classic_index(rank: str, suit: str) -> str:
    """The corner index (rank over a small suit), drawn once and used again upside down in the opposite corner."""
    color = suit_color(suit)
    return (
        f'<g id="ix" fill="{color}"><text x="27" y="49" text-anchor="middle" font-family="{SERIF}" font-size="44" '
        f'font-weight="700">{rank}</text>{use(suit, 27, 72, 26)}</g>'
        '<use href="#ix" transform="rotate(180 125 175)"/>'
    )


def classic_card(card: str) -> str:
    rank, suit = card[0], card[1]
    color = suit_color(suit)
    defs = suit_symbol(suit)
    parts = [card_blank(), classic_index(rank, suit)]
    if rank in PIPS:
        for column, row in PIPS[rank]:
            y = PIP_ROWS[row]
            parts.append(use(suit, PIP_X[column], y, 48, fill=color, flip=y > 175))
    elif rank == "A":
        parts.append(ace_center(suit))
    else:
        defs += court_defs(rank, suit)
        parts.append(court_body(rank, suit))
    return svg(view=f"0 0 {W} {H}", title=card_title(card), defs=defs, body="".join(parts))


def ace_center(suit: str) -> str:
    color = suit_color(suit)
    if suit != "e":
        return use(suit, 125, 175, 104, fill=color)
    # The ace of spades gets the ornate pip of real decks: a large spade in a double ring with a flourish.
    return (
        '<g fill="none" stroke="#1b1b1f">'
        '<circle cx="125" cy="175" r="82" stroke-width="1.5"/>'
        '<circle cx="125" cy="175" r="76" stroke-width="4" stroke-dasharray="2 6" stroke-linecap="round"/>'
        "</g>"
        + use("e", 125, 168, 118, fill=BLACK)
        + '<path d="M125 120l7 17-7 12-7-12z" fill="#fffdf7" opacity=".85"/>'
        + f'<circle cx="125" cy="176" r="9" fill="{GOLD}" stroke="#fffdf7" stroke-width="2"/>'
    )


# The court cards: a half figure in a frame, drawn once and used again upside down, as on real cards.
COURT_COLORS = {  # robe, panel, hair
    "p": ("#1f4f9c", "#c4122f", "#5b3a1e"),
    "c": ("#c4122f", "#1f4f9c", "#c48a2c"),
    "e": ("#2a2a33", "#c4122f", "#8c8c8c"),
    "o": ("#c4122f", "#2a6b3f", "#7a4a22"),
}


def court_defs(rank: str, suit: str) -> str:
    return '<clipPath id="half"><rect x="46" y="38" width="158" height="137"/></clipPath>' + court_half(rank, suit)


def court_body(rank: str, suit: str) -> str:
    color = suit_color(suit)
    return (
        f'<rect x="46" y="38" width="158" height="274" fill="#fbf3e2" stroke="{color}" stroke-width="2"/>'
        '<use href="#fig" clip-path="url(#half)"/>'
        '<use href="#fig" clip-path="url(#half)" transform="rotate(180 125 175)"/>'
        f'<path d="M46 175h158" stroke="{color}" stroke-width="2"/>'
        f'<rect x="46" y="38" width="158" height="274" fill="none" stroke="{INK}" stroke-width="1"/>'
        + use(suit, 60, 52, 20, fill=color)
        + use(suit, 190, 298, 20, fill=color, flip=True)
    )


def court_half(rank: str, suit: str) -> str:
    """The upper half of a court figure, in the frame's upper half (x 46-204, y 38-175): the body fills the frame's
    width at the divider, so the figure and its upside-down copy read as one double-headed card."""
    robe, panel, hair = COURT_COLORS[suit]
    s = f'stroke="{INK}" stroke-width="1.6" stroke-linejoin="round"'
    line = f'fill="none" stroke="{INK}" stroke-width="1.4" stroke-linecap="round"'
    out = ['<g id="fig">']
    # what the figure holds, behind the shoulders
    if rank == "K":  # an upright sword on the left
        out.append(
            f'<path d="M73 46l6-10 6 10v100H73z" fill="#dfe3ea" {s}/><path d="M79 46v98" stroke="#9aa3ae"/>'
            f'<rect x="63" y="144" width="32" height="7" rx="3" fill="{GOLD}" {s}/>'
        )
    elif rank == "J":  # a halberd on the right
        out.append(
            f'<rect x="170" y="44" width="6" height="130" fill="#8a5a2b" {s}/>'
            f'<path d="M173 32l5 13h-10zM176 52c14 2 20 10 20 22-8-6-14-7-20-6z" fill="#dfe3ea" {s}/>'
            f'<path d="M170 56c-8 2-12 8-12 14 4-4 8-5 12-5z" fill="#dfe3ea" {s}/>'
        )
    if rank == "Q":  # long hair behind the face
        out.append(f'<path d="M100 100C94 60 156 60 150 100l10 48c-16-12-54-12-70 0z" fill="{hair}" {s}/>')
    # robe with a central panel, gold trim and braid, an ermine collar
    out.append(
        f'<path d="M47 176v-26c8-14 36-22 58-24h40c22 2 50 10 58 24v26z" fill="{robe}" {s}/>'
        f'<path d="M110 126h30l10 50h-50z" fill="{panel}" {s}/>'
        f'<path d="M110 126l-10 50M140 126l10 50" stroke="{GOLD}" stroke-width="4"/>'
        f'<path d="M52 164l8-7 8 7 8-7 8 7 8-7M198 164l-8-7-8 7-8-7-8 7-8-7" fill="none" stroke="{GOLD}" '
        'stroke-width="2.5"/>'
        f'<path d="M124 160a4 4 0 1 0 2 0zM124 144a4 4 0 1 0 2 0z" fill="{GOLD}" {s}/>'
        f'<rect x="115" y="112" width="20" height="16" fill="{SKIN}" {s}/>'
        f'<path d="M92 128c12-7 54-7 66 0l-8 13c-14-6-36-6-50 0z" fill="#fff" {s}/>'
        f'<path d="M104 132v3M116 130v3M128 130v3M140 130v3M150 132v3" stroke="{INK}" stroke-width="3"/>'
    )
    # the arm that holds the sword, the flower or the halberd
    # the sleeve of the arm that holds the sword, the flower or the halberd, drawn for the right and mirrored
    hand_x = 79 if rank == "K" else 172
    mirror = ' transform="matrix(-1 0 0 1 250 0)"' if rank == "K" else ""
    out.append(
        f'<g{mirror}><path d="M146 130c16 2 28 8 34 16l-12 13c-6-7-14-12-24-14z" fill="{panel}" {s}/>'
        f'<path d="M164 160l12-13" stroke="{GOLD}" stroke-width="4"/></g>'
        f'<ellipse cx="{hand_x}" cy="152" rx="8" ry="7" fill="{SKIN}" {s}/>'
    )
    # the face
    out.append(
        f'<ellipse cx="125" cy="97" rx="21" ry="24" fill="{SKIN}" {s}/>'
        f'<path d="M113 88c3-2 7-2 9 0M128 88c3-2 7-2 9 0" {line}/>'
        f'<circle cx="118" cy="94" r="2" fill="{INK}"/><circle cx="132" cy="94" r="2" fill="{INK}"/>'
        f'<path d="M125 95c-2 5-3 8-1 9 1 1 3 1 4 0" {line}/>'
        '<path d="M119 110c3 2 9 2 12 0" fill="none" stroke="#a8322e" stroke-width="2" stroke-linecap="round"/>'
        '<circle cx="112" cy="104" r="3.5" fill="#f0a7a0" opacity=".55"/>'
        '<circle cx="138" cy="104" r="3.5" fill="#f0a7a0" opacity=".55"/>'
    )
    if rank == "K":  # hair, beard, moustache, crown
        out.append(
            f'<path d="M104 94c-2-14 6-22 21-22s23 8 21 22c-4-8-10-10-21-10s-17 2-21 10z" fill="{hair}" {s}/>'
            f'<path d="M104 100c0 24 11 34 21 34s21-10 21-34c-5 9-12 12-21 12s-16-3-21-12z" fill="{hair}" {s}/>'
            f'<path d="M114 108c4-4 8-4 11-1 3-3 7-3 11 1-5 3-17 3-22 0z" fill="{hair}" {s}/>'
            f'<path d="M102 76V50l10 12 6-20 7 16 7-16 6 20 10-12v26z" fill="{GOLD}" {s}/>'
            f'<rect x="100" y="70" width="50" height="9" rx="2" fill="{GOLD}" {s}/>'
            f'<circle cx="125" cy="74.5" r="3" fill="{RED}"/><circle cx="111" cy="74.5" r="2.2" fill="#1f4f9c"/>'
            f'<circle cx="139" cy="74.5" r="2.2" fill="#1f4f9c"/><circle cx="118" cy="42" r="2.5" fill="{GOLD}" {s}/>'
            f'<circle cx="132" cy="42" r="2.5" fill="{GOLD}" {s}/>'
        )
    elif rank == "Q":  # fringe, tiara with pearls, a flower in the hand
        out.append(
            f'<path d="M105 92c2-16 11-20 20-20s18 4 20 20c-6-7-13-9-20-9s-14 2-20 9z" fill="{hair}" {s}/>'
            f'<path d="M106 78c0-10 7-12 10-6 2-11 16-11 18 0 3-6 10-4 10 6z" fill="{GOLD}" {s}/>'
            f'<circle cx="125" cy="64" r="2.8" fill="#fff" {s}/><circle cx="112" cy="72" r="2.2" fill="#fff"/>'
            f'<circle cx="138" cy="72" r="2.2" fill="#fff"/>'
            f'<path d="M172 146c0-12 0-24 1-34" fill="none" stroke="#2a6b3f" stroke-width="3"/>'
            f'<path d="M172 132c-8-6-14-4-16 2 6 2 12 2 16-2z" fill="#2a6b3f"/>'
            f'<g fill="{RED}" {s}><circle cx="173" cy="96" r="6.5"/><circle cx="181" cy="103" r="6.5"/>'
            f'<circle cx="165" cy="103" r="6.5"/><circle cx="177" cy="111" r="6.5"/><circle cx="169" cy="111" r="6.5"/>'
            f'</g><circle cx="173" cy="104" r="4.5" fill="{GOLD}"/>'
            f'<ellipse cx="172" cy="152" rx="8" ry="7" fill="{SKIN}" {s}/>'
        )
    else:  # the valet: short hair, a beret with a feather
        out.append(
            f'<path d="M104 100c-4-10-2-20 4-24 9-4 25-4 34 0 6 4 8 14 4 24-2-9-7-14-21-14s-19 5-21 14z" '
            f'fill="{hair}" {s}/>'
            f'<path d="M96 78c4-18 54-18 58 0-8 5-50 5-58 0z" fill="{panel}" {s}/>'
            f'<path d="M98 78c8 5 46 5 54 0" fill="none" stroke="{GOLD}" stroke-width="3"/>'
            f'<path d="M142 68c10-14 28-22 42-20-10 4-22 14-36 24z" fill="#fff" {s}/>'
        )
    out.append("</g>")
    return "".join(out)


# --- the big face (readable in a hand of three on a 390 px phone) --------------------------------------------


def grande_card(card: str) -> str:
    rank, suit = card[0], card[1]
    color = suit_color(suit)
    defs = suit_symbol(suit)
    size = 156 if rank in "QJK" else 176
    parts = [
        card_blank(),
        (
            f'<text x="18" y="{132 if rank in "QJK" else 136}" font-family="{SANS}" font-size="{size}" font-weight="700" fill="{color}" '
            f'letter-spacing="-6">{rank}</text>'
        ),
        use(suit, 196, 66, 78, fill=color),
    ]
    if rank in "QJK":  # the court figure's bust, so a court card never reads as a number
        defs += '<clipPath id="bu"><rect x="30" y="172" width="190" height="156" rx="10"/></clipPath>'
        defs += court_half(rank, suit)
        parts.append(
            '<rect x="30" y="172" width="190" height="156" rx="10" fill="#fbf3e2"/>'
            '<g clip-path="url(#bu)"><use href="#fig" transform="translate(30 172) scale(1.2) translate(-46 -38)"/>'
            f'</g><rect x="30" y="172" width="190" height="156" rx="10" fill="none" stroke="{color}" '
            'stroke-width="3"/>'
        )
    else:
        parts.append(use(suit, 125, 254, 150, fill=color))
    return svg(view=f"0 0 {W} {H}", title=card_title(card), defs=defs, body="".join(parts))


# --- backs ------------------------------------------------------------------------------------------------------

BACK_COLORS = {  # ground, lines, title
    "azul": ("#1d4f91", "#d7e4f5", "Verso azul"),
    "vermelho": ("#a3162b", "#f6d9dc", "Verso vermelho"),
    "verde": ("#1f6b3a", "#d9efdc", "Verso verde"),
    "zap": ("#17171d", GOLD, "Verso Zap"),
}


def back(name: str) -> str:
    ground, line, title = BACK_COLORS[name]
    defs = (
        f'<pattern id="tr" width="20" height="20" patternUnits="userSpaceOnUse">'
        f'<rect width="20" height="20" fill="{ground}"/>'
        f'<path d="M0 10L10 0 20 10 10 20z" fill="none" stroke="{line}" stroke-width="1.2" opacity=".55"/>'
        f'<circle cx="10" cy="10" r="2" fill="{line}" opacity=".7"/><circle cx="0" cy="0" r="1.4" fill="{line}"/>'
        f'<circle cx="20" cy="0" r="1.4" fill="{line}"/><circle cx="0" cy="20" r="1.4" fill="{line}"/>'
        f'<circle cx="20" cy="20" r="1.4" fill="{line}"/></pattern>'
    )
    body = [
        card_blank(fill="#fffdf7"),
        f'<rect x="14" y="14" width="222" height="322" rx="9" fill="url(#tr)" stroke="{ground}" stroke-width="2"/>',
        (
            f'<rect x="22" y="22" width="206" height="306" rx="6" fill="none" stroke="{line}" stroke-width="1.5" '
            'opacity=".8"/>'
        ),
    ]
    if name == "zap":
        defs += suit_symbol("p")
        body.append(
            f'<circle cx="125" cy="175" r="62" fill="{ground}" stroke="{GOLD}" stroke-width="3"/>'
            f'<circle cx="125" cy="175" r="54" fill="none" stroke="{GOLD}" stroke-width="1" '
            'stroke-dasharray="3 4"/>' + use("p", 125, 172, 74, fill=GOLD) + f'<text x="125" y="287" '
            f'text-anchor="middle" font-family="{SERIF}" font-size="30" font-weight="700" fill="{GOLD}" '
            f'letter-spacing="6" stroke="{ground}" stroke-width="6" paint-order="stroke">ZAP</text>'
        )
    else:
        defs += suit_symbol("p") + suit_symbol("c") + suit_symbol("e") + suit_symbol("o")
        body.append(
            f'<ellipse cx="125" cy="175" rx="56" ry="70" fill="{ground}" stroke="{line}" stroke-width="3"/>'
            f'<ellipse cx="125" cy="175" rx="48" ry="62" fill="none" stroke="{line}" stroke-width="1"/>'
            + use("p", 125, 140, 30, fill=line)
            + use("c", 160, 175, 30, fill=line)
            + use("e", 125, 210, 30, fill=line)
            + use("o", 90, 175, 30, fill=line)
            + f'<circle cx="125" cy="175" r="6" fill="{line}"/>'
        )
    return svg(view=f"0 0 {W} {H}", title=title, defs=defs, body="".join(body))


def felt_texture() -> str:
    """A faint woven grain laid over the felts' gradients (static/css/online-art.css)."""
    return svg(
        view="0 0 160 160",
        title="Trama do feltro",
        defs=(
            '<filter id="g" x="0" y="0" width="100%" height="100%">'
            '<feTurbulence type="fractalNoise" baseFrequency=".9 .6" numOctaves="2" seed="7" stitchTiles="stitch"/>'
            '<feColorMatrix values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -1.6 1.1"/></filter>'
        ),
        body='<rect width="160" height="160" filter="url(#g)" opacity=".22"/>',
    )


# --- avatars: friendly animals in round badges (120 × 120) ------------------------------------------------------


def badge(ground: str, ring: str, inner: str) -> str:
    return (
        f'<circle cx="60" cy="60" r="57" fill="{ground}" stroke="{ring}" stroke-width="5"/>'
        f'<clipPath id="b"><circle cx="60" cy="60" r="54"/></clipPath><g clip-path="url(#b)">{inner}</g>'
    )


def eyes(x1: float, x2: float, y: float, r: float = 4.2) -> str:
    out = ""
    for x in (x1, x2):
        out += f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{INK}"/>'
        out += f'<circle cx="{n(x + r / 3)}" cy="{n(y - r / 3)}" r="{n(r / 3)}" fill="#fff"/>'
    return out


S = f'stroke="{INK}" stroke-width="2" stroke-linejoin="round"'

AVATAR_ART: dict[str, tuple[str, str, str, str]] = {  # title, ground, ring, drawing
    "marreco": (
        "Marreco",
        "#cfe8f3",
        "#2d7fa6",
        f'<path d="M22 124c2-26 18-38 38-38s36 12 38 38z" fill="#c9b48a" {S}/>'
        f'<path d="M36 92c8 6 40 6 48 0" fill="none" stroke="#fff" stroke-width="6"/>'
        f'<circle cx="60" cy="56" r="30" fill="#2e7d5b" {S}/>'
        f'<path d="M56 28c2-8 10-10 14-6-6 0-8 4-8 8z" fill="#2e7d5b" {S}/>'
        f'<path d="M40 70c0-8 40-8 40 0 0 9-9 13-20 13s-20-4-20-13z" fill="#f2a93b" {S}/>'
        f'<path d="M44 72c8 3 24 3 32 0" fill="none" stroke="#c7792a" stroke-width="2"/>'
        '<circle cx="54" cy="67" r="1.6" fill="#7a4a1a"/><circle cx="66" cy="67" r="1.6" fill="#7a4a1a"/>'
        + eyes(48, 72, 52),
    ),
    "tatu": (
        "Tatu",
        "#f3e3c7",
        "#9b6b3f",
        f'<ellipse cx="60" cy="94" rx="46" ry="34" fill="#a9825f" {S}/>'
        '<path d="M20 84c24-10 56-10 80 0M16 98c28-10 60-10 88 0M22 112c24-8 52-8 76 0" fill="none" '
        'stroke="#7b5a3c" stroke-width="3"/>'
        f'<ellipse cx="40" cy="36" rx="8" ry="13" fill="#d2ad86" {S}/>'
        f'<ellipse cx="80" cy="36" rx="8" ry="13" fill="#d2ad86" {S}/>'
        f'<path d="M60 30c16 0 24 12 22 28-2 14-12 30-22 38-10-8-20-24-22-38-2-16 6-28 22-28z" fill="#dcbb94" {S}/>'
        f'<path d="M44 42c10-5 22-5 32 0" fill="none" stroke="#b08a64" stroke-width="2"/>'
        f'<ellipse cx="60" cy="93" rx="6" ry="4" fill="#e58e8e" {S}/>' + eyes(50, 70, 54, 3.6),
    ),
    "capivara": (
        "Capivara",
        "#d7ecc7",
        "#5f8f3e",
        (
            f'<path d="M16 124c2-22 20-32 44-32s42 10 44 32z" fill="#8a5d38" {S}/>'
            f'<circle cx="36" cy="34" r="8" fill="#7a5232" {S}/><circle cx="84" cy="34" r="8" fill="#7a5232" {S}/>'
            f'<rect x="32" y="28" width="56" height="70" rx="26" fill="#9a6b43" {S}/>'
            f'<rect x="38" y="66" width="44" height="32" rx="16" fill="#6e4a2d" {S}/>'
            f'<ellipse cx="52" cy="76" rx="3" ry="4" fill="{INK}"/><ellipse cx="68" cy="76" rx="3" ry="4" fill="{INK}"/>'
            f'<path d="M54 88c4 3 8 3 12 0" fill="none" stroke="{INK}" stroke-width="2" stroke-linecap="round"/>'
            f'<path d="M42 52c3 3 9 3 12 0M66 52c3 3 9 3 12 0" fill="none" stroke="{INK}" stroke-width="3" '
            'stroke-linecap="round"/>'
            f'<circle cx="60" cy="20" r="10" fill="#f39c2b" {S}/>'
            '<path d="M60 10c2-4 6-5 9-3-3 1-5 3-6 5z" fill="#3f8f3a"/>'
        ),
    ),
    "onca": (
        "Onça-pintada",
        "#f6dcb0",
        "#b8741f",
        (
            f'<path d="M28 42 24 16l24 12zM92 42l4-26-24 12z" fill="#e9a43c" {S}/>'
            '<path d="M30 36l-3-13 12 7zM90 36l3-13-12 7z" fill="#3b2a1e"/>'
            f'<circle cx="60" cy="62" r="38" fill="#e9a43c" {S}/>'
            '<g fill="none" stroke="#3b2a1e" stroke-width="3">'
            '<circle cx="44" cy="38" r="4"/><circle cx="60" cy="32" r="3.5"/><circle cx="76" cy="38" r="4"/>'
            '<circle cx="30" cy="62" r="4"/><circle cx="90" cy="62" r="4"/><circle cx="36" cy="80" r="3"/>'
            '<circle cx="84" cy="80" r="3"/></g>'
            f'<ellipse cx="60" cy="78" rx="20" ry="15" fill="#fff6e6" {S}/>'
            f'<path d="M53 70h14l-7 7z" fill="#8a3b3b" {S}/>'
            f'<path d="M60 77v5M52 86c4 3 12 3 16 0" fill="none" stroke="{INK}" stroke-width="2" '
            'stroke-linecap="round"/>'
            f'<ellipse cx="46" cy="56" rx="6" ry="5" fill="#8bbf3f" {S}/>'
            f'<ellipse cx="74" cy="56" rx="6" ry="5" fill="#8bbf3f" {S}/>'
            f'<ellipse cx="46" cy="56" rx="2" ry="4.5" fill="{INK}"/><ellipse cx="74" cy="56" rx="2" ry="4.5" '
            f'fill="{INK}"/>'
        ),
    ),
    "arara": (
        "Arara-vermelha",
        "#fff0b3",
        "#d2a01a",
        (
            f'<path d="M20 124c0-20 10-36 28-40l26 4c14 8 18 22 18 36z" fill="#2f6fc4" {S}/>'
            f'<path d="M30 112c4-12 12-20 22-22l8 2c-8 6-14 14-16 26z" fill="#f4c430" {S}/>'
            f'<circle cx="54" cy="58" r="32" fill="#d7263d" {S}/>'
            f'<ellipse cx="66" cy="56" rx="14" ry="12" fill="#fff" {S}/>'
            '<path d="M58 50h16M60 56h14M62 62h10" stroke="#d7263d" stroke-width="1.2"/>'
            f'<path d="M78 42c20-4 30 10 26 30-2 6-6 8-8 4 0-10-6-16-16-16z" fill="#f3efe4" {S}/>'
            f'<path d="M80 62c6 0 12 4 12 10-6 2-10 0-14-4z" fill="{INK}" {S}/>'
            # one eye: the macaw is in profile
            f'<circle cx="66" cy="55" r="4" fill="{INK}"/><circle cx="67.5" cy="53.5" r="1.3" fill="#fff"/>'
        ),
    ),
    "tucano": (
        "Tucano",
        "#c6e6f5",
        "#2f7fa8",
        (
            f'<path d="M16 124c0-22 12-38 32-40h10c8 8 10 22 8 40z" fill="{INK}" {S}/>'
            f'<circle cx="44" cy="56" r="28" fill="{INK}" {S}/>'
            f'<path d="M44 70c10 0 16 10 14 24-10 2-20-4-22-14z" fill="#fdf6d8" {S}/>'
            f'<path d="M60 40c24-6 44 0 52 14-6 10-34 12-52 8z" fill="#f28c28" {S}/>'
            '<path d="M60 40c22-4 40 0 50 10" fill="none" stroke="#d7263d" stroke-width="4"/>'
            f'<path d="M100 52c6 0 10 2 12 4-4 4-8 5-12 5z" fill="{INK}"/>'
            f'<path d="M60 62c18 4 36 2 48-4" fill="none" stroke="#c4621a" stroke-width="2"/>'
            f'<circle cx="44" cy="50" r="9" fill="#6fc3e8" {S}/><circle cx="44" cy="50" r="4" fill="{INK}"/>'
            '<circle cx="45.5" cy="48.5" r="1.3" fill="#fff"/>'
        ),
    ),
    "jabuti": (
        "Jabuti",
        "#e8f0c9",
        "#6d8a2a",
        f'<path d="M8 124c0-30 22-50 52-50s52 20 52 50z" fill="#6b4a26" {S}/>'
        '<g fill="none" stroke="#d9a63a" stroke-width="3"><path d="M46 90h28l8 16-8 16H46l-8-16z"/>'
        '<path d="M38 106H14M82 106h24M46 90 36 78M74 90l10-12"/></g>'
        f'<path d="M42 78c-4-14 0-34 18-38 18 4 22 24 18 38-4 8-32 8-36 0z" fill="#8c8a5c" {S}/>'
        '<g fill="#e0612b"><circle cx="52" cy="44" r="3"/><circle cx="66" cy="42" r="3.5"/><circle cx="60" '
        'cy="36" r="2.5"/><circle cx="48" cy="68" r="2.5"/><circle cx="72" cy="68" r="2.5"/></g>'
        f'<path d="M54 72c4 3 8 3 12 0" fill="none" stroke="{INK}" stroke-width="2" stroke-linecap="round"/>'
        + eyes(51, 69, 56, 3.6),
    ),
    "boto": (
        "Boto-cor-de-rosa",
        "#cde7f5",
        "#3f87b5",
        (
            f'<path d="M10 110C8 74 26 40 56 40c14 0 24 10 28 22l28 8c4 2 4 6 0 7l-30 5c-10 14-30 30-72 28z" '
            f'fill="#f4a7b9" {S}/>'
            f'<path d="M84 78l26-2" stroke="{INK}" stroke-width="1.5"/>'
            '<path d="M30 58c6-8 16-12 26-10" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" '
            'opacity=".7"/>'
            f'<circle cx="66" cy="62" r="4" fill="{INK}"/><circle cx="67.4" cy="60.6" r="1.3" fill="#fff"/>'
            '<path d="M0 108c12-6 20-6 30 0s20 6 30 0 20-6 30 0 20 6 30 0v20H0z" fill="#2f7fb8" opacity=".85"/>'
            '<path d="M0 116c12-5 20-5 30 0s20 5 30 0 20-5 30 0 20 5 30 0" fill="none" stroke="#bfe3f5" '
            'stroke-width="2"/>'
        ),
    ),
    "mico": (
        "Mico-leão-dourado",
        "#ffe6c6",
        "#d9822b",
        '<path d="M60 12l8 10 12-6 2 13 13 1-4 12 11 8-10 8 7 11-13 3 1 13-13-4-5 12-9-9-9 9-5-12-13 4 1-13-13-3'
        ' 7-11-10-8 11-8-4-12 13-1 2-13 12 6z" fill="#f0a531" stroke="#c97818" stroke-width="2" '
        'stroke-linejoin="round"/>'
        f'<path d="M22 124c4-16 18-24 38-24s34 8 38 24z" fill="#f0a531" {S}/>'
        f'<path d="M60 38c14 0 20 10 20 22 0 16-10 26-20 26S40 76 40 60c0-12 6-22 20-22z" fill="#6b4630" {S}/>'
        f'<ellipse cx="60" cy="72" rx="10" ry="8" fill="#8a5e44"/>'
        '<circle cx="56" cy="70" r="1.6" fill="#2b1a12"/><circle cx="64" cy="70" r="1.6" fill="#2b1a12"/>'
        f'<path d="M55 78c3 2 7 2 10 0" fill="none" stroke="#2b1a12" stroke-width="2" stroke-linecap="round"/>'
        + eyes(52, 68, 57, 4),
    ),
    "lobo-guara": (
        "Lobo-guará",
        "#f3dcc8",
        "#b5532a",
        f'<path d="M36 50 22 6l30 28zM84 50l14-44-30 28z" fill="#d96c2c" {S}/>'
        '<path d="M36 40 28 16l16 16zM84 40l8-24-16 16z" fill="#fff2e2"/>'
        f'<path d="M16 124c4-18 20-28 44-28s40 10 44 28z" fill="{INK}" {S}/>'
        f'<path d="M60 30c20 0 32 12 30 30-2 14-14 22-18 36H48c-4-14-16-22-18-36-2-18 10-30 30-30z" '
        f'fill="#d96c2c" {S}/>'
        f'<path d="M46 76c2-10 8-14 14-14s12 4 14 14c-2 12-8 22-14 22s-12-10-14-22z" fill="#fff2e2" {S}/>'
        f'<path d="M52 86c2 10 14 10 16 0-4 6-12 6-16 0z" fill="#3b2a1e"/>'
        f'<ellipse cx="60" cy="80" rx="6" ry="4.5" fill="{INK}"/>' + eyes(48, 72, 56, 3.8),
    ),
    "quero-quero": (
        "Quero-quero",
        "#e3eef0",
        "#5f7f8a",
        (
            f'<path d="M20 124c0-22 14-40 36-40 18 0 28 14 28 40z" fill="#fff" {S}/>'
            f'<path d="M44 90c8 8 22 8 30 0l2 14c-10 6-26 6-34 0z" fill="{INK}"/>'
            f'<path d="M30 48c-8-6-20-8-26-6 8 2 16 6 22 12z" fill="{INK}" {S}/>'
            f'<circle cx="52" cy="60" r="26" fill="#9fa9ad" {S}/>'
            f'<path d="M54 34c14 0 24 8 24 20-6-6-14-8-24-8s-16 2-22 6c2-10 10-18 22-18z" fill="{INK}"/>'
            f'<path d="M76 58l26 4-26 6z" fill="#e05a5a" {S}/><path d="M92 60.5l10 1.5-10 2.5z" fill="{INK}"/>'
            f'<circle cx="64" cy="56" r="5" fill="#e0343f" {S}/><circle cx="64" cy="56" r="2" fill="{INK}"/>'
        ),
    ),
    "sagui": (
        "Sagui",
        "#e7e1f5",
        "#7a68b0",
        '<path d="M40 56C24 36 10 40 6 52c12-2 20 4 30 14zM80 56c16-20 30-16 34-4-12-2-20 4-30 14z" fill="#fff" '
        'stroke="#b9b4c4" stroke-width="2" stroke-linejoin="round"/>'
        f'<path d="M16 124c4-20 20-30 44-30s40 10 44 30z" fill="#8f8576" {S}/>'
        '<path d="M22 118c10-8 20-10 38-10s28 2 38 10M28 110c10-6 20-8 32-8s22 2 32 8" fill="none" '
        'stroke="#5e564b" stroke-width="2"/>'
        f'<circle cx="60" cy="60" r="28" fill="#5e564b" {S}/>'
        f'<path d="M60 44c12 0 18 8 18 18 0 14-8 22-18 22s-18-8-18-22c0-10 6-18 18-18z" fill="#c9b8a0" {S}/>'
        '<ellipse cx="60" cy="38" rx="6" ry="4" fill="#fff"/>'
        '<circle cx="57" cy="70" r="1.4" fill="#2b1a12"/><circle cx="63" cy="70" r="1.4" fill="#2b1a12"/>'
        f'<path d="M56 76c3 2 5 2 8 0" fill="none" stroke="#2b1a12" stroke-width="1.8" stroke-linecap="round"/>'
        + eyes(52, 68, 58, 4.2),
    ),
}


def avatar(key: str) -> str:
    title, ground, ring, drawing = AVATAR_ART[key]
    return svg(view="0 0 120 120", title=title, body=badge(ground, ring, drawing))


# --- level icons (96 × 96): medals that grow from bronze to gold --------------------------------------------------

SHIELD = "M48 4l36 12v28c0 24-16 40-36 48C28 84 12 68 12 44V16z"
TIERS = {  # face, rim, light
    "marreco": ("#cfe8f3", "#5f8fa6", "#eef7fb"),
    "fichinha": ("#e7b98a", "#8a5327", "#f6dcc0"),
    "blefador": ("#d99a62", "#7a4319", "#f2cda6"),
    "coringa": ("#d9dde3", "#6b7480", "#f4f6f8"),
    "pica-fumo": ("#c9ced6", "#5a6370", "#eef0f3"),
    "espadilha": ("#f0d27a", "#9c7418", "#fbefc6"),
    "escopeta": ("#f3cc5c", "#8d6510", "#fdf0c2"),
    "zap": ("#f5c842", "#6d4c0a", "#fff3c4"),
}


def level_icon(slug: str, name: str) -> str:
    face, rim, light = TIERS[slug]
    defs = (
        f'<linearGradient id="m" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{light}"/>'
        f'<stop offset="1" stop-color="{face}"/></linearGradient>'
    )
    if slug in ("marreco", "fichinha", "blefador"):
        frame = f'<circle cx="48" cy="48" r="43" fill="url(#m)" stroke="{rim}" stroke-width="5"/>'
    else:
        frame = f'<path d="{SHIELD}" fill="url(#m)" stroke="{rim}" stroke-width="5" stroke-linejoin="round"/>'
    inner = LEVEL_ART[slug]
    if slug in ("pica-fumo", "espadilha", "escopeta", "zap"):
        suit = {"pica-fumo": "o", "espadilha": "e", "escopeta": "c", "zap": "p"}[slug]
        defs += suit_symbol(suit)
        inner = use(suit, 48, 46, 44 if slug != "zap" else 40, fill=suit_color(suit)) + inner
    return svg(view="0 0 96 96", title=f"Nível {name}", defs=defs, body=frame + inner)


SL = f'stroke="{INK}" stroke-width="2" stroke-linejoin="round"'
LEVEL_ART = {
    "marreco": (
        '<g transform="matrix(1.3 0 0 1.3 -14.4 -12)">'
        f'<circle cx="48" cy="44" r="20" fill="#2e7d5b" {SL}/>'
        f'<path d="M34 54c0-6 28-6 28 0 0 6-6 9-14 9s-14-3-14-9z" fill="#f2a93b" {SL}/>'
        f'<circle cx="41" cy="41" r="3" fill="{INK}"/><circle cx="55" cy="41" r="3" fill="{INK}"/>'
        '<circle cx="42" cy="40" r="1" fill="#fff"/><circle cx="56" cy="40" r="1" fill="#fff"/>'
        '<path d="M30 72c10 6 26 6 36 0" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/>'
        "</g>"
    ),
    "fichinha": (  # a chip with its edge stripes
        f'<circle cx="48" cy="48" r="30" fill="#2f6fc4" {SL}/>'
        '<g stroke="#fff" stroke-width="7"><path d="M48 18v9M48 69v9M18 48h9M69 48h9M27 27l6 6M63 63l6 6'
        'M69 27l-6 6M33 63l-6 6"/></g>'
        f'<circle cx="48" cy="48" r="18" fill="#fff" {SL}/>'
        '<circle cx="48" cy="48" r="14" fill="none" stroke="#2f6fc4" stroke-width="1.5" stroke-dasharray="3 3"/>'
        '<rect x="41" y="38" width="14" height="20" rx="2" fill="#fffdf7" stroke="#c4122f" stroke-width="1.5"/>'
        '<path d="M48 43c-2-3-6-1-5 2 1 2 5 5 5 5s4-3 5-5c1-3-3-5-5-2z" fill="#c4122f"/>'
    ),
    "blefador": (  # a hand hiding a fan of cards
        '<g stroke="#1b1b1f" stroke-width="1.8" stroke-linejoin="round">'
        '<rect x="30" y="18" width="22" height="32" rx="3" fill="#fffdf7" transform="rotate(-18 41 50)"/>'
        '<rect x="38" y="16" width="22" height="32" rx="3" fill="#fffdf7"/>'
        '<rect x="46" y="18" width="22" height="32" rx="3" fill="#fffdf7" transform="rotate(18 57 50)"/>'
        f'<path d="M24 56c0-4 6-6 10-2l6 6V40c0-4 7-4 7 0v12-16c0-4 7-4 7 0v16-14c0-4 7-4 7 0v16-10c0-4 7-4 7 '
        f'0v22c0 12-8 22-20 22-8 0-12-3-16-8z" fill="{SKIN}"/></g>'
    ),
    "coringa": (  # the jester's three-pointed cap with bells
        f'<path d="M26 62C22 48 16 38 14 30c12 0 24 10 30 30z" fill="#c4122f" {SL}/>'
        f'<path d="M70 62c4-14 10-24 12-32-12 0-24 10-30 30z" fill="#2a6b3f" {SL}/>'
        f'<path d="M34 62c2-20 8-36 14-46 6 10 12 26 14 46z" fill="#7b3fa0" {SL}/>'
        f'<rect x="20" y="60" width="56" height="11" rx="3" fill="{GOLD}" {SL}/>'
        '<path d="M30 65.5l3-3 3 3-3 3zM45 65.5l3-3 3 3-3 3zM60 65.5l3-3 3 3-3 3z" fill="#c4122f"/>'
        f'<g fill="{GOLD}" {SL}><circle cx="14" cy="30" r="5"/><circle cx="48" cy="16" r="5"/>'
        '<circle cx="82" cy="30" r="5"/></g>'
    ),
    "pica-fumo": "",
    "espadilha": "",
    "escopeta": "",
    "zap": (  # a crown over the club and a laurel
        f'<path d="M32 24V8l8 7 8-11 8 11 8-7v16z" fill="{GOLD}" {SL}/>'
        '<g fill="none" stroke="#3f7a2e" stroke-width="3" stroke-linecap="round">'
        '<path d="M24 44c0 14 8 26 22 32M72 44c0 14-8 26-22 32"/></g>'
        '<g fill="#3f7a2e"><ellipse cx="24" cy="52" rx="3" ry="6" transform="rotate(-20 24 52)"/>'
        '<ellipse cx="29" cy="63" rx="3" ry="6" transform="rotate(-40 29 63)"/>'
        '<ellipse cx="72" cy="52" rx="3" ry="6" transform="rotate(20 72 52)"/>'
        '<ellipse cx="67" cy="63" rx="3" ry="6" transform="rotate(40 67 63)"/></g>'
    ),
}


# --- sounds: short, soft, 16-bit mono PCM at 16 kHz -----------------------------------------------------------

RATE = 16000


def envelope(t: float, dur: float, attack: float, release: float) -> float:
    if t < attack:
        return t / attack
    if t > dur - release:
        return max(0.0, (dur - t) / release)
    return 1.0


def tone(freq: float, dur: float, *, attack: float = 0.005, decay: float = 6.0, harmonics: tuple = (1, 0.3, 0.1)):
    """A plucked or bell-like note: a few harmonics under an exponential decay."""
    count = int(dur * RATE)
    out = []
    for i in range(count):
        t = i / RATE
        amp = envelope(t, dur, attack, min(0.03, dur / 4)) * math.exp(-decay * t)
        out.append(amp * sum(h * math.sin(2 * math.pi * freq * (k + 1) * t) for k, h in enumerate(harmonics)))
    return out


def noise(dur: float, *, seed: int, smooth: float, decay: float) -> list[float]:
    """Filtered noise under a decay: the swish of a card."""
    rng = random.Random(seed)
    count = int(dur * RATE)
    out, low = [], 0.0
    for i in range(count):
        t = i / RATE
        low += smooth * (rng.uniform(-1, 1) - low)
        out.append(low * math.exp(-decay * t) * envelope(t, dur, 0.004, 0.01))
    return out


def mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Sum notes placed at their start times (seconds)."""
    end = max(int(start * RATE) + len(samples) for start, samples in parts)
    out = [0.0] * end
    for start, samples in parts:
        offset = int(start * RATE)
        for i, value in enumerate(samples):
            out[offset + i] += value
    return out


def wav_bytes(samples: list[float], *, peak: float) -> bytes:
    top = max(abs(s) for s in samples) or 1.0
    frames = b"".join(struct.pack("<h", int(s / top * peak * 32767)) for s in samples)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(frames)
    return buffer.getvalue()


def sound(name: str) -> bytes:
    c5, e5, g5, c6 = 523.25, 659.25, 783.99, 1046.5
    if name == "deal":  # a quick riffle of three cards
        swish = [(i * 0.055, noise(0.07, seed=10 + i, smooth=0.35, decay=40)) for i in range(3)]
        return wav_bytes(mix(*swish), peak=0.35)
    if name == "play":  # a card laid on the felt: a soft slap over a low thump
        return wav_bytes(mix((0, noise(0.09, seed=3, smooth=0.5, decay=55)), (0, tone(140, 0.09, decay=40))), peak=0.45)
    if name == "truco":  # a call to attention: two firm rising notes
        brass = (1, 0.5, 0.35, 0.2, 0.1)
        return wav_bytes(
            mix((0, tone(392, 0.16, decay=4, harmonics=brass)), (0.14, tone(587.3, 0.3, decay=5, harmonics=brass))),
            peak=0.5,
        )
    if name == "accept":  # a bright major third up
        return wav_bytes(mix((0, tone(c5, 0.18, decay=9)), (0.09, tone(e5, 0.26, decay=8))), peak=0.4)
    if name == "run":  # a falling pair
        return wav_bytes(mix((0, tone(e5, 0.16, decay=9)), (0.12, tone(392, 0.3, decay=7))), peak=0.35)
    if name == "win-mao":  # a short arpeggio
        return wav_bytes(
            mix((0, tone(c5, 0.2, decay=8)), (0.1, tone(e5, 0.2, decay=8)), (0.2, tone(g5, 0.3, decay=6))), peak=0.4
        )
    if name == "win-partida":  # a little fanfare ending on a chord
        notes = [(0, g5 / 2, 0.16), (0.14, c5, 0.16), (0.28, e5, 0.16), (0.42, g5, 0.16)]
        parts = [(start, tone(freq, dur, decay=5, harmonics=(1, 0.4, 0.2))) for start, freq, dur in notes]
        parts += [(0.58, tone(f, 0.55, decay=3.5, harmonics=(1, 0.3, 0.1))) for f in (c5, e5, g5, c6)]
        return wav_bytes(mix(*parts), peak=0.45)
    if name == "tick":  # the clock's last seconds
        return wav_bytes(mix((0, tone(1800, 0.03, attack=0.001, decay=120, harmonics=(1, 0.2)))), peak=0.3)
    if name == "notify":  # a soft two-tone ping (chat, your turn)
        return wav_bytes(mix((0, tone(g5, 0.14, decay=12)), (0.08, tone(c6, 0.22, decay=10))), peak=0.3)
    raise KeyError(name)


# --- everything --------------------------------------------------------------------------------------------------


def build() -> dict[str, bytes]:
    """Every file, by its path under static/."""
    files: dict[str, bytes] = {}
    drawers: dict[str, Callable[[str], str]] = {"classico": classic_card, "grande": grande_card}
    for face in FACES:
        for card in CARDS:
            files[f"img/online/cards/{face}/{card}.svg"] = drawers[face](card).encode()
    for name in BACKS:
        files[f"img/online/backs/{name}.svg"] = back(name).encode()
    files["img/online/felts/trama.svg"] = felt_texture().encode()
    for key in AVATARS:
        files[f"img/online/avatars/{key}.svg"] = avatar(key).encode()
    for slug, name in LEVELS:
        files[f"img/online/levels/{slug}.svg"] = level_icon(slug, name).encode()
    for name in SOUNDS:
        files[f"sounds/online/{name}.wav"] = sound(name)
    return files


def main(argv: list[str]) -> None:
    root = Path(argv[1]) if len(argv) > 1 else STATIC
    files = build()
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    print(f"{len(files)} arquivos em {root}")


if __name__ == "__main__":
    main(sys.argv)
