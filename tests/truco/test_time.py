"""Time as input (DOMAIN §9.2): the engine keeps deadlines, is told the time, and applies each expiry's
consequence; nothing else is ever played for a player."""

from tests.support.truco import KINGS_HANDS, answer, bet, onze, play, refused, step, table, vote
from truco.actions import CastVote, PlayCard
from truco.rules import (
    ANSWER_MS,
    EXTENSION_MS,
    ONZE_MS,
    RAISE_ANSWER_MS,
    TURN_MS,
    VOTE_MS,
    expire,
    presence,
    resume,
    suspend,
)
from truco.state import ENDED, ONZE, PLAY, SUSPENDED, VOTE, Entry
from truco.views import view

A, B, C, D = 0, 1, 2, 3
T0 = 0


def _expired(p, now):
    outcome = expire(p, now=now, seed=bytes(32))
    assert outcome is not None
    return outcome


def test_nothing_expires_before_the_deadline_and_the_clock_is_never_read():
    p = table(KINGS_HANDS)
    assert p.deadline == T0 + TURN_MS
    assert expire(p, now=TURN_MS - 1) is None
    assert view(p, A)["deadline"] == "1970-01-01T00:00:35.000Z"


def test_a_turn_not_played_opens_the_vote_of_the_other_three_and_the_absent_cannot_play():
    p = table(KINGS_HANDS)
    outcome = _expired(p, TURN_MS + 120)
    p = outcome.partida
    assert [(e.type, e.seat, e.detail) for e in outcome.events] == [("expiry", A, {"what": "turn", "then": "vote"})]
    assert (p.phase, p.vote.absent, p.deadline) == (VOTE, A, TURN_MS + 120 + VOTE_MS)
    assert refused(p, A, PlayCard(card="Kp"), now=TURN_MS + 200).rule == "votacao"
    assert refused(p, A, CastVote(extend=True), now=TURN_MS + 200).rule == "votacao"
    assert [view(p, s)["may"] for s in range(4)] == [[], ["vote"], ["vote"], ["vote"]]


def test_a_majority_yes_gives_35_seconds_more_as_often_as_needed():
    p = _expired(table(KINGS_HANDS), TURN_MS).partida
    now = TURN_MS + 1000
    p = vote(p, B, True, now=now)
    assert p.phase == VOTE and refused(p, B, CastVote(extend=False), now=now).rule == "votacao"
    outcome = step(p, C, CastVote(extend=True), now=now)
    assert [e.type for e in outcome.events] == ["vote", "vote_result"]
    assert outcome.events[1].seat == A and outcome.events[1].detail == {"extend": True}
    p = outcome.partida
    assert (p.phase, p.mao.turn, p.deadline, p.vote) == (PLAY, A, now + EXTENSION_MS, None)
    p = _expired(p, now + EXTENSION_MS).partida  # again
    assert p.phase == VOTE
    p = vote(vote(p, D, True, now=now + EXTENSION_MS + 1), B, True, now=now + EXTENSION_MS + 1)
    assert play(p, A, "Kp", now=now + EXTENSION_MS + 2).mao.turn == B


def test_a_majority_no_ends_the_partida_with_an_abandonment():
    p = _expired(table(KINGS_HANDS, score=(7, 4)), TURN_MS).partida
    p = vote(vote(p, C, False, now=TURN_MS + 1), B, False, now=TURN_MS + 1)
    assert (p.phase, p.ended_by, p.abandoned_by, p.winner, p.score) == (ENDED, "abandonment", A, 1, (7, 4))


def test_silence_counts_as_no():
    p = _expired(table(KINGS_HANDS), TURN_MS).partida
    p = vote(p, B, True, now=TURN_MS + 1)
    outcome = _expired(p, TURN_MS + VOTE_MS)
    assert [e.type for e in outcome.events] == ["expiry", "vote_result"]
    assert outcome.events[1].detail == {"extend": False}
    assert (outcome.partida.ended_by, outcome.partida.abandoned_by, outcome.partida.winner) == ("abandonment", A, 1)


def test_an_unanswered_truco_is_a_run():
    p = bet(table(KINGS_HANDS), A, now=5000)
    assert p.deadline == 5000 + ANSWER_MS
    outcome = _expired(p, 5000 + ANSWER_MS)
    assert outcome.events[0].detail == {"what": "answer", "then": "ran"} and outcome.events[0].seat == B
    assert outcome.partida.maos[-1].result == Entry(to=0, points=1, how="ran")


def test_an_unanswered_raise_is_a_run_from_the_raise_after_30_seconds():
    p = answer(bet(table(KINGS_HANDS), A, now=5000), B, "raise", now=6000)
    assert p.deadline == 6000 + RAISE_ANSWER_MS
    p = _expired(p, 6000 + RAISE_ANSWER_MS).partida
    assert p.maos[-1].result == Entry(to=1, points=3, how="ran") and p.score == (0, 3)


def test_an_undecided_mao_de_onze_is_played_for_three():
    p = table(["Kp Ap 4p", "3c 2c 3e", "6p 7p Qp", "3o 2o 2e"], score=(5, 11))
    assert (p.phase, p.deadline) == (ONZE, ONZE_MS)
    outcome = _expired(p, ONZE_MS)
    assert outcome.events[0].detail == {"what": "onze", "then": "play", "dupla": 1}
    assert (outcome.partida.phase, outcome.partida.mao.value, outcome.partida.mao.turn) == (PLAY, 3, A)


def test_a_late_action_is_refused_and_changes_nothing():
    p = table(KINGS_HANDS)
    assert refused(p, A, PlayCard(card="Kp"), now=TURN_MS).rule == "tempo"
    assert onze(table(["Kp Ap 4p", "3c 2c 3e", "6p 7p Qp", "3o 2o 2e"], score=(11, 0)), A, True, now=ONZE_MS - 1)


def test_absence_is_not_abandonment_the_clocks_run_on_and_a_return_in_time_plays():
    p = table(KINGS_HANDS)
    away = presence(p, A, present=False, now=1000)
    assert away.events[0].type == "presence" and away.partida.deadline == p.deadline
    assert view(away.partida, B)["present"] == [False, True, True, True]
    assert presence(away.partida, A, present=False, now=1001) is None
    back = presence(away.partida, A, present=True, now=2000).partida
    assert play(back, A, "Kp", now=3000).mao.turn == B


def test_a_suspended_table_stops_its_clock_and_resumes_with_the_time_left():
    p = table(KINGS_HANDS)
    stopped = suspend(p, now=10_000, reason="queda de energia")
    assert stopped.partida.phase == SUSPENDED and stopped.partida.deadline is None
    assert expire(stopped.partida, now=10**9) is None
    assert refused(stopped.partida, A, PlayCard(card="Kp"), now=20_000).rule == "suspensa"
    assert view(stopped.partida, B)["suspended"] == "queda de energia"
    resumed = resume(stopped.partida, now=500_000).partida
    assert resumed.phase == PLAY and resumed.deadline == 500_000 + TURN_MS - 10_000
