"""/organizar/<slug>/chamadas/: calling the duplas to their mesa ("Sua vez"): a jogo, a whole round, a WhatsApp
message per player (the button records the call and answers 303 to ``wa.me``), the e-mails' delivery. The
players' phones are shown here, to the organizers, and nowhere else."""

from __future__ import annotations

from types import SimpleNamespace

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.csp import CSP
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_POST, require_safe

from ..calls import services
from ..calls.selectors import calls_desk
from ..limits import column_integer
from ..models import Dupla, Jogo, Player, Stage
from ..permissions import CALL, desk_view
from ..presenters.jogo import jogo_label, jogo_place
from ..refusals import Refused
from ..selectors import tournament_state_get
from ..web import refusal_messages, refusal_status
from .draw_forms import ROUND_MAX

# The WhatsApp buttons post here and are redirected to wa.me (then WhatsApp's own pages): the page's CSP lets
# its forms go there, the site's policy otherwise ("form-action 'self'").
CSP_WITH_WHATSAPP = settings.SECURE_CSP | {
    "form-action": [*settings.SECURE_CSP.get("form-action", [CSP.SELF]), "https://wa.me", "https://*.whatsapp.com"]
}
calls_csp = csp_override(CSP_WITH_WHATSAPP)


class RoundCallForm(forms.Form):
    fase = forms.CharField(label=gettext_lazy("Fase"), max_length=60)
    rodada = column_integer(Jogo, "round", label=gettext_lazy("Rodada"), min_value=1, max_value=ROUND_MAX)


class WhatsappForm(forms.Form):
    dupla = column_integer(Dupla, "id", min_value=1)
    atleta = column_integer(Player, "id", min_value=1)


def _page(request, tournament, status: int = 200):
    state = tournament_state_get(tournament=tournament)
    rounds = calls_desk(tournament=tournament, label=jogo_label(state))
    place = jogo_place(state)
    # a knockout round by its name ("Quartas de final"), a group stage's by its number
    titles = [
        place(SimpleNamespace(stage_id=r.stage.id, group_id=None, round=r.round, third_place=False))[2]
        if r.stage.kind == Stage.KNOCKOUT and r.round
        else ""
        for r in rounds
    ]
    context = {"desk_tab": "schedule", "rounds": list(zip(rounds, titles, strict=True))}
    return render(request, "desk/calls.html", context, status=status)


def _back(tournament, jogo: int | None = None):
    return redirect(reverse("desk:calls", args=[tournament.slug]) + (f"#chamada-{jogo}" if jogo else ""))


@calls_csp
@desk_view(need=CALL)
@require_safe
def calls(request, tournament):
    return _page(request, tournament)


@calls_csp
@desk_view(need=CALL)
@require_POST
def jogo_call(request, tournament, jogo: int):
    try:
        done = services.jogo_call(tournament=tournament, jogo_id=jogo, user=request.user)
    except Refused as exc:
        refusal_messages(request, exc)
        return _page(request, tournament, status=refusal_status(exc))  # the message on the page, nothing written
    text = _("Jogo chamado: “Sua vez” nas páginas.")
    if done.emails:
        text += " " + ngettext("%(n)d e-mail na fila.", "%(n)d e-mails na fila.", done.emails) % {"n": done.emails}
    messages.success(request, text)
    _mail_said(request, done)
    return _back(tournament, jogo)


def _mail_said(request, done: services.Called) -> None:
    """What the call's e-mails did not do: repeat a call an address already had, pass the hour's limit."""
    if done.repeated:
        messages.info(
            request,
            ngettext(
                "%(n)d e-mail não foi repetido: esse endereço já recebeu esta chamada (mesmo jogo, mesma mesa).",
                "%(n)d e-mails não foram repetidos: esses endereços já receberam esta chamada (mesmo jogo, mesma "
                "mesa).",
                done.repeated,
            )
            % {"n": done.repeated},
        )
    if done.mail_refused:
        messages.error(request, done.mail_refused)


@calls_csp
@desk_view(need=CALL)
@require_POST
def round_call(request, tournament):
    form = RoundCallForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Chamar a rodada: fase ou rodada inválida."))
        return _page(request, tournament, status=400)
    try:
        done = services.round_call(
            tournament=tournament,
            stage_key=form.cleaned_data["fase"],
            round_number=form.cleaned_data["rodada"],
            user=request.user,
        )
    except Refused as exc:
        refusal_messages(request, exc)
        return _page(request, tournament, status=refusal_status(exc))
    messages.success(
        request,
        ngettext("Rodada chamada: %(n)d jogo.", "Rodada chamada: %(n)d jogos.", done.jogos) % {"n": done.jogos}
        + (
            " " + ngettext("%(n)d e-mail na fila.", "%(n)d e-mails na fila.", done.emails) % {"n": done.emails}
            if done.emails
            else ""
        ),
    )
    _mail_said(request, done)
    for why in done.skipped:
        messages.warning(request, _("Não chamado: %(why)s.") % {"why": why})
    return _back(tournament)


@calls_csp
@desk_view(need=CALL)
@require_POST
def whatsapp(request, tournament, jogo: int):
    """Record the call and open WhatsApp: 303 to ``https://wa.me/<digits>?text=…`` (the form opens it in a new
    tab, so the desk's page stays)."""
    form = WhatsappForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("WhatsApp: escolha a dupla e o atleta."))
        return _page(request, tournament, status=400)
    try:
        url = services.whatsapp_call(
            tournament=tournament,
            jogo_id=jogo,
            dupla_id=form.cleaned_data["dupla"],
            player_id=form.cleaned_data["atleta"],
            user=request.user,
        )
    except Refused as exc:
        refusal_messages(request, exc)
        return _page(request, tournament, status=refusal_status(exc))
    response = HttpResponseRedirect(url, status=303)
    response["Referrer-Policy"] = "no-referrer"
    return response
