"""The public spreadsheets: /torneios/<slug>/classificacao.xlsx and /circuitos/<slug>/ranking.xlsx (``exports``).

Public data only, as on the pages they mirror. An event's workbook is kept, like its PDFs, for as long as the
tournament's results do not change (``caching.page_key``), and tagged with that version (a 304 for a client that
holds it); a circuit's is kept and tagged per circuit version, as its CSV and PDF (``circuits._tagged``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.http import content_disposition_header

from tournaments.caching import page_get, page_key, page_put
from tournaments.exports.circuit import ranking_xlsx
from tournaments.exports.event import classificacao_xlsx
from tournaments.exports.xlsx import CONTENT_TYPE, xlsx_filename
from tournaments.models import Tournament
from tournaments.public.circuits import _apos, _circuit_or_404, _standing_or_404, _tagged
from tournaments.public.visibility import event_for
from tournaments.selectors import tournament_state_get
from tournaments.web import etag_make, not_modified, read_only


def xlsx_response(body: bytes, *, filename: str) -> HttpResponse:
    """A workbook, saved under ``filename`` (a spreadsheet is downloaded, never shown in the tab)."""
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    disposition = content_disposition_header(True, filename)
    assert disposition is not None  # a file name is given
    response["Content-Disposition"] = disposition
    response["Content-Length"] = str(len(body))
    response["X-Content-Type-Options"] = "nosniff"
    return response


@read_only
def standings_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    key = page_key(tournament=tournament, name="classificacao.xlsx", language=translation.get_language())
    etag = etag_make(key)
    unchanged = not_modified(request, etag=etag)
    if unchanged is not None:
        return unchanged
    body = page_get(key)
    if body is None:
        body = classificacao_xlsx(state=tournament_state_get(tournament=tournament))
        page_put(key, body)
    response = xlsx_response(body, filename=xlsx_filename(tournament.slug, "classificacao"))
    response["ETag"] = etag
    return response


@read_only
def circuit_ranking_xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _circuit_or_404(slug)

    def respond() -> HttpResponse:
        standing = _standing_or_404(circuit, _apos(request))
        return xlsx_response(ranking_xlsx(standing=standing), filename=xlsx_filename(circuit.slug, "ranking"))

    return _tagged(request, circuit, "xlsx", respond)
