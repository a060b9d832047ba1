"""Writes to a súmula: mãos, undo, the whole result, confirmations, signature, corrections (new vias).

Every write goes through the one write path (``writes.tournament_write``):
it locks its jogo's row (``records.jogo_lock``: SELECT … FOR UPDATE), checks the new record with
``scoring`` on that jogo alone, writes, logs one ``SumulaEvent`` and bumps
the jogo's ``version`` (the live pages follow it). A mão, its undo, a whole
result or a penalty never changes what counts: they are ``LIVE`` writes,
which lock the jogo only, so mãos of different jogos never wait on one row.
An answer, a signature or a correction may make a result count: they lock
the tournament's row first (``RESULTS`` writes), and when what counts
changed the engine recomputes the parts that jogo touches. A refused write
raises ``Refused`` (``tournaments.refusals``) and writes nothing.

A mão is the event's busiest write (every referee's phone, every mão): its
queries are plain SQL (``tournaments.plainsql``), its log's insert is its
idempotency check, and ``tests/api/test_sumula_api.py`` counts its queries.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field, replace

from django.db import connections, router
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.jogo import JogoEntry, JogoResult, PartidaEntry, jogo_evaluate
from scoring.partida import Mao as MaoRecord
from scoring.sumula import (
    ACCEPTED,
    AWAITING,
    CONFIRMED,
    CONTEST,
    CONTESTED,
    DECIDED,
    HOMOLOGATED,
    IN_PROGRESS,
    SCHEDULED,
    counts,
    sumula_status,
)
from scoring.tournament import JogoRecord, groups_stage_compute, stage_entrants

from .. import plainsql
from ..models import Dupla, Jogo, Mao, Partida, SumulaEvent, SumulaVia, Tournament
from ..permissions import may_answer_sumula, role_of
from ..refusals import Refused
from ..result_form import Errors, result_dict, result_read
from ..selectors import tournament_settings, tournament_state_get
from ..services import SIDE
from ..writes import LIVE, RESULTS, tournament_write, write_current
from .commands import Correction, MaoAdd, Penalty, ResultBody, ResultSet
from .inputs import REASON_MAX, client_id_read, reason_clean, rule_messages, rule_place, via_read  # noqa: F401
from .records import answers_of, jogo_lock, jogo_record_load, mao_id


@dataclass(frozen=True)
class Actor:
    """Who writes: a staff account (``user``) or a dupla (by its PIN or its private link), and from where."""

    user: object | None = None
    dupla: Dupla | None = None
    method: str = "session"  # session | pin | link | command
    device: str = ""


@dataclass(frozen=True)
class Written:
    """What a write did: ``created`` is False when the write had already been recorded (idempotent retry)."""

    jogo: Jogo
    created: bool = True
    record: tuple | None = None  # the jogo's record as written (entry, partidas, mãos), when the write has it


# --- the locked jogo --------------------------------------------------------------------------------


@dataclass
class _Locked:
    tournament: Tournament
    jogo: Jogo
    duplas: tuple[str, str]
    entry: JogoEntry | None
    result: JogoResult | None
    partidas: list[Partida]
    maos: dict[int, list[Mao]]  # partida id -> its mãos in order
    status_before: str = SCHEDULED  # the jogo's status when locked
    stored: dict = field(default_factory=dict)  # the jogo's columns as locked: its save writes only what changed


def _lock(*, tournament: Tournament, key: str) -> _Locked:
    jogo = jogo_lock(tournament=tournament, key=key)
    if jogo is None:
        raise Refused.not_found(_("jogo %(key)s não encontrado neste torneio") % {"key": key})
    entry, partidas, maos = jogo_record_load(jogo=jogo)
    settings = tournament_settings(tournament=tournament)
    result = jogo_evaluate(entry=entry, settings=settings)[0] if entry is not None else None
    return _Locked(
        tournament=tournament,
        jogo=jogo,
        duplas=(jogo.dupla_a.key, jogo.dupla_b.key),
        entry=entry,
        result=result,
        partidas=partidas,
        maos=maos,
        status_before=jogo.status,
        stored=_columns(jogo),
    )


def _columns(jogo: Jogo) -> dict:
    """The jogo's column values (JSON ones copied: a write may change them in place)."""
    return {
        f.attname: deepcopy(v) if isinstance(v := getattr(jogo, f.attname), (dict, list)) else v for f in _JOGO_FIELDS
    }


_JOGO_FIELDS = [f for f in Jogo._meta.concrete_fields if not f.primary_key]


def _already(locked: _Locked, client_id: str | None) -> bool:
    """Whether a write with this client-made id was recorded for this jogo (then it is not done again): its
    event (the log keeps the ids of undone mãos too), or a mão that came with that id in a tournament file."""
    if not client_id:
        return False
    return (
        any(m.key == client_id for maos in locked.maos.values() for m in maos)
        or SumulaEvent.objects.filter(jogo=locked.jogo, client_id=client_id).exists()
    )


def _log(locked: _Locked, *, action: str, actor: Actor, client_id: str, data: dict) -> bool:
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


def _via_check(jogo: Jogo, via: int, *, stale: str) -> None:
    """Under the jogo's lock: refuse an answer or a signature for a via that is no longer the súmula's
    (``stale`` says so, with the current via as ``%(via)s``)."""
    if via != jogo.via:
        raise Refused.conflict(stale % {"via": jogo.via})


def _finish(
    locked: _Locked,
    *,
    action: str,
    actor: Actor,
    client_id: str | None = None,
    data: dict | None = None,
    counted_before: tuple,
    logged: bool = False,
) -> None:
    """Log the action (unless ``logged``: ``_log`` did), bump the jogo's version (writing only the columns that
    changed), and tell the write when what counts has changed."""
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
    write = write_current()
    if (locked.status_before == SCHEDULED) != (jogo.status == SCHEDULED):
        write.jogos_started.add(jogo.pk)  # to the table or back: the event's "em andamento" may hinge on it
    if _counted(jogo) != counted_before:  # what counts changed: standings, bracket, the next knockout jogo
        if write.kind == LIVE:  # it holds the jogo's lock only: the tournament's would now come second
            raise RuntimeError(f"a {action} changed what counts in a live write (jogo {jogo.key})")
        write.jogos_touched([jogo.pk])


def _counted(jogo: Jogo) -> tuple:
    """What this jogo makes count: the via that counts and whether it is signed (pages show both)."""
    return (jogo.counted_via, jogo.status == HOMOLOGATED, jogo.status in (CONFIRMED, HOMOLOGATED))


def _restatus(locked: _Locked, result: JogoResult | None) -> None:
    jogo = locked.jogo
    jogo.status = sumula_status(result=result, answers=answers_of(jogo), signed=jogo.signed_at is not None)
    if counts(jogo.status):
        jogo.counted_via = jogo.via


def _result_write(locked: _Locked, entry: JogoEntry) -> None:
    """Replace the jogo's record (partidas, mãos, WO, perda do jogo) with ``entry``."""
    jogo = locked.jogo
    Partida.objects.filter(jogo=jogo).delete()
    jogo.walkover = ""
    if entry.walkover is not None:
        jogo.walkover = "both" if entry.walkover == "both" else SIDE[entry.walkover]
    jogo.lost_by = SIDE[entry.lost_by] if entry.lost_by is not None else ""
    jogo.penalty_reason = entry.reason if entry.lost_by is not None else ""
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
            Partida.objects.create(jogo=jogo, number=n, mode=Partida.SCORE, score_a=p.score[0], score_b=p.score[1])
    Mao.objects.bulk_create(maos)
    if jogo.entry_order is None:
        _result_order(locked)


def _result_parse(locked: _Locked, data: ResultBody) -> tuple[JogoEntry, JogoResult]:
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


def _refuse_if_decided(jogo: Jogo) -> None:
    if jogo.status in DECIDED:
        what = {
            AWAITING: _("o jogo já terminou e aguarda a confirmação das duplas"),
            CONTESTED: _("o jogo já terminou e foi contestado; o árbitro decide"),
            CONFIRMED: _("a súmula já foi confirmada pelas duplas"),
            HOMOLOGATED: _("a súmula já foi homologada"),
        }[jogo.status]
        raise Refused.conflict(what + _("; para mudar o resultado, faça uma correção (nova via)"))


# --- the writes ------------------------------------------------------------------------------------


def sumula_mao_add(*, tournament: Tournament, key: str, mao: MaoAdd, actor: Actor) -> Written:
    """Append a mão to the partida being played (a new partida once the last one reached 12)."""
    client_id = mao.id
    record = MaoRecord(to=mao.to, points=mao.points, how=mao.how, reason=mao.reason, key=client_id)
    with tournament_write(tournament=tournament, action="sumula.mao_add", user=actor.user, kind=LIVE):
        locked = _lock(tournament=tournament, key=key)
        # a retry changes nothing: the answer is the súmula as locked (no need to read it again)
        unchanged = Written(jogo=locked.jogo, created=False, record=(locked.entry, locked.partidas, locked.maos))
        if any(m.key == client_id for maos in locked.maos.values() for m in maos):
            return unchanged  # a mão that came with this id in a tournament file
        try:
            running, new_entry, result = _mao_check(locked, record)
        except Refused:
            if _already(locked, client_id):  # a retry of a mão recorded before the jogo ended
                return unchanged
            raise
        counted_before = _counted(locked.jogo)
        last = locked.partidas[-1] if locked.partidas else None
        number, order = (last.number, len(locked.maos.get(last.pk, []))) if running else (len(locked.partidas) + 1, 0)
        # the log first: when this id is logged already (a retry, even of a mão since undone), nothing is written
        if not _log(
            locked,
            action="mao",
            actor=actor,
            client_id=client_id,
            data={
                "partida": number,
                "mao": order + 1,
                "to": record.to,
                "points": record.points,
                "how": record.how,
                "reason": record.reason,
            },
        ):
            return unchanged
        db = router.db_for_write(Mao)
        if running:
            partida = last
        else:
            partida = Partida(jogo=locked.jogo, number=number, mode=Partida.MAOS)
            plainsql.insert(partida, db=db, connection=connections[db])
        # the jogo's row lock orders every write to this súmula: no other mão can take this order meanwhile
        row = Mao(
            partida=partida,
            order=order,
            to=record.to,
            points=record.points,
            how=record.how,
            reason=record.reason,
            key=client_id,
            scorer=actor.user if actor.user is not None else None,
        )
        plainsql.insert(row, db=db, connection=connections[db])
        if not running:
            locked.partidas.append(partida)
        locked.maos.setdefault(partida.pk, []).append(row)
        if locked.jogo.entry_order is None:
            _result_order(locked)
        _restatus(locked, result)
        _finish(locked, action="mao", actor=actor, counted_before=counted_before, logged=True)
        return Written(jogo=locked.jogo, record=(new_entry, locked.partidas, locked.maos))


def _mao_check(locked: _Locked, record: MaoRecord) -> tuple[bool, JogoEntry, JogoResult]:
    """Whether the mão goes on the partida being played (else it begins the next), and the jogo's record and
    result with it; refuses a mão the súmula cannot take (the jogo decided, the rules)."""
    _refuse_if_decided(locked.jogo)
    if locked.jogo.walkover or locked.jogo.lost_by:
        raise Refused.conflict(_("o jogo foi decidido por WO ou perda do jogo: não há mãos"))
    entry = locked.entry or JogoEntry(best_of=locked.jogo.best_of)
    last = locked.partidas[-1] if locked.partidas else None
    running = (
        last is not None
        and last.mode == Partida.MAOS
        and locked.result is not None
        and len(locked.result.partidas) == len(locked.partidas)
        and not locked.result.partidas[-1].finished
    )
    if running:
        partidas = entry.partidas[:-1] + (replace(entry.partidas[-1], maos=entry.partidas[-1].maos + (record,)),)
    else:
        partidas = entry.partidas + (PartidaEntry(maos=(record,)),)
    new_entry = replace(entry, partidas=partidas)
    result, problems = jogo_evaluate(entry=new_entry, settings=tournament_settings(tournament=locked.tournament))
    if problems:
        raise Refused.invalid(*rule_messages(problems))
    return running, new_entry, result


def _result_order(locked: _Locked) -> None:
    jogo = locked.jogo
    jogo.entry_order = (
        Jogo.objects.filter(tournament_id=jogo.tournament_id)
        .exclude(entry_order=None)
        .order_by("-entry_order")
        .values_list("entry_order", flat=True)
        .first()
        or 0
    ) + 1


def sumula_mao_undo(*, tournament: Tournament, key: str, mao: str, actor: Actor) -> Written:
    """Undo the last mão, while no dupla has answered."""
    with tournament_write(tournament=tournament, action="sumula.mao_undo", user=actor.user, kind=LIVE):
        locked = _lock(tournament=tournament, key=key)
        jogo = locked.jogo
        rows = [(p, m) for p in locked.partidas for m in locked.maos.get(p.pk, [])]
        found = next(((p, m) for p, m in rows if mao_id(partida=p, mao=m) == mao), None)
        if found is None:
            if SumulaEvent.objects.filter(jogo=jogo, action="undo", data__mao_id=mao).exists():
                return Written(jogo=jogo, created=False)  # undone already: a retried undo
            raise Refused.not_found(_("a mão %(id)s não está nesta súmula") % {"id": mao})
        if jogo.status in (CONFIRMED, HOMOLOGATED) or any(answers_of(jogo)):
            raise Refused.conflict(
                _("uma dupla já respondeu à súmula: a mão não pode mais ser desfeita; faça uma correção (nova via)"),
            )
        partida, row = found
        if (partida, row) != rows[-1] or partida.pk != locked.partidas[-1].pk:
            raise Refused.conflict(_("só a última mão pode ser desfeita"))
        counted_before = _counted(jogo)
        row.delete()
        if len(locked.maos.get(partida.pk, [])) == 1:
            partida.delete()
        entry, _partidas, _maos = jogo_record_load(jogo=jogo)
        result = jogo_evaluate(entry=entry, settings=tournament_settings(tournament=tournament))[0] if entry else None
        _restatus(locked, result)
        _finish(
            locked,
            action="undo",
            actor=actor,
            counted_before=counted_before,
            data={"mao_id": mao, "partida": partida.number, "to": row.to, "points": row.points, "how": row.how},
        )
        return Written(jogo=jogo)


def sumula_result_set(*, tournament: Tournament, key: str, data: ResultSet, actor: Actor) -> Written:
    """The whole result at once (quick entry, WO, perda do jogo), while no mão is recorded."""
    client_id = data.id
    with tournament_write(tournament=tournament, action="sumula.result_set", user=actor.user, kind=LIVE):
        locked = _lock(tournament=tournament, key=key)
        if _already(locked, client_id):
            return Written(jogo=locked.jogo, created=False)
        if any(locked.maos.values()):
            raise Refused.conflict(_("a súmula já tem mãos anotadas: desfaça-as ou, depois do jogo, faça uma correção"))
        if any(answers_of(locked.jogo)) or locked.jogo.status in (CONFIRMED, HOMOLOGATED):
            _refuse_if_decided(locked.jogo)
        counted_before = _counted(locked.jogo)
        entry, result = _result_parse(locked, data.result)
        _result_write(locked, entry)
        _restatus(locked, result)
        _finish(
            locked,
            action="result",
            actor=actor,
            client_id=client_id,
            counted_before=counted_before,
            data=result_dict(entry, locked.duplas),
        )
        return Written(jogo=locked.jogo)


def sumula_answer(
    *, tournament: Tournament, key: str, dupla: Dupla, via: int, accept: bool, reason, actor: Actor
) -> Written:
    """A dupla confirms (``accept``) or contests (with a reason) the súmula of its jogo, as it saw it: ``via``
    is the via its screen showed; once the súmula has another via, nothing is answered (a conflict)."""
    via = via_read(via)
    reason = reason_clean(reason, missing=None if accept else _("para contestar, diga o motivo ('reason')"))
    with tournament_write(tournament=tournament, action="sumula.answer", user=actor.user, kind=RESULTS):
        locked = _lock(tournament=tournament, key=key)
        jogo = locked.jogo
        if not may_answer_sumula(dupla=dupla, jogo=jogo):
            raise Refused.forbidden(_("a dupla %(dupla)s não joga este jogo") % {"dupla": dupla.key})
        # checked under the lock: a correction racing this answer either lands first (refused here) or waits
        _via_check(
            jogo,
            via,
            stale=_("a súmula mudou: agora é a via %(via)s; confira o resultado e confirme de novo")
            if accept
            else _("a súmula mudou: agora é a via %(via)s; confira o resultado e conteste de novo, se for o caso"),
        )
        side = "a" if dupla.pk == jogo.dupla_a_id else "b"
        answer = ACCEPTED if accept else CONTEST
        if jogo.status in (SCHEDULED, IN_PROGRESS):
            raise Refused.conflict(
                _("o jogo ainda não terminou: a súmula se confirma quando o resultado estiver completo")
            )
        current = (jogo.confirmations.get(side) or {}).get("answer")
        if jogo.status in (CONFIRMED, HOMOLOGATED):
            if current == answer:
                return Written(jogo=jogo, created=False)
            raise Refused.conflict(
                _("a súmula já foi confirmada pelas duas duplas")
                if jogo.status == CONFIRMED
                else _("a súmula já foi homologada; um recurso vai à comissão organizadora"),
            )
        if current == answer and (jogo.confirmations.get(side) or {}).get("reason", "") == reason:
            return Written(jogo=jogo, created=False)
        counted_before = _counted(jogo)
        jogo.confirmations = dict(jogo.confirmations) | {
            side: {"answer": answer, "reason": reason, "at": timezone.now().isoformat(), "by": actor.method}
        }
        _restatus(locked, locked.result)
        _finish(
            locked,
            action="confirmation" if accept else "contest",
            actor=actor,
            counted_before=counted_before,
            data={"dupla": dupla.key, "reason": reason},
        )
        return Written(jogo=jogo, record=(locked.entry, locked.partidas, locked.maos))  # the record is unchanged


def sumula_sign(*, tournament: Tournament, key: str, via: int, reason, actor: Actor) -> Written:
    """Homologate ``via`` (the via the signer saw): sign the súmula once both duplas confirmed; else the referee
    decides, with a reason. Another via than the súmula's → a conflict, nothing signed."""
    via = via_read(via)
    reason = reason_clean(reason)
    with tournament_write(tournament=tournament, action="sumula.sign", user=actor.user, kind=RESULTS):
        locked = _lock(tournament=tournament, key=key)
        jogo = locked.jogo
        _via_check(jogo, via, stale=_("a súmula mudou: agora é a via %(via)s; confira o resultado e assine de novo"))
        if jogo.status == HOMOLOGATED:
            return Written(jogo=jogo, created=False)
        if jogo.status in (SCHEDULED, IN_PROGRESS):
            raise Refused.conflict(_("o jogo ainda não terminou: não há o que homologar"))
        decision = jogo.status in (AWAITING, CONTESTED)
        if decision and not reason:
            what = _("a súmula foi contestada") if jogo.status == CONTESTED else _("falta a confirmação de uma dupla")
            raise Refused.invalid(what + _(": para homologar, registre a decisão do árbitro ('reason')"))
        counted_before = _counted(jogo)
        jogo.signed_by = actor.user
        jogo.signed_at = timezone.now()
        jogo.signed_reason = reason
        _restatus(locked, locked.result)
        _finish(
            locked,
            action="decision" if decision else "signature",
            actor=actor,
            counted_before=counted_before,
            data={"reason": reason},
        )
        return Written(jogo=jogo)


def sumula_correct(*, tournament: Tournament, key: str, data: Correction, actor: Actor) -> Written:
    """Replace a decided súmula's result with a new via; the old via stays readable in the history."""
    client_id, reason = data.id, data.reason
    with tournament_write(tournament=tournament, action="sumula.correct", user=actor.user, kind=RESULTS):
        locked = _lock(tournament=tournament, key=key)
        jogo = locked.jogo
        if _already(locked, client_id):
            return Written(jogo=jogo, created=False)
        if jogo.status not in DECIDED:
            raise Refused.conflict(_("o jogo ainda não foi decidido: desfaça a última mão ou continue a anotar"))
        entry, result = _result_parse(locked, data.result)
        _next_jogo_check(locked, result)
        _qualifiers_check(locked, result)
        counted_before = _counted(jogo)
        # who closed the old via, by role (the export is public: no account names)
        closer = jogo.signed_by if jogo.signed_by_id else actor.user
        SumulaVia.objects.create(
            jogo=jogo,
            via=jogo.via,
            via_reason=jogo.via_reason,
            status=jogo.status,
            by=role_of(user=closer, tournament=tournament) or "",
            at=timezone.now(),
            result=result_dict(locked.entry, locked.duplas),
            confirmations=jogo.confirmations,
        )
        _result_write(locked, entry)
        jogo.via += 1
        jogo.via_reason = reason
        jogo.confirmations = {}
        jogo.signed_by, jogo.signed_at, jogo.signed_reason = None, None, ""
        _restatus(locked, result)
        _finish(
            locked,
            action="correction",
            actor=actor,
            client_id=client_id,
            counted_before=counted_before,
            data={"reason": reason, "via": jogo.via} | result_dict(entry, locked.duplas),
        )
        return Written(jogo=jogo)


def _next_jogo_check(locked: _Locked, result: JogoResult) -> None:
    """A knockout correction may not change a winner who has already started the next jogo of the bracket."""
    jogo = locked.jogo
    if jogo.group_id is not None or jogo.round is None or locked.result is None:
        return
    if result.winner == locked.result.winner:
        return
    if jogo.third_place:
        return
    later = Jogo.objects.filter(stage_id=jogo.stage_id, round=jogo.round + 1).exclude(status=SCHEDULED)
    position = (jogo.position + 1) // 2 if jogo.position else None
    started = [j for j in later if j.third_place or j.position == position]
    if started:
        raise Refused.conflict(
            _(
                "a correção muda o vencedor, mas o jogo seguinte da chave (%(key)s) já começou; "
                "fale com a comissão organizadora"
            )
            % {"key": started[0].key},
        )


def sumula_penalty(*, tournament: Tournament, key: str, data: Penalty, actor: Actor) -> Written:
    """Perda da partida (the partida being played, or the next, is recorded 12 x 0) or perda do jogo.

    ``{"id": …, "scope": "partida" | "jogo", "lost_by": DUPLA_KEY, "reason": "…"}``. The mãos of a
    partida lost by penalty stay in the súmula's log (its event), not in the result.
    """
    client_id, scope, reason, lost_by = data.id, data.scope, data.reason, data.lost_by
    with tournament_write(tournament=tournament, action="sumula.penalty", user=actor.user, kind=LIVE):
        locked = _lock(tournament=tournament, key=key)
        jogo = locked.jogo
        if _already(locked, client_id):
            return Written(jogo=jogo, created=False)
        _refuse_if_decided(jogo)
        if lost_by not in locked.duplas:
            raise Refused.invalid(
                _("'lost_by' é a chave da dupla punida (%(a)s ou %(b)s)")
                % {"a": locked.duplas[0], "b": locked.duplas[1]},
            )
        side = locked.duplas.index(lost_by)
        counted_before = _counted(jogo)
        entry = locked.entry or JogoEntry(best_of=jogo.best_of)
        dropped: list = []
        if scope == "jogo":
            new_entry = JogoEntry(best_of=jogo.best_of, lost_by=side, reason=reason)
            dropped = result_dict(entry, locked.duplas).get("partidas", [])
        else:
            partidas = entry.partidas
            if locked.result is not None and locked.result.partidas and not locked.result.partidas[-1].finished:
                dropped = result_dict(replace(entry, partidas=partidas[-1:]), locked.duplas)["partidas"]
                partidas = partidas[:-1]
            new_entry = replace(entry, partidas=partidas + (PartidaEntry(lost_by=side, reason=reason),))
        result, problems = jogo_evaluate(entry=new_entry, settings=tournament_settings(tournament=tournament))
        if problems:
            raise Refused.invalid(*rule_messages(problems))
        _result_write(locked, new_entry)
        _restatus(locked, result)
        _finish(
            locked,
            action="penalty",
            actor=actor,
            client_id=client_id,
            counted_before=counted_before,
            data={"scope": scope, "lost_by": lost_by, "reason": reason, "dropped": dropped},
        )
        return Written(jogo=jogo)


def _qualifiers_check(locked: _Locked, result: JogoResult) -> None:
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
    before = [r for r in state.records if r.stage == stage.key]
    after = [r for r in before if not (r.group == jogo.group.key and set(r.duplas) == pair)]
    after.append(JogoRecord(stage=stage.key, group=jogo.group.key, duplas=locked.duplas, result=result))
    settings = state.settings

    def qualifiers(records):
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
