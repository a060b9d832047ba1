"""The game log (``truco-online-log``, INTERCHANGE.md "The game log"): written from the engine's own events, and
replayed through the same rules, which rebuilds every state of the partida or says where the log is wrong.

A log lists the partida's mãos; each has its deal (``first``, ``commitment``, ``seed``, ``vira``; with ``seq``
and ``at``, when it was dealt), its events in order and its result as a súmula entry. Replaying starts the
partida from the first deal and feeds every action, expiry and presence change back into ``rules``: a step
the rules refuse, a card not dealt to its seat, a seed that does not match its commitment, an event or a
result the rules do not give, each is refused with its place (``maos[2].events[5]``).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from hashlib import sha256
from typing import Any, Final

from scoring.errors import RuleError, RuleViolation
from scoring.messages import _
from scoring.rules import RuleSettings, settings_build, settings_overrides

from .actions import Event, Refusal, action_from_message
from .deal import SEED_BYTES
from .moments import from_iso, iso
from .rules import Step, apply, expire, partida_start, presence, resume, suspend
from .state import SEATS, Mao, MaoRecord, Partida

FORMAT: Final = "truco-online-log"
VERSION: Final = 1
ACTION_EVENTS: Final = frozenset({"play", "bet", "answer", "onze", "vote"})


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    name: str


def log_build(
    *, partida: Partida, events: Sequence[Event], table: int, number: int, seats: Sequence[Seat]
) -> dict[str, Any]:
    """The log of a partida from its final state and every event the engine gave it (others are ignored).

    An unfinished mão is written only once the partida has ended (an abandonment): its seed stays secret
    while it is being played."""
    maos: list[dict[str, Any]] = []
    for record in partida.maos:
        maos.append(_mao_entry(record, record.result.as_json(), events, record.seq_from, record.seq_to))
    if partida.ended and partida.ended_by == "abandonment":
        mao = partida.mao
        maos.append(_mao_entry(mao, None, events, mao.seq_from, partida.seq))
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "table": table,
        "partida": number,
        "preset": partida.rules.preset,
    }
    overrides = settings_overrides(partida.rules)
    if overrides:
        data["settings"] = overrides
    data.update(
        {
            "seats": [{"seat": s.seat, "name": s.name, "dupla": s.seat % 2} for s in seats],
            "maos": maos,
            "score": list(partida.score),
            "winner": partida.winner,
            "ended_by": partida.ended_by,
        }
    )
    if partida.abandoned_by is not None:
        data["abandoned_by"] = partida.abandoned_by
    return data


def _mao_entry(
    mao: Mao | MaoRecord, result: dict[str, Any] | None, events: Sequence[Event], seq_from: int, seq_to: int
) -> dict[str, Any]:
    return {
        "n": mao.n,
        "first": mao.first,
        "commitment": mao.commitment,
        "seed": mao.seed.hex(),
        "vira": mao.vira,
        "seq": seq_from,
        "at": iso(mao.dealt_at),
        "events": [e.as_log() for e in events if seq_from < e.seq <= seq_to],
        "result": result,
    }


class _Refused(Exception):
    def __init__(self, place: str, message: str) -> None:
        super().__init__(message)
        self.error = RuleError(place, message)


def log_replay(data: Any) -> list[Partida]:
    """Every state of the logged partida, in order (after the first deal, then after each step).

    Raises ``RuleViolation`` with the place of the first problem when the log is not one the rules give."""
    try:
        return _replay(data)
    except _Refused as refused:
        raise RuleViolation([refused.error]) from None


def _need(ok: bool, place: str, message: str) -> None:
    if not ok:
        raise _Refused(place, message)


def _int(value: Any, place: str, low: int, high: int) -> int:
    _need(
        not isinstance(value, bool) and isinstance(value, int) and low <= value <= high,
        place,
        _("deve ser um número inteiro de %(low)s a %(high)s", low=low, high=high),
    )
    return int(value)


def _time(value: Any, place: str) -> int:
    try:
        return from_iso(value)
    except (TypeError, ValueError):
        raise _Refused(place, _("hora inválida: use ISO 8601 com fuso (2026-12-06T20:01:02.120Z)")) from None


def _seed(mao: Mapping[str, Any], place: str) -> bytes:
    text = mao.get("seed")
    if not isinstance(text, str) or len(text) != 64:
        raise _Refused(f"{place}.seed", _("a semente são 32 bytes em hexadecimal"))
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise _Refused(f"{place}.seed", _("a semente são 32 bytes em hexadecimal")) from None
    _need(
        sha256(seed).hexdigest() == mao.get("commitment"),
        f"{place}.seed",
        _("a semente não corresponde ao compromisso publicado (SHA-256 da semente)"),
    )
    return seed


def _rules(data: Mapping[str, Any]) -> RuleSettings:
    rules, errors = settings_build(preset=data.get("preset"), overrides=data.get("settings"))
    if rules is None:
        raise _Refused(errors[0].place, errors[0].message)
    return rules


def _replay(data: Any) -> list[Partida]:
    _need(isinstance(data, Mapping), "", _("o registro deve ser um objeto JSON"))
    _need(data.get("format") == FORMAT, "format", _("o formato deve ser %(format)s", format=FORMAT))
    _need(data.get("version") == VERSION, "version", _("versão %(version)s desconhecida", version=data.get("version")))
    rules = _rules(data)
    maos = data.get("maos")
    _need(isinstance(maos, list) and len(maos) > 0, "maos", _("o registro precisa de ao menos uma mão"))
    entries: list[Mapping[str, Any]] = []
    for i, mao in enumerate(maos):
        _need(isinstance(mao, Mapping), f"maos[{i}]", _("cada mão deve ser um objeto JSON"))
        _need(mao.get("n") == i + 1, f"maos[{i}].n", _("as mãos são numeradas 1, 2, … em ordem"))
        _need(isinstance(mao.get("events"), list), f"maos[{i}].events", _("os eventos devem ser uma lista"))
        entries.append(mao)
    seeds = [_seed(mao, f"maos[{i}]") for i, mao in enumerate(entries)]
    first_mao = entries[0]
    partida = partida_start(
        rules=rules,
        first=_int(first_mao.get("first"), "maos[0].first", 0, SEATS - 1),
        seed=seeds[0],
        now=_time(first_mao.get("at"), "maos[0].at"),
        seq=_int(first_mao.get("seq"), "maos[0].seq", 0, 2**53),
    )
    states = [partida]
    for i, mao in enumerate(entries):
        place = f"maos[{i}]"
        _check_deal(partida, mao, place)
        last = i + 1 == len(entries)
        # the last mão deals none; should its events deal one, the log ends before the partida does
        next_seed = bytes(SEED_BYTES) if last else seeds[i + 1]
        logged: list[Any] = mao["events"]
        j = 0
        while j < len(logged):
            event = logged[j]
            where = f"{place}.events[{j}]"
            _need(isinstance(event, Mapping), where, _("cada evento deve ser um objeto JSON"))
            _need(partida.mao.n == i + 1, where, _("evento depois do fim da mão %(n)s", n=i + 1))
            step = _step(partida, event, where, next_seed)
            for k, produced in enumerate(step.events):
                at = f"{place}.events[{j + k}]"
                _need(
                    j + k < len(logged),
                    at,
                    _("falta o evento %(event)s, que as regras dão aqui", event=_brief(produced.as_log())),
                )
                _need(
                    logged[j + k] == produced.as_log(),
                    at,
                    _(
                        "o registro diz %(logged)s; as regras dão %(rules)s",
                        logged=_brief(logged[j + k]),
                        rules=_brief(produced.as_log()),
                    ),
                )
            partida = step.partida
            _need(not last or partida.mao.n == i + 1, "maos", _("a partida não terminou com estas mãos"))
            states.append(partida)
            j += len(step.events)
        _check_result(partida, mao, i, last=last)
    _check_end(partida, data)
    return states


def _brief(event: Any) -> str:
    text = repr(event)
    return text if len(text) <= 160 else text[:157] + "…"


def _check_deal(partida: Partida, mao: Mapping[str, Any], place: str) -> None:
    dealt = partida.mao
    _need(
        mao.get("first") == dealt.first,
        f"{place}.first",
        _("quem começa esta mão é o assento %(seat)s", seat=dealt.first),
    )
    _need(mao.get("vira") == dealt.vira, f"{place}.vira", _("a semente dá a vira %(vira)s", vira=dealt.vira))
    _need(
        mao.get("seq") == dealt.seq_from,
        f"{place}.seq",
        _("a mão foi dada depois do evento %(seq)s", seq=dealt.seq_from),
    )
    _need(mao.get("at") == iso(dealt.dealt_at), f"{place}.at", _("a mão foi dada em %(at)s", at=iso(dealt.dealt_at)))


def _check_result(partida: Partida, mao: Mapping[str, Any], i: int, *, last: bool) -> None:
    place = f"maos[{i}].result"
    if len(partida.maos) > i:
        expected: dict[str, Any] | None = partida.maos[i].result.as_json()
    elif partida.ended and last:
        expected = None  # the mão an abandonment interrupted
    else:
        raise _Refused(f"maos[{i}].events", _("a mão não terminou com estes eventos"))
    _need(mao.get("result") == expected, place, _("as cartas dão %(result)s", result=repr(expected)))
    _need(last or not partida.ended, f"maos[{i + 1}]", _("a partida já tinha terminado"))


def _check_end(partida: Partida, data: Mapping[str, Any]) -> None:
    _need(partida.ended, "maos", _("a partida não terminou com estas mãos"))
    _need(
        data.get("score") == list(partida.score),
        "score",
        _("as mãos dão %(a)s x %(b)s", a=partida.score[0], b=partida.score[1]),
    )
    _need(data.get("winner") == partida.winner, "winner", _("as mãos dão a vitória à dupla %(d)s", d=partida.winner))
    _need(data.get("ended_by") == partida.ended_by, "ended_by", _("a partida terminou por %(by)s", by=partida.ended_by))
    _need(
        data.get("abandoned_by") == partida.abandoned_by,
        "abandoned_by",
        _("o abandono foi do assento %(seat)s", seat=partida.abandoned_by),
    )


def _step(partida: Partida, event: Mapping[str, Any], where: str, seed: bytes | None) -> Step:
    kind = event.get("type")
    now = _time(event.get("at"), f"{where}.at")
    seat = event.get("seat")
    outcome: Step | Refusal | None
    if kind in ACTION_EVENTS:
        # a mão de ferro's play names the face-down card by its slot; the card it turned out to be follows it
        message = {**event, "card": None} if kind == "play" and event.get("slot") is not None else event
        action = action_from_message(message)
        if isinstance(action, Refusal):
            raise _Refused(where, action.message)
        outcome = apply(partida, _int(seat, f"{where}.seat", 0, SEATS - 1), action, now=now, seed=seed)
    elif kind == "expiry":
        outcome = expire(partida, now=now, seed=seed)
        _need(outcome is not None, where, _("nenhum prazo tinha vencido nesta hora"))
    elif kind == "presence":
        flag = event.get("present")
        _need(isinstance(flag, bool), f"{where}.present", _("deve ser true ou false"))
        outcome = presence(partida, _int(seat, f"{where}.seat", 0, SEATS - 1), present=bool(flag), now=now)
        _need(outcome is not None, where, _("a presença deste assento já era essa"))
    elif kind == "suspend":
        reason = event.get("reason")
        _need(isinstance(reason, str), f"{where}.reason", _("a suspensão precisa de um motivo"))
        outcome = suspend(partida, now=now, reason=str(reason))
    elif kind == "resume":
        outcome = resume(partida, now=now)
    else:
        raise _Refused(where, _("evento %(kind)s fora de lugar ou desconhecido", kind=repr(kind)[:40]))
    if isinstance(outcome, Refusal):
        raise _Refused(where, outcome.message)
    assert outcome is not None
    return outcome
