"""/torneios/<slug>/jogos/<key>/: one jogo's súmula as the paper sheet shows it, live while it is played.

Every mão with its running score in two columns, the partidas, walkover and
penalties with their reasons, the duplas' confirmations, the signature and the
via (a corrected súmula links to its earlier vias, ``?via=N``). The printed
súmula's QR code points here, so the page must read well on a phone.

Public data only: no PIN, no contact, no birth date and no account name; who
signed is told by role ("árbitro" / "organização"), who confirmed by dupla.
While the súmula is not homologated, its main content is a partial that htmx
polls every 10 s (the page works without JavaScript: a reload shows the same).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from tournaments import presenters
from tournaments.models import Jogo, Tournament
from tournaments.presenters.sumula import sumula_present
from tournaments.public.visibility import event_for
from tournaments.selectors import tournament_live_get
from tournaments.sumula.selectors import jogo_for_sumula, sumula_get
from tournaments.web import read_only

PARTIAL = "sumula-conteudo"
POLL_SECONDS = 10

# --- the view ------------------------------------------------------------------------------------------


def via_param(value: str | None) -> int | None:
    """``?via=N`` as a number; absent → None; anything but a via number → 404."""
    if value is None:
        return None
    if not value.isascii() or not value.isdigit() or int(value) < 1 or len(value) > 5:
        raise Http404("via inexistente")
    return int(value)


def sumula_jogo_or_404(request, *, slug: str, key: str) -> tuple[Tournament, Jogo]:
    """The tournament and the jogo of a public súmula address; 404 when either does not exist, or when the
    event is a draft the request's user may not see."""
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    jogo = jogo_for_sumula(tournament=tournament, key=key)
    if jogo is None:
        raise Http404("jogo não encontrado")
    return tournament, jogo


@read_only
def sumula_page(request, slug: str, key: str):
    tournament, jogo = sumula_jogo_or_404(request, slug=slug, key=key)
    data = sumula_get(tournament=tournament, jogo=jogo, via=via_param(request.GET.get("via")))
    if data is None:
        raise Http404("via inexistente")
    state = tournament_live_get(tournament=tournament)
    sheet = sumula_present(state=state, tournament=tournament, jogo=jogo, data=data)
    name = "tournaments/sumula.html"
    if request.htmx and request.htmx.target == PARTIAL:
        name += "#" + PARTIAL
    context = {
        "event": presenters.event_head(state),
        "tab": "jogos",
        "sheet": sheet,
        "poll_seconds": POLL_SECONDS,
        "updated_at": presenters.time_br(timezone.now()),
        "self_url": request.get_full_path(),
    }
    response: HttpResponse = render(request, name, context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response
