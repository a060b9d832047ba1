"""A jogo's súmula in a tournament file: ``status``, ``confirmations``, ``via``, ``via_reason``, ``history``.

A result read from a file is official (``homologated``) unless the jogo says
``status`` (docs/contrato.md); earlier vias of a corrected súmula come in
``history`` and are kept on round trip. Which result counts in standings and
bracket follows the statuses (``scoring.sumula``): the current via from
``confirmed`` on, else the last earlier via that counted, else none.
"""

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from scoring.jogo import WALKOVER_BOTH, JogoEntry, JogoResult, jogo_evaluate
from scoring.messages import Text, _, ngettext
from scoring.rules import RuleSettings
from scoring.sumula import (
    ACCEPTED,
    AWAITING,
    CONFIRMED,
    CONTEST,
    HOMOLOGATED,
    STATUSES,
    answers_needed,
    counts,
    status_fits_result,
    sumula_status,
)
from tournaments.models import Jogo, SumulaVia

from ..result_form import entry_flipped, result_dict, result_read
from .values import Errors, bounded_int, is_int, text_read

ANSWERS = (ACCEPTED, CONTEST)


@dataclass
class ViaPlan:
    via: int
    via_reason: str
    by: str
    at: dt.datetime | None
    status: str
    result: dict  # the file's form, in the jogo's stored order of duplas
    answers: tuple[str | None, str | None]


@dataclass
class SumulaPlan:
    status: str
    answers: tuple[str | None, str | None] = (None, None)  # per side, in the stored order
    via: int = 1
    via_reason: str = ""
    history: list[ViaPlan] = field(default_factory=list)
    counted_via: int | None = None
    counted: JogoResult | None = None  # the result standings and bracket count


def default_status(result: JogoResult | None) -> str:
    """What a file's result stands at when the jogo does not say: scheduled, in progress, or official."""
    if result is None or not result.started:
        return "scheduled"
    return HOMOLOGATED if result.finished else "in_progress"


def sumula_read(
    j: dict,
    place: str,
    duplas: tuple[str, str],
    stored: tuple[str, str],
    best_of: int,
    result: JogoResult | None,
    settings: RuleSettings,
    errors: Errors,
) -> SumulaPlan:
    """The súmula fields of jogo ``j`` (written with ``duplas``; stored with ``stored``, the bracket's order)."""
    status = j.get("status")
    if status is None:
        status = default_status(result)
    elif status not in STATUSES:
        errors.add(f"{place}.status", _unknown_status(status))
        status = default_status(result)
    else:
        problem = status_fits_result(status=status, result=result)
        if problem:
            errors.add(f"{place}.status", problem)
    answers = _answers_read(j.get("confirmations"), f"{place}.confirmations", duplas, stored, errors)
    if answers is None:
        if status == AWAITING and result is not None and result.walkover == WALKOVER_BOTH:
            status = CONFIRMED  # both absent: nobody to wait for (an older file may say it awaits)
        answers = (None, None)
        if status == CONFIRMED:  # confirmed by the duplas that confirm it: both, or the present one of a WO
            needed = answers_needed(walkover=result.walkover if result is not None else None)
            answers = (ACCEPTED if needed[0] else None, ACCEPTED if needed[1] else None)
        if status == "contested":  # the status is derived from the answers: someone must have contested
            errors.add(
                f"{place}.confirmations",
                _("'contested' pede as confirmações, com a dupla que contestou ({dupla: 'contested'})"),
            )
    elif status not in (HOMOLOGATED, "scheduled", "in_progress") and result is not None:
        implied = sumula_status(result=result, answers=answers, signed=False)
        if status == AWAITING and implied == CONFIRMED and result.walkover is not None:
            status = implied  # a WO waited for the absent dupla's answer in older files: it needs none now
        elif implied != status:
            errors.add(
                f"{place}.confirmations",
                _(
                    "as confirmações levam à situação %(implied)s, não a %(status)s",
                    implied=repr(implied),
                    status=repr(status),
                ),
            )
    history = _history_read(j.get("history"), place, duplas, stored, best_of, settings, errors)
    via = len(history) + 1
    if j.get("via") is not None:
        given = bounded_int(j.get("via"), f"{place}.via", errors, column=(Jogo, "via"), what=_("a via"), low=1)
        if given is not None and given != via:
            errors.add(
                f"{place}.via",
                ngettext(
                    "via %(given)s, mas o histórico tem %(n)s via anterior: esta é a via %(via)s",
                    "via %(given)s, mas o histórico tem %(n)s vias anteriores: esta é a via %(via)s",
                    len(history),
                    given=given,
                    n=len(history),
                    via=via,
                ),
            )
    via_reason = text_read(j, "via_reason", place, errors, column=(Jogo, "via_reason"))
    plan = SumulaPlan(status=status, answers=answers, via=via, via_reason=via_reason, history=history)
    if counts(status):
        plan.counted_via, plan.counted = via, result
    else:
        for old in reversed(history):
            if counts(old.status):
                plan.counted_via = old.via
                entry = result_read(old.result, "", stored, best_of, Errors())
                plan.counted = jogo_evaluate(entry=entry, settings=settings)[0] if entry is not None else None
                break
    return plan


def _unknown_status(status: object) -> Text:
    return _("situação %(status)s desconhecida: use %(statuses)s", status=repr(status), statuses=", ".join(STATUSES))


def _answers_read(
    raw: Any, place: str, duplas: tuple[str, str], stored: tuple[str, str], errors: Errors
) -> tuple[str | None, str | None] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        errors.add(place, _("confirmations é um objeto {dupla: 'confirmed' | 'contested' | null}"))
        return None
    out: list[str | None] = [None, None]
    for key, answer in raw.items():
        if key not in duplas:
            errors.add(f"{place}.{key}", _("a dupla %(dupla)s não joga este jogo", dupla=repr(key)))
        elif answer is not None and answer not in ANSWERS:
            errors.add(
                f"{place}.{key}",
                _("resposta %(answer)s desconhecida: use 'confirmed', 'contested' ou null", answer=repr(answer)),
            )
        else:
            out[stored.index(key)] = answer
    return (out[0], out[1])


def _history_read(
    raw: Any,
    place: str,
    duplas: tuple[str, str],
    stored: tuple[str, str],
    best_of: int,
    settings: RuleSettings,
    errors: Errors,
) -> list[ViaPlan]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.add(f"{place}.history", _("history é a lista das vias anteriores"))
        return []
    out: list[ViaPlan] = []
    for k, item in enumerate(raw):
        hplace = f"{place}.history[{k}]"
        if not isinstance(item, dict):
            errors.add(hplace, _("cada via anterior é um objeto com via, via_reason, by, at e o resultado"))
            continue
        if item.get("via") != k + 1 or not is_int(item.get("via")):
            errors.add(f"{hplace}.via", _("as vias anteriores vêm em ordem: esperava a via %(via)s", via=k + 1))
        before = len(errors)
        entry: JogoEntry | None = result_read(item, hplace, duplas, best_of, errors)
        result = None
        if entry is not None and len(errors) == before:
            result, problems = jogo_evaluate(entry=entry, settings=settings)
            errors.extend(p.nested(hplace) for p in problems)
        status = item.get("status", HOMOLOGATED if result is not None and result.finished else None)
        if status not in STATUSES:
            errors.add(f"{hplace}.status", _unknown_status(status))
        elif (problem := status_fits_result(status=status, result=result)) is not None:
            errors.add(f"{hplace}.status", problem)
        answers = _answers_read(item.get("confirmations"), f"{hplace}.confirmations", duplas, stored, errors)
        at = item.get("at")
        when = None
        if at is not None:
            try:
                when = dt.datetime.fromisoformat(at) if isinstance(at, str) else None
            except ValueError:
                when = None
            if when is None:
                errors.add(
                    f"{hplace}.at",
                    _("data e hora %(at)s inválida: use o formato ISO (AAAA-MM-DDTHH:MM:SS)", at=repr(at)),
                )
        if entry is not None and stored != duplas:
            entry = entry_flipped(entry)
        out.append(
            ViaPlan(
                via=k + 1,
                via_reason=text_read(item, "via_reason", hplace, errors, column=(SumulaVia, "via_reason")),
                by=text_read(item, "by", hplace, errors, column=(SumulaVia, "by")),
                at=when,
                status=status if status in STATUSES else HOMOLOGATED,
                result=result_dict(entry, stored),
                answers=answers or (None, None),
            )
        )
    return out
