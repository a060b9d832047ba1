"""Create, edit, duplicate a tournament; its format; the tournament file (download, create from upload)."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from scoring.errors import RuleViolation

from ..interchange.jsonfile import tournament_file_parse
from ..interchange.writer import tournament_export
from ..limits import FILE_MAX_BYTES
from ..permissions import desk_view, tournament_creation_refusal
from ..refusals import Refused
from ..setup import services
from ..setup.starters import STARTERS
from ..web import refusal_messages
from ..wording import worded
from .setup_forms import FormatForm, TournamentEditForm, TournamentNewForm


def _errors(exc: RuleViolation) -> list[str]:
    """The problems, each at its place, in the active language."""
    return [worded(str(e)) for e in exc.errors]


def _not_allowed(request, reason: str):
    """403 with the reason (the site's setting on who creates events, or the limit per account)."""
    return render(request, "desk/setup/not_allowed.html", {"reason": reason}, status=403)


@login_required
def tournament_new(request):
    refusal = tournament_creation_refusal(user=request.user)
    if refusal is not None:
        return _not_allowed(request, refusal)
    form = TournamentNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            tournament = services.tournament_create(
                user=request.user, starter=d["starter"], name=d["name"], date=d["date"], venue=d["venue"]
            )
        except PermissionDenied as exc:  # the limit was reached by another request a moment ago
            return _not_allowed(request, str(exc))
        messages.success(
            request, _("Torneio criado como rascunho: só a equipe o vê. Confira os dados e publique o evento.")
        )
        return redirect("desk:overview", slug=tournament.slug)
    return render(request, "desk/setup/new.html", {"form": form, "starters": STARTERS.values()})


@desk_view()
def tournament_edit(request, tournament):
    form = TournamentEditForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, user=request.user, changes=form.changes())
        except RuleViolation as exc:
            for message in _errors(exc):
                form.add_error(None, message)
        else:
            messages.success(request, _("Dados do torneio salvos."))
            return redirect("desk:edit", slug=tournament.slug)
        tournament.refresh_from_db()
    return render(request, "desk/setup/edit.html", {"form": form, "desk_tab": "edit"})


@desk_view()
def format_edit(request, tournament):
    form = FormatForm(request.POST or None, initial=FormatForm.initial_from(tournament.format or {}))
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            services.format_update(tournament=tournament, user=request.user, format=form.format())
        except RuleViolation as exc:
            problems = _errors(exc)
        else:
            messages.success(request, _("Formato salvo."))
            return redirect("desk:format", slug=tournament.slug)
    return render(
        request,
        "desk/setup/format.html",
        {
            "form": form,
            "desk_tab": "edit",
            "problems": problems,
            "drawn": tournament.stages.exists(),
        },
    )


@desk_view()
def tournament_publish(request, tournament):
    """GET: what publishing does, with the event's data to check; POST: publish the draft."""
    if request.method == "POST":
        try:
            services.tournament_publish(tournament=tournament, user=request.user)
        except Refused as exc:
            refusal_messages(request, exc)
        else:
            messages.success(request, _("Evento publicado: a página dele abriu para todos."))
        return redirect("desk:overview", slug=tournament.slug)
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    return render(request, "desk/setup/publish.html", {"desk_tab": "edit"})


@desk_view()
@require_POST
def tournament_duplicate(request, tournament):
    try:
        copy = services.tournament_duplicate(tournament=tournament, user=request.user)
    except PermissionDenied as exc:
        return _not_allowed(request, str(exc))
    messages.success(
        request, _("Cópia criada como rascunho: mesmo formato e regulamento, sem inscrições. Ajuste a data e publique.")
    )
    return redirect("desk:edit", slug=copy.slug)


@desk_view()
def tournament_file(request, tournament):
    """The tournament file with the private data (birth dates, contacts) the organizer holds; no PINs."""
    data = tournament_export(tournament=tournament, include_private=True)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    response["Cache-Control"] = "private, no-store"
    return response


class UploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Arquivo do torneio (.json)"),
        help_text=gettext_lazy("O arquivo baixado de outro Zap ou preparado numa planilha (formato truco-torneio)."),
    )


@login_required
def tournament_upload(request):
    refusal = tournament_creation_refusal(user=request.user)
    if refusal is not None:
        return _not_allowed(request, refusal)
    form = UploadForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        raw = upload.read(FILE_MAX_BYTES + 1)
        try:
            data = tournament_file_parse(raw=raw)
            upload = services.tournament_upload(user=request.user, data=data)
        except RuleViolation as exc:
            problems = _errors(exc)
        except PermissionDenied as exc:
            return _not_allowed(request, str(exc))
        else:
            messages.success(request, _("Torneio criado a partir do arquivo."))
            if upload.referees_unassigned:
                messages.warning(
                    request,
                    ngettext(
                        "%(n)d jogo do arquivo nomeava um árbitro: ficou sem árbitro. Um arquivo enviado pelo site "
                        "não dá papel a nenhuma conta; convide os árbitros na página Equipe e escolha-os nas mesas.",
                        "%(n)d jogos do arquivo nomeavam um árbitro: ficaram sem árbitro. Um arquivo enviado pelo site "
                        "não dá papel a nenhuma conta; convide os árbitros na página Equipe e escolha-os nas mesas.",
                        upload.referees_unassigned,
                    )
                    % {"n": upload.referees_unassigned},
                )
            return redirect("desk:overview", slug=upload.tournament.slug)
    return render(request, "desk/setup/upload.html", {"form": form, "problems": problems})
