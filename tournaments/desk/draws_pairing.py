"""/organizar/<slug>/sorteios/duplas/: the pairing draw of individual entrants (docs/regras.md §2 step 3).

"Sortear as duplas" shows a preview (the duplas a new seed makes, and who
stays waiting), writing nothing of the event; every preview shown is recorded
as a roll (``draws.rolls``), once per token, so a reload is not a new roll.
"Confirmar estas duplas" writes exactly the previewed duplas; when the
registrations changed in between, nothing is written and the new preview is
shown. "Desfazer o sorteio" undoes the newest pairing draw, with a reason,
while nothing depends on it.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..draws import services
from ..draws.rolls import roll_token_new
from ..draws.selectors import pairing_overview
from ..permissions import desk_view
from ..refusals import Refused
from ..web import refusal_messages
from .draw_forms import PairingUndoForm


def _render(request, tournament, *, roll=None, preview=None, undo_form=None):
    overview = pairing_overview(tournament=tournament)
    return render(
        request,
        "desk/draws/pairing.html",
        {
            "desk_tab": "duplas",
            "overview": overview,
            "roll": roll,
            "preview": preview,
            "token": roll_token_new(),  # the next "Sortear": a new roll
            "undo_form": undo_form or PairingUndoForm(initial={"draw": overview.last.pk if overview.last else None}),
        },
    )


def _show(request, tournament, *, token: str, seed: int | None = None):
    try:
        roll, preview = services.pairing_roll(tournament=tournament, user=request.user, token=token, seed=seed)
    except Refused as exc:
        refusal_messages(request, exc)  # shown on this very page (200), nothing written
        return _render(request, tournament)
    return _render(request, tournament, roll=roll, preview=preview)


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def pairing(request, tournament):
    if request.method != "POST":
        return _render(request, tournament)
    if request.POST.get("action") != "confirm":  # "Sortear as duplas" (again): a preview, recorded as a roll
        return _show(request, tournament, token=request.POST.get("token", ""))
    try:
        draw = services.pairing_confirm(tournament=tournament, user=request.user, token=request.POST.get("roll", ""))
    except services.PairingChanged as exc:
        refusal_messages(request, exc)
        return _show(request, tournament, token="", seed=exc.seed)  # the new preview of the same seed
    except Refused as exc:
        refusal_messages(request, exc)
        return _render(request, tournament)
    messages.success(
        request,
        _("Duplas sorteadas (semente %(seed)d): %(n)d duplas formadas.")
        % {"seed": draw.seed, "n": len(draw.result["duplas"])},
    )
    return redirect("desk:pairing", slug=tournament.slug)


@desk_view()
@require_POST
def pairing_undo(request, tournament):
    form = PairingUndoForm(request.POST)
    if form.is_valid():
        try:
            services.pairing_undo(
                tournament=tournament,
                user=request.user,
                draw=form.cleaned_data["draw"],
                reason=form.cleaned_data["reason"],
            )
        except Refused as exc:
            refusal_messages(request, exc)
        else:
            messages.success(
                request, _("Sorteio das duplas desfeito: os atletas voltaram a aguardar o sorteio, como antes dele.")
            )
            return redirect("desk:pairing", slug=tournament.slug)
    return _render(request, tournament, undo_form=form)
