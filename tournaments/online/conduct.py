"""Conduct in online play (DOMAIN §9.4, §9.6; 004 "Responsabilidade", "Abusos e fair play"): players report a
message or a player; the site's staff warn, mute, suspend or ban ("medidas administrativas"), each measure
recorded with its reason, who took it and until when.

What each measure does:

- **warn** (advertência): recorded and shown to the player; nothing else changes.
- **mute** (silêncio, for minutes): the player still sits and plays, but cannot chat nor react.
- **suspend** (suspensão, for days): the player cannot sit at a table (nor chat) until it ends.
- **ban** (banimento, for ever unless an end is given): the account (or the guest's profile) cannot sit nor chat.

``may_sit`` and ``may_chat`` say the refusal (in Portuguese) or None; CORE's ``seat_take``/``table_create`` ask
``may_sit``, the chat asks ``may_chat``. A measure already taken ends early only by ``sanction_end`` (its end is
set to now and the reason says who ended it and why).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from scoring.text import is_blank

from ..models import ChatMessage, ConductReport, OnlineProfile, Sanction, TableSeat
from ..permissions import may_moderate_online
from ..refusals import Refused
from .people import profile_level, text_clean

__all__ = [
    "DISMISS",
    "KINDS",
    "MUTE_MINUTES_MAX",
    "OUTCOMES",
    "REASON_MAX",
    "REPORTS_PER_HOUR",
    "SUSPEND_DAYS_MAX",
    "ReportRow",
    "SanctionRow",
    "conduct_notices",
    "may_chat",
    "may_sit",
    "message_hide",
    "profile_sanctions",
    "report_create",
    "report_handle",
    "report_outcome",
    "reports_open",
    "reports_recent",
    "sanction_apply",
    "sanction_end",
    "sanctions_recent",
]

WARN, MUTE, SUSPEND, BAN = Sanction.WARN, Sanction.MUTE, Sanction.SUSPEND, Sanction.BAN
KINDS: tuple[str, ...] = (WARN, MUTE, SUSPEND, BAN)
DISMISS = "dismiss"  # a report handled with no measure (arquivada)
OUTCOMES: tuple[str, ...] = (*KINDS, DISMISS)
REASON_MAX = 300
MUTE_MINUTES_MAX = 30 * 24 * 60  # 30 days
SUSPEND_DAYS_MAX = 365
REPORTS_PER_HOUR = 10  # a player's reports in any hour
NOTICE_WARN_DAYS = 7  # a warning is shown to its player for this long
_RESTRICTING = (MUTE, SUSPEND, BAN)
_ORDER = {BAN: 0, SUSPEND: 1, MUTE: 2}  # the strongest measure in force speaks


def _now(now: dt.datetime | None) -> dt.datetime:
    return now if now is not None else timezone.now()


def _when(value: dt.datetime) -> str:
    """A date and time as people read it here (the site's time zone): "06/12/2026 20:15"."""
    return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")


def _in_force(*, profile: OnlineProfile, now: dt.datetime) -> list[Sanction]:
    """The measures restricting ``profile`` now (mute, suspend, ban whose end has not come), strongest first."""
    found = Sanction.objects.filter(profile=profile, kind__in=_RESTRICTING).filter(
        Q(until__isnull=True) | Q(until__gt=now)
    )
    return sorted(found, key=lambda s: _ORDER[s.kind])


def _barred(sanction: Sanction, *, guest: bool) -> str:
    """Why a suspension or a ban keeps its player out, with its reason."""
    if sanction.until is None:  # a ban for ever (a suspension always ends)
        text = (
            _("Este perfil de visitante foi banido do jogo online.")
            if guest
            else _("Esta conta foi banida do jogo online.")
        )
    elif sanction.kind == BAN:
        text = _("Você está banido do jogo online até %(until)s.") % {"until": _when(sanction.until)}
    else:
        text = _("Você está suspenso do jogo online até %(until)s.") % {"until": _when(sanction.until)}
    return _("%(text)s Motivo: %(reason)s") % {"text": text, "reason": sanction.reason}


def may_sit(profile: OnlineProfile, *, now: dt.datetime | None = None) -> Refused | None:
    """Why ``profile`` may not sit at a table (nor create one) now: a ban or a suspension in force; None when it
    may. A mute does not keep anyone from playing."""
    for sanction in _in_force(profile=profile, now=_now(now)):
        if sanction.kind in (BAN, SUSPEND):
            return Refused.forbidden(_barred(sanction, guest=profile.user_id is None))
    return None


def may_chat(profile: OnlineProfile, *, now: dt.datetime | None = None) -> Refused | None:
    """Why ``profile`` may not write in a chat nor send a reaction now: a mute, a suspension or a ban in force;
    None when it may."""
    found = _in_force(profile=profile, now=_now(now))
    if not found:
        return None
    sanction = found[0]
    if sanction.kind == MUTE:
        assert sanction.until is not None  # a mute always ends
        return Refused.forbidden(
            _(
                "Você está silenciado até %(until)s: pode jogar, mas não pode escrever no chat nem mandar "
                "reações. Motivo: %(reason)s"
            )
            % {"until": _when(sanction.until), "reason": sanction.reason}
        )
    return Refused.forbidden(_barred(sanction, guest=profile.user_id is None))


# --- measures ------------------------------------------------------------------------------------------------


def _reason_check(value: Any, *, place: str = "reason") -> str:
    reason = text_clean(value)
    if is_blank(reason):
        message = _("Escreva o motivo.")
        raise Refused.invalid(message, problems=[RuleError(place, message)])
    if len(reason) > REASON_MAX:
        message = _("O motivo tem no máximo %(n)d caracteres.") % {"n": REASON_MAX}
        raise Refused.invalid(message, problems=[RuleError(place, message)])
    return reason


def _staff_check(by: Any) -> None:
    if not may_moderate_online(user=by):
        raise Refused.forbidden(_("Só a equipe do site aplica medidas de conduta."))


def sanction_apply(
    *,
    profile: OnlineProfile,
    kind: str,
    reason: str,
    by: Any,
    until: dt.datetime | None = None,
    now: dt.datetime | None = None,
) -> Sanction:
    """A measure against ``profile`` by the staff member ``by``, recorded with its ``reason``: ``warn`` (no end),
    ``mute`` and ``suspend`` (an end ``until`` is required, at most ``MUTE_MINUTES_MAX`` minutes and
    ``SUSPEND_DAYS_MAX`` days away), ``ban`` (for ever, or until ``until``)."""
    _staff_check(by)
    now = _now(now)
    if kind not in KINDS:
        raise Refused.invalid(_("Medida desconhecida: escolha advertir, silenciar, suspender ou banir."))
    reason = _reason_check(reason)
    if kind == WARN:
        until = None
    elif kind in (MUTE, SUSPEND) and until is None:
        message = _("Diga até quando vale a medida.")
        raise Refused.invalid(message, problems=[RuleError("until", message)])
    if until is not None:
        longest = dt.timedelta(minutes=MUTE_MINUTES_MAX) if kind == MUTE else dt.timedelta(days=SUSPEND_DAYS_MAX)
        if until <= now:
            message = _("O fim da medida precisa ser depois de agora.")
            raise Refused.invalid(message, problems=[RuleError("until", message)])
        if kind != BAN and until - now > longest:
            message = (
                _("Um silêncio dura no máximo %(n)d dias.") % {"n": MUTE_MINUTES_MAX // (24 * 60)}
                if kind == MUTE
                else _("Uma suspensão dura no máximo %(n)d dias.") % {"n": SUSPEND_DAYS_MAX}
            )
            raise Refused.invalid(message, problems=[RuleError("until", message)])
    return Sanction.objects.create(profile=profile, kind=kind, reason=reason, by=by, at=now, until=until)


def sanction_end(*, sanction: Sanction, by: Any, reason: str, now: dt.datetime | None = None) -> Sanction:
    """End a mute, suspension or ban in force now (a mistake, an appeal heard): its end becomes ``now`` and its
    reason records who ended it, when and why."""
    _staff_check(by)
    now = _now(now)
    why = _reason_check(reason)
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
        if sanction.kind not in _RESTRICTING or (sanction.until is not None and sanction.until <= now):
            raise Refused.conflict(_("Esta medida não está em vigor: não há o que encerrar."))
        note = _("Encerrada em %(when)s por %(who)s: %(why)s") % {
            "when": _when(now),
            "who": by.get_username(),
            "why": why,
        }
        sanction.reason = f"{sanction.reason} · {note}"[:REASON_MAX]
        sanction.until = now
        sanction.save(update_fields=["reason", "until"])
    return sanction


def message_hide(*, message: ChatMessage, by: Any) -> None:
    """Hide a message from its chat's history (staff only); reports keep their copy of it."""
    _staff_check(by)
    ChatMessage.objects.filter(pk=message.pk).update(hidden=True)


# --- reports -------------------------------------------------------------------------------------------------


def report_create(
    *,
    reporter: OnlineProfile,
    target: OnlineProfile | None = None,
    message: ChatMessage | None = None,
    reason: str,
    now: dt.datetime | None = None,
) -> ConductReport:
    """``reporter`` reports a player (``target``) or one of their messages (``message``; its writer is the
    target), with a reason, for the staff to handle. The message's text is copied (a table's chat is deleted
    when its partida ends). A table's message only by whoever may read it (seated there); at most
    ``REPORTS_PER_HOUR`` reports an hour; the same report twice while the first is open is refused."""
    now = _now(now)
    if message is not None:
        if target is not None and target.pk != message.profile_id:
            raise Refused.invalid(_("Essa mensagem não é desse jogador."))
        if (
            message.table_id is not None
            and not TableSeat.objects.filter(table_id=message.table_id, profile=reporter).exists()
        ):
            raise Refused.not_found(_("Mensagem não encontrada: talvez a partida já tenha acabado."))
        target = message.profile
    if target is None:
        raise Refused.invalid(_("Diga qual jogador ou qual mensagem você denuncia."))
    if target.pk == reporter.pk:
        raise Refused.invalid(_("Você não pode denunciar a si mesmo."))
    reason = _reason_check(reason)
    with transaction.atomic():
        list(OnlineProfile.objects.select_for_update().filter(pk=reporter.pk).values_list("pk", flat=True))
        if ConductReport.objects.filter(reporter=reporter, at__gt=now - dt.timedelta(hours=1)).count() >= (
            REPORTS_PER_HOUR
        ):
            raise Refused.locked(
                _("Você já fez %(n)d denúncias na última hora. Espere um pouco: a equipe vai olhar as que chegaram.")
                % {"n": REPORTS_PER_HOUR}
            )
        same = ConductReport.objects.filter(reporter=reporter, target=target, handled_at__isnull=True, message=message)
        if same.exists():
            raise Refused.conflict(
                _("Você já denunciou esta mensagem; a equipe vai olhar.")
                if message is not None
                else _("Você já denunciou este jogador; a equipe vai olhar.")
            )
        return ConductReport.objects.create(
            reporter=reporter,
            target=target,
            message=message,
            text=message.text if message is not None else "",
            reason=reason,
            at=now,
        )


def report_outcome(report: ConductReport) -> tuple[str, str]:
    """A handled report's outcome (one of ``OUTCOMES``) and the staff's reason; ("", "") while open."""
    kind, _sep, reason = report.outcome.partition(": ")
    return kind, reason


def report_handle(
    *,
    report: ConductReport,
    by: Any,
    outcome: str,
    reason: str,
    minutes: int | None = None,
    days: int | None = None,
    hide_message: bool = False,
    now: dt.datetime | None = None,
) -> Sanction | None:
    """The staff member ``by`` handles an open report: ``warn``, ``mute`` for ``minutes``, ``suspend`` for
    ``days``, ``ban`` (for ever; for ``days`` when given) or ``dismiss``, with a reason. The measure is applied
    to the report's target (``sanction_apply``), the reported message hidden when ``hide_message``, and every
    open report of the same message (or of the same player, for a report without message) is closed with it.
    Two staff members at once: the second is told it was already handled."""
    _staff_check(by)
    now = _now(now)
    if outcome not in OUTCOMES:
        raise Refused.invalid(_("Escolha o que fazer: advertir, silenciar, suspender, banir ou arquivar."))
    reason = _reason_check(reason)
    until: dt.datetime | None = None
    if outcome == MUTE:
        if minutes is None or not 1 <= minutes <= MUTE_MINUTES_MAX:
            message = _("Diga por quantos minutos silenciar (de 1 a %(n)d).") % {"n": MUTE_MINUTES_MAX}
            raise Refused.invalid(message, problems=[RuleError("minutes", message)])
        until = now + dt.timedelta(minutes=minutes)
    elif outcome == SUSPEND or (outcome == BAN and days is not None):
        if days is None or not 1 <= days <= SUSPEND_DAYS_MAX:
            message = _("Diga por quantos dias (de 1 a %(n)d).") % {"n": SUSPEND_DAYS_MAX}
            raise Refused.invalid(message, problems=[RuleError("days", message)])
        until = now + dt.timedelta(days=days)
    with transaction.atomic():
        locked = ConductReport.objects.select_for_update().filter(pk=report.pk).first()
        if locked is None:
            raise Refused.not_found(_("Esta denúncia não existe mais."))
        if locked.handled_at is not None:
            raise Refused.conflict(
                _("Esta denúncia já foi resolvida por outra pessoa da equipe. Veja a lista de novo.")
            )
        target = OnlineProfile.objects.get(pk=locked.target_id)
        sanction = (
            None
            if outcome == DISMISS
            else sanction_apply(profile=target, kind=outcome, reason=reason, by=by, until=until, now=now)
        )
        if hide_message and locked.message_id is not None:
            ChatMessage.objects.filter(pk=locked.message_id).update(hidden=True)
        waiting = ConductReport.objects.filter(handled_at__isnull=True, target_id=locked.target_id)
        if locked.message_id is not None:  # every open report of the same message
            waiting = waiting.filter(message_id=locked.message_id)
        elif not locked.text:  # every open report of the player (not of a message)
            waiting = waiting.filter(message__isnull=True, text="")
        else:  # a message since deleted (its partida ended): this report alone
            waiting = waiting.none()
        ids = {locked.pk, *waiting.values_list("pk", flat=True)}
        ConductReport.objects.filter(pk__in=ids).update(
            handled_by=by, handled_at=now, outcome=f"{outcome}: {reason}"[:REASON_MAX]
        )
    return sanction


# --- reads for the staff's pages and the player ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A report as the staff's page lists it (texts to be escaped)."""

    id: int
    at: dt.datetime
    reporter: str
    reporter_id: int
    target: str
    target_id: int
    target_account: str  # the account's username; "" for a guest
    target_level: str
    text: str  # the reported message, as it was ("" for a report of a player)
    reason: str
    message_id: int | None
    place: str  # where the message was: "Salão 1", "mesa 17"; "" for a report of a player
    hidden: bool  # the message was hidden already
    target_sanctions: int  # measures the target received before
    handled_by: str
    handled_at: dt.datetime | None
    outcome: str  # one of OUTCOMES; "" while open
    outcome_reason: str


def _report_rows(reports: list[ConductReport]) -> list[ReportRow]:
    targets = {r.target_id for r in reports}
    counts: dict[int, int] = {}
    for profile_id in Sanction.objects.filter(profile_id__in=targets).values_list("profile_id", flat=True):
        counts[profile_id] = counts.get(profile_id, 0) + 1
    rows = []
    for r in reports:
        place = ""
        if r.message is not None:
            if r.message.sala is not None:
                place = r.message.sala.name
            elif r.message.table_id is not None:
                place = _("mesa %(n)d") % {"n": r.message.table_id}
        kind, why = report_outcome(r)
        rows.append(
            ReportRow(
                id=r.pk,
                at=r.at,
                reporter=r.reporter.display_name,
                reporter_id=r.reporter_id,
                target=r.target.display_name,
                target_id=r.target_id,
                target_account=r.target.user.get_username() if r.target.user is not None else "",
                target_level=profile_level(r.target),
                text=r.text,
                reason=r.reason,
                message_id=r.message_id,
                place=place,
                hidden=bool(r.message is not None and r.message.hidden),
                target_sanctions=counts.get(r.target_id, 0),
                handled_by=r.handled_by.get_username() if r.handled_by is not None else "",
                handled_at=r.handled_at,
                outcome=kind,
                outcome_reason=why,
            )
        )
    return rows


_REPORT_JOINS = ("reporter", "target__user", "message__sala", "handled_by")


def reports_open(*, limit: int = 100) -> list[ReportRow]:
    """The open reports, oldest first (the longest waiting on top)."""
    found = ConductReport.objects.filter(handled_at__isnull=True).select_related(*_REPORT_JOINS).order_by("at", "id")
    return _report_rows(list(found[: max(0, limit)]))


def reports_recent(*, limit: int = 30, target: OnlineProfile | None = None) -> list[ReportRow]:
    """The reports handled lately (of ``target`` only, when given), newest first."""
    found = ConductReport.objects.filter(handled_at__isnull=False)
    if target is not None:
        found = found.filter(target=target)
    found = found.select_related(*_REPORT_JOINS).order_by("-handled_at", "-id")
    return _report_rows(list(found[: max(0, limit)]))


@dataclass(frozen=True, slots=True)
class SanctionRow:
    """A measure as the staff's pages and its player read it."""

    id: int
    profile_id: int
    profile: str
    kind: str
    kind_label: str
    reason: str
    by: str
    at: dt.datetime
    until: dt.datetime | None
    in_force: bool


def _sanction_rows(sanctions: list[Sanction], *, now: dt.datetime) -> list[SanctionRow]:
    labels = dict(Sanction.KIND_CHOICES)
    return [
        SanctionRow(
            id=s.pk,
            profile_id=s.profile_id,
            profile=s.profile.display_name,
            kind=s.kind,
            kind_label=str(labels.get(s.kind, s.kind)),
            reason=s.reason,
            by=s.by.get_username() if s.by is not None else "",
            at=s.at,
            until=s.until,
            in_force=s.kind in _RESTRICTING and (s.until is None or s.until > now),
        )
        for s in sanctions
    ]


def sanctions_recent(*, limit: int = 30, now: dt.datetime | None = None) -> list[SanctionRow]:
    """The measures taken lately, newest first."""
    found = Sanction.objects.select_related("profile", "by").order_by("-at", "-id")[: max(0, limit)]
    return _sanction_rows(list(found), now=_now(now))


def profile_sanctions(*, profile: OnlineProfile, now: dt.datetime | None = None) -> list[SanctionRow]:
    """Every measure ``profile`` received, newest first."""
    found = Sanction.objects.filter(profile=profile).select_related("profile", "by").order_by("-at", "-id")
    return _sanction_rows(list(found), now=_now(now))


def conduct_notices(*, profile: OnlineProfile, now: dt.datetime | None = None) -> list[SanctionRow]:
    """What the player should be told (the table and sala pages show it): the measures in force against it and
    the warnings of the last ``NOTICE_WARN_DAYS`` days, newest first."""
    now = _now(now)
    return [
        row
        for row in profile_sanctions(profile=profile, now=now)
        if row.in_force or (row.kind == WARN and now - row.at <= dt.timedelta(days=NOTICE_WARN_DAYS))
    ]
