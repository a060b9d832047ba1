"""What a seat may send (INTERCHANGE.md "Live connection"), the engine's events, and its refusals."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from scoring.messages import Text, _

from .moments import iso


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card, open or closed (fechada); in a mão de ferro ``slot`` names one of the face-down cards."""

    card: str | None = None
    closed: bool = False
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class AskBet:
    """Ask the next level: truco (3), then 6, 9, 12."""


@dataclass(frozen=True, slots=True)
class AnswerBet:
    """Answer a bet: accept (True), run (False) or raise to the next level ("raise")."""

    accept: bool | Literal["raise"]


@dataclass(frozen=True, slots=True)
class DecideOnze:
    """The dupla on 11 plays the mão (worth 3) or runs (+1 to the other dupla)."""

    play: bool


@dataclass(frozen=True, slots=True)
class CastVote:
    """A vote on more time for the player whose turn ran out."""

    extend: bool


Action = PlayCard | AskBet | AnswerBet | DecideOnze | CastVote
ACTION_TYPES = ("play", "bet", "answer", "onze", "vote")


@dataclass(frozen=True, slots=True)
class Refusal:
    """Nothing happened: ``rule`` names the rule (a short key), ``message`` says why, in Portuguese."""

    rule: str
    message: Text


class Event(NamedTuple):
    """One thing that happened, as the game log writes it (INTERCHANGE.md "The game log")."""

    seq: int
    at: int  # ms
    type: str
    seat: int | None
    detail: Mapping[str, Any]

    def as_log(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": iso(self.at), "seat": self.seat, "type": self.type, **self.detail}


def action_from_message(message: Mapping[str, Any]) -> Action | Refusal:
    """The action a message (the live connection's, or a log's event) names, or why it names none."""
    kind = message.get("type")
    if kind == "play":
        card, closed, slot = message.get("card"), message.get("closed", False), message.get("slot")
        if not isinstance(closed, bool):
            return Refusal("mensagem", _("'closed' deve ser true ou false"))
        if slot is not None and (isinstance(slot, bool) or not isinstance(slot, int)):
            return Refusal("mensagem", _("'slot' deve ser 0, 1 ou 2"))
        if card is not None and not isinstance(card, str):
            return Refusal("mensagem", _("'card' deve ser uma carta como \"7p\""))
        return PlayCard(card=card, closed=closed, slot=slot)
    if kind == "bet":
        return AskBet()
    if kind == "answer":
        accept = message.get("accept")
        if accept is True or accept is False or accept == "raise":
            return AnswerBet(accept=accept)
        return Refusal("mensagem", _("'accept' deve ser true, false ou \"raise\""))
    if kind == "onze":
        play = message.get("play")
        if isinstance(play, bool):
            return DecideOnze(play=play)
        return Refusal("mensagem", _("'play' deve ser true ou false"))
    if kind == "vote":
        extend = message.get("extend")
        if isinstance(extend, bool):
            return CastVote(extend=extend)
        return Refusal("mensagem", _("'extend' deve ser true ou false"))
    return Refusal("mensagem", _("ação desconhecida: %(kind)s", kind=repr(kind)[:40]))
