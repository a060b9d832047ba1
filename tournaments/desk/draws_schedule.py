"""/organizar/<slug>/mesas/ and /organizar/<slug>/programacao/: tables with their referees, the printable schedule."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..draws import services
from ..draws.tables import MESAS_MAX, staff_users
from ..online import tournament as online_tournament
from ..permissions import desk_view
from ..refusals import Refused
from ..roles import staff_choices
from ..selectors import mesa_referees
from ..web import refusal_messages, refusal_to_form
from .draw_forms import JogoRefereeForm, MesasForm, RoundTimeForm
from .schedule_presenters import schedule_present

SHOW = "mostrar"  # the Mesas form's secondary button: show that many referee rows, do not save


def _shown(request, tournament) -> int:
    """How many referee selects the page offers: the number posted or asked in ?n=, else the tournament's mesas."""
    try:
        wanted = int(request.GET.get("n", ""))
    except ValueError:
        wanted = 0
    if request.method == "POST":
        try:
            wanted = int(request.POST.get("mesas") or 0)
        except ValueError:
            wanted = 0
    return max(0, min(MESAS_MAX, wanted or tournament.mesas or 0))


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def mesas(request, tournament):
    staff = staff_choices(staff_users(tournament=tournament))
    shown = _shown(request, tournament)
    current = mesa_referees(tournament=tournament)
    initial = {"mesas": shown or None} | {f"referee_{n}": uid for n, uid in current.items() if n <= shown}
    if request.method == "POST" and SHOW in request.POST:
        # "Mostrar as mesas": the form again with that many referee rows, what was typed kept, nothing saved
        keys = ["mesas"] + [f"referee_{n}" for n in range(1, shown + 1)]
        typed = {key: request.POST[key] for key in keys if key in request.POST}
        form = MesasForm(initial=initial | typed, shown=shown, staff=staff)
        return render(request, "desk/draws/mesas.html", {"desk_tab": "mesas", "form": form, "staff": staff})
    form = MesasForm(request.POST or None, initial=initial, shown=shown, staff=staff)
    if request.method == "POST" and form.is_valid():
        try:
            moved = services.mesas_save(
                tournament=tournament, user=request.user, count=form.cleaned_data["mesas"], referees=form.referees()
            )
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            messages.success(request, _("Mesas salvas; %(n)d jogos mudaram de mesa.") % {"n": moved})
            return redirect("desk:mesas", slug=tournament.slug)
    return render(request, "desk/draws/mesas.html", {"desk_tab": "mesas", "form": form, "staff": staff})


@desk_view()
@require_safe
def schedule(request, tournament):
    return _schedule_page(request, tournament)


def _schedule_page(request, tournament):
    data = schedule_present(tournament=tournament)
    return render(
        request,
        "desk/draws/schedule.html",
        {
            "desk_tab": "schedule",
            "schedule": data,
            "referee_choices": [("", _("o da mesa"))] + [(str(pk), name) for pk, name in data.staff],
        },
    )


@desk_view()
@require_POST
def jogo_referee(request, tournament, jogo: int):
    staff = staff_choices(staff_users(tournament=tournament))
    form = JogoRefereeForm(request.POST, staff=staff)
    if form.is_valid():
        try:
            services.jogo_referee_set(
                tournament=tournament, user=request.user, jogo_id=jogo, referee_id=form.cleaned_data["referee"]
            )
        except Refused as exc:
            refusal_messages(request, exc)
        else:
            messages.success(request, _("Árbitro do jogo salvo."))
            return redirect(reverse("desk:schedule", args=[tournament.slug]) + f"#jogo-{jogo}")
    else:
        messages.error(request, _("Árbitro do jogo: escolha alguém da equipe do torneio."))
    return _schedule_page(request, tournament)  # the message on the page itself (200), nothing written


@desk_view()
@require_POST
def jogo_online(request, tournament, jogo: int):
    """Mark (``online=1``) or unmark (``online=0``) one jogo as a mesa online (a hybrid event, docs/regras.md §9.7)."""
    online = request.POST.get("online")
    if online not in ("0", "1"):
        messages.error(request, _("Mesa online: escolha marcar ou desmarcar o jogo."))
        return _schedule_page(request, tournament)
    try:
        online_tournament.jogo_online_set(tournament=tournament, jogo_id=jogo, online=online == "1", user=request.user)
    except Refused as exc:
        refusal_messages(request, exc)
        return _schedule_page(request, tournament)
    messages.success(
        request, _("Jogo marcado como mesa online.") if online == "1" else _("O jogo volta a uma mesa presencial.")
    )
    return redirect(reverse("desk:schedule", args=[tournament.slug]) + f"#jogo-{jogo}")


@desk_view()
@require_POST
def round_time(request, tournament):
    """The time a round is called, from the programação page ("" clears it)."""
    form = RoundTimeForm(request.POST)
    if not form.is_valid():
        if "rodada" in form.errors:
            messages.error(request, _("Horário da rodada: rodada inválida."))
        for field, name in (("fase", _("fase")), ("horario", _("horário"))):
            for problem in form.errors.get(field, ()):
                messages.error(
                    request, _("Horário da rodada: %(field)s: %(problem)s") % {"field": name, "problem": problem}
                )
        return _schedule_page(request, tournament)  # the message on the page itself (200), nothing written
    try:
        services.round_time_set(
            tournament=tournament,
            user=request.user,
            stage_key=form.cleaned_data["fase"],
            round_number=form.cleaned_data["rodada"],
            time=form.cleaned_data["horario"],
        )
    except Refused as exc:
        refusal_messages(request, exc)
        return _schedule_page(request, tournament)  # the message on the page itself (200), nothing written
    messages.success(request, _("Horário da rodada salvo."))
    return redirect("desk:schedule", slug=tournament.slug)
