"""Who is the same atleta across tournaments (DOMAIN §7.1): the automatic rule, kept only here.

Two players are the same atleta when their names are equal ignoring case, accents and repeated spaces **and**
their birth dates are equal (both present). Anything less stays two atletas (an organizer may join them).
"""

from __future__ import annotations

import datetime
import unicodedata

__all__ = ["atleta_identity", "name_distance", "name_normalize", "name_sort_key", "names_look_alike"]


def name_normalize(name: str) -> str:
    """``name`` without case, accents and repeated spaces: "  JOÃO  da Silva " → "joao da silva".

    Compatibility forms are folded (NFKD: "ﬁ" → "fi", a full-width letter → its plain one), combining marks
    dropped, every run of white space made one space."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(unicodedata.normalize("NFKC", bare).casefold().split())


def name_sort_key(name: str) -> tuple[str, str]:
    """How names are put in order for people, the Portuguese way: accents and case do not decide ("Fábio" before
    "Fernanda", "érica" beside "Erica"), then the name as written, so that the order is total. Every list of
    names sorted for a person uses it (SQL sorts by ``Atleta.name_search``, the same normalized name)."""
    return name_normalize(name), name


def atleta_identity(*, name: str, birth_date: datetime.date | None) -> str | None:
    """The private identity that joins players automatically: the normalized name and the birth date; None
    without a birth date or a name (such a player is an atleta of their own)."""
    normalized = name_normalize(name)
    if birth_date is None or not normalized:
        return None
    return f"{birth_date.isoformat()}|{normalized}"


def name_distance(a: str, b: str) -> int:
    """The edit distance between two names as ``name_normalize`` gives them: the fewest letters inserted,
    deleted, replaced or swapped with the next one ("Riberio" → "Ribeiro" is one swap)."""
    a, b = name_normalize(a), name_normalize(b)
    if a == b:
        return 0
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if before is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[len(b)]


def names_look_alike(a: str, b: str) -> bool:
    """Two different names one typo apart, as the atletas' desk suggests joining them (with the same birth date):
    at most one edit in a name of up to 9 letters, two in a longer one."""
    na, nb = name_normalize(a), name_normalize(b)
    if na == nb or not na or not nb:
        return False
    allowed = 2 if max(len(na), len(nb)) >= 10 else 1
    if abs(len(na) - len(nb)) > allowed:
        return False
    return name_distance(na, nb) <= allowed
