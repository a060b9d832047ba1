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
