"""The list of events and the event page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from scoring.atleta import name_sort_key
from scoring.registration import name_key

from ..models import Dupla, Jogo, Tournament
from .duplas import DuplaRef, dupla_refs
from .labels import Status, date_br, time_br, weekday_br
from .now import CalledItem, NowPage, called_present, now_present
from .stages import RuleLine, StageRules, rules_present, status_of, tournament_status
from .standings import ClassificationRow, classification_present

if TYPE_CHECKING:
    from ..state import TournamentState


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """An event in the list of events."""

    tournament: Tournament
    name: str
    slug: str
    url: str
    date: str
    date_iso: str
    venue: str
    city: str
    category: str
    status: Status
    duplas: int


@dataclass(frozen=True, slots=True)
class TournamentSection:
    """A part of the list of events: "Ao vivo agora", "Próximos", "Encerrados"."""

    key: str
    title: str
    rows: list[TournamentRow]


@dataclass(frozen=True, slots=True)
class TournamentList:
    query: str
    sections: list[TournamentSection]  # those with events only
    count: int  # events kept by the query


@dataclass(frozen=True, slots=True)
class EventPage:
    """The event page: what the event is, what is happening (``phase``), its rules in words."""

    name: str
    slug: str
    date: str
    weekday: str
    start_time: str
    venue: str
    city: str
    category: str
    min_age: int | None
    max_duplas: int | None
    regulation_text: str
    duplas_count: int
    duplas: list[DuplaRef]  # the first ``DUPLAS_LISTED_UP_TO``, by name
    duplas_cut: bool
    status: Status
    phase: str  # "before", "during" or "after"
    now: NowPage | None
    podium: list[ClassificationRow]
    entrants: Mapping[str, Any]  # ``registrations.selectors.registrations_public``, as read
    draws: list[dict[str, Any]]  # ``draws.selectors.draws_public``, as read
    signup: bool
    preset: str
    stages: list[StageRules]
    rules: list[RuleLine]
    called: list[CalledItem] = field(default_factory=list)  # "Sua vez": the jogos called to their mesa
    circuit: tuple[str, str] | None = None  # (name, slug) of the circuit this event is an etapa of


def tournament_list_rows(tournaments: Iterable[Tournament]) -> list[TournamentRow]:
    """The events with their status, in 2 queries whatever their number.

    'encerrado' from the stored flag (``Tournament.finished``, kept by the
    services); else 'em andamento' when something was played; else 'a começar'.
    """
    tournaments = list(tournaments)
    ids = [t.id for t in tournaments]
    started: dict[int, int] = {}
    duplas: dict[int, int] = {}
    if ids:
        for row in (
            Jogo.objects.filter(tournament_id__in=ids)
            .values("tournament_id")
            .annotate(started=Count("id", filter=~Q(status=Jogo.SCHEDULED)))
        ):
            started[row["tournament_id"]] = row["started"]
        for counted in Dupla.objects.filter(tournament_id__in=ids).values("tournament_id").annotate(n=Count("id")):
            duplas[counted["tournament_id"]] = counted["n"]
    rows = []
    for t in tournaments:
        if t.finished:
            status = status_of("finished")
        elif started.get(t.id):
            status = status_of("live")
        else:
            status = status_of("upcoming")
        rows.append(
            TournamentRow(
                tournament=t,
                name=t.name,
                slug=t.slug,
                url=t.get_absolute_url(),
                date=date_br(t.date),
                date_iso=t.date.isoformat() if t.date else "",
                venue=t.venue,
                city=t.city,
                category=t.category,
                status=status,
                duplas=duplas.get(t.id, 0),
            )
        )
    return rows


def tournament_list_sections(rows: list[TournamentRow], *, q: str | None = None) -> TournamentList:
    """The list of events in three parts: "ao vivo agora", "próximos" (soonest first), "encerrados" (latest
    first); ``q`` keeps the events whose name, city or venue contains it (case and accents ignored)."""
    query = (q or "").strip()[:80]
    wanted = name_key(query) if query else ""
    if wanted:
        rows = [r for r in rows if wanted in name_key(" ".join((r.name, r.city, r.venue)))]
    far = dt.date.max

    def by_date(r: TournamentRow) -> tuple[dt.date, tuple[str, str]]:
        return r.tournament.date or far, name_sort_key(r.name)

    live = sorted((r for r in rows if r.status.code == "live"), key=by_date)
    upcoming = sorted((r for r in rows if r.status.code == "upcoming"), key=by_date)
    # the latest first; on one date, by name (a stable sort by date after the names)
    by_name = sorted((r for r in rows if r.status.code == "finished"), key=lambda r: name_sort_key(r.name))
    finished = sorted(by_name, key=lambda r: r.tournament.date or dt.date.min, reverse=True)
    sections = [
        TournamentSection(key="ao-vivo", title=_("Ao vivo agora"), rows=live),
        TournamentSection(key="proximos", title=_("Próximos"), rows=upcoming),
        TournamentSection(key="encerrados", title=_("Encerrados"), rows=finished),
    ]
    return TournamentList(query=query, sections=[s for s in sections if s.rows], count=len(rows))


PHASES = {"upcoming": "before", "live": "during", "finished": "after"}
DUPLAS_LISTED_UP_TO = 64  # more duplas than this: the event page links to /duplas/ instead of listing them


def event_present(
    state: TournamentState,
    *,
    entrants: Mapping[str, Any] | None = None,
    draws: list[dict[str, Any]] | None = None,
    called: Mapping[int, dt.datetime] | None = None,
) -> EventPage:
    """The event page. ``phase``: "before" (registrations, the draws as public records, the first jogos called),
    "during" (what is happening now: ``now``), "after" (the podium and the final classification).

    ``entrants`` (``registrations.selectors.registrations_public``) and ``draws``
    (``draws.selectors.draws_public``) are read by the view: nothing here queries the database.
    """
    t = state.tournament
    refs = dupla_refs(state)
    podium = classification_present(state, refs=refs, medals_only=True)
    status = tournament_status(state)
    phase = PHASES[str(status.code)]
    duplas = sorted(refs.values(), key=lambda r: name_sort_key(r.name))
    now = now_present(state) if phase != "after" and state.jogo_rows else None
    rules = rules_present(state)
    return EventPage(
        name=t.name,
        slug=t.slug,
        date=date_br(t.date),
        weekday=weekday_br(t.date),
        start_time=time_br(t.start_time),
        venue=t.venue,
        city=t.city,
        category=t.category,
        min_age=t.min_age,
        max_duplas=t.max_duplas,
        regulation_text=t.regulation,
        duplas_count=len(refs),
        duplas=duplas[:DUPLAS_LISTED_UP_TO],
        duplas_cut=len(duplas) > DUPLAS_LISTED_UP_TO,
        status=status,
        phase=phase,
        now=now,
        podium=podium,
        entrants=entrants or {},
        draws=draws or [],
        # the form itself says when sign-up opens or has closed (the page is cached, the clock moves on)
        signup=t.public_signup and not t.registration_closed and not refs,
        preset=rules.preset,
        stages=rules.stages,
        rules=rules.rules,
        called=called_present(state, called=called) if called and phase != "after" else [],
    )
