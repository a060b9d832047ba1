"""/jogar/conduta/: conduct in online play (DOMAIN §9.4, §9.6). The staff's pages (the site's ``is_staff``
accounts: ``permissions.may_moderate_online``): the open reports, each acted on with a reason (warn, mute for N
minutes, suspend for N days, ban, dismiss), a player's measures and reports, a measure ended early. And the
players' own page: report a message (``?mensagem=<id>``) or a player (``?jogador=<id>``).

Thin: the writes and reads are ``online.conduct``'s, who may is ``permissions``'; every text a player wrote is
shown escaped (the templates never mark it safe)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from ..limits import column_integer, unstored_integer
from ..models import ChatMessage, ConductReport, OnlineProfile, Sanction, TableSeat
from ..online import conduct
from ..online.people import profile_level
from ..permissions import may_moderate_online
from ..refusals import Refused
from ..web import refusal_messages, refusal_status, refusal_to_form
from .identity import profile_from_session

OUTCOME_LABELS = {
    conduct.WARN: gettext_lazy("Advertir"),
    conduct.MUTE: gettext_lazy("Silenciar (não escreve no chat nem manda reações; joga normalmente)"),
    conduct.SUSPEND: gettext_lazy("Suspender (não senta a mesas)"),
    conduct.BAN: gettext_lazy("Banir (não senta nem escreve, para sempre ou pelos dias dados)"),
    conduct.DISMISS: gettext_lazy("Arquivar sem medida"),
}
DONE = {
    conduct.WARN: gettext_lazy("%(name)s foi advertido(a)."),
    conduct.MUTE: gettext_lazy("%(name)s está silenciado(a) até %(until)s."),
    conduct.SUSPEND: gettext_lazy("%(name)s está suspenso(a) até %(until)s."),
    conduct.BAN: gettext_lazy("%(name)s foi banido(a)."),
    conduct.DISMISS: gettext_lazy("Denúncia arquivada, sem medida."),
}
_ID_MAX = 2**31 - 1


def _reason_field(label: Any) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=conduct.REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": str(conduct.REASON_MAX)}),
        error_messages={
            "required": gettext_lazy("Escreva o motivo."),
            "max_length": gettext_lazy("O motivo tem no máximo %(limit_value)d caracteres (tem %(show_value)d)."),
        },
    )


class MeasureForm(forms.Form):
    """A measure for a player (a report's outcome, or one taken on the player's page)."""

    outcome = forms.ChoiceField(label=gettext_lazy("O que fazer"), widget=forms.RadioSelect)
    minutes = unstored_integer(  # turned into the measure's end
        label=gettext_lazy("Silenciar por quantos minutos"),
        required=False,
        min_value=1,
        max_value=conduct.MUTE_MINUTES_MAX,
        initial=60,
    )
    days = unstored_integer(  # turned into the measure's end
        label=gettext_lazy("Suspender (ou banir) por quantos dias"),
        required=False,
        min_value=1,
        max_value=conduct.SUSPEND_DAYS_MAX,
        help_text=gettext_lazy("Para banir para sempre, deixe os dias em branco."),
    )
    reason = _reason_field(gettext_lazy("Motivo (o jogador vê)"))
    refusal_places = {"until": "days"}

    def __init__(self, *args: Any, outcomes: tuple[str, ...] = conduct.OUTCOMES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["outcome"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(o, OUTCOME_LABELS[o]) for o in outcomes]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        outcome = data.get("outcome")
        if outcome == conduct.MUTE and data.get("minutes") is None and "minutes" not in self.errors:
            self.add_error("minutes", _("Diga por quantos minutos silenciar."))
        if outcome == conduct.SUSPEND and data.get("days") is None and "days" not in self.errors:
            self.add_error("days", _("Diga por quantos dias suspender."))
        return data


class ReportActForm(MeasureForm):
    hide_message = forms.BooleanField(label=gettext_lazy("Ocultar a mensagem do chat"), required=False, initial=True)


class EndForm(forms.Form):
    reason = _reason_field(gettext_lazy("Por que encerrar agora"))


class ReportForm(forms.Form):
    """A player's report: the reason (the message or player is in the address)."""

    motivo = _reason_field(gettext_lazy("O que aconteceu"))
    mensagem = column_integer(ChatMessage, "id", required=False, min_value=1, widget=forms.HiddenInput)
    jogador = column_integer(OnlineProfile, "id", required=False, min_value=1, widget=forms.HiddenInput)
    next = forms.CharField(required=False, max_length=300, widget=forms.HiddenInput)
    refusal_places = {"reason": "motivo"}


# --- the staff's pages -------------------------------------------------------------------------------------------


def conduct_staff(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The door of the staff's conduct pages: anonymous → ``/entrar/?next=…``; an account that is not staff →
    403 with a page saying so. Never cached."""

    @never_cache
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not may_moderate_online(user=request.user):
            return render(request, "play/conduct/not_allowed.html", status=403)
        return view(request, *args, **kwargs)

    return wrapper


def _reports_page(
    request: HttpRequest, *, forms_by_report: dict[int, ReportActForm] | None = None, status: int = 200
) -> HttpResponse:
    forms_by_report = forms_by_report or {}
    reports = conduct.reports_open()
    items = [{"report": r, "form": forms_by_report.get(r.id) or ReportActForm(prefix=f"r{r.id}")} for r in reports]
    return render(
        request,
        "play/conduct/reports.html",
        {
            "items": items,
            "handled": conduct.reports_recent(limit=20),
            "sanctions": conduct.sanctions_recent(limit=20),
        },
        status=status,
    )


@conduct_staff
@require_http_methods(["GET", "HEAD"])
def reports(request: HttpRequest) -> HttpResponse:
    """The open reports (the longest waiting first), the latest handled and the latest measures."""
    return _reports_page(request)


def _until_text(sanction: Sanction | None) -> str:
    if sanction is None or sanction.until is None:
        return ""
    return formats.date_format(timezone.localtime(sanction.until), "SHORT_DATETIME_FORMAT")


@conduct_staff
@require_POST
def report_act(request: HttpRequest, report_id: int) -> HttpResponse:
    """Act on one open report: a measure against its target (or none), with a reason; back to the list."""
    report = ConductReport.objects.filter(pk=report_id).select_related("target").first()
    if report is None:
        raise Http404("denúncia")
    form = ReportActForm(request.POST, prefix=f"r{report.pk}")
    if not form.is_valid():
        return _reports_page(request, forms_by_report={report.pk: form}, status=400)
    data = form.cleaned_data
    try:
        sanction = conduct.report_handle(
            report=report,
            by=request.user,
            outcome=data["outcome"],
            reason=data["reason"],
            minutes=data.get("minutes"),
            days=data.get("days"),
            hide_message=bool(data.get("hide_message")),
        )
    except Refused as refused:
        if refused.kind == Refused.CONFLICT:  # handled meanwhile by someone else: the list says how
            refusal_messages(request, refused)
            return HttpResponseRedirect(reverse("play:conduct:reports"))
        refusal_to_form(form, refused)
        return _reports_page(request, forms_by_report={report.pk: form}, status=refusal_status(refused))
    messages.success(
        request, str(DONE[data["outcome"]]) % {"name": report.target.display_name, "until": _until_text(sanction)}
    )
    return HttpResponseRedirect(reverse("play:conduct:reports"))


def _player_page(
    request: HttpRequest,
    profile: OnlineProfile,
    *,
    form: MeasureForm | None = None,
    end_form: EndForm | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "play/conduct/player.html",
        {
            "profile": profile,
            "account": profile.user.get_username() if profile.user is not None else "",
            "level": profile_level(profile),
            "sanctions": conduct.profile_sanctions(profile=profile),
            "reports": conduct.reports_recent(limit=50, target=profile),
            "open_reports": ConductReport.objects.filter(target=profile, handled_at__isnull=True).count(),
            "form": form or MeasureForm(outcomes=conduct.KINDS),
            "end_form": end_form or EndForm(),
        },
        status=status,
    )


@conduct_staff
@require_http_methods(["GET", "HEAD", "POST"])
def player(request: HttpRequest, profile_id: int) -> HttpResponse:
    """A player's measures and handled reports; POST: a measure taken without a report."""
    profile = OnlineProfile.objects.filter(pk=profile_id).select_related("user").first()
    if profile is None:
        raise Http404("jogador")
    if request.method != "POST":
        return _player_page(request, profile)
    form = MeasureForm(request.POST, outcomes=conduct.KINDS)
    if not form.is_valid():
        return _player_page(request, profile, form=form, status=400)
    data = form.cleaned_data
    now = timezone.now()
    kind = data["outcome"]
    until = None
    if kind == conduct.MUTE:
        until = now + dt.timedelta(minutes=data["minutes"])
    elif kind in (conduct.SUSPEND, conduct.BAN) and data.get("days") is not None:
        until = now + dt.timedelta(days=data["days"])
    try:
        sanction = conduct.sanction_apply(
            profile=profile, kind=kind, reason=data["reason"], by=request.user, until=until, now=now
        )
    except Refused as refused:
        refusal_to_form(form, refused)
        return _player_page(request, profile, form=form, status=refusal_status(refused))
    messages.success(request, str(DONE[kind]) % {"name": profile.display_name, "until": _until_text(sanction)})
    return HttpResponseRedirect(reverse("play:conduct:player", args=[profile.pk]))


@conduct_staff
@require_POST
def sanction_end(request: HttpRequest, sanction_id: int) -> HttpResponse:
    """End a mute, suspension or ban in force now, with a reason."""
    sanction = Sanction.objects.filter(pk=sanction_id).select_related("profile__user").first()
    if sanction is None:
        raise Http404("medida")
    form = EndForm(request.POST)
    if not form.is_valid():
        return _player_page(request, sanction.profile, end_form=form, status=400)
    try:
        conduct.sanction_end(sanction=sanction, by=request.user, reason=form.cleaned_data["reason"])
    except Refused as refused:
        refusal_messages(request, refused)
    else:
        messages.success(request, _("Medida encerrada: vale até agora."))
    return HttpResponseRedirect(reverse("play:conduct:player", args=[sanction.profile_id]))


# --- a player's report ---------------------------------------------------------------------------------------------


def _int(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isdigit() and len(text) < 11 and int(text) <= _ID_MAX else None


def _safe_next(request: HttpRequest, value: str) -> str:
    if value and url_has_allowed_host_and_scheme(value, allowed_hosts={request.get_host()}, require_https=False):
        return value
    return reverse("play:lobby")


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def report_new(request: HttpRequest) -> HttpResponse:
    """``/jogar/conduta/denunciar/?mensagem=<id>`` or ``?jogador=<id>`` (and ``next``, the page to go back to):
    the message or player with a box for the reason; POST sends the report to the staff."""
    reporter = profile_from_session(request.session, request.user)
    source = request.POST if request.method == "POST" else request.GET
    message_id, player_id = _int(source.get("mensagem")), _int(source.get("jogador"))
    back = _safe_next(request, str(source.get("next") or "")[:300])
    if reporter is None:
        return render(request, "play/conduct/report.html", {"no_profile": True, "back": back}, status=403)
    message: ChatMessage | None = None
    target: OnlineProfile | None = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id).select_related("profile", "sala").first()
        visible = message is not None and (
            message.table_id is None or TableSeat.objects.filter(table_id=message.table_id, profile=reporter).exists()
        )
        if not visible:
            return render(request, "play/conduct/report.html", {"gone": True, "back": back}, status=404)
        assert message is not None
        target = message.profile
    elif player_id is not None:
        target = OnlineProfile.objects.filter(pk=player_id).first()
    if target is None:
        return render(request, "play/conduct/report.html", {"gone": True, "back": back}, status=404)
    context: dict[str, Any] = {"message": message, "target": target, "back": back, "self": target.pk == reporter.pk}
    if request.method != "POST":
        initial = {"mensagem": message_id, "jogador": None if message else target.pk, "next": back}
        return render(request, "play/conduct/report.html", {**context, "form": ReportForm(initial=initial)})
    form = ReportForm(request.POST)
    if form.is_valid():
        try:
            conduct.report_create(reporter=reporter, target=target, message=message, reason=form.cleaned_data["motivo"])
        except Refused as refused:
            refusal_to_form(form, refused)
            return render(
                request, "play/conduct/report.html", {**context, "form": form}, status=refusal_status(refused)
            )
        messages.success(request, _("Denúncia enviada. Obrigado: a equipe do site vai olhar."))
        return HttpResponseRedirect(back)
    return render(request, "play/conduct/report.html", {**context, "form": form}, status=400)
