"""/organizar/circuitos/<slug>/temporada/: the season archive on the circuit desk (issue 45 point 5). The season's
state (open, or closed with its ranking frozen), closing it (``…/temporada/encerrar/``, a confirmed POST), and the
next season made from it (a new name and address; the rules, points table and equipes carried).

Thin views: the writes are ``circuits.archive`` (refusals with their messages, shown on this page), who may do it
``permissions.circuit_desk_view`` (the circuit's organizer; anyone else gets 404)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ..circuits.archive import circuit_close, circuit_season, circuit_season_next, close_problems, season_name_next
from ..circuits.services import CircuitRefused
from ..models import Circuit, CircuitEquipe
from ..models.fields import NameFormField
from ..permissions import circuit_desk_view


class SeasonNextForm(forms.Form):
    name = NameFormField(label=gettext_lazy("Nome da nova temporada"), max_length=200)
    slug = forms.CharField(
        label=gettext_lazy("Endereço"),
        max_length=100,
        required=False,
        help_text=gettext_lazy(
            "A parte final do endereço do novo ranking (/circuitos/…): letras sem acento, números e hífens. "
            "Em branco: feito a partir do nome."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = slugify(data["name"])[:100]
        return data


class CloseForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("Entendo que o ranking final fica guardado como está e que o circuito não muda mais."),
        error_messages={"required": gettext_lazy("Confirme que quer encerrar a temporada.")},
    )


def _page(
    request,
    circuit: Circuit,
    *,
    close: CloseForm | None = None,
    season_form: SeasonNextForm | None = None,
    problem: str = "",
    status: int = 200,
) -> HttpResponse:
    if season_form is None:
        name = season_name_next(circuit.name)
        season_form = SeasonNextForm(initial={"name": name if name != circuit.name else ""})
    return render(
        request,
        "desk/circuits/season.html",
        {
            "circuit": circuit,
            "season": circuit_season(circuit=circuit),
            "problems": close_problems(circuit=circuit) if circuit.closed_at is None else [],
            "close": close or CloseForm(),
            "season_form": season_form,
            "carried": CircuitEquipe.objects.filter(circuit=circuit).count() if circuit.previous_id else 0,
            "problem": problem,
        },
        status=status,
    )


@circuit_desk_view
def season(request, circuit: Circuit):
    """The season's page; a POST here makes the next season."""
    if request.method != "POST":
        return _page(request, circuit)
    form = SeasonNextForm(request.POST)
    if form.is_valid():
        try:
            made = circuit_season_next(
                circuit=circuit, user=request.user, name=form.cleaned_data["name"], slug=form.cleaned_data["slug"]
            )
        except CircuitRefused as exc:
            for where, message in exc.problems:
                form.add_error(where if where in ("name", "slug") else None, message)
        else:
            messages.success(
                request,
                _("Nova temporada criada, com as regras, a tabela de pontos e as equipes de %(c)s. Inclua as etapas.")
                % {"c": circuit.name},
            )
            return redirect("desk:circuit", slug=made.slug)
    return _page(request, circuit, season_form=form)


@circuit_desk_view
@require_POST
def close(request, circuit: Circuit):
    """Close the season (the box must be ticked): its ranking is kept as it stands."""
    form = CloseForm(request.POST)
    if not form.is_valid():
        return _page(request, circuit, close=form)
    try:
        circuit_close(circuit=circuit, user=request.user)
    except CircuitRefused as exc:
        return _page(request, circuit, problem="; ".join(m for _w, m in exc.problems))
    messages.success(request, _("Temporada encerrada: o ranking final está guardado e continua público."))
    return redirect(reverse("desk:circuit_season", kwargs={"slug": circuit.slug}))
