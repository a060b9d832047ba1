"""What a súmula write takes from its caller, checked before anything is locked: the client-made id, a
reason, the via a confirmation or a signature is for, and the rules' problems worded for a referee. What is
not taken is the domain's one refusal, ``tournaments.refusals.Refused``.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.errors import RuleError
from scoring.messages import Text, joined
from scoring.text import is_blank

from ..limits import column_max_length
from ..models import Jogo
from ..refusals import Refused
from ..result_form import MAO_KEY_MAX, is_int


def client_id_read(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAO_KEY_MAX:
        raise Refused.invalid(
            _("'id' deve ser um texto de 1 a %(n)s caracteres, feito pelo aparelho") % {"n": MAO_KEY_MAX}
        )
    return value


# every reason of the súmula (a mão's penalty, a contest, a decision, a correction, a perda) fits this column
REASON_MAX = column_max_length(model=Jogo, field="via_reason")


def reason_clean(value: object, *, missing: str | None = None) -> str:
    """A reason given to the súmula: a text, stripped, that fits its column; ``missing`` is the refusal
    when the reason is required and absent."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Refused.invalid(_("'reason' deve ser um texto"))
    value = value.strip()
    if is_blank(value):  # only invisible characters (zero-width, no-break spaces, controls…): no reason
        value = ""
    if missing is not None and not value:
        raise Refused.invalid(missing)
    if len(value) > REASON_MAX:
        raise Refused.invalid(_("o motivo tem no máximo %(n)s caracteres") % {"n": REASON_MAX})
    return value


def via_read(value: object) -> int:
    """The via a confirmation or a signature is for (the via its screen showed): a whole number ≥ 1."""
    if not is_int(value) or value < 1:
        raise Refused.invalid(_("informe 'via': o número (1, 2…) da via da súmula que foi conferida"))
    return value


def rule_messages(errors: list[RuleError]) -> list[str]:
    """The rules' problems as a referee reads them (``partida 2, mão 5: …``), still translatable (``Text``)."""
    return [Text("%(place)s%(message)s", place=rule_place(e.place), message=e.message) for e in errors]


def rule_place(place: str) -> str:
    """``partidas[1].maos[4]`` as a referee reads it: ``partida 2, mão 5: `` (a ``Text``, worded at the edge)."""
    words: list[Text] = []
    for name, index in re.findall(r"(partidas|maos)\[(\d+)\]", place or ""):
        n = int(index) + 1
        words.append(
            Text(gettext_noop("partida %(n)s"), n=n) if name == "partidas" else Text(gettext_noop("mão %(n)s"), n=n)
        )
    return Text("%(words)s: ", words=joined(words)) if words else ""
