"""A finished partida replayed step by step (DOMAIN §9.3; INTERCHANGE "Online play", ``/jogar/mesas/<id>/partidas/<n>/``).

The game log (``registro.json``) is replayed through the engine's own rules (``truco.log.log_replay``), which
rebuilds every state of the partida; each step shows what happened (in Portuguese), every hand (a finished
partida hides nothing), the cards on the table and the score. Each mão's deal is checked on its own, as a player
would check it (``truco.deal``): the SHA-256 of the published seed is the commitment shown before the first card,
and the documented shuffle of that seed from the mão's first seat gives exactly the hands and vira played.

Public once the partida ends; a tournament jogo's partidas once the jogo's result counts (its súmula confirmed:
``Jogo.counted_via``), before that only to whoever runs the event (``staff=True``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any, Final

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.errors import RuleViolation
from truco.cards import SUIT_SYMBOLS, is_card, is_manilha
from truco.deal import commitment, deal
from truco.log import log_replay
from truco.moments import EPOCH, from_iso
from truco.state import SEATS, Partida, Played

from ..models import OnlineTable, PartidaLog

__all__ = ["CardShown", "DealCheck", "Replay", "ReplayMao", "ReplayStep", "card_name", "replay_get", "replay_public"]

BET_NAMES: Final = {
    3: gettext_lazy("truco"),
    6: gettext_lazy("seis"),
    9: gettext_lazy("nove"),
    12: gettext_lazy("doze"),
}
RANK_WORDS: Final = {
    "Q": gettext_lazy("dama"),
    "J": gettext_lazy("valete"),
    "K": gettext_lazy("rei"),
    "A": gettext_lazy("ás"),
}
SUIT_WORDS: Final = {
    "p": gettext_lazy("paus"),
    "c": gettext_lazy("copas"),
    "e": gettext_lazy("espadas"),
    "o": gettext_lazy("ouros"),
}


def card_name(card: str) -> str:
    """A card for people, in words: "7 de paus", "ás de copas"."""
    return _("%(rank)s de %(suit)s") % {"rank": RANK_WORDS.get(card[0], card[0]), "suit": SUIT_WORDS[card[1]]}


@dataclass(frozen=True, slots=True)
class CardShown:
    card: str  # "7p"
    label: str  # "7♣"
    name: str  # "7 de paus"
    closed: bool = False  # played face down (fechada)
    manilha: bool = False
    seat: int | None = None  # who played it (cards on the table)
    who: str = ""  # their name


@dataclass(frozen=True, slots=True)
class DealCheck:
    """A mão's deal as anyone can check it: the commitment shown before the first card, the seed published after,
    and whether each matches (SHA-256 of the seed; the shuffle of the seed gives the hands and vira played)."""

    commitment: str
    seed: str
    commitment_ok: bool
    deal_ok: bool
    hands: tuple[tuple[CardShown, ...], ...]  # as dealt, by seat
    vira: CardShown | None

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.deal_ok


@dataclass(frozen=True, slots=True)
class ReplayStep:
    number: int  # 1, 2, … in the partida
    mao: int
    at: datetime
    seat: int | None  # who acted (None: the table, the clock)
    texts: tuple[str, ...]  # each event of the step, in words
    score: tuple[int, int]  # after the step
    value: int  # the mão's value in force
    hands: tuple[tuple[CardShown, ...], ...]  # what each seat still holds, by seat
    table: tuple[CardShown, ...]  # this rodada's cards, in the order played
    rodadas: tuple[int | None, ...]  # the dupla that won each finished rodada (None: tied)
    ended: str  # the mão's result when this step ended it, else ""


@dataclass
class ReplayMao:
    n: int
    first: int
    check: DealCheck
    result: str  # in words ("" for a mão an abandonment cut short)
    steps: list[ReplayStep] = field(default_factory=list)
    dealt: list[tuple[str, tuple[CardShown, ...]]] = field(default_factory=list)  # (name, cards) by seat


@dataclass
class Replay:
    table_id: int
    n: int
    preset: str
    face: str
    names: tuple[str, ...]  # by seat
    duplas: tuple[str, str]  # "Ana e Carla", "Bruno e Davi"
    score: tuple[int, int]
    winner: int | None
    ended_by: str
    abandoned_by: int | None
    finished_at: datetime
    tournament: bool
    maos: list[ReplayMao] = field(default_factory=list)
    error: str = ""  # the log does not replay: where and why

    @property
    def abandoned_name(self) -> str:
        seat = self.abandoned_by
        return self.names[seat] if seat is not None and 0 <= seat < SEATS else ""

    @property
    def steps(self) -> list[ReplayStep]:
        return [step for mao in self.maos for step in mao.steps]

    @property
    def checked(self) -> bool:
        return not self.error and all(mao.check.ok for mao in self.maos)


def replay_public(table: OnlineTable) -> bool:
    """Whether anyone may see this table's finished partidas: a casual table's at once; a tournament jogo's once
    the jogo's result counts (DOMAIN §9.7)."""
    if table.jogo_id is None:
        return True
    from ..models import Jogo

    return Jogo.objects.filter(pk=table.jogo_id, counted_via__isnull=False).exists()


def replay_get(*, table_id: int, n: int, staff: bool = False) -> Replay | None:
    """The partida replayed, or None when there is no such finished partida or it is not public yet (``staff``:
    the event's organizers and referees see a tournament jogo's at once)."""
    row = PartidaLog.objects.filter(table_id=table_id, n=n).select_related("table").first()
    if row is None or (not staff and not replay_public(row.table)):
        return None
    return replay_build(data=row.data, finished_at=row.finished_at, table=row.table)


def _shown(card: str, vira: str | None, *, closed: bool = False, seat: int | None = None, who: str = "") -> CardShown:
    return CardShown(
        card=card,
        label=card[0] + SUIT_SYMBOLS[card[1]],
        name=card_name(card),
        closed=closed,
        manilha=is_manilha(card, vira),
        seat=seat,
        who=who,
    )


def _hands(hands: Sequence[Sequence[str]], vira: str | None) -> tuple[tuple[CardShown, ...], ...]:
    return tuple(tuple(_shown(c, vira) for c in hand) for hand in hands)


def _table(played: Sequence[Played], vira: str | None, names: Sequence[str]) -> tuple[CardShown, ...]:
    return tuple(_shown(p.card, vira, closed=p.closed, seat=p.seat, who=names[p.seat]) for p in played)


def replay_build(*, data: Mapping[str, Any], finished_at: datetime, table: OnlineTable | None = None) -> Replay:
    """The replay of a game log (``registro.json``'s data)."""
    names = ["", "", "", ""]
    for entry in data.get("seats") or []:
        if isinstance(entry, Mapping) and entry.get("seat") in range(SEATS):
            names[entry["seat"]] = str(entry.get("name") or "")
    names = [name or _("Lugar %(n)d") % {"n": seat + 1} for seat, name in enumerate(names)]
    duplas = (
        _("%(a)s e %(b)s") % {"a": names[0], "b": names[2]},
        _("%(a)s e %(b)s") % {"a": names[1], "b": names[3]},
    )
    score = data.get("score") or [0, 0]
    replay = Replay(
        table_id=int(data.get("table") or (table.pk if table else 0)),
        n=int(data.get("partida") or 0),
        preset=str(data.get("preset") or ""),
        face=(table.face if table is not None and table.face in ("classico", "grande") else "classico"),
        names=tuple(names),
        duplas=duplas,
        score=(int(score[0]), int(score[1])),
        winner=data.get("winner"),
        ended_by=str(data.get("ended_by") or ""),
        abandoned_by=data.get("abandoned_by"),
        finished_at=finished_at,
        tournament=table is not None and table.kind == OnlineTable.TORNEIO,
    )
    logged_maos = [m for m in data.get("maos") or [] if isinstance(m, Mapping)]
    try:
        states = log_replay(data)
    except RuleViolation as violation:
        problem = violation.errors[0] if violation.errors else None
        replay.error = (
            _("O registro não confere com as regras em %(place)s: %(message)s")
            % {"place": problem.place or "registro", "message": problem.message}
            if problem is not None
            else _("O registro não confere com as regras.")
        )
        replay.maos = [
            ReplayMao(n=i + 1, first=int(m.get("first") or 0), check=_check_alone(m), result="")
            for i, m in enumerate(logged_maos)
        ]
        for mao in replay.maos:
            mao.dealt = list(zip(names, mao.check.hands, strict=False))
        return replay
    events = [e for m in logged_maos for e in m.get("events") or [] if isinstance(e, Mapping)]
    by_n: dict[int, ReplayMao] = {}
    for state in states:
        if state.mao.n not in by_n:
            logged = logged_maos[state.mao.n - 1]
            by_n[state.mao.n] = ReplayMao(
                n=state.mao.n,
                first=state.mao.first,
                check=_check(state, logged),
                result=_result_text(logged.get("result"), duplas),
            )
    replay.maos = [by_n[k] for k in sorted(by_n)]
    for mao in replay.maos:
        mao.dealt = list(zip(names, mao.check.hands, strict=False))
    cursor = 0
    for number, (before, after) in enumerate(pairwise(states), start=1):
        mine: list[Mapping[str, Any]] = []
        while cursor < len(events) and int(events[cursor].get("seq", 0)) <= after.seq:
            mine.append(events[cursor])
            cursor += 1
        by_n[before.mao.n].steps.append(_step(number, before, after, mine, names, duplas, logged_maos))
    return replay


def _check(state: Partida, logged: Mapping[str, Any]) -> DealCheck:
    mao = state.mao
    seed_hex = str(logged.get("seed") or "")
    published = str(logged.get("commitment") or "")
    dealt = deal(seed=mao.seed, first=mao.first, with_vira=mao.vira is not None)
    return DealCheck(
        commitment=published,
        seed=seed_hex,
        commitment_ok=commitment(mao.seed) == published == mao.commitment,
        deal_ok=dealt.hands == mao.dealt and dealt.vira == mao.vira and logged.get("vira") == mao.vira,
        hands=_hands(mao.dealt, mao.vira),
        vira=_shown(mao.vira, mao.vira) if mao.vira else None,
    )


def _check_alone(logged: Mapping[str, Any]) -> DealCheck:
    """A mão's deal checked from its log entry alone (when the log does not replay)."""
    seed_hex, published = str(logged.get("seed") or ""), str(logged.get("commitment") or "")
    vira = logged.get("vira") if is_card(logged.get("vira")) else None
    try:
        seed = bytes.fromhex(seed_hex)
        first = int(logged.get("first") or 0) % SEATS
    except (TypeError, ValueError):
        return DealCheck(published, seed_hex, False, False, (), None)
    dealt = deal(seed=seed, first=first, with_vira=vira is not None)
    return DealCheck(
        commitment=published,
        seed=seed_hex,
        commitment_ok=commitment(seed) == published,
        deal_ok=dealt.vira == vira,
        hands=_hands(dealt.hands, vira),
        vira=_shown(vira, vira) if vira else None,
    )


def _result_text(result: Any, duplas: tuple[str, str]) -> str:
    if not isinstance(result, Mapping):
        return _("Mão interrompida pelo abandono.")
    to = result.get("to")
    if to not in (0, 1):
        return _("As três rodadas empataram: ninguém marca.")
    points = int(result.get("points") or 0)
    how = result.get("how")
    scored = ngettext("%(dupla)s marcam %(n)d ponto", "%(dupla)s marcam %(n)d pontos", points) % {
        "dupla": duplas[to],
        "n": points,
    }
    if how == "ran":
        return _("%(scored)s (a outra dupla correu).") % {"scored": scored}
    if how == "refused":
        return _("%(scored)s (a outra dupla não quis jogar a mão de onze).") % {"scored": scored}
    return f"{scored}."


def _step(
    number: int,
    before: Partida,
    after: Partida,
    events: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    duplas: tuple[str, str],
    logged_maos: Sequence[Mapping[str, Any]],
) -> ReplayStep:
    mao = before.mao
    vira = mao.vira
    seat = next((e.get("seat") for e in events if isinstance(e.get("seat"), int)), None)
    ended = ""
    texts = [_event_text(e, names) for e in events]
    played = tuple(
        Played(seat=int(e["seat"]), card=str(e["card"]), closed=bool(e.get("closed")))
        for e in events
        if e.get("type") == "play" and is_card(e.get("card")) and isinstance(e.get("seat"), int)
    )
    if after.mao.n == mao.n and len(after.maos) == len(before.maos):
        shown = after.mao
        hands, table, rodadas, value = shown.hands, shown.table, shown.rodadas, shown.value
        if len(shown.rodadas) > len(mao.rodadas):  # this card closed a rodada: the cards as they lay
            table = (*mao.table, *played)
            winner = shown.rodadas[-1].winner
            texts.append(
                _("A %(n)dª rodada empatou (cangou)") % {"n": len(shown.rodadas)}
                if winner is None
                else _("A %(n)dª rodada fica com %(dupla)s") % {"n": len(shown.rodadas), "dupla": duplas[winner]}
            )
    else:  # the step ended the mão: its last cards as they lay, before the next deal
        hands = tuple(
            tuple(c for c in hand if not any(p.card == c and p.seat == s for p in played))
            for s, hand in enumerate(mao.hands)
        )
        table = (*mao.table, *played)
        rodadas, value = mao.rodadas, mao.value
        if len(after.maos) > len(before.maos):
            ended = _result_text(logged_maos[mao.n - 1].get("result"), duplas)
    at = from_iso(events[0]["at"]) if events and isinstance(events[0].get("at"), str) else mao.dealt_at
    return ReplayStep(
        number=number,
        mao=mao.n,
        at=EPOCH + timedelta(milliseconds=at),
        seat=seat,
        texts=tuple(texts),
        score=after.score,
        value=value,
        hands=_hands(hands, vira),
        table=_table(table, vira, names),
        rodadas=tuple(r.winner for r in rodadas),
        ended=ended,
    )


def _event_text(event: Mapping[str, Any], names: Sequence[str]) -> str:
    kind = event.get("type")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < SEATS else ""
    card = event.get("card")
    shown = card_name(str(card)) if is_card(card) else "?"
    if kind == "play":
        if event.get("slot") is not None:
            return _("%(who)s jogou no escuro: %(card)s") % {"who": who, "card": shown}
        if event.get("closed"):
            return _("%(who)s jogou fechada (era %(card)s)") % {"who": who, "card": shown}
        return _("%(who)s jogou %(card)s") % {"who": who, "card": shown}
    if kind == "bet":
        return _("%(who)s pediu %(bet)s") % {"who": who, "bet": BET_NAMES.get(event.get("level") or 0, BET_NAMES[3])}
    if kind == "answer":
        accept = event.get("accept")
        if accept == "raise":
            return _("%(who)s aumentou para %(bet)s") % {
                "who": who,
                "bet": BET_NAMES.get(event.get("level") or 0, BET_NAMES[3]),
            }
        return (_("%(who)s aceitou") if accept else _("%(who)s correu")) % {"who": who}
    if kind == "onze":
        if event.get("play"):
            return _("%(who)s decidiu jogar a mão de onze") % {"who": who}
        return _("%(who)s correu da mão de onze") % {"who": who}
    if kind == "vote":
        if event.get("extend"):
            return _("%(who)s votou por mais tempo") % {"who": who}
        return _("%(who)s votou contra mais tempo") % {"who": who}
    if kind == "vote_result":
        if event.get("extend"):
            return _("A votação deu mais 35 s a %(who)s") % {"who": who}
        return _("A votação encerrou a partida: abandono de %(who)s") % {"who": who}
    if kind == "expiry":
        what = event.get("what")
        if what == "turn":
            return _("O tempo de %(who)s acabou: votação aberta") % {"who": who}
        if what == "answer":
            return _("%(who)s não respondeu a tempo: correu") % {"who": who}
        if what == "onze":
            return _("Ninguém decidiu a mão de onze a tempo: ela vale 3")
        return _("A votação acabou sem maioria: abandono")
    if kind == "presence":
        return (_("%(who)s voltou à mesa") if event.get("present") else _("%(who)s saiu da mesa")) % {"who": who}
    if kind == "suspend":
        return _("Mesa suspensa: %(reason)s") % {"reason": str(event.get("reason") or "")[:200]}
    if kind == "resume":
        return _("Mesa retomada")
    return str(kind)[:40]
