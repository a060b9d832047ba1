"""/organizar/circuitos/…: the circuit desk (DOMAIN §7.3, §8). My circuits and a new one; one circuit's rules,
etapas, exclusions, the sorteio of a tie at the qualification line, and its history.

Thin views: the writes are ``circuits.services`` (each refuses with (where, message) pairs, shown next to the
field they name), the reads ``circuits.selectors``, who may do what ``permissions``. Every form posts to its own
address and comes back to the desk; a refused one re-renders the desk with its message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.atleta import name_sort_key

from ..circuits.selectors import (
    circuit_audit,
    circuit_etapas,
    circuit_exclusions,
    circuit_sorteios,
    circuit_standing,
)
from ..circuits.services import (
    CircuitRefused,
    circuit_create,
    circuit_etapa_attach,
    circuit_etapa_detach,
    circuit_etapa_set,
    circuit_exclude,
    circuit_include,
    circuit_settings_set,
    circuit_tie_draw,
)
from ..models import Atleta, Circuit, CircuitEtapa
from ..permissions import circuit_creation_refusal, circuit_desk_view, desk_circuits, etapa_candidates
from .circuit_forms import (
    CircuitNewForm,
    CircuitRulesForm,
    EtapaAttachForm,
    EtapaSetForm,
    ExcludeForm,
    problems_to_form,
)


def _not_allowed(request, reason: str) -> HttpResponse:
    return render(request, "desk/circuits/not_allowed.html", {"reason": reason}, status=403)


@login_required
def circuits_home(request):
    circuits = list(desk_circuits(user=request.user).annotate(etapa_count=Count("etapas")))
    refusal = circuit_creation_refusal(user=request.user)
    if refusal is not None and (request.method == "POST" or not circuits):
        return _not_allowed(request, refusal)
    form = CircuitNewForm(request.POST or None) if refusal is None else None
    if form is not None and request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            circuit = circuit_create(user=request.user, name=d["name"], slug=d["slug"], template=d["template"])
        except CircuitRefused as exc:
            problems_to_form(form, exc.problems, fields={"name": "name", "slug": "slug", "template": "template"})
        else:
            messages.success(request, _("Circuito criado. Confira as regras e inclua as etapas."))
            return redirect("desk:circuit", slug=circuit.slug)
    return render(request, "desk/circuits/list.html", {"circuits": circuits, "form": form})


def _ties(standing: Any) -> list[dict[str, Any]]:
    """The atletas tied across a qualification line, one group per line (a line is crossed by one group)."""
    groups: dict[str, list[Any]] = {}
    for row in standing.rows if standing is not None else ():
        if row.qualify == "tied":
            groups.setdefault(row.tied_line, []).append(row)
    return [
        {
            "line": line,
            "label": _("na linha dos classificados") if line == "qualified" else _("na linha dos suplentes"),
            "rows": rows,
            "rank": rows[0].rank,
            "keys": ",".join(sorted(r.key for r in rows)),
        }
        for line, rows in groups.items()
    ]


def _desk(
    request,
    circuit: Circuit,
    *,
    rules: CircuitRulesForm | None = None,
    attach: EtapaAttachForm | None = None,
    exclude: ExcludeForm | None = None,
    etapa_form: tuple[int, EtapaSetForm] | None = None,
    problem: str = "",
) -> HttpResponse:
    """The circuit's desk, with the form that was refused (bound, with its messages) in its place."""
    standing = circuit_standing(circuit=circuit)
    etapas = circuit_etapas(circuit=circuit)
    rows = standing.rows if standing is not None else ()
    etapa_rows = [
        (
            etapa,
            etapa_form[1]
            if etapa_form is not None and etapa_form[0] == etapa.pk
            else EtapaSetForm(initial={"weight": etapa.weight, "final": etapa.final}, prefix=f"e{etapa.pk}"),
        )
        for etapa in etapas
    ]
    return render(
        request,
        "desk/circuits/desk.html",
        {
            "circuit": circuit,
            "rules": rules or CircuitRulesForm(circuit=circuit),
            "attach": attach or EtapaAttachForm(candidates=etapa_candidates(user=request.user), prefix="etapa"),
            "exclude": exclude or ExcludeForm(atletas=_atleta_choices(rows), prefix="exclusao"),
            "etapa_rows": etapa_rows,
            "finished": set(standing.counted) if standing is not None else set(),
            "ranked": len(rows),
            "ties": _ties(standing),
            "sorteios": circuit_sorteios(circuit=circuit),
            "exclusions": circuit_exclusions(circuit=circuit),
            "audit": circuit_audit(circuit=circuit),
            "problem": problem,
            "template_label": dict(Circuit.TEMPLATE_CHOICES).get(circuit.template, circuit.template),
        },
    )


def _atleta_choices(rows: Any) -> list[tuple[str, str]]:
    return sorted(((row.key, row.name) for row in rows), key=lambda c: name_sort_key(c[1]))


def _back(circuit: Circuit, part: str) -> HttpResponse:
    return redirect(reverse("desk:circuit", kwargs={"slug": circuit.slug}) + f"#{part}")


def _first(problems: list[tuple[str, str]]) -> str:
    return "; ".join(message for _where, message in problems)


@circuit_desk_view
def circuit_desk(request, circuit: Circuit):
    """The desk; a POST here sets the rules (name, points table, best N, qualification)."""
    if request.method != "POST":
        return _desk(request, circuit)
    form = CircuitRulesForm(request.POST, circuit=circuit)
    form.is_valid()
    settings = form.settings()  # a row with no place, or a place twice, is the form's own problem
    if form.errors:  # the service is not asked: show its problems too, all at once
        form.show_problems(settings.problems())
    else:
        try:
            circuit_settings_set(circuit=circuit, user=request.user, settings=settings)
        except CircuitRefused as exc:
            form.show_problems(exc.problems)
        else:
            messages.success(request, _("Regras do circuito salvas."))
            return _back(circuit, "regras")
    circuit.refresh_from_db()
    return _desk(request, circuit, rules=form)


@circuit_desk_view
@require_POST
def etapa_attach(request, circuit: Circuit):
    form = EtapaAttachForm(request.POST, candidates=etapa_candidates(user=request.user), prefix="etapa")
    if form.is_valid():
        d = form.cleaned_data
        try:
            circuit_etapa_attach(
                circuit=circuit, user=request.user, tournament=d["tournament"], weight=d["weight"], final=d["final"]
            )
        except CircuitRefused as exc:
            fields = {"": "tournament", "tournament": "tournament", "weight": "weight"}
            problems_to_form(form, exc.problems, fields=fields)
        else:
            messages.success(request, _("Etapa incluída: %(t)s.") % {"t": d["tournament"].name})
            return _back(circuit, "etapas")
    return _desk(request, circuit, attach=form)


@circuit_desk_view
@require_POST
def etapa_set(request, circuit: Circuit, etapa_id: int):
    etapa = get_object_or_404(
        CircuitEtapa.objects.select_related("tournament", "circuit"), pk=etapa_id, circuit=circuit
    )
    form = EtapaSetForm(request.POST, prefix=f"e{etapa.pk}")
    if form.is_valid():
        try:
            circuit_etapa_set(
                etapa=etapa, user=request.user, weight=form.cleaned_data["weight"], final=form.cleaned_data["final"]
            )
        except CircuitRefused as exc:
            problems_to_form(form, exc.problems, fields={"weight": "weight"})
        else:
            messages.success(request, _("Etapa alterada: %(t)s.") % {"t": etapa.tournament.name})
            return _back(circuit, "etapas")
    return _desk(request, circuit, etapa_form=(etapa.pk, form))


@circuit_desk_view
@require_POST
def etapa_detach(request, circuit: Circuit, etapa_id: int):
    etapa = get_object_or_404(
        CircuitEtapa.objects.select_related("tournament", "circuit"), pk=etapa_id, circuit=circuit
    )
    name = etapa.tournament.name
    try:
        circuit_etapa_detach(etapa=etapa, user=request.user)
    except CircuitRefused as exc:
        return _desk(request, circuit, problem=_first(exc.problems))
    messages.success(request, _("Etapa retirada do circuito: %(t)s (o torneio continua como está).") % {"t": name})
    return _back(circuit, "etapas")


@circuit_desk_view
@require_POST
def atleta_exclude(request, circuit: Circuit):
    standing = circuit_standing(circuit=circuit)
    rows = standing.rows if standing is not None else ()
    form = ExcludeForm(request.POST, atletas=_atleta_choices(rows), prefix="exclusao")
    if form.is_valid():
        atleta = get_object_or_404(Atleta, key=form.cleaned_data["atleta"])
        try:
            circuit_exclude(circuit=circuit, user=request.user, atleta=atleta, reason=form.cleaned_data["reason"])
        except CircuitRefused as exc:
            problems_to_form(form, exc.problems, fields={"reason": "reason", "": "atleta"})
        else:
            messages.success(request, _("%(a)s excluído do ranking do circuito.") % {"a": atleta.name})
            return _back(circuit, "exclusoes")
    return _desk(request, circuit, exclude=form)


@circuit_desk_view
@require_POST
def atleta_include(request, circuit: Circuit, key: str):
    atleta = get_object_or_404(Atleta, key=key)
    try:
        circuit_include(circuit=circuit, user=request.user, atleta=atleta)
    except CircuitRefused as exc:
        return _desk(request, circuit, problem=_first(exc.problems))
    messages.success(request, _("%(a)s voltou ao ranking do circuito.") % {"a": atleta.name})
    return _back(circuit, "exclusoes")


@circuit_desk_view
@require_POST
def tie_draw(request, circuit: Circuit):
    line = request.POST.get("line", "")
    expected = [k for k in request.POST.get("atletas", "").split(",") if k]
    try:
        sorteio = circuit_tie_draw(circuit=circuit, user=request.user, line=line, expected=expected)
    except CircuitRefused as exc:
        return _desk(request, circuit, problem=_first(exc.problems))
    names = dict(Atleta.objects.filter(key__in=sorteio.atletas).values_list("key", "name"))
    messages.success(
        request,
        _("Sorteio registrado, nesta ordem: %(o)s.") % {"o": ", ".join(names.get(k, k) for k in sorteio.atletas)},
    )
    return _back(circuit, "sorteio")
