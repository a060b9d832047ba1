"""The desk's front: my tournaments with their state and next step, one tournament's summary, its history."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..permissions import (
    atletas_desk_open,
    desk_circuits,
    desk_tournaments,
    desk_view,
    may_create_circuit,
    may_create_tournament,
)
from . import progress
from .audit_presenters import audit_lines


@login_required
@require_safe
def dashboard(request):
    tournaments = list(desk_tournaments(user=request.user)[:200])
    rows = progress.dashboard_rows(user=request.user, tournaments=tournaments)
    circuits = may_create_circuit(user=request.user) or desk_circuits(user=request.user).exists()
    return render(
        request,
        "desk/home.html",
        {
            "rows": rows,
            "may_create": may_create_tournament(user=request.user),
            "may_atletas": atletas_desk_open(user=request.user),
            "circuits": circuits,
        },
    )


@desk_view()
@require_safe
def overview(request, tournament):
    return render(
        request,
        "desk/overview.html",
        {
            "desk_tab": "overview",
            "summary": progress.tournament_summary(tournament=tournament, user=request.user),
        },
    )


@desk_view()
@require_safe
def audit_list(request, tournament):
    page = Paginator(tournament.audit.select_related("user").order_by("-at", "-id"), 50).get_page(
        request.GET.get("pagina")
    )
    lines = audit_lines(tournament=tournament, entries=page.object_list)
    return render(request, "desk/audit.html", {"desk_tab": "audit", "page": page, "lines": lines})
