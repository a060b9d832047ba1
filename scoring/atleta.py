"""Who is the same atleta across tournaments (DOMAIN §7.1): the automatic rule, kept only here.

Two players are the same atleta when their names are equal ignoring case, accents and repeated spaces **and**
their birth dates are equal (both present). Anything less stays two atletas (an organizer may join them).
"""

from __future__ import annotations

import datetime
import unicodedata

__all__ = ["atleta_identity", "name_normalize"]


def name_normalize(name: str) -> str:
    """``name`` without case, accents and repeated spaces: "  JOÃO  da Silva " → "joao da silva".

    Compatibility forms are folded (NFKD: "ﬁ" → "fi", a full-width letter → its plain one), combining marks
    dropped, every run of white space made one space."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(unicodedata.normalize("NFKC", bare).casefold().split())


def atleta_identity(*, name: str, birth_date: datetime.date | None) -> str | None:
    """The private identity that joins players automatically: the normalized name and the birth date; None
    without a birth date or a name (such a player is an atleta of their own)."""
    normalized = name_normalize(name)
    if birth_date is None or not normalized:
        return None
    return f"{birth_date.isoformat()}|{normalized}"
