"""The rules of a partida (DOMAIN §9.1–9.2): what each seat may do now, and what an action or an expiry does.

``partida_start`` deals the first mão; ``may`` lists the action types a seat may send now; ``apply`` takes one
action of one seat and returns a ``Step`` (the new partida and the events it caused) or a ``Refusal`` (nothing
changed); ``expire`` applies what a deadline that has passed brings; ``presence``, ``suspend`` and ``resume``
record what happens around the cards. Every function is given the time (``now``, ms) and, where a new mão may
be dealt, the seed for it: the engine reads no clock and draws nothing.

A finished mão is a súmula entry (``Entry``) scored by ``scoring.partida.mao_gain``, the súmula's own rule:
the score of an online partida is the score its súmula gives.
"""

from typing import Final, NamedTuple

from scoring.messages import _
from scoring.partida import Mao as SumulaMao
from scoring.partida import is_finished, mao_gain, situation
from scoring.rules import RuleSettings

from .actions import Action, AnswerBet, AskBet, CastVote, DecideOnze, Event, PlayCard, Refusal
from .cards import FIXED, card_label, is_card, strengths
from .deal import Deal, commitment, deal
from .state import (
    ANSWER,
    ENDED,
    MAO_DE_FERRO,
    MAO_DE_ONZE,
    NORMAL,
    ONZE,
    PLAY,
    SEATS,
    SUSPENDED,
    VOTE,
    Bet,
    Entry,
    Mao,
    MaoRecord,
    Partida,
    Played,
    Rodada,
    Suspension,
    Vote,
    dupla_of,
)

# Time (DOMAIN §9.2), in ms.
TURN_MS: Final = 35_000  # a player's turn: play a card or ask a bet
ANSWER_MS: Final = 35_000  # answer a truco, or a raise asked over an accepted value
RAISE_ANSWER_MS: Final = 30_000  # answer a raise that answered a raise
ONZE_MS: Final = 35_000  # the mão de onze decision
VOTE_MS: Final = 35_000  # the extension vote
EXTENSION_MS: Final = 35_000  # more time when the vote says yes

LEVELS: Final = (1, 3, 6, 9, 12)  # the mão's values: 1, then truco 3, 6, 9, 12


class Step(NamedTuple):
    """The partida after an action or an expiry, and the events it caused (in order)."""

    partida: Partida
    events: tuple[Event, ...]


def next_level(value: int) -> int:
    return LEVELS[LEVELS.index(value) + 1]


def previous_level(value: int) -> int:
    return LEVELS[LEVELS.index(value) - 1]


def partida_start(*, rules: RuleSettings, first: int, seed: bytes, now: int, seq: int = 0) -> Partida:
    """A new partida, 0 x 0, its first mão dealt from ``first`` (drawn at random by the caller) with ``seed``.

    ``seq`` is the table's last event number: the partida's events follow it."""
    dealt = deal(seed=seed, first=first, with_vira=rules.manilha != FIXED)
    return partida_at(rules=rules, score=(0, 0), first=first, dealt=dealt, seed=seed, now=now, seq=seq)


def partida_at(
    *, rules: RuleSettings, score: tuple[int, int], first: int, dealt: Deal, seed: bytes, now: int, seq: int = 0
) -> Partida:
    """A partida at ``score`` whose mão was dealt as ``dealt`` (from ``seed``): ``partida_start`` at 0 x 0, and
    the worked examples of the regulation, whose hands no seed is known to give."""
    if first not in range(SEATS):
        raise ValueError(f"first seat {first!r}")
    mao = _mao_from(rules=rules, n=1, first=first, score=score, dealt=dealt, seed=seed, now=now, seq=seq)
    partida = Partida(
        rules=rules,
        score=score,
        mao=mao,
        phase=PLAY,
        deadline=None,
        vote=None,
        suspension=None,
        seq=seq,
        present=(True,) * SEATS,
        maos=(),
        winner=None,
        ended_by=None,
        abandoned_by=None,
    )
    return _mao_opened(partida, now)


def _mao_from(
    *, rules: RuleSettings, n: int, first: int, score: tuple[int, int], dealt: Deal, seed: bytes, now: int, seq: int
) -> Mao:
    kind = situation(score)
    value = 1
    if kind == MAO_DE_ONZE:
        value = 3
    elif kind == MAO_DE_FERRO:
        value = rules.mao_de_ferro_value
    return Mao(
        n=n,
        first=first,
        kind=kind,
        seed=seed,
        commitment=commitment(seed),
        vira=dealt.vira,
        dealt=dealt.hands,
        hands=dealt.hands,
        value=value,
        value_by=None,
        bet=None,
        rodadas=(),
        table=(),
        opener=first,
        turn=first,
        bet_this_turn=False,
        dealt_at=now,
        seq_from=seq,
    )


def _mao_opened(partida: Partida, now: int) -> Partida:
    """The phase a freshly dealt mão starts in: the mão de onze decision, or the first seat's turn."""
    if partida.mao.kind == MAO_DE_ONZE:
        return partida._replace(phase=ONZE, deadline=now + ONZE_MS)
    return partida._replace(phase=PLAY, deadline=now + TURN_MS)


def onze_dupla(partida: Partida) -> int | None:
    """The dupla on 11 in a mão de onze, else None."""
    if partida.mao.kind != MAO_DE_ONZE:
        return None
    return 0 if partida.score[0] == 11 else 1


def may_bet(partida: Partida, seat: int) -> bool:
    """Whether ``seat``, on its turn, may ask the next level now."""
    mao = partida.mao
    return (
        partida.phase == PLAY
        and seat == mao.turn
        and mao.kind == NORMAL
        and not mao.bet_this_turn
        and mao.value < LEVELS[-1]
        and mao.value_by != dupla_of(seat)
    )


def may_close(partida: Partida) -> bool:
    """Whether a card may be played face down (fechada) now: never in the 1st rodada nor in a mão de ferro."""
    return bool(partida.mao.rodadas) and partida.mao.kind != MAO_DE_FERRO


def may(partida: Partida, seat: int | None) -> tuple[str, ...]:
    """The action types ``seat`` may send now (none for a spectator, ``seat`` None)."""
    if seat is None:
        return ()
    phase = partida.phase
    if phase == PLAY:
        if seat != partida.mao.turn:
            return ()
        return ("play", "bet") if may_bet(partida, seat) else ("play",)
    if phase == ANSWER:
        bet = partida.mao.bet
        return ("answer",) if bet is not None and seat == bet.answerer else ()
    if phase == ONZE:
        return ("onze",) if dupla_of(seat) == onze_dupla(partida) else ()
    if phase == VOTE:
        vote = partida.vote
        return ("vote",) if vote is not None and seat != vote.absent and vote.votes[seat] is None else ()
    return ()


class _Events:
    """The events of one step, numbered after the partida's last."""

    __slots__ = ("at", "items", "seq")

    def __init__(self, partida: Partida, now: int) -> None:
        self.seq = partida.seq
        self.at = now
        self.items: list[Event] = []

    def add(self, kind: str, seat: int | None, **detail: object) -> None:
        self.seq += 1
        self.items.append(Event(seq=self.seq, at=self.at, type=kind, seat=seat, detail=detail))

    def step(self, partida: Partida) -> Step:
        return Step(partida=partida._replace(seq=self.seq), events=tuple(self.items))


def apply(partida: Partida, seat: int, action: Action, *, now: int, seed: bytes | None = None) -> Step | Refusal:
    """``seat`` does ``action`` at ``now``: the step it causes, or why it is refused (nothing changes).

    ``seed`` deals the next mão if this action ends one (required then; a caller passes a fresh one always)."""
    refusal = _refusal_before_action(partida, seat, now)
    if refusal is not None:
        return refusal
    events = _Events(partida, now)
    match action:
        case PlayCard():
            return _play(partida, seat, action, events, seed)
        case AskBet():
            return _ask(partida, seat, events)
        case AnswerBet():
            return _answer(partida, seat, action, events, seed)
        case DecideOnze():
            return _decide_onze(partida, seat, action, events, seed)
        case CastVote():
            return _vote(partida, seat, action, events)
    return Refusal("mensagem", _("ação desconhecida"))  # pragma: no cover - the match is exhaustive


def _refusal_before_action(partida: Partida, seat: int, now: int) -> Refusal | None:
    if seat not in range(SEATS):
        return Refusal("assento", _("só quem está sentado à mesa joga"))
    if partida.phase == ENDED:
        return Refusal("fim", _("a partida já terminou"))
    if partida.phase == SUSPENDED:
        return Refusal("suspensa", _("a mesa está suspensa: espere ela ser retomada"))
    if partida.deadline is not None and now >= partida.deadline:
        return Refusal("tempo", _("o tempo acabou: a jogada chegou depois do prazo"))
    return None


def _not_your_turn(partida: Partida, seat: int) -> Refusal:
    if partida.phase == VOTE:
        if partida.vote is not None and seat == partida.vote.absent:
            return Refusal(
                "votacao",
                _("Extensão de tempo: o seu tempo acabou e os outros jogadores estão votando; espere o resultado"),
            )
        return Refusal("votacao", _("Extensão de tempo: a mesa está em votação; só se pode votar"))
    if partida.phase == ANSWER:
        return Refusal("aposta", _("há um pedido de aposta esperando resposta; a mão só segue depois dela"))
    if partida.phase == ONZE:
        return Refusal("mao-de-onze", _("Mão de 11: a dupla com 11 pontos ainda está decidindo se joga ou corre"))
    return Refusal("vez", _("não é a sua vez"))


def _play(partida: Partida, seat: int, action: PlayCard, events: _Events, seed: bytes | None) -> Step | Refusal:
    mao = partida.mao
    if partida.phase != PLAY or seat != mao.turn:
        return _not_your_turn(partida, seat)
    hand = mao.hands[seat]
    if mao.kind == MAO_DE_FERRO:
        if action.card is not None or action.slot is None:
            return Refusal(
                "mao-de-ferro",
                _("Mão de ferro: ninguém vê as próprias cartas; escolha uma das cartas viradas (slot)"),
            )
        if action.closed:
            return Refusal("fechada", _("Mão de ferro: jogar fechado é proibido nas três rodadas"))
        if not 0 <= action.slot < len(hand):
            return Refusal("carta", _("não há carta na posição %(slot)s da sua mão", slot=action.slot))
        card = hand[action.slot]
        events.add("play", seat, card=card, closed=False, slot=action.slot)
    else:
        if action.card is None:
            return Refusal("carta", _("escolha a carta que vai jogar"))
        if action.card not in hand:
            shown = card_label(action.card) if is_card(action.card) else repr(action.card)[:12]
            return Refusal("carta", _("a carta %(card)s não está na sua mão", card=shown))
        card = action.card
        if action.slot is not None:
            return Refusal("carta", _("escolha a carta pelo nome; 'slot' só vale na mão de ferro"))
        if action.closed and not mao.rodadas:
            return Refusal("fechada", _("Jogar fechado: na 1ª rodada não é permitido jogar fechado"))
        events.add("play", seat, card=card, closed=action.closed)
    remaining = tuple(c for c in hand if c != card)
    hands = mao.hands[:seat] + (remaining,) + mao.hands[seat + 1 :]
    table = (*mao.table, Played(seat=seat, card=card, closed=action.closed))
    if len(table) < SEATS:
        nxt = (seat + 1) % SEATS
        mao = mao._replace(hands=hands, table=table, turn=nxt, bet_this_turn=False)
        return events.step(partida._replace(mao=mao, deadline=events.at + TURN_MS))
    rodada = _rodada_result(table, mao.vira if partida.rules.manilha != FIXED else None)
    mao = mao._replace(hands=hands, table=(), rodadas=(*mao.rodadas, rodada))
    outcome = mao_outcome(mao.rodadas)
    if outcome is None:
        mao = mao._replace(opener=rodada.next_opener, turn=rodada.next_opener, bet_this_turn=False)
        return events.step(partida._replace(mao=mao, deadline=events.at + TURN_MS))
    winner, tied = outcome
    if tied:
        return _mao_finished(partida._replace(mao=mao), Entry(to=None, points=None, how="played"), events, seed)
    return _mao_finished(partida._replace(mao=mao), Entry(to=winner, points=mao.value, how="played"), events, seed)


def _rodada_result(table: tuple[Played, ...], vira: str | None) -> Rodada:
    """Who won a rodada and who opens the next (DOMAIN §9.1; 004 "Empates", "Jogar fechado").

    The highest open card wins; equal top cards of one dupla win for it (the partner who played last opens);
    of both duplas, the rodada ties (cangou) and whoever played the last card equal to the top opens. A closed
    card never wins; four closed cards tie, and the last to play opens."""
    strength = strengths(vira)
    top = -1
    for played in table:
        if not played.closed:
            top = max(top, strength[played.card])
    if top < 0:
        return Rodada(cards=table, winner=None, next_opener=table[-1].seat)
    best = [p for p in table if not p.closed and strength[p.card] == top]
    duplas = {dupla_of(p.seat) for p in best}
    winner = duplas.pop() if len(duplas) == 1 else None
    return Rodada(cards=table, winner=winner, next_opener=best[-1].seat)


def mao_outcome(rodadas: tuple[Rodada, ...]) -> tuple[int | None, bool] | None:
    """Whether the rodadas so far end the mão: None (play on), else (winner dupla, tied).

    Two rodadas won end it; the 1st tied → the next untied rodada decides; the 2nd or 3rd tied → the winner
    of the 1st; all three tied → nobody scores."""
    results = [r.winner for r in rodadas]
    wins = [results.count(0), results.count(1)]
    for dupla in (0, 1):
        if wins[dupla] == 2:
            return dupla, False
    first = results[0]
    if first is None:
        for later in results[1:]:
            if later is not None:
                return later, False
        return (None, True) if len(results) == 3 else None
    if len(results) >= 2 and results[1] is None:
        return first, False
    if len(results) == 3:
        return (first if results[2] is None else results[2]), False
    return None


def _ask(partida: Partida, seat: int, events: _Events) -> Step | Refusal:
    mao = partida.mao
    if partida.phase != PLAY or seat != mao.turn:
        return _not_your_turn(partida, seat)
    if mao.kind == MAO_DE_ONZE:
        return Refusal("mao-de-onze", _("Mão de 11: não é permitido pedir truco nem aumentar a aposta"))
    if mao.kind == MAO_DE_FERRO:
        return Refusal("mao-de-ferro", _("Mão de ferro: não é permitido pedir truco nem aumentar a aposta"))
    if mao.bet_this_turn:
        return Refusal(
            "alternancia",
            _("Apostas: depois de aceitar um aumento você não pode aumentar de novo na mesma vez; jogue sua carta"),
        )
    if mao.value >= LEVELS[-1]:
        return Refusal("aposta", _("Apostas: a mão já vale 12, o maior valor"))
    if mao.value_by == dupla_of(seat):
        return Refusal(
            "alternancia",
            _(
                "Apostas: a aposta em vigor é da sua dupla; só depois que a outra dupla aumentar vocês podem "
                "aumentar de novo"
            ),
        )
    level = next_level(mao.value)
    bet = Bet(level=level, asker=seat, answerer=(seat + 1) % SEATS, is_raise=False)
    events.add("bet", seat, level=level)
    mao = mao._replace(bet=bet, bet_this_turn=True)
    return events.step(partida._replace(mao=mao, phase=ANSWER, deadline=events.at + ANSWER_MS))


def _answer(partida: Partida, seat: int, action: AnswerBet, events: _Events, seed: bytes | None) -> Step | Refusal:
    mao = partida.mao
    bet = mao.bet
    if partida.phase != ANSWER or bet is None:
        if partida.phase == PLAY:
            return Refusal("aposta", _("não há pedido de aposta para responder"))
        return _not_your_turn(partida, seat)
    if seat != bet.answerer:
        return Refusal("aposta", _("Apostas: quem responde é o adversário à direita de quem pediu, pela dupla dele"))
    if action.accept is True:
        events.add("answer", seat, accept=True)
        mao = mao._replace(value=bet.level, value_by=dupla_of(bet.asker), bet=None)
        return events.step(partida._replace(mao=mao, phase=PLAY, deadline=events.at + TURN_MS))
    if action.accept is False:
        events.add("answer", seat, accept=False)
        entry = Entry(to=dupla_of(bet.asker), points=previous_level(bet.level), how="ran")
        return _mao_finished(partida, entry, events, seed)
    if bet.level >= LEVELS[-1]:
        return Refusal("aposta", _("Apostas: o pedido já é de 12, o maior valor; aceite ou corra"))
    level = next_level(bet.level)
    events.add("answer", seat, accept="raise", level=level)
    mao = mao._replace(bet=Bet(level=level, asker=seat, answerer=bet.asker, is_raise=True))
    return events.step(partida._replace(mao=mao, deadline=events.at + RAISE_ANSWER_MS))


def _decide_onze(
    partida: Partida, seat: int, action: DecideOnze, events: _Events, seed: bytes | None
) -> Step | Refusal:
    on_eleven = onze_dupla(partida)
    if partida.phase != ONZE or on_eleven is None:
        return Refusal("mao-de-onze", _("Mão de 11: não há decisão de mão de onze esperando"))
    if dupla_of(seat) != on_eleven:
        return Refusal("mao-de-onze", _("Mão de 11: quem decide é a dupla que está com 11 pontos"))
    events.add("onze", seat, play=action.play)
    if not action.play:
        return _mao_finished(partida, Entry(to=1 - on_eleven, points=1, how="refused"), events, seed)
    return events.step(partida._replace(phase=PLAY, deadline=events.at + TURN_MS))


def _vote(partida: Partida, seat: int, action: CastVote, events: _Events) -> Step | Refusal:
    vote = partida.vote
    if partida.phase != VOTE or vote is None:
        return Refusal("votacao", _("Extensão de tempo: não há votação aberta"))
    if seat == vote.absent:
        return Refusal("votacao", _("Extensão de tempo: quem está sem tempo não vota"))
    if vote.votes[seat] is not None:
        return Refusal("votacao", _("Extensão de tempo: o seu voto já foi registrado"))
    votes = vote.votes[:seat] + (action.extend,) + vote.votes[seat + 1 :]
    events.add("vote", seat, extend=action.extend)
    partida = partida._replace(vote=vote._replace(votes=votes))
    if votes.count(True) * 2 > SEATS - 1:
        return _vote_decided(partida, True, events)
    if votes.count(False) * 2 > SEATS - 1:
        return _vote_decided(partida, False, events)
    return events.step(partida)


def _vote_decided(partida: Partida, extend: bool, events: _Events) -> Step:
    """The vote's outcome: 35 s more for the absent player, or the partida ends with an abandonment."""
    vote = partida.vote
    assert vote is not None
    events.add("vote_result", vote.absent, extend=extend)
    if extend:
        return events.step(partida._replace(phase=PLAY, vote=None, deadline=events.at + EXTENSION_MS))
    winner = 1 - dupla_of(vote.absent)
    ended = partida._replace(
        phase=ENDED,
        vote=None,
        deadline=None,
        winner=winner,
        ended_by="abandonment",
        abandoned_by=vote.absent,
    )
    return events.step(ended)


def _mao_finished(partida: Partida, entry: Entry, events: _Events, seed: bytes | None) -> Step:
    """Score a finished mão as the súmula would, then end the partida or deal the next mão."""
    mao = partida.mao
    gain, problem = mao_gain(
        score=partida.score, mao=SumulaMao(to=entry.to, points=entry.points, how=entry.how), settings=partida.rules
    )
    if problem is not None or gain is None:  # pragma: no cover - the engine only makes entries the súmula takes
        raise AssertionError(f"the súmula refuses the engine's mão {entry}: {problem}")
    score = (partida.score[0] + gain[0], partida.score[1] + gain[1])
    record = MaoRecord(
        n=mao.n,
        first=mao.first,
        seed=mao.seed,
        commitment=mao.commitment,
        vira=mao.vira,
        dealt=mao.dealt,
        result=entry,
        dealt_at=mao.dealt_at,
        seq_from=mao.seq_from,
        seq_to=events.seq,
    )
    partida = partida._replace(score=score, maos=(*partida.maos, record), vote=None)
    if is_finished(score):
        ended = partida._replace(phase=ENDED, deadline=None, winner=0 if score[0] > score[1] else 1, ended_by="points")
        return events.step(ended)
    if seed is None:
        raise ValueError("a seed is needed to deal the next mão")
    first = (mao.first + 1) % SEATS
    dealt = deal(seed=seed, first=first, with_vira=partida.rules.manilha != FIXED)
    nxt = _mao_from(
        rules=partida.rules,
        n=mao.n + 1,
        first=first,
        score=score,
        dealt=dealt,
        seed=seed,
        now=events.at,
        seq=events.seq,
    )
    return events.step(_mao_opened(partida._replace(mao=nxt), events.at))


def expire(partida: Partida, *, now: int, seed: bytes | None = None) -> Step | None:
    """What the deadline brings once ``now`` reaches it (DOMAIN §9.2), or None when nothing is due.

    A turn not played opens the vote of the other three; an unanswered bet is a run; an undecided mão de onze
    is played (worth 3); a vote that ran out without a majority for more time is an abandonment."""
    if partida.deadline is None or now < partida.deadline:
        return None
    events = _Events(partida, now)
    mao = partida.mao
    if partida.phase == PLAY:
        events.add("expiry", mao.turn, what="turn", then="vote")
        vote = Vote(absent=mao.turn, votes=(None,) * SEATS)
        return events.step(partida._replace(phase=VOTE, vote=vote, deadline=now + VOTE_MS))
    if partida.phase == ANSWER:
        bet = mao.bet
        assert bet is not None
        events.add("expiry", bet.answerer, what="answer", then="ran")
        entry = Entry(to=dupla_of(bet.asker), points=previous_level(bet.level), how="ran")
        return _mao_finished(partida, entry, events, seed)
    if partida.phase == ONZE:
        events.add("expiry", None, what="onze", then="play", dupla=onze_dupla(partida))
        return events.step(partida._replace(phase=PLAY, deadline=now + TURN_MS))
    if partida.phase == VOTE:
        assert partida.vote is not None
        events.add("expiry", None, what="vote", then="abandonment")
        return _vote_decided(partida, False, events)
    return None  # pragma: no cover - no other phase has a deadline


def presence(partida: Partida, seat: int, *, present: bool, now: int) -> Step | None:
    """A seat's connection came or went (absence is not abandonment: the clocks run on); None if unchanged."""
    if partida.phase == ENDED or partida.present[seat] == present:
        return None
    events = _Events(partida, now)
    events.add("presence", seat, present=present)
    flags = partida.present[:seat] + (present,) + partida.present[seat + 1 :]
    return events.step(partida._replace(present=flags))


def suspend(partida: Partida, *, now: int, reason: str) -> Step | Refusal:
    """Stop the table (a referee, a technical problem): the clock keeps the time it had left."""
    if partida.phase in (ENDED, SUSPENDED):
        return Refusal("suspensa", _("a partida não está em andamento"))
    remaining = None if partida.deadline is None else max(0, partida.deadline - now)
    events = _Events(partida, now)
    events.add("suspend", None, reason=reason)
    suspension = Suspension(phase=partida.phase, remaining=remaining, reason=reason)
    return events.step(partida._replace(phase=SUSPENDED, suspension=suspension, deadline=None))


def resume(partida: Partida, *, now: int) -> Step | Refusal:
    """Take the table up again, each clock with the time it had left."""
    suspension = partida.suspension
    if partida.phase != SUSPENDED or suspension is None:
        return Refusal("suspensa", _("a mesa não está suspensa"))
    events = _Events(partida, now)
    events.add("resume", None)
    deadline = None if suspension.remaining is None else now + suspension.remaining
    return events.step(partida._replace(phase=suspension.phase, suspension=None, deadline=deadline))
