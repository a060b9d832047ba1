"""One jogo's súmula as the paper sheet shows it (the public súmula page, the printed súmula, the dupla's
private page): every mão with its running score, the partidas, walkover and penalties, the confirmations, the
signature and the via. Public data only: no PIN, no contact, no birth date and no account name; who signed is
told by role ("árbitro" / "organização"), who confirmed by dupla."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.sumula import (
    AWAITING,
    CONFIRMED,
    CONTESTED,
    HOMOLOGATED,
    IN_PROGRESS,
    MAO_FERRO,
    MAO_ONZE,
    MAO_PENALTY,
    MAO_RAN,
    MAO_REFUSED,
    MAO_TIE,
    SCHEDULED,
    mao_kind,
)
from tournaments.models import Appeal, Dupla, Jogo, SumulaVia, Tournament
from tournaments.permissions import is_referee_role, role_of
from tournaments.presenters.jogo import jogo_label, jogo_place
from tournaments.presenters.labels import best_of_label, time_br
from tournaments.state import TournamentState
from tournaments.sumula.selectors import appeals_of_jogo
from tournaments.sumula.sheet import Mao, Partida, Sumula

# the súmula's status as the public reads it: (CSS class of the pill, label); the súmula is feminine, as the
# referee's screens say it ("homologada")
STATUS = {
    SCHEDULED: ("upcoming", gettext_noop("a jogar")),
    IN_PROGRESS: ("live", gettext_noop("em andamento")),
    AWAITING: ("awaiting", gettext_noop("provisório — aguarda confirmação")),
    CONTESTED: ("contested", gettext_noop("contestada")),
    CONFIRMED: ("confirmed", gettext_noop("confirmada")),
    HOMOLOGATED: ("finished", gettext_noop("homologada")),
}
# a mão played to its end, by what it was worth: no raise, or the raise both duplas accepted (the sheet's "Como foi a
# mão" column: "sem truco", "truco", "seis"…; the points are in the duplas' columns)
VALUE_NAMES = {
    1: gettext_noop("sem truco"),
    3: gettext_noop("truco"),
    6: gettext_noop("seis"),
    9: gettext_noop("nove"),
    12: gettext_noop("doze"),
}
# a dupla that runs gives the value before the raise it refused: from 1 it ran from the truco, …
RAN_FROM = {
    1: gettext_noop("correu do truco"),
    3: gettext_noop("correu do seis"),
    6: gettext_noop("correu do nove"),
    9: gettext_noop("correu do doze"),
}
RAN = gettext_noop("correu")
METHODS = {"pin": gettext_noop("pelo PIN"), "link": gettext_noop("pelo link"), "online": gettext_noop("na mesa online")}


# --- what the page shows (a súmula has a few dozen mãos: frozen dataclasses, no speed concern) ----------------


@dataclass(frozen=True, slots=True)
class SumulaStatus:
    """The súmula's status pill: its code (a CSS class), its label, and whether the result is still provisional."""

    code: str
    label: str
    provisional: bool


@dataclass(frozen=True, slots=True)
class MaoRow:
    """One line of the sheet: what happened in the mão, who scored how much, the totals after it."""

    number: int
    text: str
    reason: str
    tag: str  # "penalty", "tie" or ""
    scorer: int | None  # 0 or 1
    points: int
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class PenaltyNote:
    """A perda (of a partida or of the jogo): the dupla that lost it and why."""

    dupla: str
    reason: str


@dataclass(frozen=True, slots=True)
class PartidaSheet:
    number: int
    a: int
    b: int
    finished: bool
    winner: int | None
    winner_name: str
    live: bool
    maos: list[MaoRow]
    penalty: PenaltyNote | None
    score_only: bool  # the final score was entered without the mãos


@dataclass(frozen=True, slots=True)
class SumulaDupla:
    key: str
    name: str
    has_name: bool
    players: str


@dataclass(frozen=True, slots=True)
class WalkoverNote:
    both: bool
    absent: str  # the absent dupla's name (one absent)
    reason: str  # why the WO was given ("" in older records)


@dataclass(frozen=True, slots=True)
class AnswerNote:
    """A dupla's answer to the súmula: confirmed or contested, how, when, why."""

    dupla: str
    answer: str  # "confirmed", "contested" or ""
    when: str
    method: str
    reason: str
    absent: bool = False  # absent from the WO: it is not asked to confirm


@dataclass(frozen=True, slots=True)
class Signature:
    """Who signed, by role only (never the account's name), and when; the decision's reason."""

    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class AppealNote:
    """A dupla's appeal against the referee's decision and the comissão organizadora's decision, as the public
    reads it (who decided is told as the comissão, never by account)."""

    id: int
    dupla: str
    via: str
    when: str
    method: str
    reason: str
    decision: str  # "upheld", "rejected" or "" (waiting)
    decision_label: str
    decided_when: str
    decision_reason: str


def appeal_notes(appeals: list[Appeal]) -> tuple[AppealNote, ...]:
    return tuple(
        AppealNote(
            id=a.pk,
            dupla=a.dupla.display_name,
            via=via_name(a.via),
            when=when_br(a.filed_at),
            method=_(METHODS[a.method]) if a.method in METHODS else "",
            reason=a.reason,
            decision=a.decision,
            decision_label=a.get_decision_display() if a.decision else "",
            decided_when=when_br(a.decided_at),
            decision_reason=a.decision_reason,
        )
        for a in appeals
    )


@dataclass(frozen=True, slots=True)
class ViaLink:
    via: int
    name: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class SumulaPage:
    """One jogo's súmula as the paper sheet shows it (the public page, the printed súmula)."""

    key: str
    title: str  # the jogo as people know it ("Quartas de final · jogo 2"), never its key
    url: str
    duplas: tuple[SumulaDupla, SumulaDupla]
    won: list[int]
    winner: int | None
    winner_name: str
    stage: str
    group: str
    round: str
    mesa: int | None
    best_of: str
    status: SumulaStatus
    decided: bool
    live: bool
    partidas: list[PartidaSheet]
    walkover: WalkoverNote | None
    penalty: PenaltyNote | None
    answers: list[AnswerNote]
    signed: Signature | None
    via: int
    via_name: str
    via_label: str  # "" for the 1st via; "2ª via (súmula corrigida)"
    via_reason: str
    replaces: str  # "1ª": the via this one replaces
    vias: int
    earlier: list[ViaLink]
    reading_old: bool  # an earlier via, replaced
    replaced_at: str
    latest_name: str
    poll: bool
    has_result: bool
    appeals: tuple[AppealNote, ...] = ()  # every via's, in the order filed


def status_view(status: str) -> SumulaStatus:
    code, label = STATUS.get(status, ("upcoming", status))
    return SumulaStatus(code=code, label=_(label), provisional=status in (AWAITING, CONTESTED))


def when_br(value: str | dt.datetime | None) -> str:
    """An ISO time (or a datetime) as 'dd/mm/aaaa às hh:mm', local time; '' when absent or unreadable."""
    if not value:
        return ""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return ""
    if timezone.is_naive(value):
        value = timezone.make_aware(value, dt.UTC)
    local = timezone.localtime(value)
    return _("%(date)s às %(time)s") % {"date": local.strftime("%d/%m/%Y"), "time": time_br(local)}


def via_name(n: int) -> str:
    return _("%(n)sª via") % {"n": n}


def via_label(n: int) -> str:
    """The via as a jogo's line shows it: nothing for the first (every súmula has one, and "1ª via" tells a player
    nothing), "2ª via (súmula corrigida)" from the second on, when it says the result was corrected."""
    return _("%(n)sª via (súmula corrigida)") % {"n": n} if n > 1 else ""


# --- the sheet --------------------------------------------------------------------------------------


def _mao_row(number: int, mao: Mao, before: tuple[int, int], names: tuple[str, str]) -> MaoRow:
    """One line of the sheet: what happened in the mão, who scored how much, the totals after it."""
    after = mao.score
    gain = (after[0] - before[0], after[1] - before[1])
    scorer = 0 if gain[0] > 0 else 1 if gain[1] > 0 else None
    points = gain[scorer] if scorer is not None else 0
    to = mao.to
    kind = mao_kind(how=mao.how, to=to, before=before)
    loser = names[1 - to] if to in (0, 1) else ""
    tag = ""
    if kind == MAO_PENALTY:
        text = _("penalidade")
        tag = "penalty"
    elif kind == MAO_REFUSED:
        text = _("%(dupla)s recusou a mão de onze") % {"dupla": loser}
    elif kind == MAO_RAN:
        text = f"{loser} {_(RAN_FROM.get(mao.points or 0, RAN))}"
    elif kind == MAO_TIE:
        text = _("mão de onze empatada") if points else _("empate: ninguém marca")
        tag = "tie"
    elif kind == MAO_FERRO:
        text = _("mão de ferro")
    elif kind == MAO_ONZE:
        text = _("mão de onze jogada")
    else:
        text = _(VALUE_NAMES[points]) if points in VALUE_NAMES else _("jogada")
    return MaoRow(
        number=number,
        text=text,
        reason=mao.reason or "",
        tag=tag,
        scorer=scorer,
        points=points,
        a=after[0],
        b=after[1],
    )


def _partida_view(p: Partida, keys: tuple[str, str], names: tuple[str, str], jogo_live: bool) -> PartidaSheet:
    side = {k: i for i, k in enumerate(keys)}
    rows: list[MaoRow] = []
    before = (0, 0)
    for n, mao in enumerate(p.maos, start=1):
        rows.append(_mao_row(n, mao, before, names))
        before = mao.score
    winner = side.get(p.winner) if p.winner else None
    penalty = None
    if p.penalty:
        lost = side.get(p.penalty.lost_by)
        penalty = PenaltyNote(dupla=names[lost] if lost is not None else "", reason=p.penalty.reason)
    return PartidaSheet(
        number=p.number,
        a=p.score[0],
        b=p.score[1],
        finished=p.finished,
        winner=winner,
        winner_name=names[winner] if winner is not None else "",
        live=jogo_live and not p.finished,
        maos=rows,
        penalty=penalty,
        score_only=not rows and penalty is None,
    )


def _dupla_view(dupla: Dupla) -> SumulaDupla:
    p1, p2 = dupla.player1.name, dupla.player2.name
    return SumulaDupla(
        key=dupla.key,
        name=dupla.display_name,
        has_name=bool(dupla.name),
        players=_("%(a)s e %(b)s") % {"a": p1, "b": p2},
    )


def _signature(tournament: Tournament, jogo: Jogo) -> Signature:
    """Who signed, by role only (never the account's name), and when."""
    when = when_br(jogo.signed_at)
    if jogo.signed_by_id is not None and is_referee_role(role=role_of(user=jogo.signed_by, tournament=tournament)):
        text = _("Homologada pelo árbitro em %(when)s.") % {"when": when}
    else:
        text = _("Homologada pela organização em %(when)s.") % {"when": when}
    return Signature(text=text, reason=jogo.signed_reason)


def sumula_present(*, state: TournamentState, tournament: Tournament, jogo: Jogo, data: Sumula) -> SumulaPage:
    """What the súmula page shows, as plain values (no account names, no private data)."""
    keys = data.duplas
    duplas = (_dupla_view(jogo.dupla_a), _dupla_view(jogo.dupla_b))
    names = (duplas[0].name, duplas[1].name)
    side = {k: i for i, k in enumerate(keys)}
    status = status_view(data.status)
    partidas = [_partida_view(p, keys, names, data.status == IN_PROGRESS) for p in data.partidas]
    winner = side.get(data.winner) if data.winner else None
    walkover = None
    if data.walkover:
        walkover = WalkoverNote(
            both=data.walkover == "both",
            absent=names[side[data.walkover]] if data.walkover in side else "",
            reason=data.walkover_reason or "",
        )
    penalty = None
    if data.penalty:
        lost = side.get(data.penalty.lost_by)
        penalty = PenaltyNote(dupla=names[lost] if lost is not None else "", reason=data.penalty.reason)
    decided = data.status in (AWAITING, CONTESTED, CONFIRMED, HOMOLOGATED)
    answers = []
    for i, key in enumerate(keys):
        detail = data.confirmation_details.get(key)
        answer = detail.answer if detail else None
        answers.append(
            AnswerNote(
                dupla=names[i],
                answer=answer or "",
                when=when_br(detail.at) if detail else "",
                method=_(METHODS[detail.by]) if detail and detail.by in METHODS else "",
                reason=(detail.reason or "") if detail else "",
                absent=data.walkover in (key, "both"),
            )
        )
    via, vias = data.via, data.vias
    reading_old = via != jogo.via
    # an earlier via's signature is not kept apart from its replacement: only the current one is told
    signed = _signature(tournament, jogo) if not reading_old and jogo.signed_at is not None else None
    base = f"/torneios/{tournament.slug}/jogos/{jogo.key}/"
    stage, group, round_title = jogo_place(state)(jogo)
    earlier = []
    replaced_at = {}
    if vias > 1:
        for row in SumulaVia.objects.filter(jogo=jogo).order_by("via").values("via", "at", "via_reason"):
            replaced_at[row["via"]] = when_br(row["at"])
            earlier.append(
                ViaLink(
                    via=row["via"],
                    name=via_name(row["via"]),
                    url=f"{base}?via={row['via']}",
                    current=row["via"] == via,
                )
            )
    return SumulaPage(
        key=jogo.key,
        title=jogo_label(state)(jogo),
        url=base,
        duplas=duplas,
        won=list(data.score),
        winner=winner,
        winner_name=names[winner] if winner is not None else "",
        stage=stage,
        group=group,
        round=round_title,
        mesa=jogo.mesa,
        best_of=best_of_label(jogo.best_of),
        status=status,
        decided=decided,
        live=data.status == IN_PROGRESS and not reading_old,
        partidas=partidas,
        walkover=walkover,
        penalty=penalty,
        answers=answers,
        signed=signed,
        via=via,
        via_name=via_name(via),
        via_label=via_label(via),
        via_reason=data.via_reason or "",
        replaces=f"{via - 1}ª" if via > 1 else "",
        vias=vias,
        earlier=earlier,
        reading_old=reading_old,
        replaced_at=replaced_at.get(via, ""),
        latest_name=via_name(vias),
        poll=not reading_old and data.status != HOMOLOGATED,
        has_result=bool(partidas or walkover or penalty),
        appeals=appeal_notes(appeals_of_jogo(jogo=jogo)),
    )
