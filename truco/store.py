"""A partida as JSON, to keep it between actions (a table's row) and take it up exactly as it was.

``partida_dump`` gives plain JSON values (lists, numbers, strings, null); ``partida_load`` rebuilds the same
partida, equal to the one dumped. The rules are kept by preset and overrides, as the game log keeps them.
"""

from typing import Any

from scoring.rules import settings_build, settings_overrides

from .state import Bet, Entry, Mao, MaoRecord, Partida, Played, Rodada, Suspension, Vote

VERSION = 1


def _played(cards: tuple[Played, ...]) -> list[list[Any]]:
    return [[c.seat, c.card, c.closed] for c in cards]


def _played_back(rows: list[list[Any]]) -> tuple[Played, ...]:
    return tuple(Played(seat=r[0], card=r[1], closed=r[2]) for r in rows)


def _hands(hands: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    return [list(h) for h in hands]


def _hands_back(rows: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(h) for h in rows)


def _entry(entry: Entry) -> list[Any]:
    return [entry.to, entry.points, entry.how]


def partida_dump(partida: Partida) -> dict[str, Any]:
    mao = partida.mao
    return {
        "v": VERSION,
        "preset": partida.rules.preset,
        "settings": settings_overrides(partida.rules),
        "score": list(partida.score),
        "phase": partida.phase,
        "deadline": partida.deadline,
        "vote": None if partida.vote is None else [partida.vote.absent, list(partida.vote.votes)],
        "suspension": (
            None
            if partida.suspension is None
            else [partida.suspension.phase, partida.suspension.remaining, partida.suspension.reason]
        ),
        "seq": partida.seq,
        "present": list(partida.present),
        "maos": [
            [r.n, r.first, r.seed.hex(), r.commitment, r.vira, _hands(r.dealt), _entry(r.result), r.dealt_at]
            + [r.seq_from, r.seq_to]
            for r in partida.maos
        ],
        "winner": partida.winner,
        "ended_by": partida.ended_by,
        "abandoned_by": partida.abandoned_by,
        "mao": {
            "n": mao.n,
            "first": mao.first,
            "kind": mao.kind,
            "seed": mao.seed.hex(),
            "commitment": mao.commitment,
            "vira": mao.vira,
            "dealt": _hands(mao.dealt),
            "hands": _hands(mao.hands),
            "value": mao.value,
            "value_by": mao.value_by,
            "bet": None if mao.bet is None else [mao.bet.level, mao.bet.asker, mao.bet.answerer, mao.bet.is_raise],
            "rodadas": [[_played(r.cards), r.winner, r.next_opener] for r in mao.rodadas],
            "table": _played(mao.table),
            "opener": mao.opener,
            "turn": mao.turn,
            "bet_this_turn": mao.bet_this_turn,
            "dealt_at": mao.dealt_at,
            "seq_from": mao.seq_from,
        },
    }


def partida_load(data: dict[str, Any]) -> Partida:
    """The partida ``partida_dump`` gave ``data`` for; ValueError when ``data`` is not one."""
    if data.get("v") != VERSION:
        raise ValueError(f"stored partida version {data.get('v')!r}")
    rules, errors = settings_build(preset=data["preset"], overrides=data["settings"] or None)
    if rules is None:
        raise ValueError(f"stored partida rules: {errors}")
    m = data["mao"]
    bet = m["bet"]
    mao = Mao(
        n=m["n"],
        first=m["first"],
        kind=m["kind"],
        seed=bytes.fromhex(m["seed"]),
        commitment=m["commitment"],
        vira=m["vira"],
        dealt=_hands_back(m["dealt"]),
        hands=_hands_back(m["hands"]),
        value=m["value"],
        value_by=m["value_by"],
        bet=None if bet is None else Bet(level=bet[0], asker=bet[1], answerer=bet[2], is_raise=bet[3]),
        rodadas=tuple(Rodada(cards=_played_back(r[0]), winner=r[1], next_opener=r[2]) for r in m["rodadas"]),
        table=_played_back(m["table"]),
        opener=m["opener"],
        turn=m["turn"],
        bet_this_turn=m["bet_this_turn"],
        dealt_at=m["dealt_at"],
        seq_from=m["seq_from"],
    )
    vote, suspension = data["vote"], data["suspension"]
    return Partida(
        rules=rules,
        score=(data["score"][0], data["score"][1]),
        mao=mao,
        phase=data["phase"],
        deadline=data["deadline"],
        vote=None if vote is None else Vote(absent=vote[0], votes=tuple(vote[1])),
        suspension=None
        if suspension is None
        else Suspension(phase=suspension[0], remaining=suspension[1], reason=suspension[2]),
        seq=data["seq"],
        present=tuple(data["present"]),
        maos=tuple(
            MaoRecord(
                n=r[0],
                first=r[1],
                seed=bytes.fromhex(r[2]),
                commitment=r[3],
                vira=r[4],
                dealt=_hands_back(r[5]),
                result=Entry(to=r[6][0], points=r[6][1], how=r[6][2]),
                dealt_at=r[7],
                seq_from=r[8],
                seq_to=r[9],
            )
            for r in data["maos"]
        ),
        winner=data["winner"],
        ended_by=data["ended_by"],
        abandoned_by=data["abandoned_by"],
    )
