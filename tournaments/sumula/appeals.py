"""Writes of appeals (recursos, AABB Art.6, FENACEF Art.39): a dupla appeals the referee's decision on its jogo's
súmula; the comissão organizadora decides it (deferido / indeferido, with a reason).

An appeal is a record of its own (``models.Appeal``), not a correction: an upheld appeal leads the staff to the
correction form (a new via, ``services.sumula_correct``), a separate and explicit act. Filing and deciding change
no result: they are ``PAGES`` writes (the tournament's row, then the jogo's, locked in that order as for every
results write), which give the pages a new version and bump the jogo's (its live pages follow it), and each is
logged in the súmula's log (``SumulaEvent``: ``appeal``, ``appeal_decided``) and in the event's history.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.sumula import ACCEPTED, AWAITING, CONFIRMED, CONTESTED, HOMOLOGATED, IN_PROGRESS, SCHEDULED
from scoring.text import is_blank

from ..audit import audit_record
from ..models import Appeal, Dupla, Jogo, Tournament
from ..permissions import may_appeal_sumula, may_decide_appeal
from ..refusals import Refused
from ..writes import PAGES, tournament_write
from .inputs import via_read
from .locked import Actor, counted_of, jogo_finish, jogo_locked, via_check

REASON_MAX = Appeal.REASON_MAX
DECISIONS = (Appeal.UPHELD, Appeal.REJECTED)


def appeal_reason_clean(value: object, *, missing: str) -> str:
    """An appeal's or a decision's reason: a text, stripped, required (``missing`` says so), at most
    ``REASON_MAX`` characters."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Refused.invalid(_("o motivo deve ser um texto"))
    value = value.strip()
    if is_blank(value):
        value = ""
    if not value:
        raise Refused.invalid(missing)
    if len(value) > REASON_MAX:
        raise Refused.invalid(
            _("o motivo tem no máximo %(n)s caracteres (este tem %(m)s)") % {"n": REASON_MAX, "m": len(value)}
        )
    return value


def appeal_refusal(*, jogo: Jogo, dupla: Dupla, appeals: Iterable[Appeal] | None = None) -> str | None:
    """Why ``dupla`` may not appeal the current via of ``jogo``'s súmula now (pt-BR), or None when it may.

    An appeal goes against the referee's decision: the súmula homologated (signed) while this dupla had not
    confirmed it (it contested, or did not answer, and the referee decided). Before the referee decides, the dupla
    contests instead; a súmula both duplas confirmed has no decision to appeal. One appeal per dupla and via.
    ``appeals``: the jogo's appeals when the caller has read them already (else they are read here).
    """
    if not may_appeal_sumula(dupla=dupla, jogo=jogo):
        return _("a dupla %(dupla)s não joga este jogo") % {"dupla": dupla.display_name}
    if jogo.status in (SCHEDULED, IN_PROGRESS):
        return _("o jogo ainda não terminou: não há decisão do árbitro da qual recorrer")
    if jogo.status in (AWAITING, CONTESTED):
        return _(
            "o árbitro ainda não decidiu esta súmula: se a sua dupla discorda do resultado, conteste a súmula; "
            "da decisão do árbitro cabe recurso à comissão organizadora"
        )
    if jogo.status == CONFIRMED:
        return _("as duas duplas confirmaram a súmula: não há decisão do árbitro da qual recorrer")
    side = "a" if dupla.pk == jogo.dupla_a_id else "b"
    if (jogo.confirmations.get(side) or {}).get("answer") == ACCEPTED:
        return _("sua dupla confirmou esta via da súmula: não há decisão do árbitro da qual recorrer")
    if appeals is None:
        earlier = Appeal.objects.filter(jogo=jogo, dupla=dupla, via=jogo.via).first()
    else:
        earlier = next(
            (a for a in appeals if a.jogo_id == jogo.pk and a.dupla_id == dupla.pk and a.via == jogo.via), None
        )
    if earlier is not None:
        if not earlier.decision:
            return _("sua dupla já recorreu desta via da súmula: o recurso aguarda a decisão da comissão organizadora")
        return _(
            "a comissão organizadora já decidiu o recurso da sua dupla sobre esta via da súmula (%(decision)s)"
        ) % {"decision": earlier.get_decision_display()}
    assert jogo.status == HOMOLOGATED
    return None


def appeal_file(*, tournament: Tournament, key: str, dupla: Dupla, via: object, reason: object, actor: Actor) -> Appeal:
    """``dupla`` appeals the referee's decision on ``via`` (the via its screen showed) of jogo ``key``'s súmula,
    with a reason. Refused (``Refused``, nothing written) when the dupla may not appeal it now
    (``appeal_refusal``) or the súmula has another via now."""
    via = via_read(via)
    reason = appeal_reason_clean(reason, missing=_("para recorrer, diga o motivo do recurso"))
    with tournament_write(tournament=tournament, action="sumula.appeal", user=actor.user, kind=PAGES):
        locked = jogo_locked(tournament=tournament, key=key)
        jogo = locked.jogo
        if not may_appeal_sumula(dupla=dupla, jogo=jogo):
            raise Refused.forbidden(_("a dupla %(dupla)s não joga este jogo") % {"dupla": dupla.display_name})
        via_check(jogo, via, stale=_("a súmula mudou: agora é a via %(via)s; confira o resultado antes de recorrer"))
        refusal = appeal_refusal(jogo=jogo, dupla=dupla)
        if refusal is not None:
            raise Refused.conflict(refusal)
        appeal = Appeal.objects.create(
            jogo=jogo,
            dupla=dupla,
            via=jogo.via,
            reason=reason,
            filed_at=timezone.now(),
            method=actor.method,
            device=actor.device[:300],
        )
        jogo_finish(
            locked,
            action="appeal",
            actor=actor,
            counted_before=counted_of(jogo),
            data={"appeal": appeal.pk, "dupla": dupla.key, "reason": reason},
        )
        audit_record(
            tournament=tournament,
            user=actor.user,
            action="sumula.appeal",
            summary=_("Recurso da dupla %(dupla)s contra a decisão do árbitro no jogo %(a)s x %(b)s (%(via)sª via)")
            % {
                "dupla": dupla.display_name,
                "a": jogo.dupla_a.display_name,
                "b": jogo.dupla_b.display_name,
                "via": jogo.via,
            },
            after={"appeal": appeal.pk, "dupla": dupla.key, "via": jogo.via, "reason": reason},
        )
        return appeal


def appeal_decide(*, tournament: Tournament, appeal_id: int, decision: object, reason: object, actor: Actor) -> Appeal:
    """The comissão organizadora decides an appeal: ``upheld`` (deferido) or ``rejected`` (indeferido), with a
    reason. Only an organizer (``may_decide_appeal``); a decided appeal is not decided again (the same decision
    sent twice is a retry: nothing changes)."""
    if not may_decide_appeal(user=actor.user, tournament=tournament):
        raise Refused.forbidden(_("só a comissão organizadora decide um recurso"))
    if decision not in DECISIONS:
        raise Refused.invalid(_("escolha a decisão do recurso: deferido ou indeferido"))
    reason = appeal_reason_clean(reason, missing=_("para decidir o recurso, escreva o motivo da decisão"))
    found = Appeal.objects.filter(pk=appeal_id, jogo__tournament=tournament).select_related("jogo").first()
    if found is None:
        raise Refused.not_found(_("recurso não encontrado neste torneio"))
    if found.decision == decision and found.decision_reason == reason:
        return found  # a retry of the same decision: nothing to write (no new version for the pages)
    key = found.jogo.key
    with tournament_write(tournament=tournament, action="sumula.appeal_decide", user=actor.user, kind=PAGES):
        locked = jogo_locked(tournament=tournament, key=key)
        appeal = Appeal.objects.select_for_update().select_related("dupla").get(pk=appeal_id)
        if appeal.decision:
            if appeal.decision == decision and appeal.decision_reason == reason:
                return appeal  # a retry of the same decision
            raise Refused.conflict(
                _("este recurso já foi decidido (%(decision)s) em %(when)s")
                % {
                    "decision": appeal.get_decision_display(),
                    "when": timezone.localtime(appeal.decided_at).strftime("%d/%m/%Y %H:%M")
                    if appeal.decided_at
                    else "—",
                }
            )
        appeal.decision = str(decision)
        appeal.decision_reason = reason
        appeal.decided_by = actor.user
        appeal.decided_at = timezone.now()
        appeal.save(update_fields=["decision", "decision_reason", "decided_by", "decided_at"])
        jogo_finish(
            locked,
            action="appeal_decided",
            actor=actor,
            counted_before=counted_of(locked.jogo),
            data={"appeal": appeal.pk, "dupla": appeal.dupla.key, "decision": appeal.decision, "reason": reason},
        )
        audit_record(
            tournament=tournament,
            user=actor.user,
            action="sumula.appeal_decide",
            summary=_("Recurso da dupla %(dupla)s no jogo %(a)s x %(b)s %(decision)s pela comissão organizadora")
            % {
                "dupla": appeal.dupla.display_name,
                "a": locked.jogo.dupla_a.display_name,
                "b": locked.jogo.dupla_b.display_name,
                "decision": appeal.get_decision_display(),
            },
            before={"appeal": appeal.pk, "decision": ""},
            after={"appeal": appeal.pk, "decision": appeal.decision, "reason": reason},
        )
        return appeal
