"""The whole-tournament check behind every admin write.

An admin save bypasses the services, so after it (inside the same
transaction) the tournament is refreshed, exported and read back with the
importer's rules (``plan_read``), and its public pages are built. Any problem
(or any crash on the way) refuses the save: the transaction is rolled back and
the problems are shown on the form, in Portuguese.
"""

import json
import logging
from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import ngettext

from .. import presenters
from ..interchange.reader import plan_read
from ..interchange.writer import tournament_export
from ..models import Tournament
from ..refusals import Refused
from ..selectors import tournament_state_cache_clear, tournament_state_get
from ..writes import engine_refresh

logger = logging.getLogger(__name__)

MAX_PROBLEMS = 12  # a form shows this many; the rest are summed up


class GuardRefused(Refused):
    """An admin write would leave a tournament that the site cannot read back or show (its problems are the
    refusal's messages)."""

    def __init__(self, *problems: str):
        super().__init__(Refused.INVALID, *problems)


class DeletionRefused(GuardRefused):
    """The same, for a deletion (the admin answers it with a redirect, not with the form)."""


def tournament_problems(*, tournament_id: int | None) -> list[str]:
    """What stops the tournament, as it now stands in this transaction, from round-tripping or showing."""
    if tournament_id is None:
        return []
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []  # deleted with the write: nothing left to check
    name = tournament.name
    try:
        with transaction.atomic():
            engine_refresh(tournament=tournament, action="admin")  # brackets advance, parts renew, as after any write
            data = json.loads(json.dumps(tournament_export(tournament=tournament, include_private=True)))
            _, errors = plan_read(data)
            if errors:
                found = [f"no arquivo do torneio «{name}», {error}" for error in errors[:MAX_PROBLEMS]]
                if len(errors) > MAX_PROBLEMS:
                    more = len(errors) - MAX_PROBLEMS
                    found.append(ngettext("… e mais %(n)d problema", "… e mais %(n)d problemas", more) % {"n": more})
                return found
            state = tournament_state_get(tournament=tournament)
            presenters.event_head(state)
            presenters.event_present(state)
            presenters.standings_present(state)
            presenters.bracket_present(state)
            presenters.jogos_present(state)
    except Exception:
        logger.exception("admin guard: tournament %s cannot be exported or shown", tournament_id)
        return [
            (
                f"o torneio «{name}» ficaria num estado que o site não consegue exportar nem exibir "
                "(as páginas dariam erro); confira os valores informados"
            )
        ]
    return []


def tournaments_check(*, tournament_ids: Iterable[int | None], deleting: bool = False) -> None:
    """Raise ``GuardRefused`` (``DeletionRefused`` when ``deleting``) with every problem of the given tournaments
    (ids; None is skipped)."""
    problems: list[str] = []
    for tournament_id in dict.fromkeys(tournament_ids):
        problems += tournament_problems(tournament_id=tournament_id)
    if problems:
        raise (DeletionRefused if deleting else GuardRefused)(*problems)


def guard_forget() -> None:
    """After a refused write: forget this process's states (none of the rolled-back write was kept, but a
    state read meanwhile may have been)."""
    tournament_state_cache_clear()
