"""The Histórico (/organizar/<slug>/historico/) as people read it: who did each action (a dupla's appeal by its
name, not "sistema") and what it was, its data before and after with the duplas, jogos and players named as
people know them. The stored entries keep the keys (they are the record); only the page names them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pprint import pformat
from typing import Any

from django.utils.translation import gettext as _

from ..models import AuditEntry, Player, Tournament
from ..presenters.jogo import jogo_label
from ..roles import display_name
from ..selectors import tournament_state_get

# what a summary written before the names replaced the keys may hold: the keys the site makes (j12, r3, d4, p9)
GENERATED_KEY = re.compile(r"\b[a-z]\d+\b")


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One action of the history, ready to show."""

    summary: str
    at: datetime
    who: str
    before: str | None  # the data before, as text (None: nothing recorded)
    after: str | None


def audit_lines(*, tournament: Tournament, entries: Iterable[AuditEntry]) -> list[AuditLine]:
    """``entries`` (with their ``user``) as the history page shows them."""
    names = _names(tournament)

    def named(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, list):
            return [named(v) for v in value]
        if isinstance(value, dict):
            return {named(k): named(v) for k, v in value.items()}
        return value

    def text(value: Any) -> str | None:
        return None if value is None else pformat(named(value), width=100, sort_dicts=False)

    lines = []
    for e in entries:
        summary = GENERATED_KEY.sub(lambda m: names.get(m.group(0), m.group(0)), e.summary)
        lines.append(
            AuditLine(summary=summary, at=e.at, who=_who(e, names), before=text(e.before), after=text(e.after))
        )
    return lines


def _who(entry: AuditEntry, names: dict[str, str]) -> str:
    """The person who acted; a dupla for what a dupla does by its private link or PIN (an appeal); else the site."""
    if entry.user is not None:
        return display_name(entry.user)
    dupla = entry.after.get("dupla") if isinstance(entry.after, dict) and entry.action == "sumula.appeal" else None
    if isinstance(dupla, str) and dupla in names:
        return _("dupla %(name)s") % {"name": names[dupla]}
    return _("sistema")


def _names(tournament: Tournament) -> dict[str, str]:
    """Every key of this tournament a history entry may hold, to its name: jogos, duplas, players."""
    state = tournament_state_get(tournament=tournament)
    label = jogo_label(state)
    names = dict(Player.objects.filter(tournament=tournament).values_list("key", "name"))
    names |= {key: d.display_name for key, d in state.duplas.items()}
    names |= {j.key: label(j) for j in state.jogo_rows}
    return names
