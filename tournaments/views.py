"""Public pages: thin views over selectors and presenters; every page works without JavaScript.

Pages with live content (classificação, chave, jogos) wrap it in a template
partial that htmx polls every 30 s; a poll asks for that partial only.
"""

import json

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers

from . import presenters
from .interchange.writer import tournament_export
from .models import Tournament
from .selectors import tournament_list as tournaments_all
from .selectors import tournament_state_get


def tournament_list(request):
    rows = presenters.tournament_list_rows(tournaments_all())
    return render(request, "tournaments/list.html", {"rows": rows})


def _state(slug: str):
    return tournament_state_get(tournament=get_object_or_404(Tournament, slug=slug))


def _event_page(request, *, slug: str, template: str, tab: str, build, partial: str = "", **kwargs):
    """Render an event page, or only its live ``partial`` when htmx polls that element."""
    state = _state(slug)
    context = {"state": state, "tab": tab, "event": presenters.event_head(state), "page": build(state, **kwargs)}
    name = template
    if partial and request.htmx and request.htmx.target == partial:
        name = f"{template}#{partial}"
    response = render(request, name, context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


def tournament_detail(request, slug: str):
    return _event_page(request, slug=slug, template="tournaments/detail.html", tab="detail",
                       build=presenters.event_present)


def tournament_standings(request, slug: str):
    return _event_page(request, slug=slug, template="tournaments/standings.html", tab="standings",
                       build=presenters.standings_present, partial="tabelas")


def tournament_bracket(request, slug: str):
    return _event_page(request, slug=slug, template="tournaments/bracket.html", tab="bracket",
                       build=presenters.bracket_present, partial="chave")


def tournament_jogos(request, slug: str):
    return _event_page(request, slug=slug, template="tournaments/jogos.html", tab="jogos",
                       build=presenters.jogos_present, partial="jogos-lista", dupla=request.GET.get("dupla") or None)


def tournament_export_json(request, slug: str):
    """The tournament file, public data only (no PINs, birth dates or contacts)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    data = tournament_export(tournament=tournament, include_private=False)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}.json"'
    return response
