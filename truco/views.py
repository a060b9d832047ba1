"""What each seat, and a spectator, may see (DOMAIN §9.3): the only way a partida leaves the engine for people.

A seat sees its own cards (none of their faces in a mão de ferro, where nobody sees their own), its partner's
during the mão de onze decision when its dupla is on 11, every card played open, its own closed cards (the
others' only as face down), the vira, the commitment of the mão being played and the seed of every finished
one. A spectator (``seat`` None) sees what lands on the table. The state holds at least the fields the live
connection promises (INTERCHANGE.md): ``seat``, ``hand``, ``vira``, ``played``, ``score``, ``value``, ``turn``,
``may``, ``deadline``.
"""

from typing import Any

from .actions import Event
from .moments import iso
from .rules import may, may_bet, may_close, next_level, onze_dupla
from .state import ANSWER, MAO_DE_FERRO, ONZE, PLAY, SEATS, VOTE, Partida, Played, dupla_of, partner_of

JSON = dict[str, Any]


def _card(played: Played, seat: int | None) -> JSON:
    hidden = played.closed and played.seat != seat
    return {"card": None if hidden else played.card, "closed": played.closed}


def _by_seat(cards: tuple[Played, ...], seat: int | None) -> list[JSON | None]:
    out: list[JSON | None] = [None] * SEATS
    for played in cards:
        out[played.seat] = _card(played, seat)
    return out


def view(partida: Partida, seat: int | None) -> JSON:
    """The partida as ``seat`` may see it (``None``: a spectator)."""
    mao = partida.mao
    ferro = mao.kind == MAO_DE_FERRO
    hand: list[str | None] | None = None
    partner_hand: list[str] | None = None
    if seat is not None:
        own = mao.hands[seat]
        hand = [None] * len(own) if ferro else list(own)
        if partida.phase == ONZE and dupla_of(seat) == onze_dupla(partida):
            partner_hand = list(mao.hands[partner_of(seat)])
    phase = partida.phase
    turn: int | None = None
    if phase == PLAY:
        turn = mao.turn
    elif phase == ANSWER and mao.bet is not None:
        turn = mao.bet.answerer
    allowed = may(partida, seat)
    options: JSON = {
        "bet": next_level(mao.value) if seat is not None and may_bet(partida, seat) else None,
        "raise": (
            next_level(mao.bet.level) if "answer" in allowed and mao.bet is not None and mao.bet.level < 12 else None
        ),
        "closed": "play" in allowed and may_close(partida),
    }
    vote = partida.vote
    last = partida.maos[-1] if partida.maos else None
    return {
        "seat": seat,
        "phase": phase,
        "score": list(partida.score),
        "mao": {
            "n": mao.n,
            "first": mao.first,
            "kind": mao.kind,
            "commitment": mao.commitment,
            "opener": mao.opener,
            "value_by": mao.value_by,
        },
        "hand": hand,
        "partner_hand": partner_hand,
        "hands": [len(h) for h in mao.hands],
        "vira": mao.vira,
        "played": _by_seat(mao.table, seat),
        "rodadas": [{"winner": r.winner, "cards": _by_seat(r.cards, seat)} for r in mao.rodadas],
        "value": mao.value,
        "bet": (
            None if mao.bet is None else {"level": mao.bet.level, "asker": mao.bet.asker, "answerer": mao.bet.answerer}
        ),
        "turn": turn,
        "may": list(allowed),
        "options": options,
        "deadline": None if partida.deadline is None else iso(partida.deadline),
        "vote": (
            None
            if phase != VOTE or vote is None
            else {
                "absent": vote.absent,
                "voted": [v is not None for v in vote.votes],
                "yes": vote.votes.count(True),
                "no": vote.votes.count(False),
            }
        ),
        "present": list(partida.present),
        "last_mao": (
            None
            if last is None
            else {"n": last.n, "result": last.result.as_json(), "seed": last.seed.hex(), "commitment": last.commitment}
        ),
        "suspended": None if partida.suspension is None else partida.suspension.reason,
        "ended": (
            None
            if not partida.ended
            else {"winner": partida.winner, "by": partida.ended_by, "seat": partida.abandoned_by}
        ),
    }


def event_view(event: Event, seat: int | None) -> JSON:
    """The event as the log writes it, less what ``seat`` may not see (another seat's closed card)."""
    data = event.as_log()
    if event.type == "play" and event.detail.get("closed") and event.seat != seat:
        data["card"] = None
    return data
