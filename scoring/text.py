"""What counts as an empty text where a reason is required: nothing a reader could see."""

import unicodedata

# control and format characters (zero-width space and joiners, BOM, word joiner, bidi marks…), every kind
# of space and line/paragraph separator, combining marks with nothing to combine with, and code points that
# draw nothing (surrogates, private use, unassigned)
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})
# letters and symbols that render as blank: Hangul fillers, the braille blank
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def is_blank(value: object) -> bool:
    """True when ``value`` is not a text or shows nothing: only invisible characters (or none)."""
    if not isinstance(value, str):
        return True
    return all(c in _BLANK_CHARACTERS or unicodedata.category(c) in _INVISIBLE_CATEGORIES for c in value)


# Unicode's bidirectional formatting characters: embeddings, overrides and isolates, and the marks. In a name they
# serve only to disguise it (U+202E shows "‮ogeiD" as "Diego" backwards, and flips what follows it on the page).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BIDI = str.maketrans(dict.fromkeys(map(ord, BIDI_CONTROLS)))


def name_clean(value: str) -> str:
    """A name as people read it (a player, a dupla, an event, its venue, an equipe, a circuit, an account): without
    bidi controls, its white space one space between words. The one rule for every name the site stores."""
    return " ".join(value.translate(_BIDI).split())
