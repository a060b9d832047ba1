"""The door of every desk view: signed in, then the tournament's role (``tournaments.permissions``)."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required

from ..permissions import ORGANIZE, REFEREE_DESK, desk_tournament_get

__all__ = ["desk_view", "ORGANIZE", "REFEREE_DESK"]


def desk_view(need: str = ORGANIZE):
    """Wrap a view ``view(request, tournament, ...)`` reached as ``/organizar/<slug>/...``.

    Anonymous → ``/entrar/?next=…``; no role on the tournament → 404; a role
    that is not enough → 403. The view gets the Tournament instead of the slug.
    """
    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, slug: str, *args, **kwargs):
            tournament = desk_tournament_get(user=request.user, slug=slug, need=need)
            request.desk_tournament = tournament
            return view(request, tournament, *args, **kwargs)
        wrapper.desk_need = need
        return wrapper
    return decorate
