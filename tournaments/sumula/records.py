"""One jogo's súmula as stored: its record for ``scoring``, the duplas' answers, the ids of its mãos."""

from __future__ import annotations

from scoring.jogo import JogoEntry

from ..models import Jogo, Mao, Partida
from ..selectors import jogo_entry_from_rows


def jogo_record_load(*, jogo: Jogo) -> tuple[JogoEntry | None, list[Partida], dict[int, list[Mao]]]:
    """The jogo's record (None while empty), its partidas and their mãos, in two queries."""
    partidas = list(Partida.objects.filter(jogo=jogo).order_by("number"))
    maos: dict[int, list[Mao]] = {}
    if any(p.mode == Partida.MAOS for p in partidas):
        for m in Mao.objects.filter(partida__jogo=jogo).order_by("partida__number", "order"):
            maos.setdefault(m.partida_id, []).append(m)
    row = {"walkover": jogo.walkover, "lost_by": jogo.lost_by, "best_of": jogo.best_of,
           "penalty_reason": jogo.penalty_reason}
    partida_rows = [{"id": p.pk, "mode": p.mode, "score_a": p.score_a, "score_b": p.score_b, "lost_by": p.lost_by,
                     "penalty_reason": p.penalty_reason} for p in partidas]
    mao_rows = {pid: [{"to": m.to, "points": m.points, "how": m.how, "reason": m.reason, "key": m.key} for m in ms]
                for pid, ms in maos.items()}
    return jogo_entry_from_rows(jogo=row, partidas=partida_rows, maos=mao_rows), partidas, maos


def answers_of(jogo: Jogo) -> tuple[str | None, str | None]:
    """Each dupla's answer to the current via (``confirmed``, ``contested`` or None), in the jogo's order."""
    c = jogo.confirmations or {}
    return ((c.get("a") or {}).get("answer"), (c.get("b") or {}).get("answer"))


def mao_id(*, partida: Partida | int, mao: Mao | None = None, order: int | None = None, key: str = "") -> str:
    """A mão's id in the API: the client-made one, else ``p<partida>m<mão>`` (both counted from 1)."""
    if mao is not None:
        key, order = mao.key, mao.order
    if key:
        return key
    number = partida.number if isinstance(partida, Partida) else partida
    return f"p{number}m{(order or 0) + 1}"
