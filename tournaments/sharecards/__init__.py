"""Share cards: the Open Graph images (PNG, 1200×630) a link to a public page shows when pasted into WhatsApp or a
social network, drawn with Pillow from plain values (``draw.Card``). Pure drawing: no Django, no database, no
request; what a card says is decided by ``tournaments.public.share``."""

from .draw import HEIGHT, WIDTH, Card, CardMatch, CardRow, card_png

__all__ = ["HEIGHT", "WIDTH", "Card", "CardMatch", "CardRow", "card_png"]
