"""Reads: the registrations of a tournament with their situation (docs/regras.md §2 step 2), counts, search.

Situation of a registration:
- ``paired``: its players are in a dupla;
- ``withdrawn``: it was withdrawn;
- ``accepted`` / ``waiting``: not in a dupla yet. Before the pairing draw the
  limit decides (``scoring.registration.places_replay``): places for players
  are 2 per dupla of the limit minus 2 per dupla already formed; in order of
  arrival each registration that still fits is accepted, the rest wait in
  order of arrival, and when someone withdraws the first on the waiting list
  that fits moves up (arrivals and withdrawals replayed in the order they
  happened, from ``order`` and ``withdrawn_at``). Once the pairing draw ran, a
  registration not in a dupla is on the waiting list.

The pairing draw should take the registrations in the order of
``registrations_for_pairing`` (accepted first, then the waiting list), so
that it accepts exactly the registrations this page shows as accepted.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime

from scoring.registration import Arrival, Placement, Withdrawal, name_key, places_replay

from ..models import Draw, Dupla, Player, Registration, Tournament

ACCEPTED, WAITING, PAIRED, WITHDRAWN = "accepted", "waiting", "paired", "withdrawn"


@dataclass(frozen=True)
class RegistrationRow:
    registration: Registration
    situation: str  # accepted | waiting | paired | withdrawn
    position: int | None  # arrival position among the registrations not withdrawn (1, 2, …)
    waiting_position: int | None  # place on the waiting list

    @property
    def players(self) -> list[Player]:
        return self.registration.players()

    @property
    def accepted(self) -> bool:
        return self.situation == ACCEPTED

    @property
    def on_waiting_list(self) -> bool:
        return self.situation == WAITING


@dataclass(frozen=True)
class Counts:
    total: int  # registrations not withdrawn
    players: int  # players in them
    accepted: int
    waiting: int
    paired: int
    withdrawn: int
    present: int
    absent: int
    unchecked: int


@dataclass(frozen=True)
class RegistrationList:
    rows: list[RegistrationRow]  # after the search
    all_rows: list[RegistrationRow]
    counts: Counts  # over every registration
    places: int | None  # places for players not in duplas yet (None: no limit)
    pairing_done: bool
    query: str

    @property
    def places_left(self) -> int | None:
        """Places not taken by an accepted registration."""
        if self.places is None:
            return None
        taken = sum(len(r.players) for r in self.all_rows if r.situation == ACCEPTED)
        return max(0, self.places - taken)


def free_places(*, tournament: Tournament, duplas: int | None = None) -> int | None:
    """Places for players not yet in duplas: 2 per dupla of the limit minus 2 per dupla formed (None: no limit)."""
    if tournament.max_duplas is None:
        return None
    if duplas is None:
        duplas = Dupla.objects.filter(tournament=tournament).count()
    return max(0, 2 * (tournament.max_duplas - duplas))


def pairing_done(*, tournament: Tournament) -> bool:
    return Draw.objects.filter(tournament=tournament, kind=Draw.PAIRING, undone_at__isnull=True).exists()


def arrival_events(regs: list[Registration]) -> list[Arrival | Withdrawal]:
    """Arrivals (by ``order``) and withdrawals (by ``withdrawn_at``) of the registrations not in a dupla, merged."""
    arrivals = sorted((r for r in regs if r.status != Registration.PAIRED), key=lambda r: (r.order, r.pk))

    def left(r: Registration) -> datetime:  # a withdrawal without a time counts as right after the arrival
        return max(r.withdrawn_at or r.created_at, r.created_at)

    gone = sorted((r for r in arrivals if r.status == Registration.WITHDRAWN), key=lambda r: (left(r), r.order))
    events: list[Arrival | Withdrawal] = []
    j = 0
    for r in arrivals:
        while j < len(gone) and left(gone[j]) < r.created_at:
            events.append(Withdrawal(gone[j].pk))
            j += 1
        events.append(Arrival(r.pk, len(r.players())))
    events.extend(Withdrawal(g.pk) for g in gone[j:])
    return events


def placements(
    *, events: list[Arrival | Withdrawal], places: int | None, paired_draw: bool
) -> dict[Hashable, Placement]:
    """Accepted or waiting, for the registrations still there (key → Placement)."""
    if paired_draw:
        present = [e.key for e in events if isinstance(e, Arrival)]
        gone = {e.key for e in events if isinstance(e, Withdrawal)}
        return {
            k: Placement(accepted=False, waiting_position=i + 1)
            for i, k in enumerate(k for k in present if k not in gone)
        }
    return places_replay(events, places)


def _registrations(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament).select_related("player1", "player2").order_by("order", "id")
    )


def registration_rows(
    *, tournament: Tournament, duplas: int | None = None, drawn: bool | None = None
) -> list[RegistrationRow]:
    """Every registration in order of arrival with its situation. Three queries, whatever the number (one fewer
    for each of these the caller knows: how many ``duplas`` the tournament has, whether the pairing draw ran)."""
    return _rows(tournament, duplas=duplas, drawn=drawn)[0]


def _rows(
    tournament: Tournament, *, duplas: int | None = None, drawn: bool | None = None
) -> tuple[list[RegistrationRow], int | None, bool]:
    regs = _registrations(tournament)
    places = free_places(tournament=tournament, duplas=duplas)
    if drawn is None:
        drawn = pairing_done(tournament=tournament)
    placed = placements(events=arrival_events(regs), places=places, paired_draw=drawn)
    rows: list[RegistrationRow] = []
    position = 0
    for r in regs:
        if r.status == Registration.WITHDRAWN:
            rows.append(RegistrationRow(r, WITHDRAWN, None, None))
            continue
        position += 1
        if r.status == Registration.PAIRED:
            rows.append(RegistrationRow(r, PAIRED, position, None))
        else:
            p = placed[r.pk]
            rows.append(RegistrationRow(r, ACCEPTED if p.accepted else WAITING, position, p.waiting_position))
    return rows, places, drawn


def placements_after(*, tournament: Tournament, sizes: list[int]) -> list[Placement]:
    """Where registrations of ``sizes`` players, arriving now, would stand (after every one there is)."""
    new = [Arrival(("new", i), size) for i, size in enumerate(sizes)]
    placed = placements(
        events=[*arrival_events(_registrations(tournament)), *new],
        places=free_places(tournament=tournament),
        paired_draw=pairing_done(tournament=tournament),
    )
    return [placed[a.key] for a in new]


def registrations_for_pairing(*, tournament: Tournament, exclude_absent: bool = True) -> list[Registration]:
    """The registrations not in a dupla, in the order the pairing draw should take them.

    The accepted ones first (in order of arrival), then the waiting list in its
    order; absent ones (check-in) left out. Given to ``scoring.draws.pairing_draw``
    with the room left under the limit, every accepted registration gets in and
    the places they leave free (absent players) go to the first on the waiting
    list that fits, the same rule as a withdrawal.
    """
    rows = [
        r
        for r in registration_rows(tournament=tournament)
        if r.situation in (ACCEPTED, WAITING) and not (exclude_absent and r.registration.present is False)
    ]
    rows.sort(key=lambda r: (r.situation != ACCEPTED, r.waiting_position or 0, r.registration.order))
    return [r.registration for r in rows]


def registration_row_get(*, registration: Registration) -> RegistrationRow:
    """The situation of one registration (computed over the whole tournament)."""
    for row in registration_rows(tournament=registration.tournament):
        if row.registration.pk == registration.pk:
            return row
    raise Registration.DoesNotExist


def counts_of(rows: list[RegistrationRow]) -> Counts:
    active = [r for r in rows if r.situation != WITHDRAWN]
    return Counts(
        total=len(active),
        players=sum(len(r.players) for r in active),
        accepted=sum(r.situation == ACCEPTED for r in rows),
        waiting=sum(r.situation == WAITING for r in rows),
        paired=sum(r.situation == PAIRED for r in rows),
        withdrawn=len(rows) - len(active),
        present=sum(r.registration.present is True for r in active),
        absent=sum(r.registration.present is False for r in active),
        unchecked=sum(r.registration.present is None for r in active),
    )


QUERY_MAX = 100  # characters of the desk's search that count (the rest is dropped)


def search_query(q: str) -> str:
    """The desk's search as it is used: spaces collapsed, at most ``QUERY_MAX`` characters."""
    return " ".join(q.split())[:QUERY_MAX]


def registration_list(*, tournament: Tournament, q: str = "") -> RegistrationList:
    """The desk's list: rows matching ``q`` (a part of a player's name or equipe, case and accents ignored) and
    counts."""
    rows, places, drawn = _rows(tournament)
    query = search_query(q)
    shown = rows
    if query:
        needle = name_key(query)
        shown = [r for r in rows if any(needle in name_key(f"{p.name} {p.team}") for p in r.players)]
    return RegistrationList(
        rows=shown, all_rows=rows, counts=counts_of(rows), places=places, pairing_done=drawn, query=query
    )


def registrations_public(*, tournament: Tournament) -> dict[str, object]:
    """Who registered, for the public event page: names and equipes only (no birth date, no contact), in order
    of arrival.

    ``entrants``: registrations accepted and not in a dupla yet (before the pairing draw: everyone accepted);
    ``waiting``: the waiting list, in its order; after the pairing draw it holds the odd one out too
    (docs/regras.md §2 step 3), so nobody registered vanishes from the public page.
    """
    rows, _places, drawn = _rows(tournament)

    def names(row: RegistrationRow) -> str:
        return " e ".join(f"{p.name} ({p.team})" if p.team else p.name for p in row.players)

    entrants = [names(r) for r in rows if r.situation == ACCEPTED]
    waiting = sorted(
        (r for r in rows if r.situation == WAITING), key=lambda r: (r.waiting_position or 0, r.position or 0)
    )
    return {
        "entrants": entrants,
        "entrants_players": sum(len(r.players) for r in rows if r.situation == ACCEPTED),
        "waiting": [{"name": names(r), "position": r.waiting_position} for r in waiting],
        "paired": sum(1 for r in rows if r.situation == PAIRED),
        "pairing_done": drawn,
    }
