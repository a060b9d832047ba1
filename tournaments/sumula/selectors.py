"""Reads of one súmula, as the API, the referee's screen and the public súmula page show it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from django.db.models import Count, Q
from django.db.models.functions import Coalesce

from scoring.jogo import WALKOVER_BOTH, JogoEntry, JogoResult, jogo_evaluate
from scoring.partida import mao_gain
from scoring.rules import RuleSettings
from scoring.sumula import mao_options

from ..interchange.writer import answers_by_dupla
from ..models import Appeal, Dupla, Jogo, Player, SumulaEvent, SumulaVia, Tournament
from ..models import Mao as MaoRow
from ..models import Partida as PartidaRow
from ..permissions import role_of
from ..result_form import Errors, result_read
from ..selectors import tournament_settings
from .records import StoredRecord, jogo_record_load, mao_id
from .sheet import (
    Answer,
    AnswerDetail,
    How,
    Mao,
    MaoOptions,
    Partida,
    PenaltyInfo,
    Score,
    Signed,
    Situation,
    Status,
    Sumula,
)

# what a súmula shows of its jogo beside the jogo's own columns: the duplas' players, the stage, the group, who signed
SUMULA_RELATED = (
    "dupla_a__player1",
    "dupla_a__player2",
    "dupla_b__player1",
    "dupla_b__player2",
    "stage",
    "group",
    "signed_by",
)


# one súmula's jogo: the same, its players read after it in one small query. Joined in (four more joins),
# PostgreSQL spent 4-8 ms planning the query each time it ran, for 0.2 ms running it
_SUMULA_JOINED = ("dupla_a", "dupla_b", "stage", "group", "signed_by")


def jogo_for_sumula(*, tournament: Tournament, key: str) -> Jogo | None:
    """The jogo ``key`` of ``tournament`` with what its súmula shows (``SUMULA_RELATED``), None without one."""
    jogo = next(
        iter(Jogo.objects.select_related(*_SUMULA_JOINED).filter(tournament=tournament, key=key).order_by()[:1]), None
    )
    if jogo is not None:
        _players_attach(duplas=(jogo.dupla_a, jogo.dupla_b))
    return jogo


def _players_attach(*, duplas: Iterable[Dupla]) -> None:
    """Give each dupla its players (as ``select_related`` would), read in one query."""
    duplas = list(duplas)
    players = Player.objects.in_bulk({pk for d in duplas for pk in (d.player1_id, d.player2_id)})
    for dupla in duplas:
        dupla.player1, dupla.player2 = players[dupla.player1_id], players[dupla.player2_id]


def sumula_get(
    *, tournament: Tournament, jogo: Jogo, via: int | None = None, record: StoredRecord | None = None
) -> Sumula | None:
    """The súmula of ``jogo`` (its current via, or the earlier via ``via``; None if it has no such via).

    ``record``: the current via's (entry, partidas, mãos) when the caller has just written them.
    """
    settings = tournament_settings(tournament=tournament)
    duplas = (jogo.dupla_a.key, jogo.dupla_b.key)
    signed: Signed | None
    if via is None or via == jogo.via:
        entry, partidas, _maos = record if record is not None else jogo_record_load(jogo=jogo)
        numbers = [p.number for p in partidas]
        status, confirmations, via_reason = jogo.status, jogo.confirmations, jogo.via_reason
        via = jogo.via
        signed = (
            Signed(
                by=_signer_role(tournament, jogo),
                at=jogo.signed_at.isoformat(),
                reason=jogo.signed_reason or None,
            )
            if jogo.signed_at
            else None
        )
        current, replaced_at = True, None
    else:
        old = SumulaVia.objects.filter(jogo=jogo, via=via).first()
        if old is None:
            return None
        entry = result_read(old.result, "", duplas, jogo.best_of, Errors())
        numbers = list(range(1, len(entry.partidas) + 1)) if entry is not None else []
        status, confirmations, via_reason = old.status, old.confirmations, old.via_reason
        # an earlier via: when it was replaced; signed only if it had been (by whom, as a role: SumulaVia.by)
        signed = Signed(by=old.by or None, at=None, reason=None) if old.status == "homologated" else None
        current, replaced_at = False, old.at.isoformat()
    result = jogo_evaluate(entry=entry, settings=settings)[0] if entry is not None else None
    walkover = None
    if entry is not None and entry.walkover is not None:
        if entry.walkover == WALKOVER_BOTH:
            walkover = "both"
        else:
            assert isinstance(entry.walkover, int)  # else a side, 0 or 1
            walkover = duplas[entry.walkover]
    penalty = None
    if entry is not None and entry.lost_by is not None:
        penalty = PenaltyInfo(lost_by=duplas[entry.lost_by], reason=entry.reason)
    points, options = _current(entry, result, settings) if current else (None, None)
    return Sumula(
        key=jogo.key,
        stage=jogo.stage.key,
        group=jogo.group.key if jogo.group is not None else None,
        round=jogo.round,
        mesa=jogo.mesa,
        duplas=duplas,
        best_of=jogo.best_of,
        status=cast("Status", status),  # the column holds one of the súmula statuses (scoring.sumula)
        via=via,
        via_reason=via_reason or None,
        vias=jogo.via,
        replaced_at=replaced_at,
        partidas=_partidas(entry, result, numbers, duplas, settings),
        score=_pair(result.partidas_won) if result is not None and result.started else (0, 0),
        winner=duplas[result.winner] if result is not None and result.winner is not None else None,
        walkover=walkover,
        walkover_reason=(entry.reason or None) if walkover is not None and entry is not None else None,
        penalty=penalty,
        confirmations=cast("dict[str, Answer | None]", answers_by_dupla(confirmations or {}, duplas)),
        confirmation_details={duplas[i]: _answer_detail(confirmations, side) for i, side in enumerate("ab")},
        signed=signed,
        version=jogo.version,
        current=points,
        options=options,
    )


def _pair(value: Iterable[int]) -> Score:
    a, b = value
    return (a, b)


def _answer_detail(confirmations: dict | None, side: str) -> AnswerDetail | None:
    item = (confirmations or {}).get(side)
    if not item:
        return None
    return AnswerDetail(
        answer=item.get("answer"),
        reason=item.get("reason") or None,
        at=item.get("at"),
        by=item.get("by"),
    )


def _partidas(
    entry: JogoEntry | None,
    result: JogoResult | None,
    numbers: list[int],
    duplas: tuple[str, str],
    settings: RuleSettings,
) -> list[Partida]:
    if entry is None or result is None or entry.walkover is not None or entry.lost_by is not None:
        return []
    out = []
    for i, p in enumerate(entry.partidas):
        scored = result.partidas[i] if i < len(result.partidas) else None
        number = numbers[i] if i < len(numbers) else i + 1
        maos: list[Mao] = []
        penalty = None
        if p.lost_by is not None:
            penalty = PenaltyInfo(lost_by=duplas[p.lost_by], reason=p.reason)
        elif p.maos is not None:
            running = (0, 0)
            for k, m in enumerate(p.maos):
                gain, _problem = mao_gain(score=running, mao=m, settings=settings)
                if gain is not None:
                    running = (running[0] + gain[0], running[1] + gain[1])
                maos.append(
                    Mao(
                        id=mao_id(partida=number, order=k, key=m.key),
                        to=m.to,
                        points=m.points,
                        how=cast("How", m.how),  # one of scoring.partida.HOW_CHOICES
                        score=running,
                        reason=m.reason or None,
                    )
                )
        out.append(
            Partida(
                number=number,
                maos=maos,
                score=_pair(scored.score) if scored else (0, 0),
                finished=bool(scored and scored.finished),
                winner=duplas[scored.winner] if scored and scored.winner is not None else None,
                penalty=penalty,
            )
        )
    return out


def _current(
    entry: JogoEntry | None, result: JogoResult | None, settings: RuleSettings
) -> tuple[Score | None, MaoOptions | None]:
    """The points of the partida being played (None between partidas) and the entries allowed next."""
    if result is not None and result.finished:
        return None, None
    score = (0, 0)
    if result is not None and result.partidas and not result.partidas[-1].finished:
        score = _pair(result.partidas[-1].score)
    options = mao_options(score=score, settings=settings)
    current = score if result is not None and result.partidas and not result.partidas[-1].finished else None
    return current, (
        None
        if options is None
        else MaoOptions(
            score=score,
            situation=cast("Situation", options.situation),
            played=list(options.played),
            ran=list(options.ran),
            refuse_by=options.refuse_by,
            tie=options.tie,
            penalty=list(options.penalty),
        )
    )


def _signer_role(tournament: Tournament, jogo: Jogo) -> str | None:
    """Who signed, as the public may know it: ``referee`` or ``organizer`` (never the account's name)."""
    return role_of(user=jogo.signed_by, tournament=tournament) if jogo.signed_by_id else None


# --- what waits for the staff (the desk's Resumo) ---------------------------------------------------------


@dataclass(frozen=True)
class SumulaPending:
    """How many súmulas of a tournament wait for someone, by what they wait for."""

    in_progress: int  # being played at the mesa
    awaiting: int  # decided, waiting for the duplas' confirmations
    contested: int  # contested by a dupla: the referee decides
    unsigned: int  # confirmed by both duplas, not signed (homologated) by the referee yet
    without_mesa: int  # to play in the round called now (the earliest round with jogos to play), with no mesa


def sumula_pending_get(*, tournament: Tournament) -> SumulaPending:
    """The counts of ``SumulaPending``, in two queries whatever the size of the event."""
    jogos = Jogo.objects.filter(tournament=tournament)
    counts = jogos.aggregate(
        in_progress=Count("id", filter=Q(status=Jogo.IN_PROGRESS)),
        awaiting=Count("id", filter=Q(status=Jogo.AWAITING)),
        contested=Count("id", filter=Q(status=Jogo.CONTESTED)),
        unsigned=Count("id", filter=Q(status=Jogo.CONFIRMED)),
    )
    called = (
        jogos.filter(status=Jogo.SCHEDULED)
        .annotate(round_number=Coalesce("round", 0))
        .values("stage__order", "round_number")
        .annotate(without_mesa=Count("id", filter=Q(mesa__isnull=True)))
        .order_by("stage__order", "round_number")
        .first()
    )
    return SumulaPending(
        in_progress=counts["in_progress"],
        awaiting=counts["awaiting"],
        contested=counts["contested"],
        unsigned=counts["unsigned"],
        without_mesa=called["without_mesa"] if called else 0,
    )


def entered_only_by(*, jogo: Jogo, dupla: Dupla) -> bool:
    """Whether every mão of the jogo's current via was entered by ``dupla`` from its private link (table
    self-scoring, docs/regras.md §8), read from the súmula's log; False when the referee entered anything (a mão, a
    result, a WO, a penalty) or nothing is recorded. Then the dupla's entry counts as its confirmation."""
    if jogo.walkover or jogo.lost_by:
        return False
    partidas = list(PartidaRow.objects.filter(jogo=jogo))
    if not partidas or any(p.mode != PartidaRow.MAOS for p in partidas):
        return False
    keys = set(MaoRow.objects.filter(partida__jogo=jogo).values_list("key", flat=True))
    if not keys or None in keys or "" in keys:
        return False
    logged = SumulaEvent.objects.filter(jogo=jogo, via=jogo.via, action="mao", client_id__in=keys)
    by = set(logged.values_list("client_id", "dupla_id", "method"))
    return len(by) == len(keys) and all(d == dupla.pk and method == "link" for _k, d, method in by)


def mao_entered_by(*, jogo: Jogo, mao: str) -> int | None:
    """The dupla (its id) that entered the mão ``mao`` (its API id) of the jogo's current via from its private
    link, read from the súmula's log; None when staff entered it (or it came with a file)."""
    return (
        SumulaEvent.objects.filter(jogo=jogo, via=jogo.via, action="mao", client_id=mao, method="link")
        .values_list("dupla_id", flat=True)
        .first()
    )


def mao_in_sumula(*, jogo: Jogo, mao: str) -> bool:
    """Whether the jogo's súmula has a mão with this API id (``records.mao_id``) now."""
    rows = MaoRow.objects.filter(partida__jogo=jogo).select_related("partida")
    return any(mao_id(partida=m.partida, mao=m) == mao for m in rows)


# --- appeals (recursos) ---------------------------------------------------------------------------------------

APPEAL_RELATED = ("dupla__player1", "dupla__player2", "decided_by")


def appeals_of_jogo(*, jogo: Jogo) -> list[Appeal]:
    """The appeals against the referee's decisions on ``jogo``'s súmula (every via), in the order filed."""
    return list(Appeal.objects.filter(jogo=jogo).select_related(*APPEAL_RELATED).order_by("filed_at", "id"))


def appeals_pending_count(*, tournament: Tournament) -> int:
    """How many appeals of the event wait for the comissão organizadora's decision."""
    return Appeal.objects.filter(jogo__tournament=tournament, decision="").count()


def appeals_list(*, tournament: Tournament) -> list[Appeal]:
    """The event's appeals: those waiting for a decision first (oldest first), then the decided ones (latest
    decided first), with their jogo and its duplas."""
    rows = list(
        Appeal.objects.filter(jogo__tournament=tournament).select_related(
            *APPEAL_RELATED,
            "jogo",
            "jogo__dupla_a__player1",
            "jogo__dupla_a__player2",
            "jogo__dupla_b__player1",
            "jogo__dupla_b__player2",
        )
    )
    pending = sorted((a for a in rows if not a.decision), key=lambda a: (a.filed_at, a.pk))
    decided = sorted((a for a in rows if a.decision), key=lambda a: (a.decided_at, a.pk), reverse=True)
    return pending + decided
