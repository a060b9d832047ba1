"""The circuits' public pages (INTERCHANGE "Circuits, atletas and rankings", DOMAIN §7.3): /circuitos/ (every
circuit), /circuitos/<slug>/ (the season ranking: etapas, points per etapa, the qualification line, movement,
search by name, pages, ``?apos=`` for the ranking as it stood after an etapa) and the same ranking as
ranking.json, ranking.csv and ranking.pdf. Public data only: names, keys, places and points.

The ranking is ``circuit_standing`` (kept in the shared cache per circuit version); every answer here carries an
ETag made of the circuit's version, the release and the query, so a poll of an unchanged ranking is a 304 after
one query.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.atletas.selectors import atletas_apart
from tournaments.caching import page_get, page_put, release
from tournaments.circuits.archive import circuit_season
from tournaments.circuits.file import circuit_file_export
from tournaments.circuits.selectors import (
    CircuitStanding,
    circuit_finished,
    circuit_get,
    circuit_page,
    circuit_standing,
    circuits_public,
)
from tournaments.models import Circuit
from tournaments.printing.circuit import circuit_pdf
from tournaments.printing.page import Footer
from tournaments.public import circuit_view
from tournaments.public.circuit_view import ranking_csv, ranking_page_of
from tournaments.public.paging import page_number
from tournaments.web import errors_json, etag_make, not_modified, pdf_filename, pdf_response, read_only

KEEP_SECONDS = 24 * 3600  # a new version of the circuit makes another key; this only bounds what is kept
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")


def _apos(request: HttpRequest) -> str | None:
    """``?apos=``: an etapa's slug (absent or empty: the ranking as it stands). Anything that cannot be a slug
    names no etapa: a made-up key never reaches the shared cache."""
    value = (request.GET.get("apos") or "").strip()
    if not value:
        return None
    return value if SLUG.fullmatch(value) else "-"  # "-" is no tournament's slug: a 404


def _tagged(request: HttpRequest, circuit: Circuit, kind: str, respond: Callable[[], HttpResponse]) -> HttpResponse:
    """``respond()`` with an ETag of the circuit's version, the release, the language and the query; a 304 when
    the client holds that answer already."""
    etag = etag_make(
        "circuit",
        kind,
        circuit.pk,
        circuit.created_at.timestamp(),  # a new circuit that reuses an id never meets an old answer
        circuit.version,
        release(),
        translation.get_language(),
        request.GET.urlencode(),
    )
    unchanged = not_modified(request, etag=etag)
    if unchanged is not None:
        return unchanged
    # the answer as made for this version, kept for everyone: a visit after the first is one cache read
    key = "circuitpage:" + etag.strip('"')
    kept = page_get(key)
    if kept is not None:
        content_type, _sep, rest = kept.partition(b"\n")
        disposition, _sep, body = rest.partition(b"\n")
        response = HttpResponse(body, content_type=content_type.decode())
        if disposition:
            response["Content-Disposition"] = disposition.decode()
    else:
        response = respond()
        if response.status_code == 200 and not response.streaming:
            head = f"{response['Content-Type']}\n{response.get('Content-Disposition', '')}\n".encode()
            page_put(key, head + response.content, timeout=KEEP_SECONDS)
    if response.status_code == 200:
        response["ETag"] = etag
    return response


def _circuit_or_404(slug: str) -> Circuit:
    circuit = circuit_get(slug=slug)
    if circuit is None:
        raise Http404("circuito")
    return circuit


def _standing_or_404(circuit: Circuit, after: str | None) -> CircuitStanding:
    standing = circuit_standing(circuit=circuit, after=after)
    if standing is None:
        raise Http404("etapa")
    return standing


@read_only
def circuit_list(request):
    return render(request, "tournaments/circuits.html", {"circuits": list(circuits_public())})


@read_only
def circuit_ranking(request, slug: str):
    circuit = _circuit_or_404(slug)

    def respond() -> HttpResponse:
        # as it stands: one page from the rows by part (a few queries however long the season); ``apos``: the
        # whole ranking as it stood then (cached per version)
        read = circuit_page(
            circuit=circuit,
            after=_apos(request),
            q=request.GET.get("q") or "",
            page=page_number(request.GET.get("pagina")),
            per_page=circuit_view.PER_PAGE,
        )
        if read is None:
            raise Http404("etapa")
        finished = circuit_finished(circuit=circuit) if read.after else None  # the later etapas too
        apart = atletas_apart(atletas=[(row.key, row.name) for row in read.rows])  # namesakes told apart
        page = ranking_page_of(page=read, finished=finished, apart=apart)
        season = circuit_season(circuit=circuit)  # closed ("encerrado"), the seasons before and after
        return render(request, "tournaments/circuit.html", {"page": page, "s": read, "season": season})

    return _tagged(request, circuit, "page", respond)


@read_only
def circuit_ranking_json(request, slug: str):
    circuit = circuit_get(slug=slug)
    if circuit is None:
        return errors_json(404, _("Circuito não encontrado: %(slug)s") % {"slug": slug})
    after = _apos(request)

    def respond() -> HttpResponse:
        data = circuit_file_export(circuit=circuit, after=after)
        if data is None:
            return errors_json(404, _("Etapa não encontrada neste circuito: %(slug)s") % {"slug": after})
        return HttpResponse(
            json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
        )

    return _tagged(request, circuit, "json", respond)


@read_only
def circuit_ranking_csv(request, slug: str):
    circuit = _circuit_or_404(slug)

    def respond() -> HttpResponse:
        standing = _standing_or_404(circuit, _apos(request))
        response = HttpResponse(ranking_csv(standing=standing).encode("utf-8"), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{circuit.slug}-ranking.csv"'
        return response

    return _tagged(request, circuit, "csv", respond)


@read_only
def circuit_ranking_pdf(request, slug: str):
    circuit = _circuit_or_404(slug)

    def respond() -> HttpResponse:
        standing = _standing_or_404(circuit, _apos(request))
        body = circuit_pdf(standing=standing, footer=Footer.now(standing.circuit_name))
        return pdf_response(body, filename=pdf_filename(circuit.slug, "ranking"))

    return _tagged(request, circuit, "pdf", respond)
