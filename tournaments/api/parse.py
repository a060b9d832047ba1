"""The súmula API's input parser: a request's JSON body (read by ``tournaments.api.body``) and query string turned
into the typed inputs of the súmula's writes, with the API's words and kinds of refusal (``Refused``).

The writes' own inputs (a mão, a result, a correction, a penalty) are the domain's ``tournaments.sumula.commands``;
the confirmation and the signature, whose values the services take one by one, are read into ``Confirmation`` and
``Signature`` here. Every check runs in the order the API has always answered in (the first problem found is the
one named), and before anything is locked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from tournaments.models import Dupla
from tournaments.refusals import Refused
from tournaments.sumula.commands import Correction, MaoAdd, Penalty, ResultSet, spec
from tournaments.sumula.inputs import reason_clean, via_read


@dataclass(frozen=True)
class Confirmation:
    """``POST …/confirmacao/``: a dupla confirms (``accept``) or contests (with a reason) the via it saw."""

    dupla: Dupla = field(metadata=spec(required=True, type="string", minLength=1))
    via: int = field(metadata=spec(required=True, minimum=1))
    accept: bool = field(metadata=spec(required=True))
    # checked by ``pins.pin_verify`` after the jogo is found (a malformed body costs no PIN try)
    pin: object = field(default=None, metadata=spec(required=True, type="string", pattern="^[0-9]{6}$"))
    reason: str = field(default="", metadata=spec(description="required when accept is false"))


@dataclass(frozen=True)
class Signature:
    """``POST …/homologacao/``: the referee signs the via it saw (with a contest or a missing confirmation, a
    reason: the referee's decision)."""

    via: int = field(metadata=spec(required=True, minimum=1))
    reason: str = ""


def mao_parse(data: Mapping[str, Any]) -> MaoAdd:
    return MaoAdd.from_json(data)


def result_parse(data: Mapping[str, Any]) -> ResultSet:
    return ResultSet.from_json(data)


def correction_parse(data: Mapping[str, Any]) -> Correction:
    return Correction.from_json(data)


def penalty_parse(data: Mapping[str, Any]) -> Penalty:
    return Penalty.from_json(data)


def confirmation_parse(data: Mapping[str, Any], *, dupla_find: Callable[[str], Dupla | None]) -> Confirmation:
    """``dupla_find`` is the tournament's dupla with that key (None without)."""
    dupla_key = data.get("dupla")
    dupla = dupla_find(dupla_key) if isinstance(dupla_key, str) else None
    if dupla is None:
        raise Refused.invalid(_("informe 'dupla': a chave de uma das duplas do jogo"))
    accept = data.get("accept")
    if not isinstance(accept, bool):
        raise Refused.invalid(_("informe 'accept': true para confirmar, false para contestar (com 'reason')"))
    via = via_read(data.get("via"))
    reason = reason_clean(data.get("reason"), missing=None if accept else _("para contestar, diga o motivo ('reason')"))
    return Confirmation(dupla=dupla, via=via, accept=accept, pin=data.get("pin"), reason=reason)


def signature_parse(data: Mapping[str, Any]) -> Signature:
    return Signature(via=via_read(data.get("via")), reason=reason_clean(data.get("reason")))


def via_query_parse(query: QueryDict) -> int | None:
    """``?via=N`` of a súmula's read: an earlier via (None: the current one)."""
    via = query.get("via")
    if via is None:
        return None
    # ASCII digits only ("²" and "٣" are digits to str.isdigit but not to int), and short enough for a column
    if not (via.isascii() and via.isdigit()) or len(via) > 9 or int(via) < 1:
        raise Refused.bad_request(_("via deve ser um número inteiro ≥ 1"))
    return int(via)
