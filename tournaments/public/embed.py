"""Embeds: an event's standings, bracket, next jogos and live scores, and a circuit's ranking, made to sit in an
``<iframe>`` on another site (a federation's, a club's): no site chrome, light or dark, their height told to the
page around them (``static/js/embed-height.js``), refreshed by htmx like the pages they mirror.

These are the only pages another site may frame: their Content-Security-Policy says ``frame-ancestors`` from
``ZAP_EMBED_ANCESTORS`` (default ``*``: any site) and they send no ``X-Frame-Options``; every other page keeps
``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (``config/settings.py``).

``?tema=escuro`` or ``?tema=claro`` fixes the theme; without it the page follows the visitor's system
(``prefers-color-scheme``). An event's embeds are cached like its pages (``views._event_page``: per version,
theme and parameters, ETag, 304), so an embed costs what the page it mirrors costs; the circuit's, like the
circuit's pages (``circuits._tagged``). Public data only, as on the pages.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse

from tournaments import presenters
from tournaments.atletas.selectors import atletas_apart
from tournaments.calls.selectors import calls_on_pages
from tournaments.circuits.selectors import circuit_get, circuit_page
from tournaments.public import circuits as circuit_pages
from tournaments.public import views as pages
from tournaments.public.circuit_view import ranking_page_of
from tournaments.public.paging import page_link, page_number
from tournaments.web import read_only

if TYPE_CHECKING:
    from tournaments.state import TournamentState

THEMES = {"escuro": "escuro", "claro": "claro"}  # ?tema= → the page's class; absent: the visitor's system
IN_PLAY_SHOWN = 48
NEXT_SHOWN = 64
LATEST_SHOWN = 8
RANKING_ROWS = 30


def embed_policy() -> dict[str, Any]:
    """The site's Content-Security-Policy with the framing allowed: the same, ``frame-ancestors`` aside."""
    return {**settings.SECURE_CSP, "frame-ancestors": list(settings.ZAP_EMBED_ANCESTORS)}


def embeddable(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """A page other sites may frame: its policy allows ``ZAP_EMBED_ANCESTORS`` as ancestors, and the clickjacking
    middleware leaves out ``X-Frame-Options`` (which has no value for "these sites")."""

    @functools.wraps(view)
    def framed(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        response._csp_config = embed_policy()  # type: ignore[attr-defined]  # read by Django's CSP middleware
        response.xframe_options_exempt = True  # type: ignore[attr-defined]  # read by XFrameOptionsMiddleware
        return response

    return framed


def theme_of(value: str | None) -> tuple[str, bool]:
    """(the theme's class, whether ``?tema=`` was absent or one of ours): a made-up theme is not cached."""
    if value is None or value == "":
        return "", value is None
    theme = THEMES.get(value)
    return (theme or ""), theme is not None


@dataclass(frozen=True, slots=True)
class EmbedPage:
    """What an embed shows: the page's own value (``content``), the theme, the page on the site it mirrors."""

    content: Any
    theme: str
    site_url: str
    canonical: bool
    query: str = ""  # "?tema=escuro": kept in the embed's own links (pages, the live poll)


def _query(base: str = "", *, tema: str | None) -> str:
    """The embed's query string: the page's own (``?pagina=3``), and the theme when one was chosen."""
    if not tema:
        return base
    return f"{base}&tema={tema}" if base else f"?tema={tema}"


def _embed(
    request: HttpRequest, *, slug: str, name: str, tab: str, build: Callable[..., EmbedPage], live: bool, **params: Any
) -> HttpResponseBase:
    """An event's embed through the event pages' machinery: cached per version (and live version), theme and
    parameters, its live part (``embed-corpo``) polled by htmx."""
    return pages._event_page(
        request,
        slug=slug,
        template=f"embed/{name}.html",
        tab=f"embed-{tab}",
        build=build,
        partial="embed-corpo",
        live=live,
        **params,
    )


@embeddable
@read_only
def standings_embed(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The group tables (their pages on a big event: ``?pagina=``), and the general classification once over."""

    def build(state: TournamentState, pagina: str | None, ver: str | None, tema: str | None) -> EmbedPage:
        theme, ok = theme_of(tema)
        content = presenters.standings_present(state, pagina=pagina, ver=ver)
        site = reverse("tournaments:standings", args=[state.tournament.slug])
        return EmbedPage(
            content=content,
            theme=theme,
            site_url=site + content.query,
            canonical=ok and content.canonical,
            query=_query(content.query, tema=tema if ok else None),
        )

    return _embed(
        request,
        slug=slug,
        name="standings",
        tab="standings",
        build=build,
        live=False,
        pagina=request.GET.get("pagina"),
        ver=request.GET.get("ver"),
        tema=request.GET.get("tema"),
    )


@embeddable
@read_only
def bracket_embed(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The bracket with its live scores (a big one from the round of 32 on; ``?secao=`` for a section)."""

    def build(state: TournamentState, secao: str | None, tema: str | None) -> EmbedPage:
        theme, ok = theme_of(tema)
        content = presenters.bracket_present(state, secao=secao)
        site = reverse("tournaments:bracket", args=[state.tournament.slug])
        return EmbedPage(
            content=content,
            theme=theme,
            site_url=site + content.query,
            canonical=ok and content.canonical,
            query=_query(content.query, tema=tema if ok else None),
        )

    return _embed(
        request,
        slug=slug,
        name="bracket",
        tab="bracket",
        build=build,
        live=True,
        secao=request.GET.get("secao"),
        tema=request.GET.get("tema"),
    )


def _now_embed(request: HttpRequest, slug: str, *, kind: str) -> HttpResponseBase:
    def build(state: TournamentState, tema: str | None) -> EmbedPage:
        theme, ok = theme_of(tema)
        if kind == "proximos":
            now = presenters.now_present(state, in_play_limit=0, next_limit=NEXT_SHOWN, latest_limit=0)
            called = presenters.now.called_present(state, called=calls_on_pages(tournament=state.tournament))
        else:
            now = presenters.now_present(state, in_play_limit=IN_PLAY_SHOWN, next_limit=0, latest_limit=LATEST_SHOWN)
            called = []
        return EmbedPage(
            content={"now": now, "called": called, "kind": kind},
            theme=theme,
            site_url=reverse("tournaments:jogos", args=[state.tournament.slug]),
            canonical=ok,
            query=_query(tema=tema if ok else None),
        )

    return _embed(request, slug=slug, name="jogos", tab=kind, build=build, live=True, tema=request.GET.get("tema"))


@embeddable
@read_only
def next_embed(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The next jogos: the earliest round still to play, by mesa, and the jogos called to their mesa."""
    return _now_embed(request, slug, kind="proximos")


@embeddable
@read_only
def live_embed(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The live scores: the jogos at the mesas, the partida being played, and the latest results."""
    return _now_embed(request, slug, kind="ao-vivo")


@embeddable
@read_only
def circuit_embed(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A circuit's season ranking as it stands, ``RANKING_ROWS`` atletas a page (``?pagina=``)."""
    circuit = circuit_get(slug=slug)
    if circuit is None:
        raise Http404("circuito")

    def respond() -> HttpResponse:
        theme, ok = theme_of(request.GET.get("tema"))
        read = circuit_page(
            circuit=circuit,
            after=None,
            q="",
            page=page_number(request.GET.get("pagina")),
            per_page=RANKING_ROWS,
        )
        assert read is not None  # the ranking as it stands always exists
        apart = atletas_apart(atletas=[(row.key, row.name) for row in read.rows])
        ranking = ranking_page_of(page=read, apart=apart)
        tema = request.GET.get("tema") if ok else None
        page = EmbedPage(
            content=ranking,
            theme=theme,
            site_url=reverse("circuit", args=[circuit.slug]),
            canonical=ok,
            query=_query(tema=tema),
        )
        links = {
            "prev_link": page_link(pagina=ranking.number - 1, tema=tema or ""),
            "next_link": page_link(pagina=ranking.number + 1, tema=tema or ""),
        }
        return render(request, "embed/circuit.html", {"page": page, "s": read, **links})

    return circuit_pages._tagged(request, circuit, "embed", respond)
