"""Public pages: thin views over selectors; every page works without JavaScript."""

import json

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from .interchange.writer import tournament_export
from .models import Tournament
from .selectors import tournament_list as tournaments_all
from .selectors import tournament_state_get


def tournament_list(request):
    return render(request, "tournaments/list.html", {"tournaments": tournaments_all()})


def _state(slug: str):
    return tournament_state_get(tournament=get_object_or_404(Tournament, slug=slug))


def tournament_detail(request, slug: str):
    return render(request, "tournaments/detail.html", {"state": _state(slug)})


def tournament_standings(request, slug: str):
    return render(request, "tournaments/standings.html", {"state": _state(slug)})


def tournament_bracket(request, slug: str):
    return render(request, "tournaments/bracket.html", {"state": _state(slug)})


def tournament_jogos(request, slug: str):
    return render(request, "tournaments/jogos.html", {"state": _state(slug)})


def tournament_export_json(request, slug: str):
    """The tournament file, public data only (no PINs, birth dates or contacts)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    data = tournament_export(tournament=tournament, include_private=False)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}.json"'
    return response
