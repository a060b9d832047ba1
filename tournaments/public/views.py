"""Public pages: thin views over selectors and presenters; every page works without JavaScript.

Pages with live content (classificação, chave, jogos) wrap it in a template
partial that htmx polls every 30 s (the jogos page every 10 s while a jogo is
at the table); a poll asks for that partial only.

Rendered event pages are kept in the shared cache (``caching``), under keys
that carry the release and the tournament's ``results_version``, which the
results engine gives every write that changes what the pages show. A poll or
a revisit then costs one query and no rendering, in any process.

The live pages (the event, a dupla, jogos, TV) show live scores: they are
built from ``tournament_live_get`` (the same state with the súmulas at the
table read again, once per live version, the sum of the jogos' versions,
which every súmula write bumps), and their keys carry the live version too.
"""

import dataclasses
import json
import threading
import time
from collections import OrderedDict
from datetime import datetime

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers, patch_cache_control, patch_vary_headers
from django.utils.safestring import SafeString

from tournaments import presenters
from tournaments.atletas.selectors import players_public
from tournaments.caching import list_key, one_at_a_time, page_get, page_key, page_put, tournament_ident
from tournaments.calls.selectors import calls_on_pages
from tournaments.circuits.selectors import circuit_of, circuit_standing
from tournaments.draws.selectors import draws_public
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, Tournament
from tournaments.public.fastpages import fast_keep, fast_stamp
from tournaments.public.visibility import event_for
from tournaments.registrations.selectors import registrations_public
from tournaments.selectors import (
    tournament_by_slug,
    tournament_live_get,
    tournament_live_version,
    tournament_state_get,
)
from tournaments.selectors import tournament_list as tournaments_all
from tournaments.web import etag_make, not_modified, read_only

# "Atualizado às HH:MM" is the time of the request, not of the rendering: filled in on the way out.
NOW_MARK = "<!--zap:agora-->"
POLL_SECONDS = 30  # live partials are polled this often…
POLL_SECONDS_AT_TABLE = 10  # … and the live pages this often while a jogo is at the table


@read_only
def tournament_list(request):
    """Every event. Without a search it is cached under the versions of all events (one query to know them):
    counting who started and how many duplas each has reads every jogo."""
    q = request.GET.get("q")
    if not q:
        fast_stamp(request, live=False)
    tournaments = list(tournaments_all())
    key = None
    if not q:
        fast_keep(request, until=time.time() + 60)
        versions = [(tournament_ident(t), t.results_version) for t in tournaments]
        key = list_key(versions=versions, language=translation.get_language())
        body = page_get(key)
        if body is not None:
            return HttpResponse(body)
    rows = presenters.tournament_list_rows(tournaments)
    page = presenters.tournament_list_sections(rows, q=q)
    response = render(request, "tournaments/list.html", {"page": page, "any": bool(rows)})
    if key is not None:
        page_put(key, response.content)
    return response


def _event_page(
    request,
    *,
    slug: str,
    template: str,
    tab: str,
    build,
    partial: str = "",
    live: bool = False,
    variant=None,
    **params,
):
    """Render an event page, or only its live ``partial`` when htmx polls that element.

    ``params`` are the page's query parameters, as given (None when absent):
    the builder validates them and says whether the page is the one they ask
    for (``canonical``); only such pages are cached, so made-up parameters
    cannot fill the cache. A ``live`` page is built from the súmulas as they
    stand (``tournament_live_get``) and cached per ``live_version`` too.
    ``variant(tournament)``: what else the page shows that this tournament's
    versions do not follow (a circuit's version), made part of its key.
    """
    fast_stamp(request, live=live)  # before the database is read: a write after it gives the page another stamp
    tournament = event_for(request, tournament_by_slug(slug=slug))
    name = template
    if partial and request.htmx and request.htmx.target == partial:
        name = f"{template}#{partial}"
    if not tournament.published:  # a draft, seen by its staff: never cached, never kept for the public
        return _draft_page(request, tournament=tournament, name=name, tab=tab, build=build, live=live, params=params)
    language = translation.get_language()
    keyed = tab if variant is None else f"{tab}:{variant(tournament)}"
    moment = timezone.now()
    now = presenters.time_br(moment)
    until = page_until(moment)
    recent = None
    if live and settings.ZAP_LIVE_COALESCE_SECONDS > 0:
        # the live scores of the last second: every page that polls during a busy round is not one rendering
        # per mão; the results (results_version, in this key) are never coalesced
        recent = page_key(
            tournament=tournament, name=f"{keyed}:{name}", language=language, params=params, live="recent"
        )
        kept = _recent_get(recent)
        if kept is not None:
            # not kept for the fast path: this page may be a second older than the stamp just read
            key, _sep, body = kept.partition(b"\n")
            return _not_modified(request, key=key.decode(), now=now) or _page_response(key.decode(), body, now)
    live_version = tournament_live_version(tournament=tournament) if live else None
    key = page_key(tournament=tournament, name=f"{keyed}:{name}", language=language, params=params, live=live_version)
    unchanged = _not_modified(request, key=key, now=now)
    if unchanged is not None:
        return unchanged
    body = page_get(key)
    if body is None:
        with one_at_a_time(f"page:{key}"):  # the threads asking for it meanwhile wait, then read it
            body = page_get(key)
            if body is None:
                body, canonical = _event_page_render(
                    request,
                    tournament=tournament,
                    name=name,
                    tab=tab,
                    build=build,
                    live_version=live_version,
                    key=key,
                    recent=recent,
                    params=params,
                )
                if canonical:
                    fast_keep(request, until=until)
                return _page_response(key, body, now)
    if recent is not None:
        _recent_put(recent, key.encode() + b"\n" + body)
    fast_keep(request, until=until)  # a page found under its key is one its parameters ask for
    return _page_response(key, body, now)


def page_until(moment: datetime) -> float:
    """The end of the minute a page made at ``moment`` says it was updated in: the fast path keeps it until then."""
    return (moment.timestamp() // 60 + 1) * 60


_RECENT: OrderedDict[str, tuple[float, bytes]] = OrderedDict()  # live page of the last second -> (until, page)
_RECENT_MAX = 64
_RECENT_LOCK = threading.Lock()


def _recent_get(recent: str) -> bytes | None:
    """The live page of the last second (its key and body): this process's copy, else the shared cache's. During
    a round the spectators' polls are most of the requests, and the jogos page of a large event is 0.5 MB."""
    with _RECENT_LOCK:
        kept = _RECENT.get(recent)
    if kept is None or kept[0] <= time.time():
        stored = page_get(recent)
        if stored is None:
            return None
        until, _sep, value = stored.partition(b"\n")
        try:
            kept = (float(until), value)
        except ValueError:  # not one of these (a damaged entry): render instead
            return None
        if kept[0] <= time.time():
            return None
        _recent_keep(recent, kept)
    return kept[1]


def _recent_put(recent: str, value: bytes) -> None:
    """Keep the live page of the last second, here and for the other processes, until the second ends (the
    same moment for every copy: never older than ``ZAP_LIVE_COALESCE_SECONDS``)."""
    until = time.time() + settings.ZAP_LIVE_COALESCE_SECONDS
    page_put(recent, b"%.3f\n" % until + value, timeout=settings.ZAP_LIVE_COALESCE_SECONDS)
    _recent_keep(recent, (until, value))


def _recent_keep(recent: str, kept: tuple[float, bytes]) -> None:
    with _RECENT_LOCK:
        _RECENT[recent] = kept
        _RECENT.move_to_end(recent)
        while len(_RECENT) > _RECENT_MAX:
            _RECENT.popitem(last=False)


def _event_page_render(
    request, *, tournament, name: str, tab: str, build, live_version, key: str, recent: str | None, params: dict
) -> tuple[bytes, bool]:
    """Render an event page and keep it (when it is the page its parameters ask for) under ``key``, and as the
    live page of the last second under ``recent``; with whether it is that page (``canonical``)."""
    live = live_version is not None
    state = (
        tournament_live_get(tournament=tournament, live=live_version)
        if live
        else tournament_state_get(tournament=tournament)
    )
    page = build(state, **params)
    poll = POLL_SECONDS
    if live and any(j.status in Jogo.AT_TABLE for j in state.jogo_rows):
        poll = POLL_SECONDS_AT_TABLE
    context = {
        "state": state,
        "tab": tab,
        "event": presenters.event_head(state),
        "page": page,
        "updated_at": SafeString(NOW_MARK),
        "poll_seconds": poll,
    }
    body = render(request, name, context).content
    canonical = getattr(page, "canonical", True)  # the page its parameters ask for (without parameters: always)
    if canonical:
        page_put(key, body)
        if recent is not None:
            _recent_put(recent, key.encode() + b"\n" + body)
    return body, canonical


def _draft_page(request, *, tournament, name: str, tab: str, build, live: bool, params: dict) -> HttpResponse:
    """A draft's public page as the public will see it once published, for its staff: rendered each time (no
    cache, no ETag), with a notice that only the staff see it."""
    state = tournament_live_get(tournament=tournament) if live else tournament_state_get(tournament=tournament)
    context = {
        "state": state,
        "tab": tab,
        "event": presenters.event_head(state),
        "page": build(state, **params),
        "updated_at": presenters.time_br(timezone.now()),
        "poll_seconds": POLL_SECONDS,
        "draft": True,
    }
    response = render(request, name, context)
    add_never_cache_headers(response)
    patch_cache_control(response, private=True)
    return response


def _not_modified(request, *, key: str, now: str) -> HttpResponse | None:
    """304 when the browser holds the page of ``key`` as served at ``now`` (its ETag); None otherwise."""
    response = not_modified(request, etag=etag_make(key, now))
    if response is not None:
        patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


def _page_response(key: str, body: bytes, now: str) -> HttpResponse:
    """A rendered page as served: the time of the request in it, tagged by its key and that time."""
    response = HttpResponse(body.replace(NOW_MARK.encode(), now.encode()))
    response["ETag"] = etag_make(key, now)  # the page as served: its version, and the time it says it was updated
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


@read_only
def tournament_detail(request, slug: str):
    """The event: before it, who registered and the draws; on event day, what is happening now; after, the podium."""

    def build(state):
        tournament = state.tournament
        before = presenters.tournament_status(state).code == "upcoming"  # who registered: before the event only
        page = presenters.event_present(
            state,
            entrants=registrations_public(tournament=tournament) if before else None,
            draws=draws_public(tournament=tournament, state=state),
            called=calls_on_pages(tournament=tournament),
        )
        # attaching or detaching an etapa writes the tournament's pages anew (circuits.services._pages_follow)
        circuit = circuit_of(tournament_id=tournament.pk)
        return dataclasses.replace(page, circuit=(circuit.name, circuit.slug)) if circuit else page

    return _event_page(
        request, slug=slug, template="tournaments/detail.html", tab="detail", build=build, partial="agora", live=True
    )


@read_only
def tournament_duplas(request, slug: str):
    """Every dupla of the event, or those whose name or players' names match ``?q=`` ("encontre sua dupla")."""
    return _event_page(
        request,
        slug=slug,
        template="tournaments/duplas.html",
        tab="duplas",
        build=presenters.duplas_find,
        q=request.GET.get("q"),
    )


@read_only
def tournament_dupla(request, slug: str, key: str):
    """One dupla: its next jogo and mesa, its jogos, its group table, its path in the bracket (live)."""

    def build(state, key):
        page = presenters.dupla_present(state, key)
        if not page.found:
            raise Http404("dupla")
        ref = state.duplas[key]
        known = players_public(player_ids=[ref.player1.id, ref.player2.id])
        atletas = tuple((p.name, *known.get(p.id, ("", ""))) for p in (ref.player1, ref.player2))
        return dataclasses.replace(page, atletas=atletas)

    return _event_page(
        request,
        slug=slug,
        template="tournaments/dupla.html",
        tab="duplas",
        build=build,
        partial="dupla-corpo",
        live=True,
        key=key,
    )


@read_only
def tournament_standings(request, slug: str):
    return _event_page(
        request,
        slug=slug,
        template="tournaments/standings.html",
        tab="standings",
        build=presenters.standings_present,
        partial="tabelas",
        pagina=request.GET.get("pagina"),
        ver=request.GET.get("ver"),
    )


@read_only
def tournament_bracket(request, slug: str):
    return _event_page(
        request,
        slug=slug,
        template="tournaments/bracket.html",
        tab="bracket",
        build=presenters.bracket_present,
        partial="chave",
        live=True,
        secao=request.GET.get("secao"),
    )


@read_only
def tournament_jogos(request, slug: str):
    return _event_page(
        request,
        slug=slug,
        template="tournaments/jogos.html",
        tab="jogos",
        build=presenters.jogos_present,
        partial="jogos-lista",
        live=True,
        dupla=request.GET.get("dupla") or None,
        rodada=request.GET.get("rodada"),
    )


@read_only
def tournament_tv(request, slug: str):
    """The TV mode: full screen, large type, cycling between the live jogos, the standings and the bracket."""

    def build(state):
        page = presenters.tv_present(state, called=calls_on_pages(tournament=state.tournament))
        # an etapa: a last slide with its circuit's ranking (kept per circuit version, which is in the page's key:
        # a result in another etapa renews this page too)
        circuit = circuit_of(tournament_id=state.tournament.pk)
        standing = circuit_standing(circuit=circuit) if circuit is not None else None
        if standing is None:
            return page
        return presenters.tv_circuit_add(page, name=standing.circuit_name, rows=list(standing.rows))

    def circuit_version(tournament) -> str:
        circuit = circuit_of(tournament_id=tournament.pk)
        return "" if circuit is None else f"c{circuit.pk}.{circuit.version}"

    return _event_page(
        request, slug=slug, template="tournaments/tv.html", tab="tv", build=build, live=True, variant=circuit_version
    )


@read_only
def tournament_export_json(request, slug: str):
    """The tournament file, public data only (no PINs, birth dates or contacts)."""
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    data = tournament_export(tournament=tournament, include_private=False)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}.json"'
    return response
