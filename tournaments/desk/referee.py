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

from scoring.partida import NORMAL_VALUES, RAN_VALUES
from scoring.sumula import AWAITING, CONFIRMED, CONTESTED, HOMOLOGATED, IN_PROGRESS, SCHEDULED
from scoring.tournament import KnockoutStageView
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
    server_id,
)
from tournaments.models import Jogo, Stage
from tournaments.permissions import REFEREE_DESK, desk_view, may_organize
from tournaments.presenters import round_name
from tournaments.refusals import Refused
from tournaments.selectors import (
    jogo_referee,
    mesa_referees,
    tournament_live_get,
    tournament_settings,
    tournament_state_get,
)
from tournaments.sumula import services
from tournaments.sumula.commands import Correction, MaoAdd, Penalty, ResultSet
from tournaments.sumula.pins import pin_source, pin_verify
from tournaments.sumula.selectors import jogo_for_sumula, sumula_get
from tournaments.sumula.services import Actor
from tournaments.web import refusal_messages, request_device

STATUS_LABELS = dict(Jogo.STATUS_CHOICES)
# where a jogo goes on the referee's list: at the table (or waiting for the signature), to play, done
TABLE, TO_PLAY, DONE = "table", "to_play", "done"
SECTION_OF = {
    IN_PROGRESS: TABLE,
    AWAITING: TABLE,
    CONTESTED: TABLE,
    CONFIRMED: TABLE,
    SCHEDULED: TO_PLAY,
    HOMOLOGATED: DONE,
}
PILL = {
    SCHEDULED: "upcoming",
    IN_PROGRESS: "live",
    AWAITING: "awaiting",
    CONTESTED: "contested",
    CONFIRMED: "confirmed",
    HOMOLOGATED: "finished",
}


# --- shared pieces ---------------------------------------------------------------------------------------


def _first_name(name: str) -> str:
    return (name or "").split(" ")[0] or name


def dupla_names(dupla) -> dict:
    """What the screen says of a dupla (a ``Dupla`` or a ``DuplaRef``): its name, a short one, its players."""
    players = f"{dupla.player1.name} / {dupla.player2.name}"
    return {
        "key": dupla.key,
        "name": dupla.name or players,
        "players": players,
        "short": dupla.name or f"{_first_name(dupla.player1.name)} / {_first_name(dupla.player2.name)}",
    }


def _knockout_rounds(state) -> dict[str, int]:
    """Knockout stage key → its number of rounds (to name them: Final, Semifinal…)."""
    out = {}
    for view in state.view.stages:
        if isinstance(view, KnockoutStageView) and view.bracket is not None:
            out[view.stage.key] = len(view.bracket.rounds)
    return out


def jogo_title(
    *, stage: Stage, group: str | None, round_number: int | None, third_place: bool, rounds: dict[str, int]
) -> str:
    """``Grupo A · Rodada 2``, ``Semifinal``, ``Disputa de 3º lugar``."""
    if stage.kind == Stage.KNOCKOUT:
        if third_place:
            return _("Disputa de 3º lugar")
        if round_number and stage.key in rounds:
            return round_name(round_number=round_number, total_rounds=rounds[stage.key])
    parts = [_("Grupo %(key)s") % {"key": group}] if group else [stage.name or stage.key]
    if round_number:
        parts.append(_("Rodada %(n)s") % {"n": round_number})
    return " · ".join(parts)


# --- the list ------------------------------------------------------------------------------------------


@desk_view(need=REFEREE_DESK)
@require_safe
def referee_list(request, tournament):
    """The jogos this user referees (the jogo's referee, else its mesa's); ``?todos=1`` every jogo."""
    organizer = may_organize(user=request.user, tournament=tournament)
    wanted = request.GET.get("todos")
    show_all = organizer if wanted not in ("0", "1") else wanted == "1"
    state = tournament_live_get(tournament=tournament)
    mesa_referee = mesa_referees(tournament=tournament)
    duplas = {d.id: d for d in state.duplas.values()}
    stages = {s.id: s for s in state.stage_models.values()}
    groups = {gid: g for (_s, g), gid in state.group_names.items()}
    rounds = _knockout_rounds(state)
    referee_of = {j.id: jogo_referee(j, mesa_referee) for j in state.jogo_rows}
    mine_count = sum(1 for r in referee_of.values() if r == request.user.pk)
    shown = [j for j in state.jogo_rows if show_all or referee_of[j.id] == request.user.pk]
    names = {}
    if show_all:
        ids = {referee_of[j.id] for j in shown} - {None}
        names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")) if ids else {}
    sections = {TABLE: [], TO_PLAY: [], DONE: []}
    for j in shown:
        result = state.results.get(j.id)
        started = result is not None and result.started
        current = None
        if started and not result.finished and result.partidas and not result.partidas[-1].finished:
            current = list(result.partidas[-1].score)
        stage = stages[j.stage_id]
        referee_id = referee_of[j.id]
        sections[SECTION_OF.get(j.status, TO_PLAY)].append(
            {
                "key": j.key,
                "mesa": j.mesa,
                "status": j.status,
                "status_label": STATUS_LABELS.get(j.status, j.status),
                "pill": PILL.get(j.status, "upcoming"),
                "title": jogo_title(
                    stage=stage,
                    group=groups.get(j.group_id),
                    round_number=j.round,
                    third_place=j.third_place,
                    rounds=rounds,
                ),
                "sides": [
                    {
                        "dupla": dupla_names(duplas[(j.dupla_a_id, j.dupla_b_id)[i]]),
                        "won": result.partidas_won[i] if started else None,
                        "winner": started and result.finished and result.winner == i,
                    }
                    for i in range(2)
                ],
                "current": current,
                "referee": names.get(referee_id, ""),
                "order": (stage.order, j.round or 0, j.third_place, j.mesa or 10_000, j.id),
            }
        )
    sections[TABLE].sort(key=lambda r: (r["order"][3], r["order"]))
    for key in (TO_PLAY, DONE):
        sections[key].sort(key=lambda r: r["order"])
    return render(
        request,
        "sumula/referee_list.html",
        {
            "desk_tab": "referee",
            "show_all": show_all,
            "mine_count": mine_count,
            "sections": [
                (TABLE, _("Na mesa"), sections[TABLE]),
                (TO_PLAY, _("A jogar"), sections[TO_PLAY]),
                (DONE, _("Encerrados"), sections[DONE]),
            ],
            "total": len(shown),
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


def _side_name(jogo: Jogo, key: str) -> str:
    dupla = jogo.dupla_a if key == jogo.dupla_a.key else jogo.dupla_b
    return dupla_names(dupla)["name"]


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
            raise Refused.forbidden(_("PIN incorreto para %(dupla)s") % {"dupla": name}) from None
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
    response = render(request, "sumula/referee_jogo.html", _screen(request, tournament, jogo, data))
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


def _gains(partida: dict) -> list[tuple[int, int]]:
    """Points each dupla got from each mão (the running score minus the one before)."""
    before, out = (0, 0), []
    for m in partida["maos"]:
        score = tuple(m["score"])
        out.append((score[0] - before[0], score[1] - before[1]))
        before = score
    return out


def _sheet(data: dict, duplas: list[dict]) -> list[dict]:
    """The partidas as the paper sheet shows them: per mão, the points and the running score of each dupla."""
    how = {"ran": _("a outra correu"), "refused": _("onze recusada"), "penalty": _("penalidade")}
    out = []
    for p in data["partidas"]:
        rows = []
        for n, (m, gain) in enumerate(zip(p["maos"], _gains(p), strict=False), start=1):
            note = _("empate") if m["to"] is None else how.get(m["how"], "")
            rows.append(
                {
                    "n": n,
                    "id": m["id"],
                    "note": note,
                    "reason": m.get("reason", ""),
                    "cells": [{"gain": gain[i], "total": m["score"][i]} for i in (0, 1)],
                }
            )
        out.append(
            {
                "number": p["number"],
                "score": p["score"],
                "finished": p["finished"],
                "rows": rows,
                "penalty": _penalty_named(p.get("penalty"), duplas),
                "quick": not p["maos"] and not p.get("penalty"),
            }
        )
    return out


def _penalty_named(penalty: dict | None, duplas: list[dict]) -> dict | None:
    if not penalty:
        return None
    names = {d["key"]: d["short"] for d in duplas}
    return {"lost_by": names.get(penalty["lost_by"], penalty["lost_by"]), "reason": penalty.get("reason") or ""}


def _pad(options: dict | None, duplas: list[dict]) -> dict | None:
    """The buttons of the partida being played, each a form with its own id; enabled as ``options`` says."""
    if options is None:
        return None
    sides = []
    for side in (0, 1):
        sides.append(
            {
                "side": side,
                "who": duplas[side]["short"],
                "played": [{"points": v, "enabled": v in options["played"], "id": server_id()} for v in NORMAL_VALUES],
                "ran": [{"points": v, "enabled": v in options["ran"], "id": server_id()} for v in RAN_VALUES],
                "refused": {"enabled": options["refuse_by"] == 1 - side, "id": server_id()},
            }
        )
    for s in sides:
        s["played_any"] = any(b["enabled"] for b in s["played"])
        s["ran_any"] = any(b["enabled"] for b in s["ran"])
    return {
        "sides": sides,
        "tie": {"enabled": options["tie"], "id": server_id()},
        "penalty": [{"points": v, "enabled": v in options["penalty"]} for v in NORMAL_VALUES],
        "penalty_id": server_id(),
        "situation": options["situation"],
        "refuse_by": options["refuse_by"],
    }


def _phase(status: str) -> str:
    if status in (SCHEDULED, IN_PROGRESS):
        return "entry"
    return "signed" if status == HOMOLOGATED else "decided"


def _strings(duplas: list[dict]) -> dict:
    """The words the script shows (pt-BR from the catalogs, like the template's)."""
    return {
        "pending": _("pendente"),
        "sending": _("enviando…"),
        "online": _("conectado"),
        "all_sent": _("tudo enviado"),
        "offline": _("sem conexão"),
        "offline_one": _("sem conexão — %(n)s anotação pendente"),
        "offline_many": _("sem conexão — %(n)s anotações pendentes"),
        "waiting_one": _("%(n)s anotação pendente"),
        "waiting_many": _("%(n)s anotações pendentes"),
        "partida": _("Partida %(n)s"),
        "tie": _("empate"),
        "ran": _("a outra correu"),
        "refused": _("onze recusada"),
        "penalty": _("penalidade"),
        "normal": _("Mão normal"),
        "onze": _("Mão de onze: %(dupla)s decide — aceita vale 3; recusa dá 1 ponto à outra dupla"),
        "ferro": _("Mão de ferro (11 x 11): quem vencer a mão vence a partida"),
        "decided_pending": _("Jogo decidido (falta enviar as anotações pendentes)"),
        "decided": _("Jogo decidido: falta a confirmação das duplas"),
        "flush_first": _("Há anotações pendentes: espere o envio antes de fazer isto."),
        "login": _(
            "Sua sessão expirou ou o token de segurança mudou: entre de novo; as anotações continuam guardadas."
        ),
        "server": _("O servidor não aceitou agora (%(status)s); tentando de novo."),
        "quick": _("placar final, sem mãos"),
        "lost_partida": _("perda da partida (%(dupla)s): %(reason)s"),
        "close": _("fechar"),
        "no_maos": _("nenhuma mão ainda"),
        "status": {k: str(v) for k, v in STATUS_LABELS.items()},
        "duplas": [d["short"] for d in duplas],
    }


def _screen(request, tournament, jogo: Jogo, data: dict) -> dict:
    duplas = [dupla_names(jogo.dupla_a), dupla_names(jogo.dupla_b)]
    status = data["status"]
    phase = _phase(status)
    partidas = data["partidas"]
    answers = data["confirmation_details"]
    answered = any(answers.values())
    last = partidas[-1] if partidas else None
    last_mao = last["maos"][-1]["id"] if last and last["maos"] else None
    current = data["current"]
    if current is not None:
        partida_number, points = last["number"], current
    elif phase == "entry":
        partida_number, points = len(partidas) + 1, [0, 0]
    else:
        partida_number, points = (last["number"], last["score"]) if last else (None, None)
    settings = tournament_settings(tournament=tournament)
    state = tournament_state_get(tournament=tournament)
    title = jogo_title(
        stage=jogo.stage,
        group=jogo.group.key if jogo.group_id else None,
        round_number=jogo.round,
        third_place=jogo.third_place,
        rounds=_knockout_rounds(state),
    )
    options = data["options"]
    onze_side = None
    if options and options["situation"] == "mao_de_onze":
        onze_side = 0 if options["score"][0] == 11 else 1
    winner = data["winner"]
    winner_side = [d["key"] for d in duplas].index(winner) if winner else None
    strings = _strings(duplas)
    situation = ""
    if options and phase == "entry":
        situation = {
            "normal": strings["normal"],
            "mao_de_ferro": strings["ferro"],
            "mao_de_onze": strings["onze"] % {"dupla": duplas[onze_side]["short"] if onze_side is not None else ""},
        }[options["situation"]]
    confirmations = []
    for i, d in enumerate(duplas):
        detail = answers.get(d["key"])
        confirmations.append(
            {
                "dupla": d,
                "side": i,
                "answer": detail["answer"] if detail else None,
                "reason": (detail or {}).get("reason") or "",
            }
        )
    client = {
        "storage": f"zap-sumula:{tournament.slug}:{jogo.key}",
        "api": {
            "jogo": reverse("api:jogo", args=[tournament.slug, jogo.key]),
            "maos": reverse("api:maos", args=[tournament.slug, jogo.key]),
            "mao": reverse("api:mao", args=[tournament.slug, jogo.key, "__ID__"]),
        },
        "rules": {"ferro": settings.mao_de_ferro_value, "onze_tie": settings.mao_de_onze_tie},
        "duplas": duplas,
        "sumula": data,
        "t": strings,
    }
    return {
        "desk_tab": "referee",
        "jogo": jogo,
        "title": title,
        "sumula": data,
        "duplas": duplas,
        "phase": phase,
        "status_label": STATUS_LABELS.get(status, status),
        "pill": PILL.get(status, "upcoming"),
        "partida_number": partida_number,
        "points": points,
        "won": data["score"],
        "winner_side": winner_side,
        "situation": situation,
        "board": [
            {
                "side": i,
                "dupla": duplas[i],
                "won": data["score"][i],
                "points": points[i] if points else None,
                "winner": winner_side == i,
            }
            for i in (0, 1)
        ],
        "pad": _pad(options, duplas) if phase == "entry" else None,
        "onze_side": onze_side,
        "sheet": _sheet(data, duplas),
        "last_mao": last_mao,
        "may_undo": bool(last_mao) and not answered and status not in (CONFIRMED, HOMOLOGATED),
        "empty": not partidas and data["walkover"] is None and data["penalty"] is None,
        "walkover": data["walkover"],
        "jogo_penalty": data["penalty"],
        "walkover_name": (
            _("as duas duplas")
            if data["walkover"] == "both"
            else _side_name(jogo, data["walkover"])
            if data["walkover"]
            else ""
        ),
        "penalty_name": _side_name(jogo, data["penalty"]["lost_by"]) if data["penalty"] else "",
        "confirmations": confirmations,
        "answered": answered,
        "need_reason": status in (AWAITING, CONTESTED),
        "score_rows": list(range(1, jogo.best_of + 1)),
        "ids": {k: server_id() for k in ("resultado", "wo_a", "wo_b", "wo_both", "penalidade", "correcao")},
        "client": client,
    }
