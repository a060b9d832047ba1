"""/organizar/<slug>/inscricoes/…: the registration list, add/edit/withdraw, check-in, close, CSV upload and export.

Organizer-only pages (``desk_view()``): they show birth dates and contacts.
Thin views: the reads are ``registrations.selectors``, the writes
``registrations.services``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from ..exports.registrations import registrations_xlsx
from ..exports.xlsx import CONTENT_TYPE as XLSX_TYPE
from ..exports.xlsx import xlsx_filename
from ..models import Registration
from ..permissions import desk_view
from ..refusals import Refused
from ..registrations import presence, services
from ..registrations.csv_export import registrations_csv
from ..registrations.csv_import import csv_preview
from ..registrations.selectors import registration_list, registration_row_get, registration_rows, search_query
from ..registrations.window import public_signup_is_open, registration_is_open
from ..web import refusal_messages, refusal_status, refusal_to_form
from .registration_forms import ConfirmForm, DeskRegistrationForm, UploadForm, file_sign

PER_PAGE = 50  # registrations (or CSV rows) a page: a phone scrolls through 50 cards, not thousands


def _page_number(value: str | None) -> int | None:
    """``?pagina=N`` as the pages use it: a whole number from 1 on, or None (the first page)."""
    value = (value or "").strip()
    return int(value) if value.isdigit() and 0 < len(value) < 7 and int(value) > 0 else None


def _list_url(tournament, q: str = "", anchor: str = "", page: str | None = None) -> str:
    # the search comes back from a form field: only what the list uses of it goes into the URL (a long one made
    # a redirect that the server then refused with 400, after the check-in was written)
    q = search_query(q)
    number = _page_number(page)
    url = reverse("desk:registrations", args=[tournament.slug])
    query = {**({"q": q} if q else {}), **({"pagina": number} if number and number > 1 else {})}
    if query:
        url += "?" + urlencode(query)
    return url + (f"#{anchor}" if anchor else "")


def _back(request, tournament, anchor: str = "") -> HttpResponse:
    """Back to the list as the form was posted from: its search and its page."""
    return redirect(_list_url(tournament, request.POST.get("q", ""), anchor, request.POST.get("pagina")))


def _pager(items: list, number: int | None) -> Page:
    return Paginator(items, PER_PAGE).get_page(number)


def _registration(tournament, pk: int) -> Registration:
    return get_object_or_404(Registration.objects.select_related("player1", "player2"), pk=pk, tournament=tournament)


def _situation_text(row) -> str:
    if row.situation == "waiting":
        return _("na lista de espera (%(n)dº)") % {"n": row.waiting_position}
    return {"accepted": _("aceita"), "paired": _("dupla formada"), "withdrawn": _("retirada")}[row.situation]


@desk_view()
@require_safe
def registration_list_view(request, tournament):
    listing = registration_list(tournament=tournament, q=request.GET.get("q", ""))
    page = _pager(listing.rows, _page_number(request.GET.get("pagina")))
    return render(
        request,
        "desk/registrations/list.html",
        {
            "desk_tab": "registrations",
            "listing": listing,
            "rows": page.object_list,
            "page": page,
            "pagina": page.number if page.number > 1 else "",
            "prev_url": _list_url(tournament, listing.query, page=str(page.number - 1)) if page.has_previous() else "",
            "next_url": _list_url(tournament, listing.query, page=str(page.number + 1)) if page.has_next() else "",
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
            result = presence.registration_withdraw(registration=reg, user=request.user)
        except Refused as exc:
            refusal_messages(request, exc)
        else:
            text = _("Inscrição de %(who)s retirada.") % {"who": reg}
            messages.success(request, text + _moves_message(result.promoted, result.demoted))
        return _back(request, tournament)
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
    pagina = _page_number(request.POST.get("pagina")) or ""
    if value not in CHECKIN:
        if request.htmx:
            return HttpResponse(
                _("Presença inválida: use presente, ausente ou desmarcar."),
                status=400,
                content_type="text/plain; charset=utf-8",
            )
        messages.error(request, _("Presença inválida: use presente, ausente ou desmarcar."))
        return _back(request, tournament)
    try:
        presence.registration_checkin(registration=reg, present=CHECKIN[value], user=request.user)
    except Refused as exc:
        if request.htmx:
            return HttpResponse(
                " ".join(exc.messages), status=refusal_status(exc), content_type="text/plain; charset=utf-8"
            )
        refusal_messages(request, exc)
        return _back(request, tournament)
    if request.htmx:
        row = registration_row_get(registration=reg)
        return render(request, "desk/registrations/_row.html", {"row": row, "q": q, "pagina": pagina})
    return _back(request, tournament, anchor=f"r{reg.pk}")


def _moves_message(promoted, demoted) -> str:
    text = ""
    for moved in promoted:
        text += " " + _("%(who)s saiu da lista de espera.") % {"who": moved}
    for moved in demoted:
        text += " " + _("%(who)s voltou para a lista de espera.") % {"who": moved}
    return text


def _ids(request) -> list[int] | None:
    """The registrations ticked in the list (``ids``), or None when one of them is not a number."""
    values = request.POST.getlist("ids")
    if not all(v.isdigit() and len(v) < 12 for v in values):
        return None
    return sorted({int(v) for v in values})


BULK_CHECKIN = {"present": True, "absent": False}


@desk_view()
@require_POST
def registrations_selected(request, tournament):
    """The list's bulk form: the ticked registrations marked present or absent (one write), or the
    confirmation page of their withdrawal (nothing written yet)."""
    ids, action = _ids(request), request.POST.get("action", "")
    if ids is None or action not in (*BULK_CHECKIN, "withdraw"):
        messages.error(request, _("Seleção inválida; recarregue a lista e tente de novo."))
        return _back(request, tournament)
    if not ids:
        messages.error(request, _("Selecione ao menos uma inscrição (a caixa ao lado do nome)."))
        return _back(request, tournament)
    if action == "withdraw":
        chosen = set(ids)
        rows = [r for r in registration_rows(tournament=tournament) if r.registration.pk in chosen]
        if len(rows) != len(chosen):
            messages.error(request, _("Seleção inválida; recarregue a lista e tente de novo."))
            return _back(request, tournament)
        return render(
            request,
            "desk/registrations/withdraw_many.html",
            {
                "desk_tab": "registrations",
                "rows": rows,
                "problems": [p for r in rows if (p := presence.withdraw_problem(r.registration))],
                "accepted": sum(r.situation == "accepted" for r in rows),
                "q": search_query(request.POST.get("q", "")),
                "pagina": _page_number(request.POST.get("pagina")) or "",
                "back_url": _list_url(tournament, request.POST.get("q", ""), page=request.POST.get("pagina")),
            },
        )
    present = BULK_CHECKIN[action]
    try:
        regs = presence.registrations_checkin(tournament=tournament, ids=ids, present=present, user=request.user)
    except Refused as exc:
        messages.error(request, _("Nada foi gravado:"))
        refusal_messages(request, exc)
        return _back(request, tournament)
    n = len(regs)
    text = (
        ngettext("%(n)d inscrição marcada como presente.", "%(n)d inscrições marcadas como presentes.", n)
        if present
        else ngettext("%(n)d inscrição marcada como ausente.", "%(n)d inscrições marcadas como ausentes.", n)
    )
    messages.success(request, text % {"n": n})
    return _back(request, tournament)


@desk_view()
@require_POST
def registrations_withdraw(request, tournament):
    """The confirmed withdrawal of the ticked registrations: all of them in one write, or none."""
    ids = _ids(request)
    if not ids:
        messages.error(request, _("Seleção inválida; recarregue a lista e tente de novo."))
        return _back(request, tournament)
    try:
        result = presence.registrations_withdraw(tournament=tournament, ids=ids, user=request.user)
    except Refused as exc:
        messages.error(request, _("Nada foi gravado:"))
        refusal_messages(request, exc)
        return _back(request, tournament)
    n = len(result.registrations)
    text = ngettext("%(n)d inscrição retirada: %(who)s.", "%(n)d inscrições retiradas: %(who)s.", n) % {
        "n": n,
        "who": ", ".join(str(r) for r in result.registrations),
    }
    messages.success(request, text + _moves_message(result.promoted, result.demoted))
    return _back(request, tournament)


@desk_view()
@require_POST
def registrations_checkin_all(request, tournament):
    """ "Todos presentes": every registration not withdrawn marked present, in one write."""
    try:
        regs = presence.registrations_checkin_all(tournament=tournament, user=request.user)
    except Refused as exc:
        refusal_messages(request, exc)
        return _back(request, tournament)
    messages.success(
        request,
        ngettext(
            "Todos presentes: %(n)d inscrição marcada como presente.",
            "Todos presentes: %(n)d inscrições marcadas como presentes.",
            len(regs),
        )
        % {"n": len(regs)},
    )
    return _back(request, tournament)


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


def _preview_context(tournament, user, content: bytes, filename: str, number: int | None) -> dict:
    """The preview of a file: its rows with problems first (by line), then the good ones, a page of them.

    The file comes back signed with every page (and the confirmation): paging it reads it again, writes nothing.
    """
    preview = csv_preview(tournament=tournament, content=content)
    ordered = [r for r in preview.rows if r.problems] + [r for r in preview.rows if not r.problems]
    page = _pager(ordered, number)
    shown = list(page.object_list)
    return {
        "preview": preview,
        "filename": filename,
        "page": page,
        "bad_rows": [r for r in shown if r.problems],
        "good_rows": [r for r in shown if not r.problems],
        "rows_with_problems": len(ordered) - sum(1 for r in ordered if not r.problems),
        "payload": file_sign(content=content, filename=filename, tournament_id=tournament.pk, user_id=user.pk),
    }


@desk_view()
def registrations_upload(request, tournament):
    """Upload → preview of every row with its problems (problem rows first, 50 a page) → confirm (the file comes
    back signed) → written."""
    context = {"desk_tab": "registrations", "form": UploadForm(), "preview": None}
    if request.method == "POST" and "payload" in request.POST:
        confirm = ConfirmForm(request.POST, tournament_id=tournament.pk, user_id=request.user.pk)
        if not confirm.is_valid():
            for error in confirm.errors.get("payload", []):
                messages.error(request, error)
            return redirect("desk:registrations_upload", tournament.slug)
        content, filename = confirm.cleaned_data["payload"]
        if "pagina" in request.POST:  # another page of the preview: nothing is written
            number = _page_number(request.POST.get("pagina"))
            context |= _preview_context(tournament, request.user, content, filename, number)
            return render(request, "desk/registrations/upload.html", context)
        try:
            result = services.registrations_import_csv(tournament=tournament, content=content, user=request.user)
        except Refused:
            # something changed since the preview (e.g. a sign-up of the same person): show the problems again
            messages.error(request, _("O arquivo tem problemas agora; nada foi gravado."))
            context |= _preview_context(tournament, request.user, content, filename, None)
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
            context |= _preview_context(tournament, request.user, content, form.filename, None)
            context["form"] = UploadForm()
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


@desk_view()
@require_safe
def registrations_export_xlsx(request, tournament):
    """The same list as a workbook (``exports.registrations``): birth dates and contacts, for the organizer alone."""
    body = registrations_xlsx(tournament=tournament)
    response = HttpResponse(body, content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{xlsx_filename("inscricoes", tournament.slug)}"'
    response["Cache-Control"] = "private, no-store"
    return response
