"""Registration rules (docs/regras.md §2 step 2): places for players, identity of a person, age.

Pure functions. The capacity rule: in order of arrival each registration that
still fits is accepted, the rest wait in order of arrival (``places_assign``,
the rule ``scoring.draws.pairing_draw`` applies too); when someone withdraws,
the first on the waiting list that fits in the freed places moves up
(``places_replay``). Nobody accepted is ever sent back to the waiting list by
someone else's withdrawal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import date

__all__ = ["Arrival", "Placement", "Withdrawal", "age_on", "name_key", "person_key", "places_assign", "places_replay"]


@dataclass(frozen=True)
class Placement:
    """Where one registration stands: accepted, or its place on the waiting list (1, 2, …)."""

    accepted: bool
    waiting_position: int | None = None


def places_assign(sizes: Sequence[int], places: int | None) -> list[Placement]:
    """Accept registrations of ``sizes`` players (1 or 2), in order of arrival, while they fit in ``places``.

    ``places`` is the number of free places for players (2 per dupla of the limit,
    minus the players already in duplas); None means no limit. A pair needs two
    free places: a pair that finds one place waits, while a later individual
    may take that place. The registrations that do not fit wait, numbered in
    order of arrival.
    """
    if places is not None and places < 0:
        places = 0
    out: list[Placement] = []
    remaining = places
    waiting = 0
    for index, size in enumerate(sizes):
        if size not in (1, 2):
            raise ValueError(f"inscrição {index + 1}: deve ter 1 ou 2 jogadores, tem {size}")
        if remaining is None or size <= remaining:
            if remaining is not None:
                remaining -= size
            out.append(Placement(accepted=True))
        else:
            waiting += 1
            out.append(Placement(accepted=False, waiting_position=waiting))
    return out


@dataclass(frozen=True)
class Arrival:
    """A registration of ``size`` players (1 or 2) arrives."""

    key: Hashable
    size: int


@dataclass(frozen=True)
class Withdrawal:
    """A registration is withdrawn."""

    key: Hashable


def places_replay(events: Sequence[Arrival | Withdrawal], places: int | None) -> dict[Hashable, Placement]:
    """Where each registration still there stands after ``events`` (in the order they happened).

    An arrival is accepted if it fits in the free places, else it joins the
    end of the waiting list. A withdrawal frees the places of an accepted
    registration; then the waiting list is walked in order and each
    registration that fits in the free places moves up (the first that fits
    first: a pair that needs two places keeps its turn while a later
    individual takes a single free place). Without withdrawals this is
    ``places_assign``. A withdrawal before its arrival (clocks apart) makes
    the arrival not count.
    """
    free = None if places is None else max(0, places)
    accepted: dict[Hashable, int] = {}  # key → size, for those holding places
    waiting: list[tuple[Hashable, int]] = []  # in order of arrival
    gone: set[Hashable] = set()
    for index, event in enumerate(events):
        if isinstance(event, Arrival):
            if event.size not in (1, 2):
                raise ValueError(f"inscrição {index + 1}: deve ter 1 ou 2 jogadores, tem {event.size}")
            if event.key in gone:
                continue
            if free is None or event.size <= free:
                accepted[event.key] = event.size
                if free is not None:
                    free -= event.size
            else:
                waiting.append((event.key, event.size))
            continue
        gone.add(event.key)
        if event.key in accepted:
            size = accepted.pop(event.key)
            if free is not None:
                free += size
                still: list[tuple[Hashable, int]] = []
                for key, wanted in waiting:
                    if wanted <= free:
                        accepted[key] = wanted
                        free -= wanted
                    else:
                        still.append((key, wanted))
                waiting = still
        else:
            waiting = [(k, s) for k, s in waiting if k != event.key]
    out: dict[Hashable, Placement] = {key: Placement(accepted=True) for key in accepted}
    for position, (key, _size) in enumerate(waiting, start=1):
        out[key] = Placement(accepted=False, waiting_position=position)
    return out


_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """A name for comparing people: case, accents and repeated spaces ignored ("  JOSÉ  da Silva" = "jose da silva")."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _SPACES.sub(" ", plain.casefold()).strip()


def person_key(name: str, birth_date: date | None) -> tuple[str, date | None]:
    """Two registrations are the same person when name (see ``name_key``) and birth date are equal.

    A missing birth date equals a missing birth date: two people of the same name
    that nobody can tell apart count as one (the organizer adds the dates).
    """
    return name_key(name), birth_date


def age_on(birth_date: date, day: date) -> int:
    """Age in whole years on ``day`` (someone born on 29 February turns a year older on 1 March)."""
    years = day.year - birth_date.year
    if (day.month, day.day) < (birth_date.month, birth_date.day):
        years -= 1
    return years
