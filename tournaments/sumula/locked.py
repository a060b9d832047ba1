"""The jogo under its lock, as every súmula write sees it: who writes (``Actor``), what a write answers
(``Written``), the locked jogo and its stored record (``jogo_locked``), the idempotency check and the log of each
write, the via check, and the checks and writes of a result (counted or not, the next jogo, the qualifiers).
The writes themselves are in ``services.py``.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import connections, router
from django.utils.translation import gettext as _

from scoring.jogo import JogoEntry, JogoResult, jogo_evaluate
from scoring.sumula import (
    AWAITING,
    CONFIRMED,
    CONTESTED,
    DECIDED,
    HOMOLOGATED,
    SCHEDULED,
    counts,
    sumula_status,
)
from scoring.tournament import JogoRecord, groups_stage_compute, stage_entrants

from .. import plainsql
from ..models import Dupla, Jogo, Mao, Partida, SumulaEvent, Tournament
from ..refusals import Refused
from ..result_form import Errors, result_read
from ..selectors import tournament_settings, tournament_state_get
from ..services import SIDE, walkover_column
from ..writes import LIVE, write_required
from .commands import ResultBody
from .inputs import REASON_MAX, client_id_read, reason_clean, rule_messages, rule_place, via_read  # noqa: F401
from .records import StoredRecord, answers_of, jogo_lock, jogo_record_locked


@dataclass(frozen=True)
class Actor:
    """Who writes: a staff account (``user``) or a dupla (by its PIN or its private link), and from where."""

    user: User | None = None
    dupla: Dupla | None = None
    method: str = "session"  # session | pin | link | command
    device: str = ""


@dataclass(frozen=True)
class Written:
    """What a write did: ``created`` is False when the write had already been recorded (idempotent retry)."""

    jogo: Jogo
    created: bool = True
    record: StoredRecord | None = None  # the jogo's record as written (entry, partidas, mãos), when the write has it


# --- the locked jogo --------------------------------------------------------------------------------


@dataclass
class LockedJogo:
    tournament: Tournament
    jogo: Jogo
    duplas: tuple[str, str]
    entry: JogoEntry | None
    result: JogoResult | None
    partidas: list[Partida]
    maos: dict[int, list[Mao]]  # partida id -> its mãos in order
    status_before: str = SCHEDULED  # the jogo's status when locked
    stored: dict[str, object] = field(
        default_factory=dict
    )  # the jogo's columns as locked: its save writes only what changed


def jogo_locked(*, tournament: Tournament, key: str) -> LockedJogo:
    jogo = jogo_lock(tournament=tournament, key=key)
    if jogo is None:
        raise Refused.not_found(_("jogo %(key)s não encontrado neste torneio") % {"key": key})
    entry, partidas, maos = jogo_record_locked(jogo=jogo)
    settings = tournament_settings(tournament=tournament)
    result = jogo_evaluate(entry=entry, settings=settings)[0] if entry is not None else None
    return LockedJogo(
        tournament=tournament,
        jogo=jogo,
        duplas=(jogo.dupla_a.key, jogo.dupla_b.key),
        entry=entry,
        result=result,
        partidas=partidas,
        maos=maos,
        status_before=jogo.status,
        stored=jogo_columns(jogo),
    )


def jogo_columns(jogo: Jogo) -> dict[str, object]:
    """The jogo's column values (JSON ones copied: a write may change them in place)."""
    return {
        f.attname: deepcopy(v) if isinstance(v := getattr(jogo, f.attname), (dict, list)) else v for f in _JOGO_FIELDS
    }


_JOGO_FIELDS = [f for f in Jogo._meta.concrete_fields if not f.primary_key]


def already_logged(locked: LockedJogo, client_id: str | None) -> bool:
    """Whether a write with this client-made id was recorded for this jogo (then it is not done again): its
    event (the log keeps the ids of undone mãos too), or a mão that came with that id in a tournament file."""
    if not client_id:
        return False
    return (
        any(m.key == client_id for maos in locked.maos.values() for m in maos)
        or SumulaEvent.objects.filter(jogo=locked.jogo, client_id=client_id).exists()
    )


def event_log(locked: LockedJogo, *, action: str, actor: Actor, client_id: str, data: dict[str, object]) -> bool:
    """Log a write that came with a client-made id, unless one with that id is logged already: False then (a
    retry; nothing is written). One statement, the idempotency check and the log at once: the insert does
    nothing on the (jogo, client_id) unique constraint."""
    jogo = locked.jogo
    event = SumulaEvent(
        jogo=jogo,
        via=jogo.via,
        action=action,
        client_id=client_id,
        user=actor.user if actor.user is not None else None,
        dupla=actor.dupla,
        method=actor.method,
        device=actor.device[:300],
        data=data,
    )
    db = router.db_for_write(SumulaEvent)
    return plainsql.insert(event, db=db, connection=connections[db], unless=("jogo_id", "client_id"))


def via_check(jogo: Jogo, via: int, *, stale: str) -> None:
    """Under the jogo's lock: refuse an answer or a signature for a via that is no longer the súmula's
    (``stale`` says so, with the current via as ``%(via)s``)."""
    if via != jogo.via:
        raise Refused.conflict(stale % {"via": jogo.via})


def jogo_finish(
    locked: LockedJogo,
    *,
    action: str,
    actor: Actor,
    client_id: str | None = None,
    data: dict[str, object] | None = None,
    counted_before: Counted,
    logged: bool = False,
) -> None:
    """Log the action (unless ``logged``: ``event_log`` did), bump the jogo's version (writing only the columns that
    changed), and tell the write when what counts has changed. Only inside the write of a súmula service."""
    write = write_required(what=f"sumula {action}")
    jogo = locked.jogo
    jogo.version += 1
    plainsql.update(
        jogo,
        [f.attname for f in _JOGO_FIELDS if getattr(jogo, f.attname) != locked.stored.get(f.attname)],
        connection=connections[router.db_for_write(Jogo)],
    )
    if not logged:
        SumulaEvent.objects.create(
            jogo=jogo,
            via=jogo.via,
            action=action,
            client_id=client_id,
            user=actor.user if actor.user is not None else None,
            dupla=actor.dupla,
            method=actor.method,
            device=actor.device[:300],
            data=data or {},
        )
    if (locked.status_before == SCHEDULED) != (jogo.status == SCHEDULED):
        write.jogos_started.add(jogo.pk)  # to the table or back: the event's "em andamento" may hinge on it
    if counted_of(jogo) != counted_before:  # what counts changed: standings, bracket, the next knockout jogo
        if write.kind == LIVE:  # it holds the jogo's lock only: the tournament's would now come second
            raise RuntimeError(f"a {action} changed what counts in a live write (jogo {jogo.key})")
        write.jogos_touched([jogo.pk])


# What a jogo makes count (``counted_of``): the via that counts, whether it is signed, whether it is confirmed.
Counted = tuple[int | None, bool, bool]


def counted_of(jogo: Jogo) -> Counted:
    """What this jogo makes count: the via that counts and whether it is signed (pages show both)."""
    return (jogo.counted_via, jogo.status == HOMOLOGATED, jogo.status in (CONFIRMED, HOMOLOGATED))


def status_refresh(locked: LockedJogo, result: JogoResult | None) -> None:
    jogo = locked.jogo
    jogo.status = sumula_status(result=result, answers=answers_of(jogo), signed=jogo.signed_at is not None)
    if counts(jogo.status):
        jogo.counted_via = jogo.via


def result_write(locked: LockedJogo, entry: JogoEntry) -> None:
    """Replace the jogo's record (partidas, mãos, WO, perda do jogo) with ``entry`` (inside a súmula write)."""
    write_required(what="sumula result_write")
    jogo = locked.jogo
    Partida.objects.filter(jogo=jogo).delete()
    jogo.walkover = ""
    if entry.walkover is not None:
        jogo.walkover = walkover_column(entry.walkover)
    jogo.lost_by = SIDE[entry.lost_by] if entry.lost_by is not None else ""
    jogo.penalty_reason = entry.reason if entry.lost_by is not None or entry.walkover is not None else ""
    maos: list[Mao] = []
    for n, p in enumerate(entry.partidas, start=1):
        if p.lost_by is not None:
            Partida.objects.create(
                jogo=jogo, number=n, mode=Partida.PENALTY, lost_by=SIDE[p.lost_by], penalty_reason=p.reason
            )
        elif p.maos is not None:
            row = Partida.objects.create(jogo=jogo, number=n, mode=Partida.MAOS)
            maos += [
                Mao(partida=row, order=k, to=m.to, points=m.points, how=m.how, reason=m.reason, key=m.key)
                for k, m in enumerate(p.maos)
            ]
        else:
            assert p.score is not None  # neither lost nor by mãos: its final score
            Partida.objects.create(jogo=jogo, number=n, mode=Partida.SCORE, score_a=p.score[0], score_b=p.score[1])
    Mao.objects.bulk_create(maos)
    if jogo.entry_order is None:
        result_order(locked)


def result_parse(locked: LockedJogo, data: ResultBody) -> tuple[JogoEntry, JogoResult]:
    """A whole result in the file's form (``partidas``, ``walkover``, ``penalty``), checked by the rules."""
    errors = Errors()
    entry = result_read(data.as_file(), "", locked.duplas, locked.jogo.best_of, errors)
    if errors:
        raise Refused.invalid(*(str(e) for e in errors))
    if entry is None:
        raise Refused.invalid(_("informe o resultado: 'partidas', 'walkover' ou 'penalty'"))
    result, problems = jogo_evaluate(entry=entry, settings=tournament_settings(tournament=locked.tournament))
    if problems:
        raise Refused.invalid(*rule_messages(problems))
    return entry, result


def refuse_if_decided(jogo: Jogo) -> None:
    if jogo.status in DECIDED:
        what = {
            AWAITING: _("o jogo já terminou e aguarda a confirmação das duplas"),
            CONTESTED: _("o jogo já terminou e foi contestado; o árbitro decide"),
            CONFIRMED: _("a súmula já foi confirmada pelas duplas"),
            HOMOLOGATED: _("a súmula já foi homologada"),
        }[jogo.status]
        raise Refused.conflict(what + _("; para mudar o resultado, faça uma correção (nova via)"))


def result_order(locked: LockedJogo) -> None:
    jogo = locked.jogo
    jogo.entry_order = (
        Jogo.objects.filter(tournament_id=jogo.tournament_id)
        .exclude(entry_order=None)
        .order_by("-entry_order")
        .values_list("entry_order", flat=True)
        .first()
        or 0
    ) + 1


def next_jogo_check(locked: LockedJogo, result: JogoResult) -> None:
    """A knockout correction may not change a winner who has already started the next jogo of the bracket."""
    jogo = locked.jogo
    if jogo.group_id is not None or jogo.round is None or locked.result is None:
        return
    if result.winner == locked.result.winner:
        return
    if jogo.third_place:
        return
    later = (
        Jogo.objects.filter(stage_id=jogo.stage_id, round=jogo.round + 1)
        .exclude(status=SCHEDULED)
        .select_related("dupla_a__player1", "dupla_a__player2", "dupla_b__player1", "dupla_b__player2")
    )
    position = (jogo.position + 1) // 2 if jogo.position else None
    started = [j for j in later if j.third_place or j.position == position]
    if started:
        raise Refused.conflict(
            _(
                "a correção muda o vencedor, mas o jogo seguinte da chave (%(a)s x %(b)s) já começou; "
                "fale com a comissão organizadora"
            )
            % {"a": started[0].dupla_a.display_name, "b": started[0].dupla_b.display_name},
        )


def qualifiers_check(locked: LockedJogo, result: JogoResult) -> None:
    """A group correction may not change who qualifies once the knockout drawn from the groups exists: the
    bracket's recorded order would name duplas that no longer qualify."""
    jogo = locked.jogo
    if jogo.group_id is None:
        return
    state = tournament_state_get(tournament=locked.tournament)
    specs = state.stage_specs
    index = next((i for i, s in enumerate(specs) if s.key == jogo.stage.key), None)
    if index is None or index + 1 >= len(specs):
        return
    following = specs[index + 1]
    if following.kind != "knockout" or following.key not in state.recorded_orders:
        return
    stage, pair = specs[index], set(locked.duplas)
    group = jogo.group
    assert group is not None  # a group's jogo (checked above)
    before = [r for r in state.records if r.stage == stage.key]
    after = [r for r in before if not (r.group == group.key and set(r.duplas) == pair)]
    after.append(JogoRecord(stage=stage.key, group=group.key, duplas=locked.duplas, result=result))
    settings = state.settings

    def qualifiers(records: list[JogoRecord]) -> list[str] | None:
        entrants = stage_entrants(
            stage=following, previous=groups_stage_compute(stage=stage, jogos=records, settings=settings)
        )
        return None if entrants is None else sorted(d for d, _group in entrants)

    if qualifiers(before) != qualifiers(after):
        raise Refused.conflict(
            _(
                "a correção muda as duplas classificadas, mas a chave da fase seguinte já foi "
                "sorteada; fale com a comissão organizadora (refazer o sorteio)"
            ),
        )
