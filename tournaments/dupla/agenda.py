"""/d/<token>/agenda.ics: the dupla's jogos (mesa, time, opponent) as a calendar feed (``calendars.feeds``), for
its players' phones to subscribe to from the dupla's page. The address is the dupla's secret, as its page's is:
never kept by a shared cache, never indexed; the feed itself holds only what the public pages show."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_safe

from tournaments.calendars.feeds import agenda_kept
from tournaments.dupla.views import _not_found, _private
from tournaments.permissions import may_open_private_link
from tournaments.staff.selectors import dupla_by_token
from tournaments.web import etag_make, not_modified


@require_safe
def dupla_agenda_view(request, token: str):
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    key, body = agenda_kept(tournament=dupla.tournament, dupla=dupla.key)
    etag = etag_make(key)
    unchanged = not_modified(request, etag=etag)
    if unchanged is not None:
        return _private(unchanged)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{dupla.tournament.slug}-{dupla.key}-agenda.ics"'
    response["ETag"] = etag
    return _private(response)
