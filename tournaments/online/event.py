"""Which jogos of an event are played online (docs/regras.md §9.7): ``Tournament.online`` (``"none"``, ``"all"`` or
stage keys), ``Jogo.online`` (a hybrid event's mesa online), the tolerance for a WO and the jogo's time. Light
on imports: the tournament file's reader uses it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Final

from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Jogo, Tournament
from ..round_times import round_time_of

NONE: Final = "none"
ALL: Final = "all"
WO_TOLERANCE_DEFAULT: Final = 15
WO_TOLERANCE_MAX: Final = 240


def online_setting_read(value: Any, *, stage_keys: Iterable[str]) -> tuple[str | list[str], str | None]:
    """``settings.online`` as stored (``"none"``, ``"all"`` or the stage keys, in the order given) and the
    problem with it in Portuguese, or None."""
    if value in (None, "", NONE):
        return NONE, None
    if value == ALL:
        return ALL, None
    known = list(stage_keys)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        unknown = [v for v in value if v not in known]
        if unknown:
            return NONE, _("fase desconhecida em settings.online: %(keys)s (as fases são: %(known)s)") % {
                "keys": ", ".join(unknown),
                "known": ", ".join(known) or "—",
            }
        return list(dict.fromkeys(value)), None
    return NONE, _('settings.online é "none", "all" ou a lista das chaves das fases jogadas online')


def wo_tolerance_read(value: Any) -> tuple[int, str | None]:
    """``settings.wo_tolerance_minutes``: a whole number of minutes from 0 to 240 (15 when absent)."""
    if value is None:
        return WO_TOLERANCE_DEFAULT, None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= WO_TOLERANCE_MAX:
        return WO_TOLERANCE_DEFAULT, _("wo_tolerance_minutes é um número inteiro de minutos, de 0 a 240")
    return value, None


def event_online(tournament: Tournament) -> str | list[str]:
    value = tournament.online
    return NONE if value in (None, "", NONE) else value


def stage_online(tournament: Tournament, stage_key: str) -> bool:
    """Whether every jogo of the stage ``stage_key`` is online by the event's setting."""
    setting = event_online(tournament)
    return setting == ALL or (isinstance(setting, list) and stage_key in setting)


def jogo_is_online(*, jogo: Jogo, tournament: Tournament, stage_key: str | None = None) -> bool:
    """A jogo is online by itself (a hybrid event's mesa online), or as one of an online event or stage."""
    if jogo.online:
        return True
    setting = event_online(tournament)
    if setting == ALL:
        return True
    if isinstance(setting, list):
        key = stage_key if stage_key is not None else jogo.stage.key
        return key in setting
    return False


def jogo_time(*, jogo: Jogo, tournament: Tournament) -> datetime | None:
    """The moment the jogo is called: the event's date at its round's time (else the event's start), or None."""
    if tournament.date is None:
        return None
    text = round_time_of(jogo.stage, jogo.round)
    clock: dt.time | None = None
    if text:
        hour, minute = text.split(":")[:2]
        clock = dt.time(int(hour), int(minute))
    elif tournament.start_time is not None:
        clock = tournament.start_time
    if clock is None:
        return None
    return timezone.make_aware(datetime.combine(tournament.date, clock))
