"""What the registration writes share: the tournament's row locked, a registration's names, the situation of each
(accepted or waiting) and who moved on or off the waiting list between two readings."""

from __future__ import annotations

from django.utils.translation import ngettext

from ..models import Registration, Tournament
from .selectors import ACCEPTED, WAITING, registration_rows


def tournament_lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def registration_names(reg: Registration) -> str:
    return " + ".join(p.name for p in reg.players())


def situations_read(tournament: Tournament) -> dict[int, tuple[str, Registration]]:
    return {r.registration.pk: (r.situation, r.registration) for r in registration_rows(tournament=tournament)}


def moves_between(
    before: dict[int, tuple[str, Registration]], after: dict[int, tuple[str, Registration]]
) -> tuple[list[Registration], list[Registration]]:
    promoted = [after[pk][1] for pk in after if pk in before and before[pk][0] == WAITING and after[pk][0] == ACCEPTED]
    demoted = [after[pk][1] for pk in after if pk in before and before[pk][0] == ACCEPTED and after[pk][0] == WAITING]
    return promoted, demoted


def moves_text(promoted: list[Registration], demoted: list[Registration]) -> str:
    text = ""
    if promoted:
        text += "; " + ngettext("%(who)s sai da lista de espera", "%(who)s saem da lista de espera", len(promoted)) % {
            "who": " e ".join(registration_names(r) for r in promoted)
        }
    if demoted:
        text += "; " + ngettext(
            "%(who)s volta para a lista de espera", "%(who)s voltam para a lista de espera", len(demoted)
        ) % {"who": " e ".join(registration_names(r) for r in demoted)}
    return text
