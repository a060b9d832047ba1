"""/organizar/<slug>/sorteios/duplas/: the pairing draw of individual entrants (docs/regras.md §2 step 3)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..draws import services
from ..draws.selectors import pairing_overview
from ..permissions import desk_view
from ..refusals import Refused
from ..web import refusal_messages


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def pairing(request, tournament):
    if request.method == "POST":
        try:
            draw = services.pairing_run(tournament=tournament, user=request.user)
        except Refused as exc:
            refusal_messages(request, exc)  # shown on this very page (200), nothing written
        else:
            messages.success(
                request,
                _("Duplas sorteadas (semente %(seed)d): %(n)d duplas formadas.")
                % {"seed": draw.seed, "n": len(draw.result["duplas"])},
            )
            return redirect("desk:pairing", slug=tournament.slug)
    return render(
        request,
        "desk/draws/pairing.html",
        {
            "desk_tab": "duplas",
            "overview": pairing_overview(tournament=tournament),
        },
    )
