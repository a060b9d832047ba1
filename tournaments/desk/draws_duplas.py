"""/organizar/<slug>/duplas/…: the duplas with their players, names and seeds; swap, pair by hand, disqualify."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..draws import services
from ..draws.selectors import duplas_listing
from ..models import Dupla
from ..permissions import desk_view
from ..refusals import Refused
from ..web import refusal_to_form
from .draw_forms import DuplaAddForm, DuplaEditForm, ReasonForm, SwapForm


def _waiting_choices(listing) -> list[tuple[int, str]]:
    out = []
    for r in listing.waiting:
        label = f"{r.order}. {r}"
        if r.player2_id:
            label += " " + _("(em dupla)")
        if r.present is False:
            label += " " + _("(ausente)")
        out.append((r.pk, label))
    return out


def _errors_as_messages(request, form) -> None:
    """A form the page does not show (after the draw): its errors go on top of the page instead."""
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def _page(request, tournament, *, swap_form=None, add_form=None, status=200):
    listing = duplas_listing(tournament=tournament)
    # the swap and hand-pairing forms are hidden once the draw is published (and the swap one below 2 duplas)
    if swap_form is not None and (listing.drawn or len(listing.duplas) < 2):
        _errors_as_messages(request, swap_form)
        swap_form = None
    if add_form is not None and listing.drawn:
        _errors_as_messages(request, add_form)
        add_form = None
    swap_form = swap_form or SwapForm(players=listing.players)
    add_form = add_form or DuplaAddForm(waiting=_waiting_choices(listing))
    return render(
        request,
        "desk/draws/duplas.html",
        {
            "desk_tab": "duplas",
            "listing": listing,
            "swap_form": swap_form,
            "add_form": add_form,
        },
        status=status,
    )


@desk_view()
@require_safe
def duplas(request, tournament):
    return _page(request, tournament)


def _dupla(tournament, pk: int) -> Dupla:
    return get_object_or_404(Dupla.objects.select_related("player1", "player2"), pk=pk, tournament=tournament)


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def dupla_edit(request, tournament, dupla: int):
    row = _dupla(tournament, dupla)
    form = DuplaEditForm(
        request.POST or None,
        initial={"name": row.name, "seed": row.seed, "team1": row.player1.team, "team2": row.player2.team},
        players=(row.player1, row.player2),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.dupla_edit(
                dupla=row,
                user=request.user,
                name=data["name"],
                seed=data["seed"],
                teams=(data["team1"], data["team2"]),
            )
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            messages.success(request, _("Dupla salva: %(name)s.") % {"name": row.display_name})
            return redirect(reverse("desk:duplas", args=[tournament.slug]) + f"#dupla-{row.pk}")
    return render(request, "desk/draws/dupla_edit.html", {"desk_tab": "duplas", "dupla": row, "form": form})


@desk_view()
@require_POST
def duplas_swap(request, tournament):
    listing = duplas_listing(tournament=tournament)
    form = SwapForm(request.POST, players=listing.players)
    if form.is_valid():
        try:
            first, second = services.duplas_swap(
                tournament=tournament,
                user=request.user,
                player_a=form.cleaned_data["player_a"],
                player_b=form.cleaned_data["player_b"],
                reason=form.cleaned_data["reason"],
            )
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            messages.success(
                request, _("Troca feita: %(a)s e %(b)s.") % {"a": first.display_name, "b": second.display_name}
            )
            return redirect("desk:duplas", slug=tournament.slug)
    return _page(request, tournament, swap_form=form)


@desk_view()
@require_POST
def dupla_add(request, tournament):
    listing = duplas_listing(tournament=tournament)
    form = DuplaAddForm(request.POST, waiting=_waiting_choices(listing))
    if form.is_valid():
        try:
            row = services.dupla_add(
                tournament=tournament,
                user=request.user,
                registrations=[form.cleaned_data["registration_1"], form.cleaned_data.get("registration_2")],
            )
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            messages.success(request, _("Dupla formada: %(name)s.") % {"name": row.display_name})
            return redirect("desk:duplas", slug=tournament.slug)
    return _page(request, tournament, add_form=form)


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def dupla_disqualify(request, tournament, dupla: int):
    row = _dupla(tournament, dupla)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.dupla_disqualify(dupla=row, user=request.user, reason=form.cleaned_data["reason"])
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            messages.success(request, _("Dupla %(name)s desclassificada.") % {"name": row.display_name})
            return redirect("desk:duplas", slug=tournament.slug)
    return render(request, "desk/draws/dupla_disqualify.html", {"desk_tab": "duplas", "dupla": row, "form": form})
