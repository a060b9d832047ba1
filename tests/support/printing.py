"""Shared pieces of the printing tests (tournaments/printing/): read a PDF back as text, decode its QR codes,
save a page as a PNG to look at, and build the tournaments the sheets are printed from.

PNG renders go to ``$ZAP_PRINT_PNG_DIR`` (default ``/tmp/zap-printing-png``), one file per sheet kind, so a
person can look at what the tests printed.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import zxingcpp

from tests.support.sumula import api, jogo_between, jogo_duplas, post
from tournaments.models import Jogo

PNG_DIR_DEFAULT = "/tmp/zap-printing-png"
FOOTER_PAGE = re.compile(r"página (\d+) de (\d+)")
FOOTER_WHEN = re.compile(r"gerado em \d{2}/\d{2}/\d{4} às \d{2}:\d{2}")
# a cup of four duplas (tests.support.sumula.cup_file): each beats every dupla after it
GROUP_ORDER = ["d1", "d2", "d3", "d4"]


# --- reading a PDF back ---------------------------------------------------------------------------------------


def pdf_text(data: bytes) -> list[str]:
    """The text of each page (pypdf's extraction), in page order."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [page.extract_text() or "" for page in reader.pages]


def pdf_pages(data: bytes) -> int:
    return len(pypdf.PdfReader(io.BytesIO(data)).pages)


def flat(text: str) -> str:
    """Text with every run of whitespace (line breaks included) made one space: phrases survive wrapping."""
    return " ".join(text.split())


def render(data: bytes, page: int = 0, scale: float = 3):
    """Page ``page`` as a PIL image (pdfium)."""
    document = pdfium.PdfDocument(data)
    try:
        return document[page].render(scale=scale).to_pil()
    finally:
        document.close()


def qr_texts(data: bytes, page: int = 0, scale: float = 3) -> list[str]:
    """What every QR code on page ``page`` says (rendered at ``scale`` and decoded by zxing-cpp)."""
    image = render(data, page, scale)
    return [code.text for code in zxingcpp.read_barcodes(image) if code.format == zxingcpp.BarcodeFormat.QRCode]


def png_dir() -> Path:
    folder = Path(os.environ.get("ZAP_PRINT_PNG_DIR") or PNG_DIR_DEFAULT)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def save_png(data: bytes, name: str, page: int = 0) -> Path:
    """Save page ``page`` as ``<png_dir>/<name>.png`` (for a person to look at) and return its path."""
    target = png_dir() / f"{name}.png"
    render(data, page, scale=2).save(target)
    return target


def footer_pages(texts: list[str]) -> list[tuple[int, int]]:
    """The (N, M) of "página N de M" on each page (one per page, or the assertion fails)."""
    out = []
    for text in texts:
        found = FOOTER_PAGE.findall(text)
        assert len(found) == 1, text
        out.append((int(found[0][0]), int(found[0][1])))
    return out


def assert_pdf(response, filename: str | None = None) -> bytes:
    """A 200 PDF response (inline, with ``filename`` when given); its bytes."""
    assert response.status_code == 200, (response.status_code, response.content[:500])
    assert response["Content-Type"] == "application/pdf"
    data = response.content
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert response["Content-Length"] == str(len(data))
    if filename is not None:
        assert response["Content-Disposition"] == f'inline; filename="{filename}"'
    return data


# --- playing the cup of tests.support.sumula ----------------------------------------------------------------


def group_results(client, tournament, *, confirm_client=None) -> list[str]:
    """Enter every group jogo of the cup (the earlier dupla of GROUP_ORDER wins 2 x 0) and confirm each by both
    duplas' PINs (with ``confirm_client``, any client); returns the jogo keys. The final is then drawn."""
    from tests.support.sumula import answer

    keys = []
    for i, first in enumerate(GROUP_ORDER):
        for second in GROUP_ORDER[i + 1 :]:
            key = jogo_between(tournament, first, second)
            winner = jogo_duplas(tournament, key).index(first)
            body = {"partidas": [[12, 5], [12, 7]] if winner == 0 else [[5, 12], [7, 12]]}
            response = post(client, api(tournament.slug, key, "resultado"), body)
            assert response.status_code == 200, response.content
            keys.append(key)
    for key in keys:
        for dupla in jogo_duplas(tournament, key):
            assert answer(confirm_client or client, tournament.slug, key, dupla).status_code == 200
    return keys


def final_of(tournament) -> Jogo:
    return Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, stage__key="final")


def play_final(client, tournament, *, winner: int = 0) -> Jogo:
    """Enter the cup's final (side ``winner`` wins 2 x 1) and confirm it by both duplas."""
    from tests.support.sumula import answer

    final = final_of(tournament)
    body = {"partidas": [[12, 9], [10, 12], [12, 4]] if winner == 0 else [[9, 12], [12, 10], [4, 12]]}
    assert post(client, api(tournament.slug, final.key, "resultado"), body).status_code == 200
    for dupla in (final.dupla_a.key, final.dupla_b.key):
        assert answer(client, tournament.slug, final.key, dupla).status_code == 200
    final.refresh_from_db()
    return final


# --- tournament files ----------------------------------------------------------------------------------------


def cup_with_births(slug: str = "copa-sumula", preset: str = "fenacef") -> dict:
    """The cup of tests.support.sumula with a (private) birth date for every player: 1961-01-11, 1962-02-12…"""
    from tests.support.sumula import cup_file

    data = cup_file(slug, preset)
    for i, player in enumerate(data["players"], start=1):
        player["birth_date"] = f"19{60 + i}-{i:02d}-{10 + i}"
    return data


def birth_forms(iso: str) -> list[str]:
    """The ways a birth date could be printed: 1961-01-11, 11/01/1961, 11/01/61, 11.01.1961."""
    year, month, day = iso.split("-")
    return [iso, f"{day}/{month}/{year}", f"{day}/{month}/{year[2:]}", f"{day}.{month}.{year}"]


def groups_only_file(slug: str = "so-grupos") -> dict:
    """The cup without its knockout stage: one group of four, nothing played."""
    from tests.support.sumula import cup_file

    data = cup_file(slug)
    data["tournament"]["name"] = "Copa Só de Grupos"
    data["stages"] = data["stages"][:1]
    return data


CARD_NAMES = ["Os Zapeiros", "", "Manilha Velha", "", "Truco Ladrão", "", "Seis Nele", "", "Casal Copas"]


def cards_file(slug: str = "copa-cartoes", duplas: int = 9) -> dict:
    """``duplas`` duplas (some named, some not), one group with all of them, nothing played."""
    first = [
        "Ana",
        "Bia",
        "Caio",
        "Davi",
        "Edu",
        "Flor",
        "Gil",
        "Hana",
        "Ivo",
        "Jade",
        "Kiko",
        "Lia",
        "Mel",
        "Nei",
        "Otto",
        "Pri",
        "Quim",
        "Rui",
    ]
    players = [{"key": f"p{i}", "name": f"{first[(i - 1) % len(first)]} Cartão"} for i in range(1, 2 * duplas + 1)]
    rows = []
    for i in range(1, duplas + 1):
        row = {"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]}
        if CARD_NAMES[(i - 1) % len(CARD_NAMES)]:
            row["name"] = CARD_NAMES[(i - 1) % len(CARD_NAMES)]
        rows.append(row)
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa dos Cartões", "slug": slug, "date": "2026-12-05", "preset": "fenacef"},
        "players": players,
        "duplas": rows,
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "A", "duplas": [r["key"] for r in rows]}],
                "qualify": {"per_group": 2, "best_others": 0},
            }
        ],
        "jogos": [],
    }


def knockout4_file(slug: str = "mata-quatro", third_place: str = "shared") -> dict:
    """Four duplas straight into a knockout (semifinals and final, best of 3), nothing played."""
    from tests.support.sumula import cup_file

    data = cup_file(slug)
    data["tournament"]["name"] = "Mata-Mata de Quatro"
    data["tournament"]["settings"] = {"third_place": third_place}
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": ["d1", "d2", "d3", "d4"],
            "draw": {"method": "seeded"},
        }
    ]
    return data


def decide(client, tournament, key: str, winner_key: str) -> None:
    """Enter jogo ``key`` as a 2 x 0 for ``winner_key`` and confirm it by both duplas' PINs."""
    from tests.support.sumula import answer

    sides = jogo_duplas(tournament, key)
    body = {"partidas": [[12, 4], [12, 6]] if sides[0] == winner_key else [[4, 12], [6, 12]]}
    assert post(client, api(tournament.slug, key, "resultado"), body).status_code == 200
    for dupla in sides:
        assert answer(client, tournament.slug, key, dupla).status_code == 200


def with_pins(tournament):
    """Give the cup's duplas the PINs of tests.support.sumula.PIN (hashes only, as pins_reset stores them)."""
    from tests.support.sumula import PIN
    from tournaments.models import Dupla
    from tournaments.staff.pins import pin_hash_make

    for dupla in Dupla.objects.filter(tournament=tournament):
        dupla.pin_hash = pin_hash_make(PIN[dupla.key])
        dupla.save(update_fields=["pin_hash"])
    return tournament


def page_jogo_keys(data: bytes) -> list[str]:
    """The jogo of each page of a súmula PDF, by its key, read from the link of the page's QR code (its address):
    the key itself is printed nowhere, a person reads the jogo by its round, mesa and duplas."""
    keys = []
    for page in pypdf.PdfReader(io.BytesIO(data)).pages:
        uris = [a.get_object().get("/A", {}).get("/URI", "") for a in page.get("/Annots") or []]
        keys += [m.group(1) for uri in uris if (m := re.search(r"/jogos/([^/]+)/$", str(uri)))]
    return keys


def fonts_used(data: bytes) -> set[str]:
    """The BaseFont of every font a string is shown in (Tj, TJ, ', " with the font of the last Tf, following q/Q
    and into form XObjects), subset tags removed. ReportLab sets Helvetica on every page without showing anything
    in it: that is not counted."""
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(io.BytesIO(data))
    used: set[str] = set()

    def walk(stream, resources, seen: tuple) -> None:
        fonts = resources.get("/Font", {}) if resources else {}
        xobjects = resources.get("/XObject", {}) if resources else {}
        current, saved = None, []
        for operands, operator in ContentStream(stream, reader).operations:
            if operator == b"q":
                saved.append(current)
            elif operator == b"Q":
                current = saved.pop() if saved else None
            elif operator == b"Tf":
                current = operands[0]
            elif operator in (b"Tj", b"TJ", b"'", b'"'):
                base = str(fonts[current].get_object()["/BaseFont"])
                used.add(base.split("+", 1)[-1].lstrip("/"))
            elif operator == b"Do" and operands[0] not in seen:
                form = xobjects[operands[0]].get_object()
                if form.get("/Subtype") == "/Form":
                    walk(form, form.get("/Resources", resources), seen + (operands[0],))

    for page in reader.pages:
        walk(page.get_contents(), page["/Resources"], ())
    return used


# --- long Brazilian names (chave.pdf and the cards wrap them instead of cutting them) --------------------------

LONG_PLAYERS = [
    "Fernanda Aparecida Saldanha de Oliveira",
    "Maria das Graças Nascimento Albuquerque",
    "José Carlos Bittencourt Vasconcelos Filho",
    "Ana Beatriz Cavalcanti de Albuquerque",
    "Francisco de Assis Nogueira Magalhães",
    "Luiz Henrique Figueiredo Castelo Branco",
    "Maria Aparecida dos Santos Guimarães",
    "Antônio Sebastião Rodrigues Pimentel",
]
LONG_DUPLAS = [
    "Os Invencíveis do Bar do Zé da Esquina",
    "",
    "Zap de Copas da Vila Madalena Paulistana",
    "",
    "Manilha Velha do Clube Atlético Ypiranga",
    "",
    "Truco Ladrão da Associação dos Bancários",
]


def long_names_knockout_file(duplas: int = 32, slug: str = "chave-nomes-longos", played: int = 4) -> dict:
    """``duplas`` duplas with long names (and some named by their long players) straight into a knockout drawn in
    key order (d1 × d2, d3 × d4…); the first ``played`` jogos of the 1st round played (the first dupla wins)."""
    players, rows = [], []
    for i in range(1, duplas + 1):
        keys = []
        for side in (0, 1):
            n = 2 * (i - 1) + side
            keys.append(f"p{n + 1}")
            suffix = f" {n // len(LONG_PLAYERS) + 1}" if n >= len(LONG_PLAYERS) else ""
            players.append({"key": f"p{n + 1}", "name": LONG_PLAYERS[n % len(LONG_PLAYERS)] + suffix})
        row = {"key": f"d{i}", "players": keys}
        if LONG_DUPLAS[(i - 1) % len(LONG_DUPLAS)]:
            row["name"] = LONG_DUPLAS[(i - 1) % len(LONG_DUPLAS)] + (f" {i}" if i > len(LONG_DUPLAS) else "")
        rows.append(row)
    order = [r["key"] for r in rows]
    jogos = [
        {"stage": "mata", "duplas": [order[2 * j], order[2 * j + 1]], "partidas": [[12, 4], [12, 6]]}
        for j in range(played)
    ]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa dos Nomes Compridos", "slug": slug, "date": "2026-12-05", "preset": "fenacef"},
        "players": players,
        "duplas": rows,
        "stages": [
            {
                "key": "mata",
                "kind": "knockout",
                "best_of": 3,
                "entrants": order,
                "draw": {"method": "fixed", "order": order},
            }
        ],
        "jogos": jogos,
    }
