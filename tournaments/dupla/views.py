"""A dupla's own page, opened by its private link (128-bit token, ``models.new_private_token``).

It shows what the public pages show, for this dupla only: its jogos and the
tables of its groups, and the súmulas waiting for its answer, which it
confirms or contests right there (docs/regras.md §2 step 6, §8): the link itself
authenticates the dupla (no PIN needed; the PIN is for the API and the mesa).
The address is the secret: the page is never cached by shared caches, never
indexed, and sends no Referer to the pages it links to.
"""

import re

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from scoring.sumula import CONFIRMED
from tournaments.dupla.presenters import dupla_page_present
from tournaments.permissions import may_open_private_link
from tournaments.refusals import Refused
from tournaments.staff.selectors import dupla_by_token, link_replaced
from tournaments.sumula.services import Actor, sumula_answer
from tournaments.web import request_device

CONFIRM, CONTEST_CHOICE = "confirmar", "contestar"
REASON_MAX = 300


def _private(response):
    patch_cache_control(response, private=True, no_cache=True, max_age=0)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _not_found(request, token: str):
    """No dupla has this link: 410 with a page saying so if it was replaced by a new card, else 404."""
    if link_replaced(token=token):
        return _private(render(request, "privatelink/replaced.html", status=410))
    raise Http404("link não encontrado")


@require_safe
def dupla_page_view(request, token: str):
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    page = dupla_page_present(dupla=dupla)
    context = {"page": page, "event": page["event"], "token": token, "reason_max": REASON_MAX}
    return _private(render(request, "privatelink/dupla.html", context))


@csrf_exempt
@require_POST
def dupla_answer_view(request, token: str, key: str):
    """The dupla confirms or contests the súmula of one of its jogos; back to its page with what happened.

    The private link is the dupla's credential: a forged request would need the 128-bit token in its
    address, so no CSRF token is asked. (The page sends ``Referrer-Policy: no-referrer`` to keep the
    token out of other sites' logs; browsers then send ``Origin: null`` with the form, which Django's
    CSRF check refuses: a real phone got 403.) The form carries the
    via it showed: if the súmula was corrected meanwhile, nothing is answered (the dupla reads it first).
    """
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    back = reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"
    choice = request.POST.get("resposta")
    reason = request.POST.get("motivo", "")
    if choice not in (CONFIRM, CONTEST_CHOICE):
        messages.error(request, _("Escolha confirmar ou contestar a súmula."))
        return _private(redirect(back))
    shown = request.POST.get("via", "")
    if not re.fullmatch(r"[0-9]{1,9}", shown):
        messages.error(
            request,
            _(
                "Não foi possível responder à súmula do jogo %(key)s: falta a via que a página "
                "mostrou ('via'); confira a súmula abaixo e responda de novo."
            )
            % {"key": key},
        )
        return _private(redirect(back))
    try:
        # the via is checked under the jogo's lock: if the súmula was corrected after this page was opened, even
        # while this answer was on its way, nothing is answered (the dupla reads the new via first)
        written = sumula_answer(
            tournament=dupla.tournament,
            key=key,
            dupla=dupla,
            via=int(shown),
            accept=choice == CONFIRM,
            reason=reason,
            actor=Actor(dupla=dupla, method="link", device=request_device(request)),
        )
    except Refused as refused:
        for error in refused.messages:
            messages.error(
                request,
                _("Não foi possível responder à súmula do jogo %(key)s: %(error)s") % {"key": key, "error": error},
            )
        return _private(redirect(back))
    if choice == CONFIRM:
        text = _("Sua dupla confirmou a súmula do jogo %(key)s.")
        if written.jogo.status == CONFIRMED:
            text += " " + _("As duas duplas confirmaram: o resultado já conta na classificação.")
    else:
        text = _("Sua dupla contestou a súmula do jogo %(key)s. O árbitro vai analisar e decidir.")
    messages.success(request, text % {"key": key})
    return _private(redirect(back))
