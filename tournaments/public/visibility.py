"""Who sees an event's public side, for the public audience's views: ``permissions.event_visible`` (a draft: its
staff only, 404 for anyone else), and a draft's answer marked for its staff alone (``web.staff_only``: it says
``Cache-Control: private``, so no shared cache keeps it for the public)."""

from __future__ import annotations

from django.http import HttpRequest

from tournaments.models import Tournament
from tournaments.permissions import event_visible
from tournaments.web import staff_only


def event_for(request: HttpRequest, tournament: Tournament | None) -> Tournament:
    """``tournament`` if the request's user may see its public side (else 404); a draft marks the answer as the
    staff's."""
    tournament = event_visible(user=request.user, tournament=tournament)
    if not tournament.published:
        staff_only(request)
    return tournament
