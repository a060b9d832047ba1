"""/organizar/<slug>/arbitragem/pins/<dupla>/desbloquear/: the referee (or an organizer) unlocks a dupla's PIN.

A dupla whose PIN is locked by wrong guesses (``sumula.pins``) asks the referee
at the table; the button sits next to the dupla on the referee's jogo screen
and on the desk's PINs page. POST only (CSRF), audited by ``pin_unlock``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Dupla, Jogo
from tournaments.permissions import REFEREE_DESK, desk_view, may_organize
from tournaments.sumula.pins import pin_unlock

BACK_DESK = "desk"


def _back(request, tournament) -> str:
    """Where the button was: the jogo's screen (``jogo``), the desk's PINs page (``volta=desk``), or the list."""
    if request.POST.get("volta") == BACK_DESK and may_organize(user=request.user, tournament=tournament):
        return reverse("desk:pins", kwargs={"slug": tournament.slug})
    key = request.POST.get("jogo", "")
    if Jogo.objects.filter(tournament=tournament, key=key).exists():  # (a NUL never gets here: config.errors)
        return reverse("referee:jogo", kwargs={"slug": tournament.slug, "key": key}) + "#confirmacao"
    return reverse("referee:list", kwargs={"slug": tournament.slug})


@require_POST
@desk_view(need=REFEREE_DESK)
def pin_unlock_view(request, tournament, dupla: str):
    target = Dupla.objects.filter(tournament=tournament, key=dupla).select_related("player1", "player2").first()
    if target is None:
        raise Http404("dupla não encontrada")
    pin_unlock(tournament=tournament, dupla=target, by=request.user)
    messages.success(
        request,
        _("PIN da dupla %(dupla)s desbloqueado: ela já pode digitar o PIN de novo.") % {"dupla": target.display_name},
    )
    return redirect(_back(request, tournament))
