"""The pieces of a súmula's entry screen that the referee's phone and a dupla scoring its own jogo share (docs/regras.md
§8): the duplas' names, the sheet mão by mão, the pad of values of the partida being played (each button a form with
its own server-made id), the screen's phase. The screens themselves: ``desk/referee_presenters.py`` and
``dupla/presenters.py``."""

from __future__ import annotations

import re
import uuid

from django.utils.translation import gettext as _

from scoring.partida import NORMAL_VALUES, RAN_VALUES
from scoring.sumula import HOMOLOGATED, IN_PROGRESS, SCHEDULED
from tournaments.models import Dupla
from tournaments.presenters.duplas import first_name
from tournaments.state import DuplaRef
from tournaments.sumula.sheet import MaoOptions, Partida, PenaltyInfo, Sumula

_SERVER_ID = re.compile(r"^srv-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def server_id() -> str:
    """An id for a write made by a form: rendered into the form, so a re-sent form is not recorded twice."""
    return f"srv-{uuid.uuid4()}"


def posted_id(value: str | None) -> str:
    """The form's id when it is one the server made, else a new one (a form never chooses other ids)."""
    return value if isinstance(value, str) and _SERVER_ID.match(value) else server_id()


def dupla_names(dupla: Dupla | DuplaRef) -> dict[str, str]:
    """What the screen says of a dupla (a ``Dupla`` or a ``DuplaRef``): its name, a short one, its players."""
    players = f"{dupla.player1.name} / {dupla.player2.name}"
    return {
        "key": dupla.key,
        "name": dupla.name or players,
        "players": players,
        "short": dupla.name or f"{first_name(dupla.player1.name)} / {first_name(dupla.player2.name)}",
    }


def gains(partida: Partida) -> list[tuple[int, int]]:
    """Points each dupla got from each mão (the running score minus the one before)."""
    before, out = (0, 0), []
    for m in partida.maos:
        score = m.score
        out.append((score[0] - before[0], score[1] - before[1]))
        before = score
    return out


def sheet_rows(data: Sumula, duplas: list[dict]) -> list[dict]:
    """The partidas as the paper sheet shows them: per mão, the points and the running score of each dupla."""
    how = {"ran": _("a outra correu"), "refused": _("onze recusada"), "penalty": _("penalidade")}
    out = []
    for p in data.partidas:
        rows = []
        for n, (m, gain) in enumerate(zip(p.maos, gains(p), strict=False), start=1):
            note = _("empate") if m.to is None else how.get(m.how, "")
            rows.append(
                {
                    "n": n,
                    "id": m.id,
                    "note": note,
                    "reason": m.reason or "",
                    "cells": [{"gain": gain[i], "total": m.score[i]} for i in (0, 1)],
                }
            )
        out.append(
            {
                "number": p.number,
                "score": list(p.score),
                "finished": p.finished,
                "rows": rows,
                "penalty": penalty_named(p.penalty, duplas),
                "quick": not p.maos and not p.penalty,
            }
        )
    return out


def penalty_named(penalty: PenaltyInfo | None, duplas: list[dict]) -> dict | None:
    if not penalty:
        return None
    names = {d["key"]: d["short"] for d in duplas}
    return {"lost_by": names.get(penalty.lost_by, penalty.lost_by), "reason": penalty.reason or ""}


def pad_present(options: MaoOptions | None, duplas: list[dict]) -> dict | None:
    """The buttons of the partida being played, each a form with its own id; enabled as ``options`` says."""
    if options is None:
        return None
    sides = []
    for side in (0, 1):
        sides.append(
            {
                "side": side,
                "who": duplas[side]["short"],
                "played": [{"points": v, "enabled": v in options.played, "id": server_id()} for v in NORMAL_VALUES],
                "ran": [{"points": v, "enabled": v in options.ran, "id": server_id()} for v in RAN_VALUES],
                "refused": {"enabled": options.refuse_by == 1 - side, "id": server_id()},
            }
        )
    for s in sides:
        s["played_any"] = any(b["enabled"] for b in s["played"])
        s["ran_any"] = any(b["enabled"] for b in s["ran"])
    return {
        "sides": sides,
        "tie": {"enabled": options.tie, "id": server_id()},
        "penalty": [{"points": v, "enabled": v in options.penalty} for v in NORMAL_VALUES],
        "penalty_id": server_id(),
        "situation": options.situation,
        "refuse_by": options.refuse_by,
    }


def phase_of(status: str) -> str:
    if status in (SCHEDULED, IN_PROGRESS):
        return "entry"
    return "signed" if status == HOMOLOGATED else "decided"
