"""The checks of a registration (docs/regras.md §2 step 2), in one place for the sign-up form, the desk, CSV and command.

A batch of entries (one for a form, every row for a CSV file) is checked
against itself and against the tournament's registrations: the values
(name, birth date, e-mail, phone, equipe), the minimum age on the tournament date,
and a person registering once (same name ignoring case and accents, same birth
date). The limit of duplas is not a check: beyond it a registration waits
(``selectors``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.registration import age_on, person_key
from scoring.text import name_clean

from .. import limits
from ..models import Player, Registration, Tournament

NAME_MAX = 200
EMAIL_MAX = 254
PHONE_MAX = 40
TEAM_MAX = Player._meta.get_field("team").max_length or 120
OLDEST_YEAR = 1900
_PHONE_CHARS = re.compile(r"^[0-9+()\-.\s/]+$")
CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")

# where a problem is: the first player (0) or the partner (1), and which value
NAME, BIRTH, EMAIL, PHONE, CONTACT, TEAM = "name", "birth_date", "email", "phone", "contact", "team"


@dataclass
class PersonIn:
    """One player as typed: name, birth date, contacts, equipe (their club; public, optional)."""

    name: str
    birth_date: date | None = None
    email: str = ""
    phone: str = ""
    team: str = ""

    def cleaned(self) -> PersonIn:
        return PersonIn(
            name=name_clean(self.name),
            birth_date=self.birth_date,
            email=self.email.strip(),
            phone=" ".join(self.phone.split()),
            team=name_clean(self.team),
        )


@dataclass
class EntryIn:
    """One registration as typed: one player, or a pair registering together."""

    players: list[PersonIn]
    # values the reader could not read (e.g. a date it could not parse): no second problem for them
    unreadable: set[tuple[int, str]] = field(default_factory=set)


@dataclass(frozen=True)
class Problem:
    """What is wrong with one entry of a batch, and where: ``player`` 0/1 (None: the whole entry), ``field``."""

    entry: int
    player: int | None
    field: str
    message: str
    earlier: int | None = None  # a person repeated inside the batch: the index of the earlier entry

    @property
    def place(self) -> str:
        """Where, for a form (``tournaments.refusals``): ``players[1].birth_date``; "" for the whole entry."""
        return "" if self.player is None else f"players[{self.player}].{self.field}"


def reference_day(tournament: Tournament) -> date:
    """The day ages are counted on: the tournament date, or today while it has none."""
    return tournament.date or timezone.localdate()


def _value_problems(person: PersonIn, *, tournament: Tournament, day: date) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if not person.name:
        out.append((NAME, _("obrigatório")))
    elif len(person.name) > NAME_MAX:
        out.append(
            (NAME, _("longo demais (%(n)d caracteres; o máximo é %(max)d)") % {"n": len(person.name), "max": NAME_MAX})
        )
    elif CONTROL_CHARS.search(person.name):
        out.append((NAME, _("tem caracteres de controle")))
    birth = person.birth_date
    if birth is None:
        if tournament.min_age:
            out.append(
                (BIRTH, _("obrigatória: o torneio tem idade mínima de %(age)d anos") % {"age": tournament.min_age})
            )
    elif birth > timezone.localdate():
        out.append((BIRTH, _("%(d)s está no futuro") % {"d": birth.strftime("%d/%m/%Y")}))
    elif birth.year < OLDEST_YEAR:
        out.append(
            (BIRTH, _("%(d)s: ano antes de %(y)d, confira") % {"d": birth.strftime("%d/%m/%Y"), "y": OLDEST_YEAR})
        )
    elif tournament.min_age and age_on(birth, day) < tournament.min_age:
        out.append(
            (
                BIRTH,
                _("nascido(a) em %(d)s, tem %(age)d anos em %(day)s, dia do torneio; a idade mínima é %(min)d anos")
                % {
                    "d": birth.strftime("%d/%m/%Y"),
                    "age": age_on(birth, day),
                    "day": day.strftime("%d/%m/%Y"),
                    "min": tournament.min_age,
                },
            )
        )
    if person.email:
        try:
            if len(person.email) > EMAIL_MAX:
                raise ValidationError("too long")
            validate_email(person.email)
        except ValidationError:
            out.append((EMAIL, _("“%(v)s” não é um e-mail válido") % {"v": person.email[:80]}))
    if person.phone:
        digits = sum(c.isdigit() for c in person.phone)
        if len(person.phone) > PHONE_MAX or not _PHONE_CHARS.match(person.phone) or not 8 <= digits <= 15:
            out.append(
                (
                    PHONE,
                    _("“%(v)s” não parece um telefone (use DDD e número, ex.: (11) 98888-7777)")
                    % {"v": person.phone[:60]},
                )
            )
    if len(person.team) > TEAM_MAX:
        out.append(
            (TEAM, _("longo demais (%(n)d caracteres; o máximo é %(max)d)") % {"n": len(person.team), "max": TEAM_MAX})
        )
    elif CONTROL_CHARS.search(person.team):
        out.append((TEAM, _("tem caracteres de controle")))
    return out


def existing_people(*, tournament: Tournament, exclude_registration: Registration | None = None) -> dict:
    """Who is registered (not withdrawn): person key → arrival number of their registration (None: in a dupla only)."""
    excluded: set[int] = set()
    if exclude_registration is not None:
        excluded = {pk for pk in (exclude_registration.player1_id, exclude_registration.player2_id) if pk}
    regs = list(
        Registration.objects.filter(tournament=tournament).values_list("order", "status", "player1_id", "player2_id")
    )
    withdrawn = {pk for order, status, p1, p2 in regs if status == Registration.WITHDRAWN for pk in (p1, p2) if pk}
    active_order = {}
    for order, status, p1, p2 in regs:
        if status != Registration.WITHDRAWN:
            for pk in (p1, p2):
                if pk:
                    active_order[pk] = order
    out: dict = {}
    for pk, name, birth in Player.objects.filter(tournament=tournament).values_list("id", "name", "birth_date"):
        if pk in excluded or (pk in withdrawn and pk not in active_order):
            continue
        out.setdefault(person_key(name, birth), active_order.get(pk))
    return out


def entries_check(
    *,
    tournament: Tournament,
    entries: Sequence[EntryIn],
    require_contact: bool = False,
    exclude_registration: Registration | None = None,
) -> list[Problem]:
    """Every problem of ``entries`` (already ``cleaned``), in order; an empty list means they may be written."""
    day = reference_day(tournament)
    problems: list[Problem] = []
    known = existing_people(tournament=tournament, exclude_registration=exclude_registration)
    seen: dict[tuple, int] = {}  # person key → index of the first entry of this batch holding it
    for index, entry in enumerate(entries):
        if len(entry.players) not in (1, 2):
            problems.append(
                Problem(index, None, "", _("uma inscrição é individual (1 atleta) ou em dupla (2 atletas)"))
            )
            continue
        for position, person in enumerate(entry.players):
            for where, message in _value_problems(person, tournament=tournament, day=day):
                if (position, where) not in entry.unreadable:
                    problems.append(Problem(index, position, where, message))
        if require_contact and not (entry.players[0].email or entry.players[0].phone):
            problems.append(Problem(index, 0, CONTACT, _("informe um telefone ou um e-mail para contato")))
        keys_here: dict[tuple, int] = {}
        for position, person in enumerate(entry.players):
            if not person.name or (position, BIRTH) in entry.unreadable:
                continue
            key = person_key(person.name, person.birth_date)
            if key in keys_here:
                problems.append(
                    Problem(index, position, NAME, _("é a mesma pessoa que o primeiro atleta desta inscrição"))
                )
            elif key in seen:
                problems.append(Problem(index, position, NAME, _("já inscrito"), earlier=seen[key]))
            elif key in known:
                number = known[key]
                where = (
                    (_(" (inscrição nº %(n)d)") % {"n": number}) if number is not None else _(" (já está numa dupla)")
                )
                problems.append(
                    Problem(
                        index,
                        position,
                        NAME,
                        _("%(name)s já está inscrito(a) neste torneio com a mesma data de nascimento%(where)s")
                        % {"name": person.name, "where": where},
                    )
                )
            keys_here[key] = position
        for key in keys_here:
            seen.setdefault(key, index)
    return problems


def size_problem(*, tournament: Tournament, new_players: int) -> str | None:
    """A tournament holds at most ``limits.MAX_PLAYERS`` players (what a tournament file may carry)."""
    have = Player.objects.filter(tournament=tournament).count()
    if have + new_players > limits.MAX_PLAYERS:
        return _("o torneio passaria de %(max)d atletas (tem %(have)d; chegariam %(new)d)") % {
            "max": limits.MAX_PLAYERS,
            "have": have,
            "new": new_players,
        }
    return None
