"""The times the organizer gives the rounds of a stage (``Stage.round_times``): ``{"1": "14:00", "2": "15:30"}``.

Written once here, used by the tournament file's reader and the desk's programação page; the public pages
show them next to the jogos called ("Rodada 2 · 15:30").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from .models import Stage

_TIME = re.compile(r"^(\d{1,2})[:hH](\d{2})$")
MAX_ROUND = 64


def time_clean(value: str) -> str | None:
    """ "9:05", "09:05" or "9h05" as "09:05"; None when it is not a time of day."""
    match = _TIME.match(value.strip()) if isinstance(value, str) else None
    if not match:
        return None
    hours, minutes = int(match.group(1)), int(match.group(2))
    if hours > 23 or minutes > 59:
        return None
    return f"{hours:02d}:{minutes:02d}"


def round_times_check(raw: object) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """A stage's round times as given (file or form): the clean dict and the problems, as (round, message)."""
    if raw in (None, ""):
        return {}, []
    if not isinstance(raw, dict):
        return {}, [("", _('deve ser um objeto {"rodada": "HH:MM"}'))]
    clean: dict[str, str] = {}
    problems: list[tuple[str, str]] = []
    for key, value in raw.items():
        number = str(key).strip()
        if not number.isdigit() or not 1 <= int(number) <= MAX_ROUND:
            problems.append(
                (str(key), _("rodada %(r)r inválida: use 1 para a primeira rodada, 2 para a segunda…") % {"r": key})
            )
            continue
        if value in (None, ""):
            continue
        time = time_clean(value)
        if time is None:
            problems.append((number, _("horário %(v)r inválido: use HH:MM, por exemplo 14:30") % {"v": value}))
            continue
        clean[str(int(number))] = time
    return dict(sorted(clean.items(), key=lambda kv: int(kv[0]))), problems


def round_time_of(stage: Stage | None, number: int | None) -> str:
    """The time given to round ``number`` of ``stage`` (a ``Stage``), or "" (none given, or no stage/round)."""
    if stage is None or not number:
        return ""
    return (stage.round_times or {}).get(str(number), "")
