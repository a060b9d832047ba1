"""The list of events and the event page."""

from typing import Iterable

from django.db.models import Count, Q

from ..models import Dupla, Jogo, Tournament
from .duplas import dupla_refs
from .labels import date_br, time_br, weekday_br
from .stages import rules_present, status_of, tournament_status
from .standings import classification_present


def tournament_list_rows(tournaments: Iterable[Tournament]) -> list[dict]:
    """The events with their status, in 2 queries whatever their number.

    'encerrado' from the stored flag (``Tournament.finished``, kept by the
    services); else 'em andamento' when something was played; else 'a começar'.
    """
    tournaments = list(tournaments)
    ids = [t.id for t in tournaments]
    started: dict[int, int] = {}
    duplas: dict[int, int] = {}
    if ids:
        for row in (Jogo.objects.filter(tournament_id__in=ids).values("tournament_id")
                    .annotate(started=Count("id", filter=~Q(status=Jogo.SCHEDULED)))):
            started[row["tournament_id"]] = row["started"]
        for row in Dupla.objects.filter(tournament_id__in=ids).values("tournament_id").annotate(n=Count("id")):
            duplas[row["tournament_id"]] = row["n"]
    rows = []
    for t in tournaments:
        if t.finished:
            status = status_of("finished")
        elif started.get(t.id):
            status = status_of("live")
        else:
            status = status_of("upcoming")
        rows.append({"tournament": t, "name": t.name, "slug": t.slug, "url": t.get_absolute_url(),
                     "date": date_br(t.date), "date_iso": t.date.isoformat() if t.date else "",
                     "venue": t.venue, "category": t.category, "status": status, "duplas": duplas.get(t.id, 0)})
    return rows


def event_present(state) -> dict:
    t = state.tournament
    refs = dupla_refs(state)
    podium = classification_present(state, refs=refs, medals_only=True)
    return {
        "name": t.name, "slug": t.slug,
        "date": date_br(t.date), "weekday": weekday_br(t.date), "start_time": time_br(t.start_time),
        "venue": t.venue, "category": t.category, "min_age": t.min_age, "max_duplas": t.max_duplas,
        "regulation_text": t.regulation,
        "duplas_count": len(refs),
        "duplas": sorted(refs.values(), key=lambda r: r["name"].casefold()),
        "status": tournament_status(state),
        "podium": podium,
        # the form itself says when sign-up opens or has closed (the page is cached, the clock moves on)
        "signup": t.public_signup and not t.registration_closed and not refs,
        **rules_present(state),
    }


