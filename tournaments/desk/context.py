"""Template context for desk pages: the tournament of the URL and what the user may do there (``DeskRights``)."""

from django.http import HttpRequest

from ..draws.format import knockout_only
from ..permissions import desk_rights


def desk(request: HttpRequest) -> dict[str, object]:
    """The tournament, the user's rights, and ``knockout_only`` (a knockout alone: the pages say "chave", not
    "grupos e chave")."""
    tournament = getattr(request, "desk_tournament", None)
    if tournament is None:
        return {}
    return {
        "tournament": tournament,
        "desk_rights": desk_rights(user=request.user, tournament=tournament),
        "knockout_only": knockout_only(tournament=tournament),
    }
