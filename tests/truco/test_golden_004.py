"""The worked examples and rules of the Truco Online regulation (seeds/004), one test each, through the engine.

Seats A, B, C, D are 0, 1, 2, 3 in the order of play (B to A's right); dupla 0 is A and C, dupla 1 is B and D.
The tables use vira 4♦ unless they say otherwise: the 5s are the manilhas and no hand holds one by accident.
"""

import pytest

from tests.support.truco import KINGS_HANDS, answer, bet, onze, play, plays, refused, step, table
from truco.actions import AnswerBet, AskBet, DecideOnze, PlayCard
from truco.cards import strengths
from truco.rules import ANSWER_MS, RAISE_ANSWER_MS, TURN_MS
from truco.state import ANSWER, ENDED, MAO_DE_FERRO, MAO_DE_ONZE, ONZE, PLAY, Entry
from truco.views import event_view, view

A, B, C, D = 0, 1, 2, 3
KINGS = KINGS_HANDS


# Vira & manilhas ------------------------------------------------------------------------------------------------


def test_vira_6_makes_the_sevens_manilhas_ranked_by_suit():
    s = strengths("6o")
    assert s["7p"] > s["7c"] > s["7e"] > s["7o"] > s["3p"]
    assert s["3p"] == s["3o"] > s["2p"] > s["Ap"] > s["Kp"] > s["Jp"] > s["Qp"] > s["6p"] > s["5p"] > s["4p"]


def test_vira_3_makes_the_fours_manilhas_the_cycle_starting_again():
    s = strengths("3c")
    assert min(s["4p"], s["4c"], s["4e"], s["4o"]) > s["3p"]
    assert s["4p"] > s["4c"] > s["4e"] > s["4o"]


def test_the_fixed_manilhas_of_fenacef_need_no_vira():
    s = strengths(None)
    assert s["4p"] > s["7c"] > s["Ae"] > s["7o"] > s["3p"]
    assert s["4c"] < s["5c"] and s["7p"] == s["7e"] < s["Ap"]


def test_a_manilha_of_the_vira_beats_every_common_card_in_a_rodada():
    p = table(["3p 4p 4c", "7o 4e 5p", "3c 5c 6c", "3e 5e 6e"], vira="6o")
    p = plays(p, "3p 7o 3c 3e")
    assert p.mao.rodadas[0].winner == 1 and p.mao.opener == B


# Apostas: the two worked sequences ------------------------------------------------------------------------------


def test_bate_e_volta_a_truco_b_six_a_nine_b_twelve_a_accepts_and_plays():
    p = table(KINGS)
    p = bet(p, A)
    assert (p.phase, p.mao.bet.level, p.mao.bet.answerer, p.deadline) == (ANSWER, 3, B, 1000 + ANSWER_MS)
    p = answer(p, B, "raise")
    assert (p.mao.bet.level, p.mao.bet.answerer, p.deadline) == (6, A, 1000 + RAISE_ANSWER_MS)
    p = answer(p, A, "raise")
    assert (p.mao.bet.level, p.mao.bet.answerer) == (9, B)
    p = answer(p, B, "raise")
    assert (p.mao.bet.level, p.mao.bet.answerer) == (12, A)
    assert refused(p, A, AnswerBet(accept="raise")).rule == "aposta"
    p = answer(p, A, True)
    assert (p.phase, p.mao.turn, p.mao.value, p.mao.value_by) == (PLAY, A, 12, 1)
    assert refused(p, A, AskBet()).rule in ("alternancia", "aposta")
    p = plays(p, "Kp Kc 2e Ao")
    assert p.mao.rodadas[0].winner == 0 and p.mao.value == 12


def test_esperar_para_aumentar_each_dupla_raises_on_its_own_turn():
    p = table(KINGS)
    p = answer(bet(p, A), B, True)
    assert (p.mao.value, p.mao.value_by, p.mao.turn) == (3, 0, A)
    p = play(p, A, "Kp")
    p = bet(p, B)
    assert (p.mao.bet.level, p.mao.bet.answerer, p.deadline) == (6, C, 1000 + ANSWER_MS)  # over an accepted value
    p = play(answer(p, C, True), B, "Kc")
    p = bet(p, C)
    assert (p.mao.bet.level, p.mao.bet.answerer) == (9, D)
    p = play(answer(p, D, True), C, "Ke")
    p = bet(p, D)
    assert (p.mao.bet.level, p.mao.bet.answerer) == (12, A)
    p = play(answer(p, A, True), D, "Ko")
    assert (p.mao.value, p.mao.value_by) == (12, 1)
    rodada = p.mao.rodadas[0]
    assert rodada.winner is None and rodada.next_opener == D  # four kings: tied, the last king opens


def test_a_dupla_never_raises_over_its_own_standing_bet():
    p = answer(bet(table(KINGS), A), B, True)
    p = plays(p, "Kp Kc")
    assert refused(p, C, AskBet()).rule == "alternancia"  # A's partner: dupla 0's truco stands
    p = play(p, C, "Ke")
    assert bet(p, D).mao.bet.level == 6


def test_after_accepting_a_raise_the_asker_plays_and_its_partner_may_raise_later():
    p = answer(answer(bet(table(KINGS), A), B, "raise"), A, True)
    assert (p.mao.value, p.mao.value_by, p.mao.turn) == (6, 1, A)
    assert refused(p, A, AskBet()).rule == "alternancia"  # 004 Observação 2: not in the same turn
    p = play(p, A, "Kp")
    assert refused(p, B, AskBet()).rule == "alternancia"  # dupla 1's six stands
    p = play(p, B, "Kc")
    assert bet(p, C).mao.bet.level == 9


@pytest.mark.parametrize(
    ("raises", "runner", "to", "points"),
    [(0, B, 0, 1), (1, A, 1, 3), (2, B, 0, 6), (3, A, 1, 9)],
)
def test_running_gives_the_level_before_the_refused_bet(raises, runner, to, points):
    p = bet(table(KINGS), A)
    answerer = B
    for _ in range(raises):
        p = answer(p, answerer, "raise")
        answerer = A if answerer == B else B
    assert answerer == runner
    p = answer(p, runner, False)
    assert p.maos[-1].result == Entry(to=to, points=points, how="ran")
    assert p.score == ((points, 0) if to == 0 else (0, points))
    assert p.mao.n == 2 and p.mao.first == B and p.mao.value == 1 and p.mao.bet is None


def test_a_bet_is_asked_between_rodadas_by_the_one_who_opens_the_next():
    p = plays(table(["Kp 3p 6p", "7c Qc 6c", "4e Qe 6e", "6o Jo 7o"]), "Kp 7c 4e 6o")
    assert p.mao.turn == A and "bet" in view(p, A)["may"]
    assert refused(p, B, AskBet()).rule == "vez"


# Empates (cangar) -----------------------------------------------------------------------------------------------


def test_first_rodada_tied_the_second_decides_and_whoever_tied_opens_it():
    p = plays(table(["Kp 3p 6p", "Kc 7c 6c", "4e Qe 6e", "6o 2o 7o"]), "Kp Kc 4e 6o")
    assert p.mao.rodadas[0].winner is None and p.mao.opener == B
    p = plays(p, "7c Qe 2o 3p")
    assert p.maos[-1].result == Entry(to=0, points=1, how="played") and p.score == (1, 0)


def test_second_rodada_tied_the_winner_of_the_first_takes_the_mao():
    p = plays(table(["Kp 2p 6p", "7c 2c 6c", "4e Qe 6e", "6o Jo 7o"]), "Kp 7c 4e 6o 2p 2c Qe Jo")
    assert [r.winner for r in p.mao.rodadas] == [] and p.score == (1, 0)
    assert p.maos[-1].result == Entry(to=0, points=1, how="played")


def test_third_rodada_tied_the_winner_of_the_first_takes_the_mao():
    p = plays(table(["Kp 4p 2p", "7c Ac 2c", "4e 6e Qe", "6o 7o Jo"]), "Kp 7c 4e 6o 4p Ac 6e 7o")
    assert [r.winner for r in p.mao.rodadas] == [0, 1] and p.mao.opener == B
    p = plays(p, "2c Qe Jo 2p")
    assert p.score == (1, 0)


def test_first_and_second_tied_the_third_decides():
    p = plays(table(["Kp Ap 4p", "Kc Ac 3c", "4e 6e 7e", "6o 7o Qo"]), "Kp Kc 4e 6o Ac 6e 7o Ap")
    assert [r.winner for r in p.mao.rodadas] == [None, None] and p.mao.opener == A
    p = plays(p, "4p 3c 7e Qo")
    assert p.score == (0, 1)


def test_three_tied_rodadas_score_nothing_even_with_truco_accepted_and_nothing_carries_over():
    p = answer(bet(table(["Kp Ap 2p", "Kc Ac 2c", "4e 6e 7e", "6o 7o Qo"]), A), B, True)
    p = plays(p, "Kp Kc 4e 6o Ac 6e 7o Ap 2p 2c 7e Qo")
    assert p.maos[-1].result == Entry(to=None, points=None, how="played")
    assert p.score == (0, 0)
    assert (p.mao.n, p.mao.first, p.mao.value, p.mao.value_by) == (2, B, 1, None)


def test_four_cards_of_one_rank_in_the_first_rodada_tie_and_the_last_opens():
    p = plays(table(KINGS), "Kp Kc Ke Ko")
    assert p.mao.rodadas[0].winner is None and p.mao.opener == D and p.mao.turn == D


def test_equal_top_cards_of_one_dupla_win_for_it_and_the_partner_who_played_last_opens():
    p = plays(table(["Kp 6p 7p", "4c 6c Qc", "Ke 6e Qe", "6o 7o Jo"]), "Kp 4c Ke 6o")
    assert p.mao.rodadas[0].winner == 0 and p.mao.opener == C


# Cartas fechadas ------------------------------------------------------------------------------------------------


def test_no_closed_card_in_the_first_rodada():
    assert refused(table(KINGS), A, PlayCard(card="Kp", closed=True)).rule == "fechada"


def test_four_closed_cards_tie_the_rodada_and_a_tied_second_gives_the_mao_to_the_first_rodada_winner():
    p = plays(table(["Kp 6p 7p", "7c 6c Qc", "4e 6e Qe", "6o 7o Jo"]), "Kp 7c 4e 6o")
    outcome = step(p, A, PlayCard(card="6p", closed=True))
    assert event_view(outcome.events[0], B)["card"] is None and event_view(outcome.events[0], A)["card"] == "6p"
    assert view(outcome.partida, B)["played"][A] == {"card": None, "closed": True}
    assert view(outcome.partida, A)["played"][A] == {"card": "6p", "closed": True}
    assert view(outcome.partida, None)["played"][A] == {"card": None, "closed": True}
    p = plays(outcome.partida, "6c* 6e* 7o*")
    assert p.maos[-1].result == Entry(to=0, points=1, how="played")


def test_first_tied_then_all_closed_in_the_second_the_last_to_play_closed_opens_the_third():
    p = plays(table(["Kp 6p 7p", "Kc 6c Qc", "4e 6e 7e", "6o 7o Jo"]), "Kp Kc 4e 6o 6c* 6e* 7o* 6p*")
    assert [r.winner for r in p.mao.rodadas] == [None, None] and p.mao.opener == A
    p = plays(p, "7p Qc 7e Jo")
    assert p.score == (0, 1)


def test_a_closed_card_never_wins_not_even_the_zap():
    p = plays(table(["Kp 5p 7p", "7c 4c Qc", "4e 6e Qe", "6o 7o Jo"]), "Kp 7c 4e 6o 5p* 4c 6e 7o")
    assert [r.winner for r in p.mao.rodadas] == [0, 1] and p.mao.opener == D
    p = plays(p, "Jo 7p Qc Qe")
    assert p.score == (0, 1)


# Mão de onze -----------------------------------------------------------------------------------------------------


ONZE_HANDS = ["Kp Ap 4p", "3c 2c 3e", "6p 7p Qp", "3o 2o 2e"]


def test_mao_de_onze_partners_see_each_others_cards_while_they_decide_and_nobody_bets():
    p = table(ONZE_HANDS, score=(11, 5))
    assert (p.mao.kind, p.phase, p.mao.value) == (MAO_DE_ONZE, ONZE, 3)
    assert view(p, A)["partner_hand"] == ["6p", "7p", "Qp"] and view(p, C)["partner_hand"] == ["Kp", "Ap", "4p"]
    assert view(p, B)["partner_hand"] is None and view(p, None)["hand"] is None
    assert view(p, A)["may"] == ["onze"] and view(p, B)["may"] == []
    assert refused(p, B, DecideOnze(play=True)).rule == "mao-de-onze"
    p = onze(p, C, True)
    assert view(p, A)["partner_hand"] is None
    assert refused(p, A, AskBet()).rule == "mao-de-onze"
    assert refused(p, A, DecideOnze(play=False)).rule == "mao-de-onze"  # the first decision is final


def test_mao_de_onze_refused_gives_the_other_dupla_one_point():
    p = onze(table(ONZE_HANDS, score=(11, 5)), A, False)
    assert p.maos[-1].result == Entry(to=1, points=1, how="refused") and p.score == (11, 6)


def test_mao_de_onze_accepted_and_lost_gives_the_other_dupla_three():
    p = onze(table(ONZE_HANDS, score=(11, 5)), A, True)
    p = plays(p, "Kp 3c 6p 3o 2o Ap 2c 7p")
    assert p.maos[-1].result == Entry(to=1, points=3, how="played") and p.score == (11, 8)


def test_mao_de_onze_won_ends_the_partida():
    p = onze(table(["3p 2p 4p", "Kc Qc 6c", "3e 7p Qp", "6o 7o 4o"], score=(11, 5)), A, True)
    p = plays(p, "3p Kc 3e 6o 7p 7o 2p Qc")
    assert p.score == (14, 5) and (p.phase, p.winner, p.ended_by) == (ENDED, 0, "points")


def test_mao_de_onze_all_tied_scores_nothing_online_and_three_for_the_other_dupla_in_fenacef():
    hands = ["Kp Ap 2p", "Kc Ac 2c", "6e 6p 6c", "6o Jo Qo"]
    cards = "Kp Kc 6e 6o Ac 6p Jo Ap 2p 2c 6c Qo"
    p = plays(onze(table(hands, score=(11, 5)), A, True), cards)
    assert p.maos[-1].result == Entry(to=None, points=None, how="played") and p.score == (11, 5)
    assert p.mao.kind == MAO_DE_ONZE and p.mao.first == B  # the next mão de onze, from the next seat
    fenacef = table(hands, vira=None, score=(11, 5), preset="fenacef")
    p = plays(onze(fenacef, A, True), cards)
    assert p.score == (11, 8)


def test_eleven_eleven_through_a_mao_de_onze_then_mao_de_ferro():
    p = onze(table(ONZE_HANDS, score=(11, 8)), C, True)
    p = plays(p, "Kp 3c 6p 3o 2o Ap 2c 7p")
    assert p.score == (11, 11) and p.mao.kind == MAO_DE_FERRO and p.phase == PLAY


# Mão de ferro ----------------------------------------------------------------------------------------------------


FERRO_HANDS = ["3p 2p 4p", "Kc Qc 6c", "3e Ap Qp", "6o 7o 4c"]


def test_mao_de_ferro_nobody_sees_their_own_cards_nor_bets_nor_plays_closed():
    p = table(FERRO_HANDS, score=(11, 11))
    assert p.mao.kind == MAO_DE_FERRO and p.mao.value == 1
    for seat in range(4):
        v = view(p, seat)
        assert v["hand"] == [None, None, None] and v["partner_hand"] is None
    assert refused(p, A, AskBet()).rule == "mao-de-ferro"
    assert refused(p, A, PlayCard(card="3p")).rule == "mao-de-ferro"
    outcome = step(p, A, PlayCard(slot=1))
    assert event_view(outcome.events[0], B)["card"] == "2p"  # turned face up as it lands, for everyone
    assert view(outcome.partida, B)["played"][A] == {"card": "2p", "closed": False}
    assert view(outcome.partida, A)["hand"] == [None, None]
    p = outcome.partida
    for _ in range(3):
        p = step(p, p.mao.turn, PlayCard(slot=0)).partida  # Kc, 3e, 6o: the 3 of espadas wins
    assert p.mao.rodadas[0].winner == 0 and p.mao.turn == C
    assert refused(p, C, PlayCard(slot=0, closed=True)).rule == "fechada"


def test_mao_de_ferro_won_wins_the_partida_with_the_presets_value():
    p = table(FERRO_HANDS, score=(11, 11))
    for _ in range(8):  # 3p Kc 3e 6o (dupla 0, C opens), then Ap 7o 2p Qc (dupla 0)
        p = step(p, p.mao.turn, PlayCard(slot=0)).partida
    assert p.score == (12, 11) and p.winner == 0 and p.ended_by == "points"
    p = table(FERRO_HANDS, score=(11, 11), preset="aabb", vira="4o", mao_de_ferro_value=3)
    assert p.mao.value == 3


def test_mao_de_ferro_all_tied_is_played_again_from_the_next_seat():
    p = table(["Kp Ap 2p", "Kc Ac 2c", "6e 6p 6c", "6o Jo Qo"], score=(11, 11))
    for _ in range(3):
        for _seat in range(4):
            p = step(p, p.mao.turn, PlayCard(slot=0)).partida
    assert p.maos[-1].result.to is None and p.score == (11, 11)
    assert p.mao.kind == MAO_DE_FERRO and p.mao.n == 2 and p.mao.first == B


# The partida ----------------------------------------------------------------------------------------------------


def test_the_partida_ends_at_twelve_and_takes_no_action_after():
    p = answer(bet(table(["3p 2p 4p", "Kc Qc 6c", "3e 7p Qp", "6o 7o 4o"], score=(10, 3)), A), B, True)
    p = plays(p, "3p Kc 3e 6o 7p 7o 2p Qc")
    assert p.score == (13, 3) and p.ended and p.winner == 0 and p.deadline is None
    assert refused(p, A, PlayCard(card="4p")).rule == "fim"


def test_each_mao_starts_from_the_seat_to_the_right_of_the_last_first():
    p = answer(bet(table(KINGS, first=D), D), A, False)
    assert (p.mao.first, p.mao.turn, p.mao.opener) == (A, A, A)


def test_out_of_turn_and_unheld_cards_are_refused_and_name_the_rule():
    p = table(KINGS)
    assert refused(p, B, PlayCard(card="Kc")).rule == "vez"
    r = refused(p, A, PlayCard(card="Kc"))
    assert r.rule == "carta" and "K♥" in r.message
    assert refused(p, A, AnswerBet(accept=True)).rule == "aposta"
    assert play(p, A, "Kp").mao.turn == B and play(p, A, "Kp").deadline == 1000 + TURN_MS
