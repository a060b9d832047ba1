"""/torneios/<slug>/agenda.ics: the event's schedule as a calendar feed (``calendars.feeds``), for a phone's calendar
to subscribe to. Public data only; kept per results version (ETag, 304)."""

from __future__ import annotations

from django.http import HttpResponse

from tournaments.calendars.feeds import agenda_kept
from tournaments.public.visibility import event_for
from tournaments.selectors import tournament_by_slug
from tournaments.web import etag_make, not_modified, read_only

CALENDAR = "text/calendar; charset=utf-8"


@read_only
def tournament_agenda(request, slug: str):
    tournament = event_for(request, tournament_by_slug(slug=slug))
    key, body = agenda_kept(tournament=tournament)
    etag = etag_make(key)
    unchanged = not_modified(request, etag=etag)
    if unchanged is not None:
        return unchanged
    response = HttpResponse(body, content_type=CALENDAR)
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-agenda.ics"'
    response["ETag"] = etag
    return response
