"""Checks of single values of a tournament file (texts, integers, dates, keyed lists, list sizes).

Each takes the place of the value and an ``Errors`` list, notes what is wrong in Portuguese (scoring's ``_``:
a ``Text`` the web edge words in the reader's language) and returns what can be used; limits come from the
model columns (limits.py).
"""

import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from django.db.models import Model

from scoring.messages import Text, _
from scoring.rules import best_of_error
from scoring.text import name_clean

from .. import limits
from ..limits import column_int_range, column_max_length
from ..models.fields import is_name_column
from ..result_form import Errors, is_int  # defined once, below the file and the súmula alike


def where(place: str, name: str) -> str:
    return f"{place}.{name}" if place else name


def text_limit(column: tuple[type, str] | None, max_len: int | None) -> int:
    """The longest text a value may be: its column's length (limits.py), or ``max_len`` for a text column."""
    if column is not None:
        return column_max_length(model=column[0], field=column[1])
    assert max_len is not None
    return max_len


def text_read(
    obj: dict,
    name: str,
    place: str,
    errors: Errors,
    *,
    column: tuple[type, str] | None = None,
    required: bool = False,
    max_len: int | None = None,
) -> str:
    value = obj.get(name)
    if value is None or value == "":
        if required:
            errors.add(where(place, name), _("campo obrigatório"))
        return ""
    if not isinstance(value, str):
        errors.add(where(place, name), _("deve ser um texto"))
        return ""
    value = name_clean(value) if column is not None and is_name_column(*column) else value.strip()
    if required and not value:  # bidi controls alone (names drop them)
        errors.add(where(place, name), _("campo obrigatório"))
    limit = text_limit(column, max_len)
    if len(value) > limit:
        errors.add(
            where(place, name), _("texto longo demais: %(n)s caracteres (máximo %(max)s)", n=len(value), max=limit)
        )
    return value


def bounded_int(
    value: Any,
    place: str,
    errors: Errors,
    *,
    column: tuple[type, str],
    what: Text,
    low: int | None = None,
    high: int | None = None,
) -> int | None:
    """``value`` if it is an integer the column (and the rule, ``low``..``high``) accepts; else None, noted."""
    lo, hi = column_int_range(model=column[0], field=column[1])
    lo = lo if low is None else max(lo, low)
    hi = hi if high is None else min(hi, high)
    if is_int(value) and lo <= value <= hi:
        return value
    errors.add(place, _("%(what)s deve ser um número inteiro entre %(low)s e %(high)s", what=what, low=lo, high=hi))
    return None


def iso_read[T](
    obj: dict, name: str, place: str, errors: Errors, parse: Callable[[str], T], problem: Callable[[str], Text]
) -> T | None:
    """An optional ISO date or time field; None (with ``problem``, given the value's repr, noted) when it does
    not parse."""
    value = obj.get(name)
    if value in (None, ""):
        return None
    if isinstance(value, str):
        try:
            return parse(value)
        except ValueError:
            pass
    errors.add(f"{place}.{name}", problem(repr(value)))
    return None


def list_read(obj: dict, name: str, place: str, errors: Errors) -> list:
    value = obj.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        errors.add(place, _("deve ser uma lista"))
        return []
    return value


def keyed_read(
    raw: list, kind: str, what: Text, errors: Errors, column: tuple[type[Model], str]
) -> Iterator[tuple[int, str, dict, str]]:
    """(index, place, object, key) for each object of the list ``kind`` with a unique, non-empty text key."""
    seen: set[str] = set()
    limit = column_max_length(model=column[0], field=column[1])
    for i, obj in enumerate(raw):
        place = f"{kind}[{i}]"
        if not isinstance(obj, dict):
            errors.add(place, _("cada %(what)s deve ser um objeto com 'key'", what=what))
            continue
        key = obj.get("key")
        if not isinstance(key, str) or not key.strip():
            errors.add(f"{place}.key", _("chave obrigatória (texto)"))
            continue
        if len(key) > limit:
            errors.add(f"{place}.key", key_too_long(len(key), limit))
            continue
        if key in seen:
            errors.add(
                f"{place}.key", _("chave %(key)s repetida: cada %(what)s tem uma chave única", key=repr(key), what=what)
            )
            continue
        seen.add(key)
        yield i, place, obj, key


def key_too_long(length: int, limit: int) -> Text:
    return _("chave longa demais: %(n)s caracteres (máximo %(max)s)", n=length, max=limit)


# --- sizes --------------------------------------------------------------------------


def too_many(value: Any, place: str, most: int, what: Text, errors: Errors) -> bool:
    if isinstance(value, list) and len(value) > most:
        errors.add(
            place,
            _("%(what)s demais: %(n)s (o máximo num arquivo de torneio é %(max)s)", what=what, n=len(value), max=most),
        )
        return True
    return False


def sizes_check(data: dict, errors: Errors) -> None:
    """Lists longer than a real event needs (limits.py); only lengths are looked at, so this is quick."""
    too_many(data.get("players"), "players", limits.MAX_PLAYERS, _("atletas"), errors)
    too_many(data.get("registrations"), "registrations", limits.MAX_REGISTRATIONS, _("inscrições"), errors)
    too_many(data.get("duplas"), "duplas", limits.MAX_DUPLAS, _("duplas"), errors)
    too_many(data.get("pairing_draws"), "pairing_draws", limits.MAX_PAIRING_DRAWS, _("sorteios das duplas"), errors)
    stages = data.get("stages")
    if isinstance(stages, list) and not too_many(stages, "stages", limits.MAX_STAGES, _("fases"), errors):
        for i, s in enumerate(stages):
            if not isinstance(s, dict):
                continue
            place = f"stages[{i}]"
            groups = s.get("groups")
            if isinstance(groups, list) and not too_many(
                groups, f"{place}.groups", limits.MAX_DUPLAS // 2, _("grupos"), errors
            ):
                for k, g in enumerate(groups):
                    if isinstance(g, dict):
                        too_many(
                            g.get("duplas"),
                            f"{place}.groups[{k}].duplas",
                            limits.MAX_GROUP_DUPLAS,
                            _("duplas num grupo"),
                            errors,
                        )
            too_many(s.get("sorteios"), f"{place}.sorteios", limits.MAX_DUPLAS, _("sorteios"), errors)
            too_many(s.get("entrants"), f"{place}.entrants", limits.MAX_DUPLAS, _("duplas na chave"), errors)
            draw = s.get("draw")
            if isinstance(draw, dict):
                too_many(draw.get("order"), f"{place}.draw.order", limits.MAX_DUPLAS, _("posições na chave"), errors)
    jogos = data.get("jogos")
    if not isinstance(jogos, list) or too_many(jogos, "jogos", limits.MAX_JOGOS, _("jogos"), errors):
        return
    maos_total = 0
    for i, j in enumerate(jogos):
        partidas = j.get("partidas") if isinstance(j, dict) else None
        if not isinstance(partidas, list) or too_many(
            partidas, f"jogos[{i}].partidas", limits.MAX_BEST_OF, _("partidas num jogo"), errors
        ):
            continue
        for k, p in enumerate(partidas):
            maos = p.get("maos") if isinstance(p, dict) else None
            if isinstance(maos, list):
                too_many(
                    maos, f"jogos[{i}].partidas[{k}].maos", limits.MAX_MAOS_PER_PARTIDA, _("mãos numa partida"), errors
                )
                maos_total += len(maos)
    if maos_total > limits.MAX_MAOS:
        errors.add(
            "jogos",
            _(
                "mãos demais: %(n)s no arquivo (o máximo num arquivo de torneio é %(max)s)",
                n=maos_total,
                max=limits.MAX_MAOS,
            ),
        )


def sizes_precheck(*, raw: bytes | str) -> Errors:
    """``sizes_check`` on a file before its full, checked parse, so that an oversized file is refused at once.

    The checked parse builds every object through Python hooks and then walks every value: seconds for a
    16 MiB file of 100,000 players. The plain C parser reads the same file in a fraction of that, and the
    sizes need only list lengths. Anything the plain parser cannot read (invalid JSON, deep nesting, huge
    numbers, bad UTF-8) is left to the checked parse, which names the problem; an empty list means "go on".
    """
    if isinstance(raw, str):
        raw = raw.removeprefix("\ufeff")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError and int digits are ValueErrors
        return Errors()
    errors = Errors()
    if isinstance(data, dict):
        sizes_check(data, errors)
    return errors


def best_of_problem(value: Any) -> str | None:
    """Why ``value`` is no best-of a stage may have: the rule (odd, positive), then the file's limit."""
    problem = best_of_error(value)
    if problem is None and value > limits.MAX_BEST_OF:
        problem = _("melhor de %(n)s passa do máximo de %(max)s partidas", n=value, max=limits.MAX_BEST_OF)
    return problem


TIME_OF_DAY = re.compile(r"\d{2}:\d{2}(:\d{2})?")


def time_of_day(value: str) -> dt.time:
    """A local time of day, ``HH:MM`` (or ``HH:MM:SS``); no date, fraction or UTC offset."""
    if not TIME_OF_DAY.fullmatch(value):
        raise ValueError(value)
    return dt.time.fromisoformat(value)
