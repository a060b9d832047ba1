"""The typed inputs of the súmula's writes: what a mão, a whole result, a correction and a penalty carry.

Each is read from a JSON object (the API's body, or the dict a referee's form builds) by its ``from_json``,
which checks what can be checked before the jogo is locked, in the order and with the words the súmula has
always used (``Refused.invalid``: 422 at the API). What depends on the jogo (its duplas' keys, its best-of, the rules at
its score) is checked by the service under the jogo's lock: those values stay as sent (typed ``object``).

Each field's ``metadata["openapi"]`` is its JSON Schema in the published OpenAPI document
(``tournaments.api.openapi``); ``"required": True`` there marks a property the contract requires.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils.translation import gettext as _

from scoring.partida import HOW_CHOICES

from ..refusals import Refused
from .inputs import client_id_read, reason_clean


def spec(**schema: Any) -> dict[str, Any]:
    """A dataclass field's metadata: its JSON Schema in the OpenAPI document."""
    return {"openapi": schema}


@dataclass(frozen=True)
class MaoAdd:
    """``POST …/maos/``: a mão appended to the partida being played."""

    id: str = field(metadata=spec(required=True, minLength=1, description="unique, made by the client"))
    # checked by the rules at the partida's score (422 with the rule's words)
    to: object = field(metadata=spec(required=True, type=["integer", "null"], enum=[0, 1, None]))
    points: object = field(default=None, metadata=spec(required=True, type="integer", minimum=1, maximum=12))
    how: str = field(
        default="played", metadata=spec(enum=list(HOW_CHOICES), description="as in the file (played by default)")
    )
    reason: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MaoAdd:
        client_id = client_id_read(data.get("id"))
        if client_id is None:
            raise Refused.invalid(_("toda mão precisa de um 'id' feito pelo aparelho (assim um reenvio não a duplica)"))
        reason = reason_clean(data.get("reason"))
        how = data.get("how", "played")  # only an absent 'how' is a mão played
        if how not in HOW_CHOICES:
            raise Refused.invalid(
                _("'how' deve ser played, ran, refused ou penalty (sem 'how', a mão foi jogada: played)")
            )
        if "to" not in data:
            raise Refused.invalid(
                _("informe 'to': 0 ou 1 (a dupla que marca, na ordem do jogo) ou null (mão empatada)")
            )
        return cls(id=client_id, to=data.get("to"), points=data.get("points"), how=how, reason=reason)


@dataclass(frozen=True)
class ResultBody:
    """A jogo's result in any form it takes in the tournament file, read by ``result_form.result_read`` against
    the jogo's duplas and best-of (under the lock: its words name the place, ``.partidas[1]: …``)."""

    partidas: object = field(
        default=None,
        metadata=spec(type="array", items={"$ref": "#/components/schemas/Score"}, description="the partidas"),
    )
    walkover: object = field(default=None, metadata=spec(type="string", description="the dupla key that did not show"))
    walkover_reason: object = field(
        default=None, metadata=spec(type="string", description="why the WO was given (the referee's words)")
    )
    penalty: object = field(default=None, metadata=spec(type="object", description="perda do jogo"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultBody:
        return cls(
            partidas=data.get("partidas"),
            walkover=data.get("walkover"),
            walkover_reason=data.get("walkover_reason"),
            penalty=data.get("penalty"),
        )

    def as_file(self) -> dict[str, Any]:
        """The result as the file writes it (an absent key and a null one read the same)."""
        return {
            "partidas": self.partidas,
            "walkover": self.walkover,
            "walkover_reason": self.walkover_reason,
            "penalty": self.penalty,
        }


@dataclass(frozen=True)
class ResultSet:
    """``POST …/resultado/``: the whole result at once."""

    result: ResultBody = field(metadata={"flatten": True})  # its properties sit beside the others
    id: str | None = field(default=None, metadata=spec(minLength=1))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ResultSet:
        return cls(id=client_id_read(data.get("id")), result=ResultBody.from_json(data))


@dataclass(frozen=True)
class Correction:
    """``POST …/correcao/``: a new via with this result, and why."""

    result: ResultBody = field(metadata={"flatten": True})  # its properties sit beside the others
    reason: str = field(metadata=spec(required=True, minLength=1))
    id: str | None = field(default=None, metadata=spec(minLength=1))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Correction:
        client_id = client_id_read(data.get("id"))
        reason = reason_clean(data.get("reason"), missing=_("toda correção precisa de um motivo ('reason')"))
        return cls(id=client_id, reason=reason, result=ResultBody.from_json(data))


@dataclass(frozen=True)
class Penalty:
    """``POST …/penalidade/``: perda da partida or perda do jogo."""

    scope: Literal["partida", "jogo"] = field(metadata=spec(required=True))
    reason: str = field(metadata=spec(required=True, minLength=1))
    # the key of one of the jogo's duplas, checked under the lock
    lost_by: object = field(default=None, metadata=spec(required=True, type="string", minLength=1))
    id: str | None = field(default=None, metadata=spec(required=True, minLength=1))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Penalty:
        client_id = client_id_read(data.get("id"))
        scope = data.get("scope")
        if scope not in ("partida", "jogo"):
            raise Refused.invalid(_("'scope' é 'partida' (perda da partida) ou 'jogo' (perda do jogo)"))
        reason = reason_clean(data.get("reason"), missing=_("toda penalidade precisa de um motivo ('reason')"))
        return cls(id=client_id, scope=scope, reason=reason, lost_by=data.get("lost_by"))
