"""Writes of registrations (docs/regras.md §2 step 2). Each one a transaction with its audit record.

Every write locks the tournament row first, so two sign-ups at once get
different arrival numbers and player keys and the "once per tournament" check
sees the other's row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..atletas.services import atletas_link, atletas_rename
from ..audit import audit_record
from ..circuits.services import circuits_follow_players
from ..models import Player, Registration, Tournament
from ..refusals import Refused
from ..writes import PAGES, tournament_write
from .checks import EntryIn, PersonIn, Problem, entries_check, size_problem
from .common import moves_between, moves_text, registration_names, situations_read, tournament_lock
from .csv_import import csv_preview
from .selectors import ACCEPTED
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
        tournament = tournament_lock(tournament)
        if public and not public_signup_is_open(tournament=tournament):
            raise Refused.conflict(_("As inscrições pelo site estão encerradas para este torneio."))
        entry = _checked(tournament, players, require_contact=public)
        too_many = size_problem(tournament=tournament, new_players=len(entry.players))
        if too_many:
            raise Refused.conflict(too_many)
        (reg,) = _write(tournament, [entry], source)
        situation = situations_read(tournament)[reg.pk][0]
        how = {Registration.FORM: _("recebida pelo site"), Registration.CSV: _("importada")}.get(
            source, _("adicionada pela comissão")
        )
        where = _("aceita") if situation == ACCEPTED else _("na lista de espera")
        audit_record(
            tournament=tournament,
            user=user,
            action="registration_add",
            summary=_("Inscrição de %(who)s %(how)s (%(where)s)")
            % {"who": registration_names(reg), "how": how, "where": where},
            after={**_snapshot(reg), "situation": situation, **({"client": client} if client else {})},
        )
    return reg


def registration_edit(*, registration: Registration, players: Sequence[PersonIn], user: User | None) -> Registration:
    """Correct the players of a registration; a registration not yet in a dupla may also gain or lose the partner."""
    with tournament_write(
        tournament=registration.tournament, action="registration.edit", user=user, kind=PAGES
    ) as write:
        tournament = tournament_lock(registration.tournament)
        reg = Registration.objects.select_related("player1", "player2").get(pk=registration.pk, tournament=tournament)
        if reg.status == Registration.WITHDRAWN:
            raise Refused.conflict(
                _("A inscrição de %(who)s foi retirada; não pode ser alterada.") % {"who": registration_names(reg)}
            )
        if reg.status == Registration.PAIRED and len(players) != len(reg.players()):
            raise Refused.conflict(
                _("A inscrição de %(who)s já está em dupla: para trocar atletas, use a página de duplas.")
                % {"who": registration_names(reg)}
            )
        entry = _checked(tournament, players, require_contact=False, exclude=reg)
        before_state, snapshot = situations_read(tournament), _snapshot(reg)
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
        promoted, demoted = moves_between(before_state, situations_read(tournament))
        audit_record(
            tournament=tournament,
            user=user,
            action="registration_edit",
            summary=_("Inscrição de %(who)s alterada") % {"who": registration_names(reg)}
            + moves_text(promoted, demoted),
            before=snapshot,
            after={
                **_snapshot(reg),
                "promoted": [registration_names(r) for r in promoted],
                "demoted": [registration_names(r) for r in demoted],
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


def _registration_closed_set(tournament: Tournament, closed: bool, user: User | None) -> Tournament:
    with tournament_write(tournament=tournament, action="registration.closed", user=user, kind=PAGES):
        tournament = tournament_lock(tournament)
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
        tournament = tournament_lock(tournament)
        preview = csv_preview(tournament=tournament, content=content)
        if not preview.ok:
            raise Refused.invalid(*(preview.problems or [_("nenhuma inscrição no arquivo")]))
        regs = _write(tournament, [r.row.entry for r in preview.rows], Registration.CSV)
        summary = _("%(imported)s: %(accepted)s, %(n)d na lista de espera") % {
            "imported": ngettext(
                "%(n)d inscrição importada de planilha CSV", "%(n)d inscrições importadas de planilha CSV", len(regs)
            )
            % {"n": len(regs)},
            "accepted": ngettext("%(n)d aceita", "%(n)d aceitas", preview.accepted) % {"n": preview.accepted},
            "n": preview.waiting,
        }
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
