"""Check-in on the day and withdrawals (docs/regras.md §2): one registration or many at once, all or none, each
write with one audit record naming who and, for a withdrawal, who moved off (or onto) the waiting list."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..audit import audit_record
from ..models import Registration, Tournament
from ..refusals import Refused
from ..writes import PAGES, tournament_write
from .common import moves_between, moves_text, registration_names, situations_read, tournament_lock


@dataclass
class WithdrawResult:
    registration: Registration
    promoted: list[Registration]  # left the waiting list because places were freed
    demoted: list[Registration]  # accepted before, waiting now (a pair ahead took the two freed places)


def _names_short(regs: Sequence[Registration], most: int = 8) -> str:
    """``Ana, Bia e Caio``; past ``most`` names, ``… e mais N`` (an audit summary has 300 characters)."""
    names = [registration_names(r) for r in regs]
    if len(names) > most:
        return ", ".join(names[:most]) + " " + _("e mais %(n)d") % {"n": len(names) - most}
    if len(names) > 1:
        return ", ".join(names[:-1]) + " " + _("e") + " " + names[-1]
    return "".join(names)


def _selected(tournament: Tournament, ids: Collection[int]) -> list[Registration]:
    """The registrations ``ids`` of ``tournament`` (already locked), in order of arrival; ``Refused`` when there
    are none or one of them is not the tournament's."""
    wanted = set(ids)
    if not wanted:
        raise Refused.invalid(_("Selecione ao menos uma inscrição."))
    regs = list(
        Registration.objects.filter(tournament=tournament, pk__in=wanted)
        .select_related("player1", "player2")
        .order_by("order", "id")
    )
    missing = len(wanted) - len(regs)
    if missing:
        raise Refused.not_found(
            ngettext(
                "%(n)d inscrição selecionada não existe neste torneio; recarregue a lista.",
                "%(n)d inscrições selecionadas não existem neste torneio; recarregue a lista.",
                missing,
            )
            % {"n": missing}
        )
    return regs


def withdraw_problem(registration: Registration) -> str:
    """Why ``registration`` may not be withdrawn (empty: it may). The one rule, for the services and the pages."""
    if registration.status == Registration.PAIRED:
        return _(
            "%(who)s já está em dupla: a inscrição não pode ser retirada aqui. Troque os atletas na página de duplas."
        ) % {"who": registration_names(registration)}
    if registration.status == Registration.WITHDRAWN:
        return _("A inscrição de %(who)s já foi retirada.") % {"who": registration_names(registration)}
    return ""


def checkin_problem(registration: Registration) -> str:
    """Why the presence of ``registration`` may not be marked (empty: it may)."""
    if registration.status == Registration.WITHDRAWN:
        return _("A inscrição de %(who)s foi retirada.") % {"who": registration_names(registration)}
    return ""


def _refuse_any(regs: Sequence[Registration], problem: Callable[[Registration], str]) -> None:
    """All or nothing: one registration that may not be changed refuses them all, each named with its reason."""
    problems = [text for r in regs if (text := problem(r))]
    if problems:
        raise Refused.conflict(*problems)


@dataclass
class WithdrawalsResult:
    registrations: list[Registration]  # withdrawn, in order of arrival
    promoted: list[Registration]  # left the waiting list because places were freed
    demoted: list[Registration]  # accepted before, waiting now


def registrations_withdraw(*, tournament: Tournament, ids: Collection[int], user: User | None) -> WithdrawalsResult:
    """Withdraw the registrations ``ids`` (none in a dupla, none withdrawn already), all or none, in one write.

    They leave at the same moment, which the waiting list takes as one after the other in order of arrival
    (``selectors.arrival_events``): whoever moves up is who would have, withdrawing them one by one in that
    order. The audit record names who left and who moved off (or onto) the waiting list.
    """
    one = len(set(ids)) == 1
    action = "registration.withdraw" if one else "registrations.withdraw"
    with tournament_write(tournament=tournament, action=action, user=user, kind=PAGES):
        tournament = tournament_lock(tournament)
        regs = _selected(tournament, ids)
        _refuse_any(regs, withdraw_problem)
        before = situations_read(tournament)
        now = timezone.now()
        for reg in regs:
            reg.status, reg.withdrawn_at = Registration.WITHDRAWN, now
        Registration.objects.filter(pk__in=[r.pk for r in regs]).update(status=Registration.WITHDRAWN, withdrawn_at=now)
        promoted, demoted = moves_between(before, situations_read(tournament))
        moved = {
            "promoted": [registration_names(r) for r in promoted],
            "demoted": [registration_names(r) for r in demoted],
        }
        if one:
            (reg,) = regs
            audit_record(
                tournament=tournament,
                user=user,
                action="registration_withdraw",
                summary=_("Inscrição de %(who)s retirada") % {"who": registration_names(reg)}
                + moves_text(promoted, demoted),
                before={"order": reg.order, "status": Registration.WAITING, "situation": before[reg.pk][0]},
                after={"order": reg.order, "status": Registration.WITHDRAWN, **moved},
            )
        else:
            audit_record(
                tournament=tournament,
                user=user,
                action="registrations_withdraw",
                summary=ngettext("%(n)d inscrição retirada: %(who)s", "%(n)d inscrições retiradas: %(who)s", len(regs))
                % {"n": len(regs), "who": _names_short(regs)}
                + moves_text(promoted, demoted),
                before={
                    "registrations": [
                        {"order": r.order, "status": Registration.WAITING, "situation": before[r.pk][0]} for r in regs
                    ]
                },
                after={
                    "registrations": [{"order": r.order, "name": registration_names(r)} for r in regs],
                    "status": Registration.WITHDRAWN,
                    **moved,
                },
            )
    return WithdrawalsResult(registrations=regs, promoted=promoted, demoted=demoted)


def registration_withdraw(*, registration: Registration, user: User | None) -> WithdrawResult:
    """Withdraw a registration not yet in a dupla; the first on the waiting list that now fits moves up (recorded)."""
    result = registrations_withdraw(tournament=registration.tournament, ids=[registration.pk], user=user)
    return WithdrawResult(registration=result.registrations[0], promoted=result.promoted, demoted=result.demoted)


def _presence_label(present: bool | None) -> str:
    return {True: _("presente"), False: _("ausente"), None: _("presença desmarcada")}[present]


def _checkin(
    tournament: Tournament, regs: list[Registration], present: bool | None, user: User | None
) -> list[Registration]:
    """Mark ``regs`` (of the locked ``tournament``) present, absent or not checked, with one audit record."""
    _refuse_any(regs, checkin_problem)
    earlier = {r.pk: r.present for r in regs}
    for reg in regs:
        reg.present = present
    Registration.objects.filter(pk__in=[r.pk for r in regs]).update(present=present)
    if len(regs) == 1:
        (reg,) = regs
        audit_record(
            tournament=tournament,
            user=user,
            action="registration_checkin",
            summary=f"{registration_names(reg)}: {_presence_label(present)}",
            before={"present": earlier[reg.pk]},
            after={"present": present},
        )
        return regs
    n, who = len(regs), _names_short(regs)
    summary = {
        True: ngettext("%(n)d inscrição presente: %(who)s", "%(n)d inscrições presentes: %(who)s", n),
        False: ngettext("%(n)d inscrição ausente: %(who)s", "%(n)d inscrições ausentes: %(who)s", n),
        None: ngettext(
            "%(n)d inscrição com a presença desmarcada: %(who)s",
            "%(n)d inscrições com a presença desmarcada: %(who)s",
            n,
        ),
    }[present] % {"n": n, "who": who}
    audit_record(
        tournament=tournament,
        user=user,
        action="registrations_checkin",
        summary=summary,
        before={"registrations": [{"order": r.order, "present": earlier[r.pk]} for r in regs]},
        after={
            "present": present,
            "registrations": [{"order": r.order, "name": registration_names(r)} for r in regs],
            "changed": [registration_names(r) for r in regs if earlier[r.pk] is not present],
        },
    )
    return regs


def registrations_checkin(
    *, tournament: Tournament, ids: Collection[int], present: bool | None, user: User | None
) -> list[Registration]:
    """Check-in of many at once: ``ids`` present (True), absent (False) or not checked (None), all or none
    (a withdrawn one refuses them all), in one write with one audit record. Returns them in order of arrival."""
    action = "registration.checkin" if len(set(ids)) == 1 else "registrations.checkin"
    with tournament_write(tournament=tournament, action=action, user=user, kind=PAGES):
        tournament = tournament_lock(tournament)
        return _checkin(tournament, _selected(tournament, ids), present, user)


def registrations_checkin_all(*, tournament: Tournament, user: User | None) -> list[Registration]:
    """ "Todos presentes": every registration not withdrawn marked present, in one write (those marked absent too)."""
    with tournament_write(tournament=tournament, action="registrations.checkin", user=user, kind=PAGES):
        tournament = tournament_lock(tournament)
        regs = list(
            Registration.objects.filter(tournament=tournament)
            .exclude(status=Registration.WITHDRAWN)
            .select_related("player1", "player2")
            .order_by("order", "id")
        )
        if not regs:
            raise Refused.conflict(_("Nenhuma inscrição para marcar."))
        return _checkin(tournament, regs, True, user)


def registration_checkin(*, registration: Registration, present: bool | None, user: User | None) -> Registration:
    """Check-in on the day: present (True), absent (False) or not checked yet (None)."""
    (reg,) = registrations_checkin(
        tournament=registration.tournament, ids=[registration.pk], present=present, user=user
    )
    return reg
