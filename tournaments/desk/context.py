"""Template context for desk pages: the tournament of the URL and the user's role on it."""

from ..permissions import role_of


def desk(request):
    tournament = getattr(request, "desk_tournament", None)
    if tournament is None:
        return {}
    return {"tournament": tournament, "desk_role": role_of(user=request.user, tournament=tournament)}
