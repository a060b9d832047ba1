"""/organizar/<slug>/sorteios/competicao/: the competition draw (groups and/or bracket), its preview and publish,
"Refazer sorteio", and the tiebreak sorteio when the standings await one.

"Sortear" makes a seed with ``secrets`` and shows what it draws, writing
nothing of the event; each preview shown is recorded as a roll (``draws.rolls``),
once per token, so a reload is not a new roll. The preview's form carries the
roll, the seed (and for a fixed bracket every position) so "Publicar" computes
the same draw again and writes it.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.bracket_draw import bracket_size

from ..draws import services
from ..draws.format import format_facts
from ..draws.plan import CompetitionPlan, competition_plan
from ..draws.rolls import roll_open_get, roll_token_new
from ..draws.seeding import seeding_apply, seeding_source, seeding_text
from ..draws.tiebreak import ties_awaiting
from ..models import Draw, DrawRoll, Registration, Stage
from ..permissions import desk_view
from ..refusals import Refused
from ..selectors import tournament_state_get
from ..web import refusal_messages
from .draw_forms import PreviewForm, ReasonForm, SeedingForm, TiebreakForm


def _positions(plan: CompetitionPlan) -> int:
    return (
        bracket_size(len(plan.entrants))
        if plan.kind == "knockout" and plan.method == "fixed" and len(plan.entrants) >= 2
        else 0
    )


def _preview_form(plan: CompetitionPlan, data=None, *, roll: str = "") -> PreviewForm:
    duplas = [(k, plan.duplas[k].name) for k in plan.entrants]
    initial = {"seed": plan.seed, "check": plan.check, "roll": roll}
    if plan.order is not None:
        initial |= {f"pos_{i}": key or "" for i, key in enumerate(plan.order, start=1)}
    return PreviewForm(data, initial=initial, positions=_positions(plan), duplas=duplas)


def _preview(plan: CompetitionPlan, form: PreviewForm) -> dict:
    """What the template shows of a plan: groups with their rounds, or the first-round pairs of the bracket."""
    groups = [
        {
            "key": g.key,
            "duplas": [plan.name(d) for d in g.duplas],
            "rounds": [[(plan.name(a), plan.name(b)) for a, b in r] for r in g.rounds],
        }
        for g in plan.groups
    ]
    pairs = []
    if plan.order is not None:
        fields = form.position_fields()
        for j in range(len(plan.order) // 2):
            a, b = plan.order[2 * j], plan.order[2 * j + 1]
            pairs.append(
                {
                    "number": j + 1,
                    "a": plan.name(a) if a else None,
                    "b": plan.name(b) if b else None,
                    "fields": fields[2 * j : 2 * j + 2] if fields else None,
                }
            )
    return {"groups": groups, "pairs": pairs, "seeded": [plan.name(d) for d in plan.seeded]}


def _drawn(tournament) -> dict:
    """The published draw: stages, groups, bracket order, draws, ties awaiting their sorteio."""
    state = tournament_state_get(tournament=tournament)
    name = {k: d.display_name for k, d in state.duplas.items()}
    stages = []
    for spec in state.stage_specs:
        row = {
            "key": spec.key,
            "name": spec.name or spec.key,
            "kind": spec.kind,
            "groups": [{"key": g.key, "duplas": [name.get(d, d) for d in g.duplas]} for g in spec.groups],
        }
        order = state.recorded_orders.get(spec.key)
        if order:
            row["pairs"] = [
                (
                    j + 1,
                    name.get(order[2 * j]) if order[2 * j] else None,
                    name.get(order[2 * j + 1]) if order[2 * j + 1] else None,
                )
                for j in range(len(order) // 2)
            ]
        stages.append(row)
    draws = list(
        Draw.objects.filter(tournament=tournament, kind__in=[Draw.GROUPS, Draw.BRACKET, Draw.TIEBREAK])
        .select_related("performed_by", "stage", "group")
        .order_by("performed_at", "id")
    )
    labels = {"seeded": _("cabeças de chave"), "random": _("sorteio"), "fixed": _("ordem fixa")}
    for d in draws:
        d.method_label = labels.get(d.method, d.method)
        d.seeding_label = seeding_text((d.result or {}).get("seeding")) if isinstance(d.result, dict) else ""
    return {"stages": stages, "draws": draws, "ties": ties_awaiting(state=state)}


def _render(
    request,
    tournament,
    *,
    plan: CompetitionPlan,
    form: PreviewForm | None = None,
    undo_form=None,
    status: int = 200,
    roll=None,
    seeding_form: SeedingForm | None = None,
    seeding: dict | None = None,
):
    drawn = Stage.objects.filter(tournament=tournament).exists()
    waiting = Registration.objects.filter(tournament=tournament, status=Registration.WAITING).count()
    context = {
        "desk_tab": "competition",
        "plan": plan,
        "facts": format_facts(tournament=tournament, fmt=plan.fmt),
        "drawn": drawn,
        "waiting": waiting,
        "form": form,
        "undo_form": undo_form or ReasonForm(),
        "roll": roll,
        "token": roll_token_new(),  # the next "Sortear": a new roll
        "seeding": seeding,  # how the previewed draw's seeds were chosen (an etapa of a circuit)
        "seeding_text": seeding_text(seeding),
    }
    source = None if drawn else seeding_source(tournament=tournament)
    if source is not None:  # an etapa: the draw may seed from the season
        context["seeding_source"] = source
        context["seeding_form"] = seeding_form or SeedingForm(
            initial={"seeding": (seeding or {}).get("method", "current")}
        )
    if form is not None and plan.seed is not None:
        context["preview"] = _preview(plan, form)
    if drawn:
        context |= _drawn(tournament)
    return render(request, "desk/draws/competition.html", context, status=status)


def _problems_as_messages(request, plan: CompetitionPlan) -> None:
    for problem in plan.problems:
        messages.error(request, problem)


def _show(request, tournament, *, token: str, seed: int | None = None, seeding: dict | None = None, seeding_form=None):
    """The preview of the roll of ``token`` (a reload: the same roll), or of a new roll (of ``seed``)."""
    roll, plan = services.competition_roll(
        tournament=tournament, user=request.user, token=token, seed=seed, seeding=seeding
    )
    if plan.problems and Stage.objects.filter(tournament=tournament).exists():
        _problems_as_messages(request, plan)  # the page hides the plan's problems once the draw is published
    form = None if plan.problems or roll is None else _preview_form(plan, roll=roll.token)
    return _render(request, tournament, plan=plan, form=form, roll=roll, seeding=seeding, seeding_form=seeding_form)


def _seed_and_show(request, tournament):
    """ "Sortear": for an etapa of a circuit, first the cabeças de chave as chosen (``seeding_apply``), then the
    preview, which records how they were chosen; any other tournament goes straight to the preview."""
    if Stage.objects.filter(tournament=tournament).exists() or seeding_source(tournament=tournament) is None:
        return _show(request, tournament, token=request.POST.get("token", ""))
    data = request.POST.copy()
    data.setdefault("seeding", "current")  # a form without the choice (e.g. a page from before): as it is
    seeding_form = SeedingForm(data)
    if not seeding_form.is_valid():
        messages.error(request, _("Cabeças de chave: escolha uma das opções."))
        plan = competition_plan(tournament=tournament, seed=None)
        return _render(request, tournament, plan=plan, seeding_form=seeding_form, status=400)
    try:
        seeding = seeding_apply(
            tournament=tournament,
            user=request.user,
            method=seeding_form.cleaned_data["seeding"],
            count=seeding_form.cleaned_data["seeds"],
        )
    except Refused as exc:
        refusal_messages(request, exc)
        plan = competition_plan(tournament=tournament, seed=None)
        return _render(request, tournament, plan=plan, seeding_form=seeding_form)
    return _show(request, tournament, token=request.POST.get("token", ""), seeding=seeding, seeding_form=seeding_form)


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def competition(request, tournament):
    if request.method != "POST":
        return _render(request, tournament, plan=competition_plan(tournament=tournament, seed=None))
    if request.POST.get("action") != "publish":  # "Sortear" (again): a new seed, a preview recorded as a roll
        return _seed_and_show(request, tournament)
    # "Publicar": the preview's inputs, computed again and written
    bare = competition_plan(tournament=tournament, seed=None)
    form = PreviewForm(
        request.POST, positions=_positions(bare), duplas=[(k, bare.duplas[k].name) for k in bare.entrants]
    )
    if not form.is_valid():
        if bare.problems:  # why no preview can be published (e.g. the draw already was): not "sorteie de novo"
            _problems_as_messages(request, bare)
        else:
            messages.error(request, _("A prévia enviada está incompleta ou foi alterada: sorteie de novo."))
        return _render(request, tournament, plan=bare)
    seed, order = form.cleaned_data["seed"], form.order()
    try:
        services.competition_publish(
            tournament=tournament,
            user=request.user,
            seed=seed,
            fixed_order=order,
            check=form.cleaned_data["check"] or None,
            roll=form.cleaned_data["roll"],
        )
    except services.PlanChanged as exc:
        refusal_messages(request, exc)
        shown = roll_open_get(tournament=tournament, kind=DrawRoll.COMPETITION, token=form.cleaned_data["roll"])
        seeding = shown.shown.get("seeding") if shown is not None and isinstance(shown.shown, dict) else None
        # the new preview of the same seed (and the same seeding): a roll of its own
        return _show(request, tournament, token="", seed=seed, seeding=seeding)
    except Refused as exc:
        refusal_messages(request, exc)
        plan = competition_plan(tournament=tournament, seed=seed, fixed_order=order)
        fresh = _preview_form(plan, request.POST if order is not None else None, roll=form.cleaned_data["roll"])
        return _render(request, tournament, plan=plan, form=fresh if not plan.problems else None)
    messages.success(
        request,
        _("Sorteio publicado (semente %(seed)d). As páginas públicas já mostram os grupos e a chave.") % {"seed": seed},
    )
    return redirect("desk:competition", slug=tournament.slug)


@desk_view()
@require_POST
def competition_undo(request, tournament):
    form = ReasonForm(request.POST)
    if form.is_valid():
        try:
            services.competition_undo(tournament=tournament, user=request.user, reason=form.cleaned_data["reason"])
        except Refused as exc:
            refusal_messages(request, exc)  # on top: the undo form is not on the page when there is no draw
        else:
            messages.success(request, _("Sorteio desfeito. Confira o formato e sorteie de novo."))
            return redirect("desk:competition", slug=tournament.slug)
    return _render(request, tournament, plan=competition_plan(tournament=tournament, seed=None), undo_form=form)


@desk_view()
@require_POST
def tiebreak(request, tournament):
    form = TiebreakForm(request.POST)
    if form.is_valid():
        try:
            draw = services.tiebreak_run(
                tournament=tournament,
                user=request.user,
                stage=form.cleaned_data["stage"],
                group=form.cleaned_data["group"] or None,
                duplas=form.dupla_keys(),
            )
        except Refused as exc:
            refusal_messages(request, exc)
        else:
            messages.success(request, _("Sorteio de desempate feito (semente %(seed)d).") % {"seed": draw.seed})
            return redirect("desk:competition", slug=tournament.slug)
    else:
        messages.error(request, _("Sorteio de desempate: escolha o empate na lista."))
    return _render(request, tournament, plan=competition_plan(tournament=tournament, seed=None))
