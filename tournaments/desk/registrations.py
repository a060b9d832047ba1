"""/organizar/<slug>/inscricoes/…: the registration list, add/edit/withdraw, check-in, close, CSV upload and export.

Organizer-only pages (``desk_view()``): they show birth dates and contacts.
Thin views: the reads are ``registrations.selectors``, the writes
``registrations.services``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ..models import Registration
from ..permissions import desk_view
from ..refusals import Refused
from ..registrations import services
from ..registrations.csv_export import registrations_csv
from ..registrations.csv_import import csv_preview
from ..registrations.selectors import registration_list, registration_row_get, search_query
from ..registrations.window import public_signup_is_open, registration_is_open
from ..web import refusal_messages, refusal_status, refusal_to_form
from .registration_forms import ConfirmForm, DeskRegistrationForm, UploadForm, file_sign


def _list_url(tournament, q: str = "", anchor: str = "") -> str:
    # the search comes back from a form field: only what the list uses of it goes into the URL (a long one made
    # a redirect that the server then refused with 400, after the check-in was written)
    q = search_query(q)
    url = reverse("desk:registrations", args=[tournament.slug])
    if q:
        url += "?" + urlencode({"q": q})
    return url + (f"#{anchor}" if anchor else "")


def _registration(tournament, pk: int) -> Registration:
    return get_object_or_404(Registration.objects.select_related("player1", "player2"), pk=pk, tournament=tournament)


def _situation_text(row) -> str:
    if row.situation == "waiting":
        return _("na lista de espera (%(n)dº)") % {"n": row.waiting_position}
    return {"accepted": _("aceita"), "paired": _("em dupla"), "withdrawn": _("retirada")}[row.situation]


@desk_view()
@require_safe
def registration_list_view(request, tournament):
    listing = registration_list(tournament=tournament, q=request.GET.get("q", ""))
    return render(
        request,
        "desk/registrations/list.html",
        {
            "desk_tab": "registrations",
            "listing": listing,
            "rows": listing.rows,
            "counts": listing.counts,
            "is_open": registration_is_open(tournament=tournament),
            "public_open": public_signup_is_open(tournament=tournament),
        },
    )


@desk_view()
def registration_add(request, tournament):
    form = DeskRegistrationForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            reg = services.registration_add(
                tournament=tournament, players=form.people(), source=Registration.DESK, user=request.user
            )
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            row = registration_row_get(registration=reg)
            messages.success(
                request, _("Inscrição de %(who)s adicionada: %(where)s.") % {"who": reg, "where": _situation_text(row)}
            )
            if "another" in request.POST:
                return redirect("desk:registration_add", tournament.slug)
            return redirect(_list_url(tournament, anchor=f"r{reg.pk}"))
    return render(
        request,
        "desk/registrations/form.html",
        {
            "desk_tab": "registrations",
            "form": form,
            "adding": True,
            "closed": not registration_is_open(tournament=tournament),
        },
    )


@desk_view()
def registration_edit(request, tournament, pk: int):
    reg = _registration(tournament, pk)
    if reg.status == Registration.WITHDRAWN:
        messages.error(request, _("A inscrição de %(who)s foi retirada; não pode ser alterada.") % {"who": reg})
        return redirect(_list_url(tournament))
    form = DeskRegistrationForm(
        request.POST or None, tournament=tournament, initial=DeskRegistrationForm.initial_of(reg)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.registration_edit(registration=reg, players=form.people(), user=request.user)
        except Refused as exc:
            refusal_to_form(form, exc)
        else:
            messages.success(request, _("Inscrição alterada."))
            return redirect(_list_url(tournament, anchor=f"r{reg.pk}"))
    return render(
        request,
        "desk/registrations/form.html",
        {
            "desk_tab": "registrations",
            "form": form,
            "adding": False,
            "registration": reg,
            "paired": reg.status == Registration.PAIRED,
        },
    )


@desk_view()
def registration_withdraw(request, tournament, pk: int):
    """GET: the confirmation page (works without JavaScript); POST: withdraw."""
    reg = _registration(tournament, pk)
    if request.method == "POST":
        try:
            result = services.registration_withdraw(registration=reg, user=request.user)
        except Refused as exc:
            refusal_messages(request, exc)
        else:
            text = _("Inscrição de %(who)s retirada.") % {"who": reg}
            for moved in result.promoted:
                text += " " + _("%(who)s saiu da lista de espera.") % {"who": moved}
            for moved in result.demoted:
                text += " " + _("%(who)s voltou para a lista de espera.") % {"who": moved}
            messages.success(request, text)
        return redirect(_list_url(tournament, request.POST.get("q", "")))
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    return render(
        request,
        "desk/registrations/withdraw.html",
        {
            "desk_tab": "registrations",
            "registration": reg,
            "row": registration_row_get(registration=reg),
        },
    )


CHECKIN = {"1": True, "0": False, "clear": None}


@desk_view()
@require_POST
def registration_checkin(request, tournament, pk: int):
    reg = _registration(tournament, pk)
    value, q = request.POST.get("present", ""), search_query(request.POST.get("q", ""))
    if value not in CHECKIN:
        if request.htmx:
            return HttpResponse(
                _("Presença inválida: use presente, ausente ou desmarcar."),
                status=400,
                content_type="text/plain; charset=utf-8",
            )
        messages.error(request, _("Presença inválida: use presente, ausente ou desmarcar."))
        return redirect(_list_url(tournament, q))
    try:
        services.registration_checkin(registration=reg, present=CHECKIN[value], user=request.user)
    except Refused as exc:
        if request.htmx:
            return HttpResponse(
                " ".join(exc.messages), status=refusal_status(exc), content_type="text/plain; charset=utf-8"
            )
        refusal_messages(request, exc)
        return redirect(_list_url(tournament, q))
    if request.htmx:
        row = registration_row_get(registration=reg)
        return render(request, "desk/registrations/_row.html", {"row": row, "q": q})
    return redirect(_list_url(tournament, q, anchor=f"r{reg.pk}"))


@desk_view()
@require_POST
def registrations_close(request, tournament):
    if tournament.registration_closed:
        services.registration_reopen(tournament=tournament, user=request.user)
        if registration_is_open(tournament=tournament):
            messages.success(request, _("Inscrições reabertas."))
        else:
            messages.warning(
                request,
                _(
                    "Inscrições reabertas pela comissão, mas fora do período definido no "
                    "torneio (abertura/encerramento): ajuste as datas em “Torneio”."
                ),
            )
    else:
        services.registration_close(tournament=tournament, user=request.user)
        messages.success(
            request,
            _(
                "Inscrições encerradas: o formulário do site não aceita mais inscrições; "
                "a comissão ainda pode adicionar."
            ),
        )
    return redirect(_list_url(tournament))


@desk_view()
def registrations_upload(request, tournament):
    """Upload → preview of every row with its problems → confirm (the file comes back signed) → written."""
    context = {"desk_tab": "registrations", "form": UploadForm(), "preview": None}
    if request.method == "POST" and "payload" in request.POST:
        confirm = ConfirmForm(request.POST, tournament_id=tournament.pk, user_id=request.user.pk)
        if not confirm.is_valid():
            for error in confirm.errors.get("payload", []):
                messages.error(request, error)
            return redirect("desk:registrations_upload", tournament.slug)
        content, filename = confirm.cleaned_data["payload"]
        try:
            result = services.registrations_import_csv(tournament=tournament, content=content, user=request.user)
        except Refused:
            # something changed since the preview (e.g. a sign-up of the same person): show the problems again
            messages.error(request, _("O arquivo tem problemas agora; nada foi gravado."))
            context["preview"] = csv_preview(tournament=tournament, content=content)
            context["filename"] = filename
            return render(request, "desk/registrations/upload.html", context)
        messages.success(
            request,
            _("%(n)d inscrições adicionadas de %(f)s: %(a)d aceitas, %(w)d na lista de espera.")
            % {"n": len(result.registrations), "f": filename, "a": result.accepted, "w": result.waiting},
        )
        return redirect(_list_url(tournament))
    if request.method == "POST":
        form = UploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            content = form.cleaned_data["file"]
            preview = csv_preview(tournament=tournament, content=content)
            context |= {"preview": preview, "filename": form.filename, "form": UploadForm()}
            if preview.ok:
                context["payload"] = file_sign(
                    content=content, filename=form.filename, tournament_id=tournament.pk, user_id=request.user.pk
                )
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    return render(request, "desk/registrations/upload.html", context)


@desk_view()
@require_safe
def registrations_export(request, tournament):
    body = registrations_csv(tournament=tournament)
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="inscricoes-{tournament.slug}.csv"'
    response["Cache-Control"] = "private, no-store"
    return response
