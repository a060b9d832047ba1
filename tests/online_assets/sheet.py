"""The contact sheet: one HTML page with every card, back, felt, avatar and level icon, for the eye and the
browser test (test_sheet_browser.py). `hand=True` draws a phone's hand of three cards on each felt instead."""

from pathlib import Path

from tests.online_assets.art import AVATARS, BACKS, CARDS, FACES, LEVELS, RANKS, STATIC

CSS = """
body{margin:0;padding:16px;font:14px 'DejaVu Sans',sans-serif;background:#f1ede4;color:#222}
h2{font-size:16px;margin:18px 0 8px}
.grid{display:grid;grid-template-columns:repeat(10,1fr);gap:8px;max-width:1320px}
.grid img{width:100%;display:block;filter:drop-shadow(0 2px 3px rgba(0,0,0,.25))}
.row{display:flex;flex-wrap:wrap;gap:14px;align-items:center}
.row img.back{width:120px;filter:drop-shadow(0 2px 3px rgba(0,0,0,.25))}
.row img.avatar{width:84px}.row img.level{width:72px}
.row figure{margin:0;text-align:center;font-size:12px}
.felt{border-radius:18px;padding:14px;min-height:120px;flex:1 1 300px}
.hand{display:flex;gap:3%;justify-content:center;padding:10px 0}
.hand img{width:31%;max-width:140px;filter:drop-shadow(0 3px 4px rgba(0,0,0,.35))}
.mini{display:flex;gap:6px;justify-content:center}.mini img{width:56px}
"""


def sheet_html(*, root: Path = STATIC, hand: bool = False) -> str:
    base = root.resolve().as_uri()
    css_link = f'<link rel="stylesheet" href="{base}/css/online-art.css">'
    head = (
        f'<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width"><title>Baralho online</title>{css_link}<style>{CSS}</style></head><body>'
    )
    img = lambda path, cls="", alt="": f'<img class="{cls}" src="{base}/{path}" alt="{alt}">'  # noqa: E731
    parts = [head]
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
        parts.append('<div class="row">')
        parts += [img(f"img/online/avatars/{key}.svg", "avatar", key) for key in AVATARS[:8]]
        parts.append("</div></body></html>")
        return "".join(parts)
    for face in FACES:
        parts.append(f'<h2>Face “{face}”</h2><div class="grid">')
        for suit in "pceo":
            parts += [img(f"img/online/cards/{face}/{rank}{suit}.svg", alt=rank + suit) for rank in RANKS]
        parts.append("</div>")
    parts.append('<h2>Versos e feltros</h2><div class="row">')
    parts += [img(f"img/online/backs/{name}.svg", "back", name) for name in BACKS]
    for felt in ("feltro-verde", "feltro-azul", "feltro-vinho"):
        parts.append(f'<div class="felt {felt}"><div class="mini">')
        parts += [img(f"img/online/cards/classico/{c}.svg", alt=c) for c in ("4p", "7c", "Ae", "7o")]
        parts.append("</div></div>")
    parts.append('</div><h2>Avatares</h2><div class="row">')
    parts += [
        f"<figure>{img(f'img/online/avatars/{key}.svg', 'avatar', key)}<figcaption>{key}</figcaption></figure>"
        for key in AVATARS
    ]
    parts.append('</div><h2>Níveis</h2><div class="row">')
    parts += [
        f"<figure>{img(f'img/online/levels/{slug}.svg', 'level', name)}<figcaption>{name}</figcaption></figure>"
        for slug, name in LEVELS
    ]
    parts.append("</div></body></html>")
    assert len(CARDS) == 40
    return "".join(parts)
