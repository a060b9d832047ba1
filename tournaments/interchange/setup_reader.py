"""What an organizer sets up at the desk besides the rules, as the tournament file carries it (additions to the
contract, written by the export only when they differ from what an import makes without them):

- ``tournament.mesas``: the number of mesas (the knockout's later jogos take turns over them);
- ``tournament.competition_format``: the format the desk's competition draw uses (``Tournament.format``: the
  starter's, or the organizer's choice), before and after the draw (a redone draw uses it again);
- ``tournament.registration``: the registration window, ``{"closed", "public_signup", "opens", "closes"}``
  (without it an import closes registration, as always);
- ``tournament.allow_self_scoring``: the duplas may enter their own súmula;
- ``registrations[].present``: the check-in (the pairing draw leaves the absent out).

Part of the reader (``reader.py``): every problem is collected with its place; no database access.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from scoring.format import BRACKET_METHODS, KINDS
from scoring.messages import _
from tournaments.models import Tournament

from .. import limits
from .plan import SetupPlan
from .values import Errors, best_of_problem, bounded_int, is_int

__all__ = ["FORMAT_FIELDS", "present_read", "setup_read"]

# the competition format's fields (draws.format, scoring.format) and what each holds
FORMAT_FIELDS = (
    "kind",
    "group_size",
    "per_group",
    "best_others",
    "best_of_groups",
    "best_of_knockout",
    "best_of_rounds",
    "bracket_method",
)


def setup_read(t: dict, errors: Errors) -> SetupPlan:
    """The desk's setup of the file's ``tournament`` object ``t``."""
    out = SetupPlan()
    if t.get("mesas") is not None:
        out.mesas = bounded_int(
            t["mesas"],
            "tournament.mesas",
            errors,
            column=(Tournament, "mesas"),
            what=_("o número de mesas"),
            low=1,
            high=limits.MAX_MESAS,
        )
    if t.get("competition_format") is not None:
        out.competition_format = _format_read(t["competition_format"], "tournament.competition_format", errors)
    out.allow_self_scoring = _bool(t, "allow_self_scoring", "tournament", errors, default=False)
    registration = t.get("registration")
    if registration is None:
        return out
    place = "tournament.registration"
    if not isinstance(registration, dict):
        errors.add(place, _("deve ser um objeto com closed, public_signup, opens e closes"))
        return out
    out.registration_closed = _bool(registration, "closed", place, errors, default=True)
    out.public_signup = _bool(registration, "public_signup", place, errors, default=False)
    out.registration_opens = _moment(registration, "opens", place, errors)
    out.registration_closes = _moment(registration, "closes", place, errors)
    if out.registration_opens and out.registration_closes and out.registration_closes <= out.registration_opens:
        errors.add(f"{place}.closes", _("as inscrições fecham antes de abrir: confira opens e closes"))
    return out


def present_read(r: dict, place: str, errors: Errors) -> bool | None:
    """A registration's check-in: true (present), false (absent) or absent/null (not checked yet)."""
    value = r.get("present")
    if value is None or isinstance(value, bool):
        return value
    errors.add(f"{place}.present", _("deve ser true ou false"))
    return None


def _bool(obj: dict, name: str, place: str, errors: Errors, *, default: bool) -> bool:
    value = obj.get(name, default)
    if isinstance(value, bool):
        return value
    errors.add(f"{place}.{name}", _("deve ser true ou false"))
    return default


def _moment(obj: dict, name: str, place: str, errors: Errors) -> dt.datetime | None:
    """An ISO date and time (``2025-08-01T09:00:00-03:00``; without an offset, the site's time zone)."""
    value = obj.get(name)
    if value is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None:
        errors.add(f"{place}.{name}", _("data e hora inválidas %(value)s: use AAAA-MM-DDTHH:MM", value=repr(value)))
        return None
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


def _format_read(value: Any, place: str, errors: Errors) -> dict[str, Any]:
    """The competition format as the desk stores it: its fields (others are left out, as anywhere in the file), each
    of its kind and within bounds. Whether the draw can use it with the event's duplas is the desk's to say (its
    draw page lists the problems), as for a format chosen there."""
    if not isinstance(value, dict):
        errors.add(place, _("deve ser um objeto (kind, group_size, per_group…)"))
        return {}
    before = len(errors)
    for name, options in (("kind", KINDS), ("bracket_method", BRACKET_METHODS)):
        if name in value and value[name] not in options:
            errors.add(
                f"{place}.{name}",
                _(
                    "valor %(value)s inválido; use um de: %(options)s",
                    value=repr(value[name]),
                    options=", ".join(options),
                ),
            )
    for name in ("group_size", "per_group", "best_others"):
        if name in value and not (is_int(value[name]) and 0 <= value[name] <= limits.MAX_DUPLAS):
            errors.add(
                f"{place}.{name}",
                _(
                    "%(what)s deve ser um número inteiro entre %(low)s e %(high)s",
                    what=name,
                    low=0,
                    high=limits.MAX_DUPLAS,
                ),
            )
    for name in ("best_of_groups", "best_of_knockout"):
        if value.get(name) is not None and (problem := best_of_problem(value[name])):
            errors.add(f"{place}.{name}", problem)
    rounds = value.get("best_of_rounds")
    if rounds is not None and not isinstance(rounds, dict):
        errors.add(f"{place}.best_of_rounds", _('deve ser um objeto {"rodada": melhor de}'))
    for key, best_of in rounds.items() if isinstance(rounds, dict) else ():
        if not (key.isascii() and key.isdigit() and 1 <= int(key) <= limits.MAX_KNOCKOUT_ROUNDS):
            errors.add(
                f"{place}.best_of_rounds",
                _("rodada %(r)r inválida: use 1 para a primeira rodada, 2 para a segunda…", r=key),
            )
        elif problem := best_of_problem(best_of):
            errors.add(f"{place}.best_of_rounds.{key}", problem)
    if len(errors) > before:
        return {}
    return {name: value[name] for name in FORMAT_FIELDS if name in value}
