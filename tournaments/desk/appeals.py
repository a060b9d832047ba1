"""/organizar/<slug>/recursos/: the appeals (recursos) of an event and the comissão organizadora's decisions.

The list shows the appeals waiting for a decision first, each with its decision form (deferido / indeferido and
the reason); a POST decides one (``sumula.appeals.appeal_decide``). An upheld appeal leads to the jogo's
correction form on the referee's screen, prefilled with the appeal (``?recurso=<id>#correcao``): the correction
itself stays a separate act, recorded as a new via.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.desk.referee_forms import AppealDecisionForm
from tournaments.permissions import desk_view
from tournaments.presenters.sumula import when_br
from tournaments.refusals import Refused
from tournaments.roles import display_name
from tournaments.sumula.appeals import appeal_decide
from tournaments.sumula.locked import Actor
from tournaments.sumula.selectors import appeals_list
from tournaments.web import request_device

STATUS_OF = {Refused.INVALID: 400, Refused.CONFLICT: 409, Refused.FORBIDDEN: 403, Refused.NOT_FOUND: 404}


def appeal_correction_url(*, slug: str, key: str, appeal_id: int) -> str:
    """The jogo's correction form, prefilled with an upheld appeal."""
    return reverse("referee:jogo", args=[slug, key]) + f"?recurso={appeal_id}#correcao"


def _rows(tournament, forms: dict[int, AppealDecisionForm]) -> list[dict]:
    rows = []
    for a in appeals_list(tournament=tournament):
        jogo = a.jogo
        rows.append(
            {
                "appeal": a,
                "jogo": jogo,
                "filed": when_br(a.filed_at),
                "decided": when_br(a.decided_at),
                "decided_by": display_name(a.decided_by),
                "stale": a.via != jogo.via,
                "form": forms.get(a.pk) or AppealDecisionForm(auto_id=f"recurso-{a.pk}-%s"),
                "jogo_url": reverse("referee:jogo", args=[tournament.slug, jogo.key]),
                "sumula_url": reverse("tournaments:sumula", args=[tournament.slug, jogo.key]),
                "correction_url": appeal_correction_url(slug=tournament.slug, key=jogo.key, appeal_id=a.pk)
                if a.decision == a.UPHELD and a.via == jogo.via
                else "",
            }
        )
    return rows


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def appeals_view(request, tournament):
    forms: dict[int, AppealDecisionForm] = {}
    status = 200
    if request.method == "POST":
        raw = request.POST.get("recurso", "")
        appeal_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None
        form = AppealDecisionForm(request.POST, auto_id=f"recurso-{appeal_id}-%s")
        if appeal_id is None:
            messages.error(request, _("Recurso não encontrado neste torneio."))
            status = 400
        elif not form.is_valid():
            forms[appeal_id] = form
            status = 400
        else:
            try:
                appeal = appeal_decide(
                    tournament=tournament,
                    appeal_id=appeal_id,
                    decision=form.cleaned_data["decisao"],
                    reason=form.cleaned_data["motivo"],
                    actor=Actor(user=request.user, method="session", device=request_device(request)),
                )
            except Refused as refused:
                for error in refused.messages:
                    messages.error(request, _("Não foi possível decidir o recurso: %(error)s") % {"error": error})
                forms[appeal_id] = form
                status = STATUS_OF.get(refused.kind, 400)
            else:
                jogo = appeal.jogo
                if appeal.decision == appeal.UPHELD and appeal.via == jogo.via:
                    messages.success(
                        request,
                        _(
                            "Recurso deferido. Se o resultado deve mudar, grave a correção abaixo (nova via): "
                            "as duplas confirmam de novo."
                        ),
                    )
                    return redirect(appeal_correction_url(slug=tournament.slug, key=jogo.key, appeal_id=appeal.pk))
                messages.success(
                    request,
                    _("Recurso %(decision)s: a decisão aparece na súmula do jogo %(a)s x %(b)s.")
                    % {
                        "decision": appeal.get_decision_display(),
                        "a": jogo.dupla_a.display_name,
                        "b": jogo.dupla_b.display_name,
                    },
                )
                return redirect(reverse("desk:appeals", args=[tournament.slug]) + f"#recurso-{appeal.pk}")
    rows = _rows(tournament, forms)
    context = {
        "desk_tab": "appeals",
        "pending": [r for r in rows if not r["appeal"].decision],
        "decided": [r for r in rows if r["appeal"].decision],
    }
    return render(request, "desk/appeals.html", context, status=status)
