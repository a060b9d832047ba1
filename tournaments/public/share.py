"""Share cards (Open Graph images) and the words of a shared link: what each card says, and the views that serve it.

The cards (PNG, 1200×630, drawn by ``tournaments.sharecards``) show the current state of a page, so a link pasted
into a WhatsApp group shows it too:

- ``/torneios/<slug>/cartao.png``: the event (date, venue, duplas, jogos played, the champion once it is over);
- ``/torneios/<slug>/cartao-chave.png``: the last rounds of the bracket, with the champion;
- ``/torneios/<slug>/cartao-podio.png``: the podium (the top three duplas and their players);
- ``/circuitos/<slug>/cartao.png``: the top of a circuit's season ranking;
- ``/atletas/<key>/cartao.png``: an atleta's Nível, tournaments, wins and medals;
- ``/cartao.png``: the site's own card, for the pages of no event.

A card is drawn once per version of what it shows (an event's ``results_version``, a circuit's ``version``, the
atleta's values themselves) and kept in the shared cache under it: a new result makes a new key, nothing is ever
cleared by hand. The pages link it with ``?v=<version>``, so a service that keeps images by address (WhatsApp
does) fetches the new card after a result. Public data only: names, places, points; never a birth date, a contact
or a PIN.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from scoring.tournament import GroupStageView
from tournaments import presenters
from tournaments.atletas.selectors import AtletaHistory, atleta_history
from tournaments.caching import page_get, page_put, release, tournament_key
from tournaments.circuits.selectors import CircuitStanding, circuit_get, circuit_of, circuit_standing
from tournaments.presenters.bracket import BracketJogo
from tournaments.presenters.jogo import status_code
from tournaments.presenters.labels import weekday_br
from tournaments.public.visibility import event_for
from tournaments.selectors import tournament_by_slug, tournament_state_get
from tournaments.sharecards import Card, CardMatch, CardRow, card_png
from tournaments.web import etag_make, not_modified, read_only

if TYPE_CHECKING:
    from tournaments.models import Tournament
    from tournaments.state import TournamentState

KEEP_SECONDS = 7 * 24 * 3600  # a new version makes a new key: this only bounds what is kept
FRESH_SECONDS = 300  # a card asked for without its version (or an older one) may be this old in a browser
DONE = frozenset(("finished", "wo", "confirmed", "awaiting", "contested"))
EVENT_KINDS = ("evento", "chave", "podio")


# --- what the cards say --------------------------------------------------------------------------------------------


def site_address(path: str) -> str:
    """``path`` as a person reads it on a card: the site's host and the path, without the scheme."""
    return (settings.SITE_URL.split("://", 1)[-1] + path).rstrip("/") + ("/" if path.endswith("/") else "")


def event_subtitle(state: TournamentState) -> str:
    """ "sábado, 27/04/2024 · Bar Classe A, São Paulo": what and where, in one line."""
    t = state.tournament
    when = presenters.date_br(t.date)
    weekday = weekday_br(t.date)
    place = ", ".join(p for p in (t.venue, t.city) if p)
    return " · ".join(p for p in (f"{weekday}, {when}" if weekday and when else when, place) if p)


def jogos_count(state: TournamentState) -> tuple[int, int]:
    """(jogos decided, jogos with both duplas known): how far the event has gone."""
    rows = [r for r in state.jogo_rows if r.dupla_a_id is not None and r.dupla_b_id is not None]
    done = sum(1 for r in rows if status_code(state.results.get(r.id), r) in DONE)
    return done, len(rows)


def champion_of(state: TournamentState) -> str:
    rows = presenters.classification_present(state, medals_only=True)
    return rows[0].dupla.name if rows and rows[0].medal == "gold" else ""


def _badge(state: TournamentState) -> tuple[str, str]:
    status = presenters.tournament_status(state)
    return status.label, str(status.code)


def event_card(state: TournamentState, *, circuit: str = "") -> Card:
    """The event: date and venue, how many duplas, how many jogos played; the champion once it is over (else the
    circuit it is an etapa of)."""
    t = state.tournament
    badge, tone = _badge(state)
    done, total = jogos_count(state)
    facts = [(str(len(state.duplas)), npgettext("share card", "dupla", "duplas", len(state.duplas)))]
    if total:
        facts.append((_("%(done)s de %(total)s") % {"done": done, "total": total}, _("jogos jogados")))
    groups = sum(len(v.tables) for v in state.view.stages if isinstance(v, GroupStageView))
    if groups:
        facts.append((str(groups), npgettext("share card", "grupo", "grupos", groups)))
    champion = champion_of(state)
    if champion:
        highlight = _("Campeã: %(name)s") % {"name": champion}
    elif circuit:
        highlight = _("Etapa do circuito %(name)s") % {"name": circuit}
    elif tone == "upcoming":
        start = presenters.time_br(t.start_time)
        highlight = _("Começa às %(time)s") % {"time": start} if start else _("Em breve")
    else:
        highlight = _("Classificação, chave e placares ao vivo")
    return Card(
        title=t.name,
        subtitle=event_subtitle(state),
        badge=badge,
        badge_tone=tone,
        facts=tuple(facts),
        highlight=highlight,
        footer=site_address(t.get_absolute_url()),
    )


def podium_card(state: TournamentState) -> Card:
    """The top three duplas with their medals and players; before the end, a word that it comes then."""
    t = state.tournament
    badge, tone = _badge(state)
    rows = tuple(
        CardRow(
            place=row.place_label,
            name=row.dupla.name,
            detail=row.players_text if row.show_players else "",
            medal=row.medal,
        )
        for row in presenters.classification_present(state, medals_only=True)
    )
    return Card(
        title=t.name,
        subtitle=_("Pódio") + (" · " + presenters.date_br(t.date) if t.date else ""),
        badge=badge,
        badge_tone=tone,
        rows=rows,
        empty="" if rows else _("O pódio sai quando o torneio terminar."),
        footer=site_address(t.get_absolute_url()),
    )


def _match(jogo: BracketJogo) -> CardMatch:
    sides = [*jogo.slots[:2], None, None][:2]
    a, b = sides
    return CardMatch(
        a=a.label if a is not None else "",
        b=b.label if b is not None else "",
        score_a="" if a is None or a.score is None else str(a.score),
        score_b="" if b is None or b.score is None else str(b.score),
        winner=next((n for n, s in enumerate(sides) if s is not None and s.winner), None),
    )


BRACKET_ROUNDS = 3  # the quarterfinals, the semifinals and the final: what a card can show legibly


def bracket_card(state: TournamentState) -> Card:
    """The last rounds of the (last) bracket, each jogo's partidas won, the champion; before the draw, a word."""
    t = state.tournament
    badge, tone = _badge(state)
    page = presenters.bracket_present(state)
    stage = next((s for s in reversed(page.stages) if s.drawn and s.rounds), None)
    rounds: tuple[tuple[str, tuple[CardMatch, ...]], ...] = ()
    champion = ""
    if stage is not None:
        rounds = tuple((r.name, tuple(_match(j) for j in r.jogos)) for r in stage.rounds[-BRACKET_ROUNDS:])
        champion = stage.champion.name if stage.champion else ""
    return Card(
        title=t.name,
        subtitle=_("Chave"),
        badge=badge,
        badge_tone=tone,
        rounds=rounds,
        highlight=_("Campeã: %(name)s") % {"name": champion} if champion else "",
        empty="" if rounds else _("A chave ainda não foi sorteada."),
        footer=site_address(reverse("tournaments:bracket", args=[t.slug])),
    )


RANKING_ROWS = 10


def circuit_card(standing: CircuitStanding) -> Card:
    """The top of the season ranking: place, atleta, equipe, points."""
    counted, total = len(standing.counted), len(standing.etapas)
    rows = tuple(
        CardRow(
            place=f"{row.rank}º",
            name=row.name,
            detail=row.team,
            value=ngettext("%(n)s pt", "%(n)s pts", row.points) % {"n": row.points},
            medal={1: "gold", 2: "silver", 3: "bronze"}.get(row.rank, "") if counted else "",
        )
        for row in standing.rows[:RANKING_ROWS]
    )
    return Card(
        title=standing.circuit_name,
        subtitle=_("Ranking · %(counted)s de %(total)s etapas") % {"counted": counted, "total": total},
        badge=_("circuito"),
        rows=rows,
        empty="" if rows else _("O ranking começa quando a primeira etapa terminar."),
        footer=site_address(reverse("circuit", args=[standing.circuit_slug])),
    )


def atleta_card(history: AtletaHistory) -> Card:
    """An atleta: Nível, tournaments, jogos counted, wins, medals; their best place lately, highlighted."""
    a = history.atleta
    medals = sum(1 for e in history.events if e.medal)
    level = history.level + (f" · {history.score}" if history.score is not None else "")
    facts = (
        (str(len(history.events)), npgettext("share card", "torneio", "torneios", len(history.events))),
        (str(history.played), npgettext("share card", "jogo contado", "jogos contados", history.played)),
        (str(history.won), npgettext("share card", "vitória", "vitórias", history.won)),
        (str(medals), npgettext("share card", "medalha", "medalhas", medals)),
    )
    medalled = [e for e in history.events if e.place and e.medal]  # newest first
    podium = min(medalled, key=lambda e: e.place or 0) if medalled else None  # the best; of equals, the latest
    highlight = (
        _("%(place)sº lugar · %(event)s") % {"place": podium.place, "event": podium.tournament.name} if podium else ""
    )
    return Card(
        title=a.name,
        subtitle=_("Nível: %(level)s") % {"level": level},
        badge=_("atleta"),
        facts=facts,
        highlight=highlight,
        footer=site_address(reverse("atleta", args=[a.key])),
    )


def site_card() -> Card:
    return Card(
        title=_("Torneios de truco em dupla"),
        subtitle=_("Inscrições, sorteios, súmulas, classificação, chave e placares ao vivo"),
        facts=(("♣", _("grupos e chave")), ("♥", _("placares ao vivo")), ("♠", _("rankings")), ("♦", _("súmulas"))),
        footer=site_address("/"),
    )


# --- serving them --------------------------------------------------------------------------------------------------


def card_response(
    request: HttpRequest, *, key: str, version: str, draw: Callable[[], Card], keep: bool = True
) -> HttpResponse:
    """The card kept under ``key`` (drawn by ``draw()`` the first time), tagged with its key; a 304 when the client
    has it. Asked for with its current ``?v=``, a browser or a proxy may keep it a day; otherwise a few minutes.
    ``keep`` False (a draft's card): drawn each time and kept by no one."""
    etag = etag_make(key)
    unchanged = not_modified(request, etag=etag)
    if unchanged is not None:
        return unchanged
    body = page_get(key) if keep else None
    if body is None:
        body = card_png(draw())
        if keep:
            page_put(key, body, timeout=KEEP_SECONDS)
    response = HttpResponse(body, content_type="image/png")
    response["ETag"] = etag
    response["Content-Length"] = str(len(body))
    response["X-Content-Type-Options"] = "nosniff"
    if not keep:
        patch_cache_control(response, private=True, no_store=True)
    elif request.GET.get("v") == version:
        patch_cache_control(response, public=True, max_age=24 * 3600)
    else:
        patch_cache_control(response, public=True, max_age=FRESH_SECONDS)
    return response


def event_card_key(tournament: Tournament, kind: str) -> str:
    return f"sharecard:{tournament_key(tournament)}:{kind}:{translation.get_language()}"


def event_version(tournament: Tournament) -> str:
    return f"r{tournament.results_version}"


def _event_card(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    tournament = event_for(request, tournament_by_slug(slug=slug))

    def draw() -> Card:
        state = tournament_state_get(tournament=tournament)
        if kind == "chave":
            return bracket_card(state)
        if kind == "podio":
            return podium_card(state)
        circuit = circuit_of(tournament_id=tournament.pk)
        return event_card(state, circuit=circuit.name if circuit else "")

    return card_response(
        request,
        key=event_card_key(tournament, kind),
        version=event_version(tournament),
        draw=draw,
        keep=tournament.published,
    )


@read_only
def event_card_png(request: HttpRequest, slug: str) -> HttpResponse:
    return _event_card(request, slug, "evento")


@read_only
def bracket_card_png(request: HttpRequest, slug: str) -> HttpResponse:
    return _event_card(request, slug, "chave")


@read_only
def podium_card_png(request: HttpRequest, slug: str) -> HttpResponse:
    return _event_card(request, slug, "podio")


def circuit_version(circuit: Any) -> str:
    return f"v{circuit.version}"


@read_only
def circuit_card_png(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = circuit_get(slug=slug)
    if circuit is None:
        raise Http404("circuito")
    key = (
        f"sharecard:circuit:{release()}:{circuit.pk}.{circuit.created_at.timestamp():.6f}:"
        f"{circuit_version(circuit)}:{translation.get_language()}"
    )

    def draw() -> Card:
        standing = circuit_standing(circuit=circuit)
        assert standing is not None  # the ranking as it stands always exists
        return circuit_card(standing)

    return card_response(request, key=key, version=circuit_version(circuit), draw=draw)


def atleta_version(history: AtletaHistory) -> str:
    """The atleta's card as a version: a digest of what it says (an atleta has no version of its own)."""
    return hashlib.sha256(repr(atleta_card(history)).encode()).hexdigest()[:16]


@read_only
def atleta_card_png(request: HttpRequest, key: str) -> HttpResponse:
    history = atleta_history(key=key)
    if history is None:
        raise Http404("atleta")
    version = atleta_version(history)
    cache_key = f"sharecard:atleta:{release()}:{key}:{version}:{translation.get_language()}"
    return card_response(request, key=cache_key, version=version, draw=lambda: atleta_card(history))


@read_only
def site_card_png(request: HttpRequest) -> HttpResponse:
    key = f"sharecard:site:{release()}:{settings.SITE_URL}:{translation.get_language()}"
    return card_response(request, key=key, version=release(), draw=site_card)
