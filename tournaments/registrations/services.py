"""Writes of registrations (docs/regras.md §2 step 2). Each one a transaction with its audit record.

Every write locks the tournament row first, so two sign-ups at once get
different arrival numbers and player keys and the "once per tournament" check
sees the other's row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..atletas.services import atletas_link, atletas_rename
from ..audit import audit_record
from ..circuits.services import circuits_follow_players
from ..models import Player, Registration, Tournament
from ..refusals import Refused
from ..writes import PAGES, tournament_write
from .checks import EntryIn, PersonIn, Problem, entries_check, size_problem
from .csv_import import csv_preview
from .selectors import ACCEPTED, WAITING, registration_rows
from .window import public_signup_is_open

FIELD_LABELS = {
    "name": "nome",
    "birth_date": "data de nascimento",
    "email": "e-mail",
    "phone": "telefone",
    "contact": "contato",
    "team": "equipe",
}
_KEY = re.compile(r"^p(\d+)$")


def problem_label(problem: Problem) -> str:
    """``parceiro(a), data de nascimento: …`` for a problem of a one-entry batch (form, desk)."""
    if problem.player is None:
        return problem.message
    who = _("atleta") if problem.player == 0 else _("parceiro(a)")
    return f"{who}, {FIELD_LABELS.get(problem.field, problem.field)}: {problem.message}"


@dataclass
class ImportResult:
    registrations: list[Registration]
    accepted: int
    waiting: int
    notices: list[str] = field(default_factory=list)


@dataclass
class WithdrawResult:
    registration: Registration
    promoted: list[Registration]  # left the waiting list because places were freed
    demoted: list[Registration]  # accepted before, waiting now (a pair ahead took the two freed places)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _names(reg: Registration) -> str:
    return " + ".join(p.name for p in reg.players())


def _situations(tournament: Tournament) -> dict[int, tuple[str, Registration]]:
    return {r.registration.pk: (r.situation, r.registration) for r in registration_rows(tournament=tournament)}


def _moves(
    before: dict[int, tuple[str, Registration]], after: dict[int, tuple[str, Registration]]
) -> tuple[list[Registration], list[Registration]]:
    promoted = [after[pk][1] for pk in after if pk in before and before[pk][0] == WAITING and after[pk][0] == ACCEPTED]
    demoted = [after[pk][1] for pk in after if pk in before and before[pk][0] == ACCEPTED and after[pk][0] == WAITING]
    return promoted, demoted


def _moves_text(promoted: list[Registration], demoted: list[Registration]) -> str:
    text = ""
    if promoted:
        text += "; " + ngettext("%(who)s sai da lista de espera", "%(who)s saem da lista de espera", len(promoted)) % {
            "who": " e ".join(_names(r) for r in promoted)
        }
    if demoted:
        text += "; " + ngettext(
            "%(who)s volta para a lista de espera", "%(who)s voltam para a lista de espera", len(demoted)
        ) % {"who": " e ".join(_names(r) for r in demoted)}
    return text


def _snapshot(reg: Registration) -> dict[str, object]:
    return {
        "order": reg.order,
        "status": reg.status,
        "source": reg.source,
        "present": reg.present,
        "players": [
            {
                "key": p.key,
                "name": p.name,
                "birth_date": p.birth_date,
                "email": p.email,
                "phone": p.phone,
                **({"team": p.team} if p.team else {}),
            }
            for p in reg.players()
        ],
    }


def _write(tournament: Tournament, entries: Sequence[EntryIn], source: str) -> list[Registration]:
    """Players and registrations of ``entries``, arriving after every registration there is."""
    last = Registration.objects.filter(tournament=tournament).order_by("-order").values_list("order", flat=True).first()
    keys = set(Player.objects.filter(tournament=tournament).values_list("key", flat=True))
    player_order = (
        Player.objects.filter(tournament=tournament).order_by("-order").values_list("order", flat=True).first() or 0
    )
    n = max((int(m.group(1)) for k in keys if (m := _KEY.match(k))), default=0)
    players: list[Player] = []
    for entry in entries:
        for person in entry.players:
            n += 1
            while f"p{n}" in keys:
                n += 1
            player_order += 1
            players.append(
                Player(
                    tournament=tournament,
                    key=f"p{n}",
                    name=person.name,
                    birth_date=person.birth_date,
                    email=person.email,
                    phone=person.phone,
                    team=person.team,
                    order=player_order,
                )
            )
    players = Player.objects.bulk_create(players)
    atletas_link(players=players)
    made, i, order = [], 0, last or 0
    for entry in entries:
        order += 1
        pair = players[i : i + len(entry.players)]
        i += len(entry.players)
        made.append(
            Registration(
                tournament=tournament,
                order=order,
                player1=pair[0],
                player2=pair[1] if len(pair) > 1 else None,
                status=Registration.WAITING,
                source=source,
            )
        )
    return Registration.objects.bulk_create(made)


def _checked(
    tournament: Tournament, players: Sequence[PersonIn], *, require_contact: bool, exclude: Registration | None = None
) -> EntryIn:
    entry = EntryIn(players=[p.cleaned() for p in players])
    problems = entries_check(
        tournament=tournament, entries=[entry], require_contact=require_contact, exclude_registration=exclude
    )
    if problems:
        raise Refused.of(problems, worded=problem_label)
    return entry


def registration_add(
    *,
    tournament: Tournament,
    players: Sequence[PersonIn],
    source: str = Registration.DESK,
    user: User | None = None,
    client: str = "",
) -> Registration:
    """One registration (1 player, or a pair registering together), after every check of DOMAIN §2 step 2.

    ``source`` ``form`` is the public sign-up: only while ``public_signup_is_open``
    and with a contact; the desk (``desk``) may add after registration closed.
    ``client`` (a keyed hash of the sign-up's address) is kept in the audit record for the rate limit.
    """
    public = source == Registration.FORM
    with tournament_write(tournament=tournament, action="registration.add", user=user, kind=PAGES):
        tournament = _lock(tournament)
        if public and not public_signup_is_open(tournament=tournament):
            raise Refused.conflict(_("As inscrições pelo site estão encerradas para este torneio."))
        entry = _checked(tournament, players, require_contact=public)
        too_many = size_problem(tournament=tournament, new_players=len(entry.players))
        if too_many:
            raise Refused.conflict(too_many)
        (reg,) = _write(tournament, [entry], source)
        situation = _situations(tournament)[reg.pk][0]
        how = {Registration.FORM: _("recebida pelo site"), Registration.CSV: _("importada")}.get(
            source, _("adicionada pela comissão")
        )
        where = _("aceita") if situation == ACCEPTED else _("na lista de espera")
        audit_record(
            tournament=tournament,
            user=user,
            action="registration_add",
            summary=_("Inscrição de %(who)s %(how)s (%(where)s)") % {"who": _names(reg), "how": how, "where": where},
            after={**_snapshot(reg), "situation": situation, **({"client": client} if client else {})},
        )
    return reg


def registration_edit(*, registration: Registration, players: Sequence[PersonIn], user: User | None) -> Registration:
    """Correct the players of a registration; a registration not yet in a dupla may also gain or lose the partner."""
    with tournament_write(
        tournament=registration.tournament, action="registration.edit", user=user, kind=PAGES
    ) as write:
        tournament = _lock(registration.tournament)
        reg = Registration.objects.select_related("player1", "player2").get(pk=registration.pk, tournament=tournament)
        if reg.status == Registration.WITHDRAWN:
            raise Refused.conflict(
                _("A inscrição de %(who)s foi retirada; não pode ser alterada.") % {"who": _names(reg)}
            )
        if reg.status == Registration.PAIRED and len(players) != len(reg.players()):
            raise Refused.conflict(
                _("A inscrição de %(who)s já está em dupla: para trocar atletas, use a página de duplas.")
                % {"who": _names(reg)}
            )
        entry = _checked(tournament, players, require_contact=False, exclude=reg)
        before_state, snapshot = _situations(tournament), _snapshot(reg)
        renamed = any(p.name != q.name for p, q in zip(reg.players(), entry.players, strict=False))
        identified = [
            p
            for p, q in zip(reg.players(), entry.players, strict=False)
            if (p.name, p.birth_date) != (q.name, q.birth_date)
        ]
        teamed = [p.pk for p, q in zip(reg.players(), entry.players, strict=False) if p.team != q.team]
        for player, person in zip(reg.players(), entry.players, strict=False):
            player.name, player.birth_date, player.email, player.phone, player.team = (
                person.name,
                person.birth_date,
                person.email,
                person.phone,
                person.team,
            )
            player.save(update_fields=["name", "birth_date", "email", "phone", "team"])
        atletas_link(players=identified)  # a new name or birth date: the atleta follows (a manual join is left)
        if teamed:  # an etapa's circuit ranks equipes from its players' teams, read at ranking time
            circuits_follow_players(player_ids=teamed)
        if len(entry.players) == 2 and reg.player2 is None:
            size_error = size_problem(tournament=tournament, new_players=1)
            if size_error:
                raise Refused.conflict(size_error)
            partner = _write_partner(tournament, entry.players[1])
            reg.player2 = partner
            reg.save(update_fields=["player2"])
        elif len(entry.players) == 1 and reg.player2 is not None:
            old = reg.player2
            reg.player2 = None
            reg.save(update_fields=["player2"])
            old.delete()
            atletas_rename(ids=[old.atleta_id] if old.atleta_id is not None else [])
        promoted, demoted = _moves(before_state, _situations(tournament))
        audit_record(
            tournament=tournament,
            user=user,
            action="registration_edit",
            summary=_("Inscrição de %(who)s alterada") % {"who": _names(reg)} + _moves_text(promoted, demoted),
            before=snapshot,
            after={
                **_snapshot(reg),
                "promoted": [_names(r) for r in promoted],
                "demoted": [_names(r) for r in demoted],
            },
        )
        if reg.status == Registration.PAIRED and renamed:  # the public pages show the players' names of the duplas
            write.structure_changed()
    return reg


def _write_partner(tournament: Tournament, person: PersonIn) -> Player:
    keys = set(Player.objects.filter(tournament=tournament).values_list("key", flat=True))
    n = max((int(m.group(1)) for k in keys if (m := _KEY.match(k))), default=0) + 1
    while f"p{n}" in keys:
        n += 1
    last = Player.objects.filter(tournament=tournament).order_by("-order").values_list("order", flat=True).first()
    player = Player.objects.create(
        tournament=tournament,
        key=f"p{n}",
        name=person.name,
        birth_date=person.birth_date,
        email=person.email,
        phone=person.phone,
        team=person.team,
        order=(last or 0) + 1,
    )
    atletas_link(players=[player])
    return player


def _names_short(regs: Sequence[Registration], most: int = 8) -> str:
    """``Ana, Bia e Caio``; past ``most`` names, ``… e mais N`` (an audit summary has 300 characters)."""
    names = [_names(r) for r in regs]
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
        ) % {"who": _names(registration)}
    if registration.status == Registration.WITHDRAWN:
        return _("A inscrição de %(who)s já foi retirada.") % {"who": _names(registration)}
    return ""


def checkin_problem(registration: Registration) -> str:
    """Why the presence of ``registration`` may not be marked (empty: it may)."""
    if registration.status == Registration.WITHDRAWN:
        return _("A inscrição de %(who)s foi retirada.") % {"who": _names(registration)}
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
        tournament = _lock(tournament)
        regs = _selected(tournament, ids)
        _refuse_any(regs, withdraw_problem)
        before = _situations(tournament)
        now = timezone.now()
        for reg in regs:
            reg.status, reg.withdrawn_at = Registration.WITHDRAWN, now
        Registration.objects.filter(pk__in=[r.pk for r in regs]).update(status=Registration.WITHDRAWN, withdrawn_at=now)
        promoted, demoted = _moves(before, _situations(tournament))
        moved = {"promoted": [_names(r) for r in promoted], "demoted": [_names(r) for r in demoted]}
        if one:
            (reg,) = regs
            audit_record(
                tournament=tournament,
                user=user,
                action="registration_withdraw",
                summary=_("Inscrição de %(who)s retirada") % {"who": _names(reg)} + _moves_text(promoted, demoted),
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
                + _moves_text(promoted, demoted),
                before={
                    "registrations": [
                        {"order": r.order, "status": Registration.WAITING, "situation": before[r.pk][0]} for r in regs
                    ]
                },
                after={
                    "registrations": [{"order": r.order, "name": _names(r)} for r in regs],
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
            summary=f"{_names(reg)}: {_presence_label(present)}",
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
            "registrations": [{"order": r.order, "name": _names(r)} for r in regs],
            "changed": [_names(r) for r in regs if earlier[r.pk] is not present],
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
        tournament = _lock(tournament)
        return _checkin(tournament, _selected(tournament, ids), present, user)


def registrations_checkin_all(*, tournament: Tournament, user: User | None) -> list[Registration]:
    """ "Todos presentes": every registration not withdrawn marked present, in one write (those marked absent too)."""
    with tournament_write(tournament=tournament, action="registrations.checkin", user=user, kind=PAGES):
        tournament = _lock(tournament)
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


def _registration_closed_set(tournament: Tournament, closed: bool, user: User | None) -> Tournament:
    with tournament_write(tournament=tournament, action="registration.closed", user=user, kind=PAGES):
        tournament = _lock(tournament)
        before = tournament.registration_closed
        tournament.registration_closed = closed
        tournament.save(update_fields=["registration_closed", "updated_at"])
        audit_record(
            tournament=tournament,
            user=user,
            action="registration_close" if closed else "registration_reopen",
            summary=_("Inscrições encerradas") if closed else _("Inscrições reabertas"),
            before={"registration_closed": before},
            after={"registration_closed": closed},
        )
    return tournament


def registration_close(*, tournament: Tournament, user: User | None) -> Tournament:
    """Close registration (the public form stops taking entries; the organizer may still add)."""
    return _registration_closed_set(tournament, True, user)


def registration_reopen(*, tournament: Tournament, user: User | None) -> Tournament:
    return _registration_closed_set(tournament, False, user)


def registrations_import_csv(*, tournament: Tournament, content: bytes, user: User | None = None) -> ImportResult:
    """Every row of a registration CSV, or nothing: ``Refused`` lists every problem (``linha N: …``)."""
    with tournament_write(tournament=tournament, action="registrations.import", user=user, kind=PAGES):
        tournament = _lock(tournament)
        preview = csv_preview(tournament=tournament, content=content)
        if not preview.ok:
            raise Refused.invalid(*(preview.problems or [_("nenhuma inscrição no arquivo")]))
        regs = _write(tournament, [r.row.entry for r in preview.rows], Registration.CSV)
        summary = ngettext(
            "%(n)d inscrição importada de planilha CSV: %(a)d aceita(s), %(w)d na lista de espera",
            "%(n)d inscrições importadas de planilha CSV: %(a)d aceita(s), %(w)d na lista de espera",
            len(regs),
        ) % {"n": len(regs), "a": preview.accepted, "w": preview.waiting}
        audit_record(
            tournament=tournament,
            user=user,
            action="registrations_import",
            summary=summary,
            after={
                "registrations": [
                    {"order": r.order, "players": [p.key for p in r.players()], "line": pr.line}
                    for r, pr in zip(regs, preview.rows, strict=False)
                ]
            },
        )
    return ImportResult(registrations=regs, accepted=preview.accepted, waiting=preview.waiting, notices=preview.notices)
