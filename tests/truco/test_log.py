"""The game log: written as the partida goes, replayed exactly, and refused with the place of its problem."""

import copy
import json
import random

import pytest

from scoring.errors import RuleViolation
from tests.support.truco import rules
from truco.actions import PlayCard
from truco.log import Seat, log_build, log_replay
from truco.robots import robots_play
from truco.rules import apply, expire, partida_start

SEATS = [Seat(0, "Ana"), Seat(1, "Bruno"), Seat(2, "Carla"), Seat(3, "Davi")]


def _log(seed: int = 3, preset: str = "online") -> dict:
    partida, events = robots_play(
        rules=rules(preset), levels=["basico"] * 4, rng=random.Random(seed), now=1_765_000_000_000
    )
    return json.loads(json.dumps(log_build(partida=partida, events=events, table=17, number=1, seats=SEATS)))


def _problem(log: dict) -> str:
    with pytest.raises(RuleViolation) as refused:
        log_replay(log)
    return str(refused.value)


def test_the_log_has_the_contracts_shape():
    log = _log()
    assert (log["format"], log["version"], log["table"], log["partida"], log["preset"]) == (
        "truco-online-log",
        1,
        17,
        1,
        "online",
    )
    assert log["seats"][1] == {"seat": 1, "name": "Bruno", "dupla": 1}
    mao = log["maos"][0]
    assert set(mao) >= {"n", "first", "commitment", "seed", "vira", "events", "result"}
    assert mao["n"] == 1 and len(mao["seed"]) == 64 and mao["events"][0]["at"].endswith("Z")
    assert set(mao["events"][0]) >= {"seq", "at", "seat", "type"}
    assert log["ended_by"] == "points" and max(log["score"]) >= 12 and log["winner"] in (0, 1)
    seqs = [e["seq"] for m in log["maos"] for e in m["events"]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert "settings" not in log
    assert log_build(**_args_fenacef())["settings"] == {"mao_de_ferro_value": 3}


def _args_fenacef() -> dict:
    settings = rules("fenacef", mao_de_ferro_value=3)
    partida, events = robots_play(rules=settings, levels=["aleatorio"] * 4, rng=random.Random(1))
    return {"partida": partida, "events": events, "table": 1, "number": 2, "seats": SEATS}


def test_a_log_with_settings_replays_with_them():
    log = json.loads(json.dumps(log_build(**_args_fenacef())))
    assert log_replay(log)[-1].rules.mao_de_ferro_value == 3


def test_a_seed_that_does_not_match_its_commitment_is_refused_with_its_place():
    log = _log()
    log["maos"][2]["seed"] = "00" * 32
    assert _problem(log) == "maos[2].seed: a semente não corresponde ao compromisso publicado (SHA-256 da semente)"


def test_a_card_not_dealt_to_its_seat_is_refused_with_its_place():
    log = _log()
    events = log["maos"][1]["events"]
    j = next(i for i, e in enumerate(events) if e["type"] == "play")
    held = {e["card"] for e in events if e["type"] == "play"}
    events[j]["card"] = next(c for c in ("4p", "4c", "4e", "4o", "5p", "5c") if c not in held)
    assert _problem(log).startswith(f"maos[1].events[{j}]: a carta ")


def test_an_illegal_step_is_refused_with_its_place():
    log = _log()
    events = log["maos"][0]["events"]
    events[0] = {**events[0], "seat": (events[0]["seat"] + 1) % 4}
    assert _problem(log).startswith("maos[0].events[0]: ")


def test_a_result_or_score_the_cards_do_not_give_is_refused():
    log = _log()
    bad = copy.deepcopy(log)
    bad["maos"][0]["result"] = {"to": 1 - (bad["maos"][0]["result"].get("to") or 0), "points": 1, "how": "played"}
    assert _problem(bad).startswith("maos[0].result: ")
    bad = copy.deepcopy(log)
    bad["score"] = [12, 0]
    assert _problem(bad).startswith("score: ")
    bad = copy.deepcopy(log)
    bad["maos"][3]["vira"] = "4p" if bad["maos"][3]["vira"] != "4p" else "4c"
    assert _problem(bad).startswith("maos[3].vira: ")
    bad = copy.deepcopy(log)
    del bad["maos"][-1]
    assert _problem(bad) == "maos: a partida não terminou com estas mãos"


def test_garbage_is_refused_never_a_crash():
    for bad in (
        None,
        [],
        {"format": "x"},
        {"format": "truco-online-log", "version": 1, "preset": "online", "maos": [1]},
    ):
        with pytest.raises(RuleViolation):
            log_replay(bad)
    log = _log()
    log["maos"][0]["events"][0]["at"] = "ontem"
    assert _problem(log) == "maos[0].events[0].at: hora inválida: use ISO 8601 com fuso (2026-12-06T20:01:02.120Z)"


def test_an_abandoned_partida_logs_the_interrupted_mao_without_a_result():
    settings = rules("online")
    partida = partida_start(rules=settings, first=0, seed=bytes(32), now=0)
    events = []
    step = expire(partida, now=35_000, seed=bytes(32))
    events += step.events
    step = expire(step.partida, now=70_000, seed=bytes(32))
    events += step.events
    log = json.loads(json.dumps(log_build(partida=step.partida, events=events, table=1, number=1, seats=SEATS)))
    assert (log["ended_by"], log["abandoned_by"], log["winner"], log["maos"][0]["result"]) == (
        "abandonment",
        0,
        1,
        None,
    )
    assert [e["type"] for e in log["maos"][0]["events"]] == ["expiry", "expiry", "vote_result"]
    assert log_replay(log)[-1] == step.partida
    assert apply(step.partida, 0, PlayCard(card=step.partida.mao.hands[0][0]), now=80_000).rule == "fim"
