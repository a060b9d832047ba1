"""A partida of Truco Online as an immutable value (DOMAIN §9.1–9.2).

Everything the rules need is here and nothing else: the score, the mão being played (its deal, rodadas,
cards on the table, the bet in force and the one waiting for an answer), whose turn it is, the clock's
deadline, an extension vote, a suspension, who is present, and the finished mãos (each a súmula entry).
Times are whole milliseconds since the epoch (UTC), given by the caller: the engine never reads a clock.

The values are named tuples: immutable, compared by value, and cheap to copy with a change (``_replace``),
which an action does a few times.

Seats are 0–3 in the order of play (seat s + 1 plays after seat s, to its right); dupla d holds seats d and
d + 2.
"""

from typing import Any, Final, NamedTuple

from scoring.rules import RuleSettings

# Phases: what the partida waits for.
ONZE: Final = "onze"  # the dupla on 11 decides to play or run
PLAY: Final = "play"  # the seat on turn plays a card or asks a bet
ANSWER: Final = "answer"  # a bet waits for its answer
VOTE: Final = "vote"  # a turn ran out: the other three vote on more time
SUSPENDED: Final = "suspended"  # stopped by the table (a referee, a technical problem): clocks stand still
ENDED: Final = "ended"

# Kinds of mão (scoring.partida.situation's words).
NORMAL: Final = "normal"
MAO_DE_ONZE: Final = "mao_de_onze"
MAO_DE_FERRO: Final = "mao_de_ferro"

SEATS: Final = 4


def dupla_of(seat: int) -> int:
    """The dupla (0 or 1) a seat plays for."""
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % SEATS


class Played(NamedTuple):
    """A card on the table: who played it, which, and whether face down (fechada)."""

    seat: int
    card: str
    closed: bool


class Rodada(NamedTuple):
    """A finished rodada (vaza): its cards in the order played, the dupla that won it (None: tied, cangou) and
    the seat that opens the next one."""

    cards: tuple[Played, ...]
    winner: int | None
    next_opener: int


class Bet(NamedTuple):
    """A bet waiting for its answer: ``level`` asked by ``asker``, answered by ``answerer`` (the opponent to
    the asker's right). ``is_raise``: this ask answers another (30 s to answer, not 35)."""

    level: int
    asker: int
    answerer: int
    is_raise: bool


class Entry(NamedTuple):
    """A finished mão as a súmula entry (DOMAIN §3; the tournament file's ``to``/``points``/``how``).

    ``to`` is the dupla that scores, None when the three rodadas tied (``points`` None: the rules say what
    a tie gives). ``how``: ``played``, ``ran`` (a bet refused), ``refused`` (a mão de onze turned down)."""

    to: int | None
    points: int | None
    how: str

    def as_json(self) -> dict[str, Any]:
        if self.to is None:
            return {"to": None}
        return {"to": self.to, "points": self.points, "how": self.how}


class Mao(NamedTuple):
    """The mão being played."""

    n: int  # 1, 2, … within the partida
    first: int  # the seat dealt to first, who opens the 1st rodada
    kind: str  # NORMAL, MAO_DE_ONZE, MAO_DE_FERRO
    seed: bytes
    commitment: str
    vira: str | None  # None with fixed manilhas
    dealt: tuple[tuple[str, ...], ...]  # the hands as dealt, by seat
    hands: tuple[tuple[str, ...], ...]  # the cards each seat still holds, in the order dealt
    value: int  # the value in force (1, 3, 6, 9, 12; 3 in a mão de onze; the preset's in a mão de ferro)
    value_by: int | None  # the dupla whose bet set ``value`` (it may not raise it again); None before any bet
    bet: Bet | None  # a bet waiting for its answer
    rodadas: tuple[Rodada, ...]  # the finished rodadas
    table: tuple[Played, ...]  # this rodada's cards, in the order played
    opener: int  # who opened this rodada
    turn: int  # the seat to play (or, while a bet waits, the seat that plays once it is settled)
    bet_this_turn: bool  # a bet was settled in this turn: the seat on turn must now play its card
    dealt_at: int  # ms
    seq_from: int  # the table's event number when this mão was dealt (its events come after it)


class MaoRecord(NamedTuple):
    """A finished mão, for the game log and the súmula."""

    n: int
    first: int
    seed: bytes
    commitment: str
    vira: str | None
    dealt: tuple[tuple[str, ...], ...]
    result: Entry
    dealt_at: int
    seq_from: int
    seq_to: int  # the event that ended it


class Vote(NamedTuple):
    """The extension vote opened when ``absent``'s turn ran out: each other seat's vote (None: not yet)."""

    absent: int
    votes: tuple[bool | None, ...]


class Suspension(NamedTuple):
    """A suspended table: the phase it was in and the time its clock had left."""

    phase: str
    remaining: int | None  # ms
    reason: str


class Partida(NamedTuple):
    rules: RuleSettings
    score: tuple[int, int]
    mao: Mao
    phase: str
    deadline: int | None  # ms; None while nothing runs against a clock
    vote: Vote | None
    suspension: Suspension | None
    seq: int  # the last event's number
    present: tuple[bool, ...]  # by seat
    maos: tuple[MaoRecord, ...]  # the finished mãos, in order
    winner: int | None  # the dupla, once ended
    ended_by: str | None  # "points" or "abandonment"
    abandoned_by: int | None  # the seat whose turn ran out and was voted out

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    def entries(self) -> tuple[Entry, ...]:
        """The finished mãos as súmula entries, in order."""
        return tuple(record.result for record in self.maos)
