"""A jogo's result in the tournament file's form, read and written: one reader for the file, the API and the
stored earlier vias of a súmula (which is why it stands below both ``interchange`` and ``selectors``).

The form (docs/contrato.md): ``partidas`` as final scores ``[a, b]``, as mão lists,
or as ``{"penalty": …}``; ``walkover`` (with its optional ``walkover_reason``); ``penalty`` (perda do jogo). Score
pairs and mão sides follow the order of the jogo's ``duplas``.
"""

from dataclasses import replace
from typing import Any, TypeGuard

from django.db.models import Model

from scoring.errors import RuleError
from scoring.jogo import WALKOVER_BOTH, JogoEntry, PartidaEntry
from scoring.messages import _  # scoring's marker: a Text, worded at the web edge (tournaments.wording)
from scoring.partida import HOW_CHOICES, Mao
from scoring.text import is_blank

from .limits import column_max_length
from .models import Jogo, Partida
from .models import Mao as MaoRow

MAO_KEY_MAX = 64
HOW_MESSAGE = _("'how' deve ser played, ran, refused ou penalty (sem 'how', a mão foi jogada: played)")


class Errors(list):
    """The problems found, each a ``RuleError`` at its place."""

    def add(self, place: str, message: str) -> None:
        self.append(RuleError(place, message))


def is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def reason_read(value: Any, place: str, errors: Errors, column: tuple[type[Model], str]) -> str:
    """A penalty's, a walkover's or a disqualification's reason: a text (stripped) that fits its column; '' when
    absent."""
    if value is None:
        return ""
    if not isinstance(value, str):
        errors.add(place, _("o motivo deve ser um texto"))
        return ""
    value = value.strip()
    if is_blank(value):  # only invisible characters: no reason at all
        return ""
    limit = column_max_length(model=column[0], field=column[1])
    if len(value) > limit:
        errors.add(place, _("motivo longo demais: %(n)s caracteres (máximo %(max)s)", n=len(value), max=limit))
    return value


def _side_of(value: Any, duplas: tuple[str, str]) -> int | None:
    return duplas.index(value) if isinstance(value, str) and value in duplas else None


def result_read(j: dict, place: str, duplas: tuple[str, str], best_of: int, errors: Errors) -> JogoEntry | None:
    """The jogo's result as recorded, in the order of ``duplas``; None when nothing is recorded yet."""
    has = [k for k in ("partidas", "walkover", "penalty") if j.get(k) not in (None, [])]
    if not has:
        return None
    if len(has) > 1 and "walkover" in has:
        errors.add(place, _("um jogo com WO não tem partidas nem penalidade"))
        return None
    walkover = None
    if j.get("walkover") is not None:
        w = j["walkover"]
        walkover = WALKOVER_BOTH if w == WALKOVER_BOTH else _side_of(w, duplas)
        if walkover is None:
            errors.add(
                f"{place}.walkover",
                _(
                    "WO deve ser a chave da dupla ausente (%(a)s ou %(b)s) ou 'both'",
                    a=repr(duplas[0]),
                    b=repr(duplas[1]),
                ),
            )
            return None
        why = reason_read(j.get("walkover_reason"), f"{place}.walkover_reason", errors, (Jogo, "penalty_reason"))
        return JogoEntry(best_of=best_of, walkover=walkover, reason=why)
    lost_by, reason = None, ""
    if j.get("penalty") is not None:
        pen = j["penalty"]
        lost_by = _side_of(pen.get("lost_by") if isinstance(pen, dict) else None, duplas)
        reason = reason_read(
            pen.get("reason") if isinstance(pen, dict) else None,
            f"{place}.penalty.reason",
            errors,
            (Jogo, "penalty_reason"),
        )
        if lost_by is None:
            errors.add(
                f"{place}.penalty.lost_by",
                _("perda do jogo: informe a dupla punida (%(a)s ou %(b)s)", a=repr(duplas[0]), b=repr(duplas[1])),
            )
            return None
        if not reason:
            errors.add(f"{place}.penalty.reason", _("toda penalidade precisa de um motivo"))
            return None
    partidas: list[PartidaEntry] = []
    raw = j.get("partidas")
    if raw is None:
        raw = []
    if not isinstance(raw, list):  # false, "", {} or 0 are no result: refused, never read as "nothing played"
        errors.add(f"{place}.partidas", _("deve ser uma lista de partidas"))
        return None
    for k, p in enumerate(raw):
        pplace = f"{place}.partidas[{k}]"
        if isinstance(p, list):
            if len(p) != 2 or not all(is_int(x) for x in p):
                errors.add(pplace, _("placar deve ser um par de inteiros [a, b]"))
                return None
            partidas.append(PartidaEntry(score=(p[0], p[1])))
        elif isinstance(p, dict) and "penalty" in p:
            pen = p["penalty"] if isinstance(p["penalty"], dict) else {}
            side = _side_of(pen.get("lost_by"), duplas)
            if side is None:
                errors.add(
                    f"{pplace}.penalty.lost_by",
                    _(
                        "perda da partida: informe a dupla punida (%(a)s ou %(b)s)",
                        a=repr(duplas[0]),
                        b=repr(duplas[1]),
                    ),
                )
                return None
            why = reason_read(pen.get("reason"), f"{pplace}.penalty.reason", errors, (Partida, "penalty_reason"))
            partidas.append(PartidaEntry(lost_by=side, reason=why))
        elif isinstance(p, dict) and isinstance(p.get("maos"), list):
            maos: list[Mao] = []
            for m, mao in enumerate(p["maos"]):
                if not isinstance(mao, dict) or "to" not in mao:
                    errors.add(f"{pplace}.maos[{m}]", _("cada mão é um objeto com 'to' (0, 1 ou null) e 'points'"))
                    return None
                how = mao.get("how", "played")  # only an absent 'how' is a mão played
                if how not in HOW_CHOICES:
                    errors.add(f"{pplace}.maos[{m}].how", HOW_MESSAGE)
                    return None
                maos.append(
                    Mao(
                        to=mao.get("to"),
                        points=mao.get("points"),
                        how=how,
                        reason=reason_read(mao.get("reason"), f"{pplace}.maos[{m}].reason", errors, (MaoRow, "reason")),
                        key=_mao_key_read(mao, f"{pplace}.maos[{m}]", errors),
                    )
                )
            partidas.append(PartidaEntry(maos=tuple(maos)))
        else:
            errors.add(pplace, _("uma partida é um placar [a, b], um objeto com 'maos' ou um objeto com 'penalty'"))
            return None
    # perda do jogo overrides what was played: the jogo is recorded as lost by ⌈N/2⌉ x 0
    return JogoEntry(
        best_of=best_of, partidas=tuple(partidas) if lost_by is None else (), lost_by=lost_by, reason=reason
    )


def entry_flipped(entry: JogoEntry) -> JogoEntry:
    """The same record seen with the duplas the other way round."""

    def side(v: int | None) -> int | None:
        return v if v is None else 1 - v

    def walkover_side(v: int | str | None) -> int | str | None:
        if v is None or v == WALKOVER_BOTH:
            return v
        assert isinstance(v, int)  # else a side, 0 or 1
        return 1 - v

    partidas = []
    for p in entry.partidas:
        partidas.append(
            PartidaEntry(
                score=None if p.score is None else (p.score[1], p.score[0]),
                maos=None if p.maos is None else tuple(replace(m, to=side(m.to)) for m in p.maos),
                lost_by=side(p.lost_by),
                reason=p.reason,
            )
        )
    return replace(entry, partidas=tuple(partidas), walkover=walkover_side(entry.walkover), lost_by=side(entry.lost_by))


def _mao_key_read(mao: dict, place: str, errors: Errors) -> str:
    """A mão's optional ``id`` (the súmula API's client-made id), kept so that retries stay idempotent."""
    key = mao.get("id")
    if key is None:
        return ""
    if not isinstance(key, str) or not key.strip() or len(key) > MAO_KEY_MAX:
        errors.add(f"{place}.id", _("o id de uma mão é um texto de 1 a %(max)s caracteres", max=MAO_KEY_MAX))
        return ""
    return key


def result_dict(entry: JogoEntry | None, duplas: tuple[str, str]) -> dict[str, Any]:
    """``entry`` written in the file's form ({} when nothing is recorded), sides named by ``duplas``."""
    if entry is None:
        return {}
    if entry.walkover is not None:
        if entry.walkover == WALKOVER_BOTH:
            walkover: dict[str, Any] = {"walkover": "both"}
        else:
            assert isinstance(entry.walkover, int)  # else a side, 0 or 1
            walkover = {"walkover": duplas[entry.walkover]}
        return walkover | ({"walkover_reason": entry.reason} if entry.reason else {})
    if entry.lost_by is not None:
        return {"penalty": {"lost_by": duplas[entry.lost_by], "reason": entry.reason}}
    partidas: list[Any] = []
    for p in entry.partidas:
        if p.lost_by is not None:
            partidas.append({"penalty": {"lost_by": duplas[p.lost_by], "reason": p.reason}})
        elif p.maos is not None:
            partidas.append({"maos": [mao_dict(m) for m in p.maos]})
        else:
            assert p.score is not None  # neither lost nor by mãos: its final score
            partidas.append([p.score[0], p.score[1]])
    return {"partidas": partidas}


def mao_dict(m: Mao) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if m.key:
        out["id"] = m.key
    out["to"] = m.to
    if m.points is not None:
        out["points"] = m.points
    if m.how != "played":
        out["how"] = m.how
    if m.reason:
        out["reason"] = m.reason
    return out
