"""/organizar/<slug>/arbitragem/: the referee's jogos, and the súmula screen of one jogo (the phone at the table).

The screen works without JS: every button is a form that POSTs here, calls
the same service as the súmula API (``services``) and redirects back (PRG),
errors as messages. With JS (``static/js/sumula.js``) the mão buttons go to
the API instead, through a queue kept on the phone while the network is
away; the page hands the script its data in a JSON block (no inline script).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from tournaments.desk.online import replay_beside
from tournaments.desk.printing import sumula_batches
from tournaments.desk.referee_forms import (
    AnswerForm,
    CorrectionForm,
    MaoForm,
    PenaltyForm,
    ResultForm,
    SignForm,
    UndoForm,
    WalkoverForm,
    form_errors,
)
from tournaments.desk.referee_presenters import (
    DONE,
    PILL,
    SECTION_OF,
    STATUS_LABELS,
    TABLE,
    TO_PLAY,
    dupla_names,
    referee_screen_present,
)
from tournaments.models import Jogo
from tournaments.online.referee import event_tables_count
from tournaments.permissions import REFEREE_DESK, desk_view, may_organize
from tournaments.presenters.jogo import jogo_label, jogo_online
from tournaments.presenters.sumula import appeal_notes
from tournaments.refusals import Refused
from tournaments.roles import staff_choices
from tournaments.selectors import (
    jogo_referee,
    mesa_referees,
    tournament_live_get,
)
from tournaments.sumula import services
from tournaments.sumula.commands import Correction, MaoAdd, Penalty, ResultSet
from tournaments.sumula.inputs import REASON_MAX
from tournaments.sumula.pins import pin_tries_text, pin_verify
from tournaments.sumula.selectors import appeals_of_jogo, jogo_for_sumula, sumula_get
from tournaments.sumula.services import Actor
from tournaments.web import pin_source, refusal_messages, request_device

# --- the list ------------------------------------------------------------------------------------------


@desk_view(need=REFEREE_DESK)
@require_safe
def referee_list(request, tournament):
    """The jogos this user referees (the jogo's referee, else its mesa's); ``?todos=1`` every jogo;
    ``?situacao=<status>`` only the jogos in that súmula status (the Resumo's links)."""
    organizer = may_organize(user=request.user, tournament=tournament)
    wanted = request.GET.get("todos")
    show_all = organizer if wanted not in ("0", "1") else wanted == "1"
    status = request.GET.get("situacao")
    status = status if status in STATUS_LABELS else None
    state = tournament_live_get(tournament=tournament)
    mesa_referee = mesa_referees(tournament=tournament)
    duplas = {d.id: d for d in state.duplas.values()}
    stages = {s.id: s for s in state.stage_models.values()}
    label = jogo_label(state)
    referee_of = {j.id: jogo_referee(j, mesa_referee) for j in state.jogo_rows}
    mine_count = sum(1 for r in referee_of.values() if r == request.user.pk)
    shown = [
        j
        for j in state.jogo_rows
        if (show_all or referee_of[j.id] == request.user.pk) and (status is None or j.status == status)
    ]
    names = {}
    if show_all:
        ids = {referee_of[j.id] for j in shown} - {None}
        names = dict(staff_choices(get_user_model().objects.filter(pk__in=ids))) if ids else {}
    sections = {TABLE: [], TO_PLAY: [], DONE: []}
    for j in shown:
        result = state.results.get(j.id)
        started = result is not None and result.started
        current = None  # the partida being played: its number and points, in the order the duplas are listed
        if started and not result.finished and result.partidas and not result.partidas[-1].finished:
            current = {"number": len(result.partidas), "score": tuple(result.partidas[-1].score)}
        stage = stages[j.stage_id]
        referee_id = referee_of[j.id]
        sections[SECTION_OF.get(j.status, TO_PLAY)].append(
            {
                "key": j.key,
                "mesa": j.mesa,
                "status": j.status,
                "status_label": STATUS_LABELS.get(j.status, j.status),
                "pill": PILL.get(j.status, "upcoming"),
                "title": label(j),
                "sides": [
                    {
                        "dupla": dupla_names(duplas[(j.dupla_a_id, j.dupla_b_id)[i]]),
                        "won": result.partidas_won[i] if started else None,
                        "winner": started and result.finished and result.winner == i,
                    }
                    for i in range(2)
                ],
                "current": current,
                "online": jogo_online(state, j),
                "referee": names.get(referee_id, ""),
                "order": (stage.order, j.round or 0, j.third_place, j.mesa or 10_000, j.id),
            }
        )
    sections[TABLE].sort(key=lambda r: (r["order"][3], r["order"]))
    for key in (TO_PLAY, DONE):
        sections[key].sort(key=lambda r: r["order"])
    # a referee prints the blank súmulas from here (the printing page is the organizers': INTERCHANGE)
    print_stages, print_total = ([], 0) if organizer else sumula_batches(tournament=tournament)
    return render(
        request,
        "sumula/referee_list.html",
        {
            "desk_tab": "referee",
            "show_all": show_all,
            "mine_count": mine_count,
            "status_label": STATUS_LABELS[status] if status else "",
            "sections": [
                (TABLE, _("Na mesa"), sections[TABLE]),
                (TO_PLAY, _("A jogar"), sections[TO_PLAY]),
                (DONE, _("Encerrados"), sections[DONE]),
            ],
            "total": len(shown),
            "print_stages": print_stages,
            "print_total": print_total,
            # no query for an event without online jogos (the list's queries stay few)
            "online_tables": event_tables_count(tournament=tournament)
            if any(jogo_online(state, j) for j in state.jogo_rows)
            else 0,
        },
    )


# --- the súmula screen -----------------------------------------------------------------------------------


def _jogo_or_404(tournament, key: str) -> Jogo:
    jogo = jogo_for_sumula(tournament=tournament, key=key)
    if jogo is None:
        raise Http404("jogo não encontrado")
    return jogo


def _staff_actor(request) -> Actor:
    return Actor(user=request.user, method="session", device=request_device(request))


def _valid(form):
    if not form.is_valid():
        raise Refused.invalid(*form_errors(form))
    return form


def _op_mao(request, tournament, jogo):
    form = _valid(MaoForm(request.POST))
    services.sumula_mao_add(
        tournament=tournament, key=jogo.key, mao=MaoAdd.from_json(form.mao()), actor=_staff_actor(request)
    )
    return None, "placar"


def _op_undo(request, tournament, jogo):
    form = _valid(UndoForm(request.POST))
    services.sumula_mao_undo(
        tournament=tournament, key=jogo.key, mao=form.cleaned_data["mao"], actor=_staff_actor(request)
    )
    return _("Última mão desfeita."), "placar"


def _op_result(request, tournament, jogo):
    form = _valid(ResultForm(request.POST, best_of=jogo.best_of))
    services.sumula_result_set(
        tournament=tournament, key=jogo.key, data=ResultSet.from_json(form.result()), actor=_staff_actor(request)
    )
    return _("Resultado anotado."), "placar"


def _op_walkover(request, tournament, jogo):
    form = _valid(WalkoverForm(request.POST))
    services.sumula_result_set(
        tournament=tournament, key=jogo.key, data=ResultSet.from_json(form.result()), actor=_staff_actor(request)
    )
    return _("WO anotado."), "placar"


def _op_penalty(request, tournament, jogo):
    form = _valid(PenaltyForm(request.POST))
    services.sumula_penalty(
        tournament=tournament, key=jogo.key, data=Penalty.from_json(form.penalty()), actor=_staff_actor(request)
    )
    return _("Penalidade anotada."), "placar"


def _op_answer(request, tournament, jogo):
    """A dupla confirms or contests on the referee's phone, typing its PIN."""
    form = _valid(AnswerForm(request.POST))
    key = form.cleaned_data["dupla"]
    dupla = {jogo.dupla_a.key: jogo.dupla_a, jogo.dupla_b.key: jogo.dupla_b}.get(key)
    if dupla is None:
        raise Refused.invalid(_("escolha uma das duplas do jogo"))
    accept = form.cleaned_data["accept"]
    # before the PIN (a missing reason costs no PIN try), with the súmula's one reason check
    reason = services.reason_clean(
        form.cleaned_data.get("reason"), missing=None if accept else _("para contestar, escreva o motivo")
    )
    name = dupla_names(dupla)["name"]
    try:
        pin_verify(dupla=dupla, pin=form.cleaned_data["pin"], **pin_source(request, referee_screen=True))
    except Refused as refused:
        if refused.kind == Refused.FORBIDDEN:  # the API names the dupla by its key; the screen by its name
            wrong = _("PIN incorreto para %(dupla)s") % {"dupla": name}
            raise Refused.forbidden(f"{wrong}. {pin_tries_text(dupla=dupla, referee_screen=True)}") from None
        raise
    services.sumula_answer(
        tournament=tournament,
        key=jogo.key,
        dupla=dupla,
        via=form.cleaned_data["via"],
        accept=accept,
        reason=reason,
        actor=Actor(user=request.user, dupla=dupla, method="pin", device=request_device(request)),
    )
    return (
        (_("%(dupla)s confirmou a súmula.") if accept else _("%(dupla)s contestou a súmula.")) % {"dupla": name}
    ), "confirmacao"


def _op_sign(request, tournament, jogo):
    form = _valid(SignForm(request.POST))
    services.sumula_sign(
        tournament=tournament,
        key=jogo.key,
        via=form.cleaned_data["via"],
        reason=form.cleaned_data.get("reason") or "",
        actor=_staff_actor(request),
    )
    return _("Súmula homologada."), "placar"


def _op_correct(request, tournament, jogo):
    form = _valid(CorrectionForm(request.POST, best_of=jogo.best_of))
    services.sumula_correct(
        tournament=tournament, key=jogo.key, data=Correction.from_json(form.correction()), actor=_staff_actor(request)
    )
    return _("Súmula corrigida: nova via."), "placar"


ACTIONS = {
    "mao": _op_mao,
    "desfazer": _op_undo,
    "resultado": _op_result,
    "wo": _op_walkover,
    "penalidade": _op_penalty,
    "confirmacao": _op_answer,
    "homologacao": _op_sign,
    "correcao": _op_correct,
}


@desk_view(need=REFEREE_DESK)
@require_http_methods(["GET", "HEAD", "POST"])
def referee_jogo(request, tournament, key: str):
    if request.method == "POST":
        return _post(request, tournament, key)
    jogo = _jogo_or_404(tournament, key)
    data = sumula_get(tournament=tournament, jogo=jogo)
    context = referee_screen_present(tournament=tournament, jogo=jogo, data=data)
    appeals = appeals_of_jogo(jogo=jogo)
    context["appeals"] = appeal_notes(appeals)
    context["appeals_pending"] = sum(1 for a in appeals if not a.decision)
    context["correction_reason"] = ""
    upheld = request.GET.get("recurso", "")
    for a in appeals:  # ?recurso=<id>: the correction form offered after an upheld appeal, its reason prefilled
        if str(a.pk) == upheld and a.decision == a.UPHELD and a.via == jogo.via:
            context["correction_reason"] = (
                _("Recurso de %(dupla)s deferido pela comissão organizadora: %(reason)s")
                % {"dupla": a.dupla.display_name, "reason": a.decision_reason}
            )[:REASON_MAX]
    context["replay_beside"] = replay_beside(jogo=jogo, wanted=request.GET.get("partida"))  # an online jogo's
    response = render(request, "sumula/referee_jogo.html", context)
    response["Cache-Control"] = "no-store"
    return response


def _post(request, tournament, key: str):
    action = ACTIONS.get(request.POST.get("op", ""))
    if action is None:
        # every form of the screen names its action; a POST naming none is nothing this page does
        return HttpResponseNotAllowed(["GET", "HEAD"])
    jogo = _jogo_or_404(tournament, key)
    try:
        done, anchor = action(request, tournament, jogo)
    except Refused as refused:
        refusal_messages(request, refused)
        anchor = "avisos"  # the alert, at the top of the screen
    else:
        if done:
            messages.success(request, done)
    return redirect(reverse("referee:jogo", args=[tournament.slug, jogo.key]) + f"#{anchor}")
