"""The contact sheet of the online table's art, for the eye and the browser test (test_sheet_browser.py).

sheet_html()            every card of both faces, the backs, the felts, the avatars and the level icons
sheet_html(hand=True)   a phone's hand of three cards (and the three backs across) on each felt
sheet_html(docs=True)   the picture of docs/img/baralho-online.png: the classic deck, a suit of the big face,
                        the backs, the avatars and the levels

.venv/bin/python -m tests.online_assets.sheet    # rewrites docs/img/baralho-online.png (Chromium, 1366 px)
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from tests.online_assets.art import AVATARS, BACKS, FACES, LEVELS, RANKS, STATIC

DOCS_PNG = STATIC.parent / "docs" / "img" / "baralho-online.png"
DOCS_LIMIT = 250 * 1024  # as docs/capturas.py: above it the picture is reduced to 256 colours

CSS = """
body{margin:0;padding:16px;font:14px 'DejaVu Sans',sans-serif;background:#f1ede4;color:#222}
h2{font-size:16px;margin:18px 0 8px}h2:first-child{margin-top:0}
.grid{display:grid;grid-template-columns:repeat(10,1fr);gap:8px;max-width:1320px}
.grid img{width:100%;display:block;filter:drop-shadow(0 2px 3px rgba(0,0,0,.25))}
.row{display:flex;flex-wrap:wrap;gap:14px;align-items:center}
.row img.back{width:120px;filter:drop-shadow(0 2px 3px rgba(0,0,0,.25))}
.row img.avatar{width:84px}.row img.level{width:72px}
.row figure{margin:0;text-align:center;font-size:12px}
.felt{border-radius:18px;padding:14px;min-height:120px;flex:1 1 300px;border:6px solid var(--feltro-borda)}
.hand{display:flex;gap:2%;justify-content:center;padding:10px 0}
.hand img{width:32%;max-width:140px;filter:drop-shadow(0 3px 4px rgba(0,0,0,.35))}
.mini{display:flex;gap:6px;justify-content:center}.mini img{width:56px}
"""


def sheet_html(*, root: Path = STATIC, hand: bool = False, docs: bool = False) -> str:
    base = root.resolve().as_uri()

    def img(path: str, cls: str = "", alt: str = "") -> str:
        return f'<img class="{cls}" src="{base}/{path}" alt="{alt}">'

    def figure(path: str, cls: str, caption: str) -> str:
        return f"<figure>{img(path, cls, caption)}<figcaption>{caption}</figcaption></figure>"

    parts = [
        (
            '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" '
            'content="width=device-width"><title>Baralho online</title>'
            f'<link rel="stylesheet" href="{base}/css/online-art.css"><style>{CSS}</style></head><body>'
        )
    ]
    if hand:
        for felt, face, back, cards in (
            ("feltro-verde", "grande", "azul", ("4p", "Kc", "3o")),
            ("feltro-azul", "classico", "vermelho", ("7c", "Qe", "Ae")),
            ("feltro-vinho", "classico", "zap", ("Jo", "2p", "5c")),
        ):
            parts.append(f'<div class="felt {felt}"><div class="mini">')
            parts += [img(f"img/online/backs/{back}.svg", alt="verso") for _ in range(3)]
            parts.append('</div><div class="hand">')
            parts += [img(f"img/online/cards/{face}/{card}.svg", alt=card) for card in cards]
            parts.append("</div></div>")
        # the table screen's markup: the appearance on a container, the felt painted on its .feltro only
        parts.append('<div class="feltro-vinho conteiner"><p>Placar</p><div class="feltro felt"><div class="mini">')
        parts += [img(f"img/online/cards/grande/{card}.svg", alt=card) for card in ("Ap", "Ac", "Ae", "Ao")]
        parts.append("</div></div></div></body></html>")
        return "".join(parts)
    faces = ("classico",) if docs else FACES
    for face in faces:
        parts.append(f'<h2>Face “{face}”</h2><div class="grid">')
        for suit in "pceo":
            parts += [img(f"img/online/cards/{face}/{rank}{suit}.svg", alt=rank + suit) for rank in RANKS]
        parts.append("</div>")
    if docs:  # one of each rank in the big face, the suits taking turns
        parts.append('<h2>Face “grande”</h2><div class="grid">')
        parts += [img(f"img/online/cards/grande/{rank}{'pceo'[i % 4]}.svg") for i, rank in enumerate(RANKS)]
        parts.append("</div>")
    parts.append('<h2>Versos e feltros</h2><div class="row">')
    parts += [img(f"img/online/backs/{name}.svg", "back", name) for name in BACKS]
    if not docs:
        for felt in ("feltro-verde", "feltro-azul", "feltro-vinho"):
            parts.append(f'<div class="felt {felt}"><div class="mini">')
            parts += [img(f"img/online/cards/classico/{c}.svg", alt=c) for c in ("4p", "7c", "Ae", "7o")]
            parts.append("</div></div>")
    parts.append('</div><h2>Avatares</h2><div class="row">')
    parts += [figure(f"img/online/avatars/{key}.svg", "avatar", key) for key in AVATARS]
    parts.append('</div><h2>Níveis</h2><div class="row">')
    parts += [figure(f"img/online/levels/{slug}.svg", "level", name) for slug, name in LEVELS]
    parts.append("</div></body></html>")
    return "".join(parts)


def docs_picture(path: Path = DOCS_PNG) -> int:
    """Shoot the docs variant at 1,366 px into `path`; returns its size in bytes."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    from tests.support.browser import ARGS, CHROMIUM

    html = Path("/tmp/shots-art/baralho-online.html")
    html.parent.mkdir(parents=True, exist_ok=True)
    html.write_text(sheet_html(docs=True))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 800})
        page.goto(html.as_uri())
        page.wait_for_load_state("load")
        png = page.screenshot(full_page=True)
        browser.close()
    if len(png) > DOCS_LIMIT:
        buffer = io.BytesIO()
        Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(buffer, "PNG", optimize=True)
        png = buffer.getvalue()
    path.write_bytes(png)
    return len(png)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS_PNG
    print(f"{target}: {docs_picture(target)} bytes")
