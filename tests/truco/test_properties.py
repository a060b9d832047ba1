"""Properties of the engine over random play (hypothesis): people who play legally, time out, leave and come back,
and sometimes send what the rules refuse."""

import json
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.jogo import JogoEntry, PartidaEntry, jogo_evaluate
from scoring.partida import Mao as SumulaMao
from scoring.partida import mao_gain
from tests.support.truco import Walk, random_walk
from truco.actions import Refusal
from truco.log import Seat, log_build, log_replay
from truco.state import ANSWER, MAO_DE_FERRO, ONZE, PLAY, VOTE, Partida, dupla_of
from truco.store import partida_dump, partida_load
from truco.views import event_view, view

SEEDS = st.integers(min_value=0, max_value=2**64)
PRESETS = st.sampled_from([("online", {}), ("fenacef", {}), ("aabb", {}), ("aabb", {"mao_de_ferro_value": 3})])
PATIENCE = st.sampled_from([0.9, 0.97, 0.995])
# Where a partida starts: 0 x 0, or near its end, where the mão de onze and the mão de ferro are.
SCORES = st.one_of(
    st.just((0, 0)),
    st.tuples(st.integers(0, 11), st.integers(0, 11)),
    st.sampled_from([(11, 11), (11, 10), (9, 11)]),
)
CARD = re.compile(r'"([4567QJKA23][pceo])"')


def _walk(
    seed: int, preset: tuple[str, dict], patience: float = 0.97, score: tuple[int, int] = (0, 0)
) -> tuple[Partida, list[Walk]]:
    steps: list[Walk] = []
    first: Partida | None = None
    for item in random_walk(random.Random(seed), preset=preset[0], patience=patience, score=score, **preset[1]):
        if isinstance(item, Refusal):
            assert item.message and item.rule
            continue
        first = first or item.before
        steps.append(item)
    assert first is not None
    return first, steps


def _cards_check(p: Partida) -> None:
    mao = p.mao
    dealt = [card for hand in mao.dealt for card in hand]
    assert len(dealt) == 12 and all(len(hand) == 3 for hand in mao.dealt)
    assert len(set(dealt + ([mao.vira] if mao.vira else []))) == len(dealt) + (1 if mao.vira else 0)
    played = [c for r in mao.rodadas for c in r.cards] + list(mao.table)
    for c in played:
        assert c.card in mao.dealt[c.seat], "a card played by a seat it was not dealt to"
    held = Counter(card for hand in mao.hands for card in hand)
    assert held + Counter(c.card for c in played) == Counter(dealt), "a card lost, doubled or played twice"
    for seat, hand in enumerate(mao.hands):
        assert set(hand) <= set(mao.dealt[seat])


def _score_check(step: Walk) -> None:
    before, after = step.before, step.after
    if len(after.maos) == len(before.maos):
        assert after.score == before.score
        return
    assert len(after.maos) == len(before.maos) + 1
    entry = after.maos[-1].result
    gain, problem = mao_gain(
        score=before.score, mao=SumulaMao(to=entry.to, points=entry.points, how=entry.how), settings=before.rules
    )
    assert problem is None and gain is not None
    assert after.score == (before.score[0] + gain[0], before.score[1] + gain[1])
    mao = before.mao
    if entry.how == "ran":
        assert mao.bet is not None and entry.to == dupla_of(mao.bet.asker)
        assert entry.points == {3: 1, 6: 3, 9: 6, 12: 9}[mao.bet.level]
    elif entry.how == "refused":
        assert before.phase == ONZE and entry.points == 1 and before.score[1 - entry.to] == 11
    elif entry.to is not None:
        assert entry.points == mao.value


def _bet_check(step: Walk) -> None:
    for event in step.events:
        if event.type == "bet":
            assert step.before.mao.value_by != dupla_of(event.seat), "a dupla raised over its own standing bet"
            assert step.before.mao.kind == "normal"
        if event.type == "answer" and event.detail["accept"] == "raise":
            assert dupla_of(event.seat) != dupla_of(step.before.mao.bet.asker)


def _expiry_check(step: Walk) -> None:
    if step.kind != "expiry":
        return
    before, after = step.before, step.after
    assert after.seq > before.seq and step.events[0].type == "expiry"
    if before.phase == PLAY:
        assert after.phase == VOTE and after.vote.absent == before.mao.turn
    elif before.phase == ANSWER:
        assert after.maos[-1].result.how == "ran"
    elif before.phase == ONZE:
        assert after.phase == PLAY and after.mao.value == 3 and after.maos == before.maos
    else:
        assert before.phase == VOTE and after.ended_by == "abandonment"
        assert after.abandoned_by == before.vote.absent and after.winner == 1 - dupla_of(before.vote.absent)


def _nothing_played_for_a_player(step: Walk) -> None:
    """Only the expiries play for someone: a run (an unanswered bet) and a mão de onze played; never a card."""
    if step.kind == "expiry":
        assert not any(e.type == "play" for e in step.events)


@settings(max_examples=150)
@given(seed=SEEDS, preset=PRESETS, patience=PATIENCE, score=SCORES)
def test_random_play_keeps_every_rule(seed, preset, patience, score):
    first, steps = _walk(seed, preset, patience, score)
    _cards_check(first)
    seqs = [e.seq for s in steps for e in s.events]
    assert seqs == list(range(1, len(seqs) + 1)), "events numbered one by one"
    for s in steps:
        _cards_check(s.after)
        _score_check(s)
        _bet_check(s)
        _expiry_check(s)
        _nothing_played_for_a_player(s)
    last = steps[-1].after
    assert last.ended and (last.ended_by == "abandonment" or max(last.score) >= 12)


@settings(max_examples=80)
@given(seed=SEEDS, preset=PRESETS, patience=PATIENCE)
def test_replaying_the_log_rebuilds_every_state(seed, preset, patience):
    first, steps = _walk(seed, preset, patience)
    last = steps[-1].after
    events = [e for s in steps for e in s.events]
    log = log_build(partida=last, events=events, table=9, number=1, seats=[Seat(s, f"J{s}") for s in range(4)])
    log = json.loads(json.dumps(log))  # as it is served and read back
    assert log_replay(log) == [first] + [s.after for s in steps]


@settings(max_examples=80)
@given(seeds=st.lists(SEEDS, min_size=1, max_size=5), preset=PRESETS)
def test_every_mao_and_partida_is_a_sumula_the_sumula_accepts(seeds, preset):
    """A jogo of the engine's partidas, written as súmula entries (abandonments as a perda da partida)."""
    partidas = []
    for seed in seeds:
        _, steps = _walk(seed, preset, patience=0.99)
        partidas.append(steps[-1].after)
    entries = []
    for p in partidas:
        if p.ended_by == "abandonment":
            entries.append(PartidaEntry(lost_by=dupla_of(p.abandoned_by), reason="abandono"))
        else:
            maos = tuple(SumulaMao(to=e.to, points=e.points, how=e.how) for e in p.entries())
            entries.append(PartidaEntry(maos=maos))
    wins = [0, 0]
    played = []
    for p, entry in zip(partidas, entries, strict=True):
        played.append(entry)
        wins[p.winner] += 1
        if max(wins) == 3:
            break
    result, errors = jogo_evaluate(entry=JogoEntry(best_of=5, partidas=tuple(played)), settings=partidas[0].rules)
    assert errors == []
    for p, score in zip(partidas, result.partidas, strict=False):
        assert score.winner == p.winner
        if p.ended_by == "points":
            assert score.score == p.score


def _allowed(p: Partida, seat: int | None) -> set[str]:
    """Every card ``seat`` may see in the partida as it stands (DOMAIN §9.3)."""
    mao = p.mao
    seen = {mao.vira} if mao.vira else set()
    for played in [c for r in mao.rodadas for c in r.cards] + list(mao.table):
        if not played.closed or played.seat == seat:
            seen.add(played.card)
    if seat is not None and mao.kind != MAO_DE_FERRO:
        seen.update(mao.hands[seat])
        if p.phase == ONZE and p.score[dupla_of(seat)] == 11:
            seen.update(mao.hands[(seat + 2) % 4])
    return seen


def test_no_view_ever_holds_a_card_its_seat_may_not_see_over_thousands_of_partidas():
    rng = random.Random(20261206)
    presets = [("online", {}), ("fenacef", {}), ("aabb", {})]
    views = 0
    for n in range(2000):
        preset = presets[n % 3]
        score = (0, 0) if n % 2 else (rng.randrange(12), rng.randrange(12))
        walk = random_walk(
            random.Random(rng.getrandbits(64)), preset=preset[0], patience=0.97, score=score, **preset[1]
        )
        for item in walk:
            if isinstance(item, Refusal):
                continue
            p = item.after
            secret = p.mao.seed.hex()
            for seat in (0, 1, 2, 3, None):
                text = json.dumps(view(p, seat))
                assert set(CARD.findall(text)) <= _allowed(p, seat), (seat, text)
                assert p.ended or secret not in text
                for event in item.events:
                    shown = event_view(event, seat)
                    if shown.get("card") is not None:  # an open card, or the seat's own closed one
                        assert not event.detail["closed"] or event.seat == seat
                views += 1
    assert views > 200_000


@settings(max_examples=60)
@given(seed=SEEDS, preset=PRESETS, score=SCORES)
def test_a_stored_partida_is_taken_up_exactly_as_it_was(seed, preset, score):
    first, steps = _walk(seed, preset, 0.97, score)
    for p in [first] + [s.after for s in steps]:
        assert partida_load(json.loads(json.dumps(partida_dump(p)))) == p
