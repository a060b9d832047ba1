"""Writes to a súmula: mãos, undo, the whole result, confirmations, signature, corrections (new vias).

Every write goes through the one write path (``writes.tournament_write``):
it locks its jogo's row (``records.jogo_lock``: SELECT … FOR UPDATE), checks the new record with
``scoring`` on that jogo alone, writes, logs one ``SumulaEvent`` and bumps
the jogo's ``version`` (the live pages follow it). A mão, its undo, a whole
result or a penalty never changes what counts: they are ``LIVE`` writes,
which lock the jogo only, so mãos of different jogos never wait on one row.
An answer, a signature, a correction or a WO (both duplas absent: nobody to
confirm it) may make a result count: they lock
the tournament's row first (``RESULTS`` writes), and when what counts
changed the engine recomputes the parts that jogo touches. A refused write
raises ``Refused`` (``tournaments.refusals``) and writes nothing.

A mão is the event's busiest write (every referee's phone, every mão): its
queries are plain SQL (``tournaments.plainsql``), its log's insert is its
idempotency check, the jogo's record is read once per process and kept for
the next mão (``records.jogo_record_locked``), and
``tests/api/test_sumula_api.py`` counts its queries.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

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
    answers_needed,
)

from .. import plainsql
from ..models import Dupla, Mao, Partida, SumulaEvent, SumulaVia, Tournament
from ..permissions import may_answer_sumula, role_of
from ..refusals import Refused
from ..result_form import result_dict
from ..selectors import tournament_settings
from ..writes import LIVE, RESULTS, tournament_write
from .appeals import appeal_decide, appeal_file  # noqa: F401 (the appeals' writes, beside the súmula's)
from .commands import Correction, MaoAdd, Penalty, ResultSet
from .inputs import REASON_MAX, client_id_read, reason_clean, rule_messages, rule_place, via_read  # noqa: F401
from .locked import (
    Actor,
    LockedJogo,
    Written,
    already_logged,
    counted_of,
    event_log,
    jogo_finish,
    jogo_locked,
    next_jogo_check,
    qualifiers_check,
    refuse_if_decided,
    result_order,
    result_parse,
    result_write,
    status_refresh,
    via_check,
)
from .records import answers_of, jogo_record_keep, jogo_record_load, mao_id

# --- the writes ------------------------------------------------------------------------------------


def sumula_mao_add(*, tournament: Tournament, key: str, mao: MaoAdd, actor: Actor) -> Written:
    """Append a mão to the partida being played (a new partida once the last one reached 12)."""
    client_id = mao.id
    # ``to`` and ``points`` as the body gave them: the rules check them (422 with their words, ``_mao_check``)
    record = MaoRecord(
        to=cast("int | None", mao.to),
        points=cast("int | None", mao.points),
        how=mao.how,
        reason=mao.reason,
        key=client_id,
    )
    with tournament_write(tournament=tournament, action="sumula.mao_add", user=actor.user, kind=LIVE):
        locked = jogo_locked(tournament=tournament, key=key)
        # a retry changes nothing: the answer is the súmula as locked (no need to read it again)
        unchanged = Written(jogo=locked.jogo, created=False, record=(locked.entry, locked.partidas, locked.maos))
        if any(m.key == client_id for maos in locked.maos.values() for m in maos):
            return unchanged  # a mão that came with this id in a tournament file
        try:
            running, new_entry, result = _mao_check(locked, record)
        except Refused:
            if already_logged(locked, client_id):  # a retry of a mão recorded before the jogo ended
                return unchanged
            raise
        counted_before = counted_of(locked.jogo)
        current = locked.partidas[-1] if running else None  # the partida being played, when the mão goes on it
        number, order = (
            (current.number, len(locked.maos.get(current.pk, [])))
            if current is not None
            else (len(locked.partidas) + 1, 0)
        )
        # the log first: when this id is logged already (a retry, even of a mão since undone), nothing is written
        if not event_log(
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
        if current is not None:
            partida = current
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
        if current is None:
            locked.partidas.append(partida)
        locked.maos.setdefault(partida.pk, []).append(row)
        if locked.jogo.entry_order is None:
            result_order(locked)
        status_refresh(locked, result)
        jogo_finish(locked, action="mao", actor=actor, counted_before=counted_before, logged=True)
        stored = (new_entry, locked.partidas, locked.maos)
        jogo_record_keep(jogo=locked.jogo, record=stored)  # the next mão need not read it again
        return Written(jogo=locked.jogo, record=stored)


def _mao_check(locked: LockedJogo, record: MaoRecord) -> tuple[bool, JogoEntry, JogoResult]:
    """Whether the mão goes on the partida being played (else it begins the next), and the jogo's record and
    result with it; refuses a mão the súmula cannot take (the jogo decided, the rules)."""
    refuse_if_decided(locked.jogo)
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
        played = entry.partidas[-1]
        assert played.maos is not None  # the partida being played is recorded by mãos
        partidas = entry.partidas[:-1] + (replace(played, maos=played.maos + (record,)),)
    else:
        partidas = entry.partidas + (PartidaEntry(maos=(record,)),)
    new_entry = replace(entry, partidas=partidas)
    result, problems = jogo_evaluate(entry=new_entry, settings=tournament_settings(tournament=locked.tournament))
    if problems:
        raise Refused.invalid(*rule_messages(problems))
    return running, new_entry, result


def sumula_mao_undo(*, tournament: Tournament, key: str, mao: str, actor: Actor) -> Written:
    """Undo the last mão, while no dupla has answered."""
    with tournament_write(tournament=tournament, action="sumula.mao_undo", user=actor.user, kind=LIVE):
        locked = jogo_locked(tournament=tournament, key=key)
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
        counted_before = counted_of(jogo)
        # by their keys: the instances may be the ones this process keeps for the jogo's version (records.py)
        Mao.objects.filter(pk=row.pk).delete()
        if len(locked.maos.get(partida.pk, [])) == 1:
            Partida.objects.filter(pk=partida.pk).delete()
        entry, _partidas, _maos = jogo_record_load(jogo=jogo)
        result = jogo_evaluate(entry=entry, settings=tournament_settings(tournament=tournament))[0] if entry else None
        status_refresh(locked, result)
        jogo_finish(
            locked,
            action="undo",
            actor=actor,
            counted_before=counted_before,
            data={"mao_id": mao, "partida": partida.number, "to": row.to, "points": row.points, "how": row.how},
        )
        return Written(jogo=jogo)


def sumula_result_set(*, tournament: Tournament, key: str, data: ResultSet, actor: Actor) -> Written:
    """The whole result at once (quick entry, WO, perda do jogo), while no mão is recorded.

    A WO may count at once (no dupla to confirm it when both were absent): it is a ``RESULTS`` write."""
    client_id = data.id
    kind = LIVE if data.result.walkover is None else RESULTS
    with tournament_write(tournament=tournament, action="sumula.result_set", user=actor.user, kind=kind):
        locked = jogo_locked(tournament=tournament, key=key)
        if already_logged(locked, client_id):
            return Written(jogo=locked.jogo, created=False)
        if any(locked.maos.values()):
            raise Refused.conflict(_("a súmula já tem mãos anotadas: desfaça-as ou, depois do jogo, faça uma correção"))
        if any(answers_of(locked.jogo)) or locked.jogo.status in (CONFIRMED, HOMOLOGATED):
            refuse_if_decided(locked.jogo)
        counted_before = counted_of(locked.jogo)
        entry, result = result_parse(locked, data.result)
        result_write(locked, entry)
        status_refresh(locked, result)
        jogo_finish(
            locked,
            action="result",
            actor=actor,
            client_id=client_id,
            counted_before=counted_before,
            data=result_dict(entry, locked.duplas),
        )
        return Written(jogo=locked.jogo)


def sumula_answer(
    *, tournament: Tournament, key: str, dupla: Dupla, via: int, accept: bool, reason: object, actor: Actor
) -> Written:
    """A dupla confirms (``accept``) or contests (with a reason) the súmula of its jogo, as it saw it: ``via``
    is the via its screen showed; once the súmula has another via, nothing is answered (a conflict)."""
    via = via_read(via)
    reason = reason_clean(reason, missing=None if accept else _("para contestar, diga o motivo ('reason')"))
    with tournament_write(tournament=tournament, action="sumula.answer", user=actor.user, kind=RESULTS):
        locked = jogo_locked(tournament=tournament, key=key)
        jogo = locked.jogo
        if not may_answer_sumula(dupla=dupla, jogo=jogo):
            raise Refused.forbidden(_("a dupla %(dupla)s não joga este jogo") % {"dupla": dupla.display_name})
        # checked under the lock: a correction racing this answer either lands first (refused here) or waits
        via_check(
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
            walkover = locked.result.walkover if locked.result is not None else None
            asked = answers_needed(walkover=walkover)["ab".index(side)]
            if current == answer or (accept and not asked):  # a dupla absent from the WO agrees: nothing to do
                return Written(jogo=jogo, created=False)
            raise Refused.conflict(
                (
                    _("a súmula já foi confirmada pelas duas duplas")
                    if walkover is None
                    else _("a súmula já foi confirmada")
                )
                if jogo.status == CONFIRMED
                else _("a súmula já foi homologada; um recurso vai à comissão organizadora"),
            )
        if current == answer and (jogo.confirmations.get(side) or {}).get("reason", "") == reason:
            return Written(jogo=jogo, created=False)
        counted_before = counted_of(jogo)
        jogo.confirmations = dict(jogo.confirmations) | {
            side: {"answer": answer, "reason": reason, "at": timezone.now().isoformat(), "by": actor.method}
        }
        status_refresh(locked, locked.result)
        jogo_finish(
            locked,
            action="confirmation" if accept else "contest",
            actor=actor,
            counted_before=counted_before,
            data={"dupla": dupla.key, "reason": reason},
        )
        stored = (locked.entry, locked.partidas, locked.maos)  # the record is unchanged
        jogo_record_keep(jogo=jogo, record=stored)
        return Written(jogo=jogo, record=stored)


def sumula_sign(*, tournament: Tournament, key: str, via: int, reason: object, actor: Actor) -> Written:
    """Homologate ``via`` (the via the signer saw): sign the súmula once both duplas confirmed; else the referee
    decides, with a reason. Another via than the súmula's → a conflict, nothing signed."""
    via = via_read(via)
    reason = reason_clean(reason)
    with tournament_write(tournament=tournament, action="sumula.sign", user=actor.user, kind=RESULTS):
        locked = jogo_locked(tournament=tournament, key=key)
        jogo = locked.jogo
        via_check(jogo, via, stale=_("a súmula mudou: agora é a via %(via)s; confira o resultado e assine de novo"))
        if jogo.status == HOMOLOGATED:
            return Written(jogo=jogo, created=False)
        if jogo.status in (SCHEDULED, IN_PROGRESS):
            raise Refused.conflict(_("o jogo ainda não terminou: não há o que homologar"))
        decision = jogo.status in (AWAITING, CONTESTED)
        if decision and not reason:
            what = _("a súmula foi contestada") if jogo.status == CONTESTED else _("falta a confirmação de uma dupla")
            raise Refused.invalid(what + _(": para homologar, registre a decisão do árbitro ('reason')"))
        counted_before = counted_of(jogo)
        jogo.signed_by = actor.user
        jogo.signed_at = timezone.now()
        jogo.signed_reason = reason
        status_refresh(locked, locked.result)
        jogo_finish(
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
        locked = jogo_locked(tournament=tournament, key=key)
        jogo = locked.jogo
        if already_logged(locked, client_id):
            return Written(jogo=jogo, created=False)
        if jogo.status not in DECIDED:
            raise Refused.conflict(_("o jogo ainda não foi decidido: desfaça a última mão ou continue a anotar"))
        entry, result = result_parse(locked, data.result)
        next_jogo_check(locked, result)
        qualifiers_check(locked, result)
        counted_before = counted_of(jogo)
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
        result_write(locked, entry)
        jogo.via += 1
        jogo.via_reason = reason
        jogo.confirmations = {}
        jogo.signed_by, jogo.signed_at, jogo.signed_reason = None, None, ""
        status_refresh(locked, result)
        jogo_finish(
            locked,
            action="correction",
            actor=actor,
            client_id=client_id,
            counted_before=counted_before,
            data={"reason": reason, "via": jogo.via} | result_dict(entry, locked.duplas),
        )
        return Written(jogo=jogo)


def sumula_penalty(*, tournament: Tournament, key: str, data: Penalty, actor: Actor) -> Written:
    """Perda da partida (the partida being played, or the next, is recorded 12 x 0) or perda do jogo.

    ``{"id": …, "scope": "partida" | "jogo", "lost_by": DUPLA_KEY, "reason": "…"}``. The mãos of a
    partida lost by penalty stay in the súmula's log (its event), not in the result.
    """
    client_id, scope, reason, lost_by = data.id, data.scope, data.reason, data.lost_by
    with tournament_write(tournament=tournament, action="sumula.penalty", user=actor.user, kind=LIVE):
        locked = jogo_locked(tournament=tournament, key=key)
        jogo = locked.jogo
        if already_logged(locked, client_id):
            return Written(jogo=jogo, created=False)
        refuse_if_decided(jogo)
        if lost_by not in locked.duplas:
            raise Refused.invalid(
                _("'lost_by' é a chave da dupla punida (%(a)s ou %(b)s)")
                % {"a": locked.duplas[0], "b": locked.duplas[1]},
            )
        side = locked.duplas.index(lost_by)
        counted_before = counted_of(jogo)
        entry = locked.entry or JogoEntry(best_of=jogo.best_of)
        dropped: list[object] = []
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
        result_write(locked, new_entry)
        status_refresh(locked, result)
        jogo_finish(
            locked,
            action="penalty",
            actor=actor,
            client_id=client_id,
            counted_before=counted_before,
            data={"scope": scope, "lost_by": lost_by, "reason": reason, "dropped": dropped},
        )
        return Written(jogo=jogo)
