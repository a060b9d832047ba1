"""What a dupla's private page shows (``/d/<token>/``): the dupla's public page, and the súmulas waiting for its
answer, each summed up from the dupla's side. Public data only: the page is private because its address is the
dupla's secret, not because of what it shows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.sumula import (
    ACCEPTED,
    AWAITING,
    CONTEST,
    CONTESTED,
    HOMOLOGATED,
    IN_PROGRESS,
    SCHEDULED,
    answers_needed,
)
from tournaments import presenters
from tournaments.calls.selectors import DuplaCall, dupla_called
from tournaments.models import Appeal, Dupla, Jogo, OnlineTable
from tournaments.online.event import stage_online
from tournaments.permissions import may_self_score
from tournaments.presenters.dupla import MyJogo, from_my_side
from tournaments.presenters.jogo import jogo_item_maker, jogo_label, jogo_place
from tournaments.presenters.stages import EventHead
from tournaments.presenters.sumula import appeal_notes, status_view, via_label
from tournaments.presenters.sumula_pad import dupla_names, pad_present, phase_of, sheet_rows
from tournaments.selectors import tournament_live_get
from tournaments.state import SIDE_INDEX, TournamentState
from tournaments.sumula.appeals import appeal_refusal
from tournaments.sumula.selectors import APPEAL_RELATED, SUMULA_RELATED, sumula_get
from tournaments.sumula.sheet import Sumula


def dupla_page_present(*, dupla: Dupla) -> dict:
    """What a dupla's private page shows: the dupla's public page (``presenters.dupla_present``: next jogo,
    jogos, group tables, bracket path, final place), from the súmulas as they stand.

    Public data only (the same as the public pages show); the page is private
    because its address is the dupla's secret, not because of what it shows.
    """
    state = tournament_live_get(tournament=dupla.tournament)
    page = presenters.dupla_present(state, dupla.key)
    where = _where(state)
    # the dupla's súmulas decided at the table or by the referee, and the appeals on its jogos: one query each
    jogos = list(
        Jogo.objects.filter(tournament_id=dupla.tournament_id, status__in=(AWAITING, CONTESTED, HOMOLOGATED))
        .filter(Q(dupla_a=dupla) | Q(dupla_b=dupla))
        .select_related(*SUMULA_RELATED)
        .order_by("entry_order", "id")
    )
    appeals = list(
        Appeal.objects.filter(jogo__tournament_id=dupla.tournament_id)
        .filter(Q(jogo__dupla_a=dupla) | Q(jogo__dupla_b=dupla))
        .select_related(*APPEAL_RELATED, *(f"jogo__{r}" for r in SUMULA_RELATED))
        .order_by("jogo__entry_order", "jogo_id", "filed_at", "id")
    )
    return {
        "event": presenters.event_head(state),
        **{f.name: getattr(page, f.name) for f in fields(page)},
        "disqualified": dupla.disqualified,
        "disqualified_reason": dupla.disqualified_reason,
        "to_confirm": _to_answer(dupla, [j for j in jogos if j.status in (AWAITING, CONTESTED)], where),
        "self_scoring": dupla.tournament.allow_self_scoring,
        "to_score": _to_score(dupla, where),
        "to_appeal": _to_appeal(dupla, [j for j in jogos if j.status == HOMOLOGATED], appeals, where),
        "appeals": _appeals(dupla, appeals, where),
        # "Sua vez! Mesa N contra …" until the jogo begins
        "called": _called(state, dupla.key, dupla_called(dupla=dupla), page.next),
        "online_tables": _online_tables(state, dupla),
    }


def _online_tables(state: TournamentState, dupla: Dupla) -> list[dict]:
    """The dupla's online jogos still to be played or being played (docs/regras.md §9.7): the table's address,
    the opponent and the two players, one of whom sits in each browser. No query when it has none."""
    stage_key = {s.id: k for k, s in state.stage_models.items()}
    mine = [
        j
        for j in state.jogo_rows
        if dupla.pk in (j.dupla_a_id, j.dupla_b_id)
        and j.status in (SCHEDULED, IN_PROGRESS)
        and (j.online or stage_online(dupla.tournament, stage_key.get(j.stage_id, "")))
    ]
    if not mine:
        return []
    names = {d.id: d.display_name for d in state.duplas.values()}
    tables = dict(
        OnlineTable.objects.filter(jogo_id__in=[j.id for j in mine])
        .exclude(status=OnlineTable.CLOSED)
        .values_list("jogo_id", "opens_at")
    )
    out = []
    for j in mine:
        if j.id not in tables:
            continue
        other = j.dupla_b_id if j.dupla_a_id == dupla.pk else j.dupla_a_id
        out.append(
            {
                "key": j.key,
                "url": reverse("jogo_table", kwargs={"slug": dupla.tournament.slug, "key": j.key}),
                "seat_url": reverse("jogo_table_seat", kwargs={"slug": dupla.tournament.slug, "key": j.key}),
                "opponent": names.get(other, ""),
                "opens_at": tables[j.id],
                "players": (dupla.player1.name, dupla.player2.name),
                "in_progress": j.status == IN_PROGRESS,
            }
        )
    return out


def _called(state: TournamentState, key: str, call: DuplaCall | None, next_jogo: MyJogo | None) -> dict | None:
    """The jogo the dupla is called to, with what the next jogo's card shows of it (stage, round, time, best-of,
    the opponent's players, its súmula); ``is_next``: it is the next jogo, so the page shows it once, as the call."""
    if call is None:
        return None
    row = next((r for r in state.jogo_rows if r.id == call.jogo_id), None)
    jogo = from_my_side(jogo_item_maker(state)(row), key) if row is not None else None
    return {
        "mesa": call.mesa,
        "opponent": call.opponent,
        "at": call.at,
        "jogo": jogo,
        "is_next": jogo is not None and next_jogo is not None and str(next_jogo.id) == str(jogo.id),
    }


Where = Callable[[Jogo], dict[str, str]]


def _where(state: TournamentState) -> Where:
    """A jogo's group and round as every page names them (``jogo_place``: "Grupo A", "Rodada 2"; "Quartas de
    final"), and the jogo itself as people know it (``jogo_label``: "Quartas de final · jogo 2"), for the lines of
    this page."""
    place, label = jogo_place(state), jogo_label(state)

    def where(jogo: Jogo) -> dict[str, str]:
        _stage, group, round_title = place(jogo)
        return {"group": group, "round": round_title, "title": label(jogo)}

    return where


def _to_answer(dupla: Dupla, jogos: list[Jogo], where: Where) -> list[dict]:
    """This dupla's decided jogos (``jogos``: those awaiting confirmation or contested) still waiting for its
    answer: not yet answered, or contested by it; never a WO it was absent from (``answers_needed``).

    Read from the súmulas as they stand (not from the cached derived views), with a compact summary
    from the dupla's side: the opponent, the partidas, the status, the via.
    """
    out = []
    for jogo in jogos:
        mine, theirs = ("a", "b") if jogo.dupla_a_id == dupla.pk else ("b", "a")
        me = 0 if mine == "a" else 1
        my_answer = jogo.confirmations.get(mine) or {}
        absent = "both" if jogo.walkover == "both" else SIDE_INDEX[jogo.walkover]
        if my_answer.get("answer") == ACCEPTED or (not answers_needed(walkover=absent)[me] and not my_answer):
            continue
        data = sumula_get(tournament=dupla.tournament, jogo=jogo)
        assert data is not None  # the current via: always there
        opponent = jogo.dupla_b if mine == "a" else jogo.dupla_a
        partidas = []
        for p in data.partidas:
            a, b = p.score[me], p.score[1 - me]
            partidas.append(presenters.score_text(a, b) + (" (" + _("perda da partida") + ")" if p.penalty else ""))
        note = ""
        if data.walkover == "both":
            note = _("WO duplo: as duas duplas ausentes")
        elif data.walkover:
            note = _("WO: sua dupla ausente") if data.walkover == dupla.key else _("WO: a dupla adversária ausente")
        elif data.penalty:
            who = _("sua dupla") if data.penalty.lost_by == dupla.key else _("a dupla adversária")
            note = _("perda do jogo (%(who)s): %(reason)s") % {"who": who, "reason": data.penalty.reason}
        their_answer = (jogo.confirmations.get(theirs) or {}).get("answer")
        won = data.score[me], data.score[1 - me]
        out.append(
            {
                "key": jogo.key,
                "via": jogo.via,
                "via_label": via_label(jogo.via),
                "via_reason": jogo.via_reason,
                "status": status_view(jogo.status),
                "mesa": jogo.mesa,
                **where(jogo),
                "opponent": opponent.display_name,
                "partidas": presenters.scores_text(partidas),
                "won": won,
                "outcome": "won" if data.winner == dupla.key else "lost" if data.winner else "",
                "note": note,
                "contested": my_answer.get("answer") == CONTEST,
                "my_reason": my_answer.get("reason", ""),
                "their_answer": their_answer or "",
                "sumula_url": reverse("tournaments:sumula", kwargs={"slug": dupla.tournament.slug, "key": jogo.key}),
                "answer_url": reverse("privatelink:answer", kwargs={"token": dupla.token, "key": jogo.key}),
            }
        )
    return out


def _jogo_head(dupla: Dupla, jogo: Jogo, where: Where) -> dict:
    """What names one of the dupla's jogos in a list: where, when, the opponent, its súmula's public page."""
    opponent = jogo.dupla_b if jogo.dupla_a_id == dupla.pk else jogo.dupla_a
    return {
        "key": jogo.key,
        "via": jogo.via,
        "via_label": via_label(jogo.via),
        "mesa": jogo.mesa,
        **where(jogo),
        "status": status_view(jogo.status),
        "opponent": opponent.display_name,
        "sumula_url": reverse("tournaments:sumula", kwargs={"slug": dupla.tournament.slug, "key": jogo.key}),
    }


def _to_appeal(dupla: Dupla, jogos: list[Jogo], appeals: list[Appeal], where: Where) -> list[dict]:
    """This dupla's jogos (``jogos``: the homologated ones) whose súmula the referee decided against its answer
    (homologated without its confirmation) and that it has not appealed yet: it may appeal to the comissão
    organizadora (AABB Art.6)."""
    out = []
    for jogo in jogos:
        if appeal_refusal(jogo=jogo, dupla=dupla, appeals=appeals) is not None:
            continue
        out.append(
            _jogo_head(dupla, jogo, where)
            | {
                "decision": jogo.signed_reason,
                "appeal_url": reverse("privatelink:appeal", kwargs={"token": dupla.token, "key": jogo.key}),
            }
        )
    return out


def _appeals(dupla: Dupla, appeals: list[Appeal], where: Where) -> list[dict]:
    """The appeals on this dupla's jogos (its own and the opponent's; ``appeals`` in the order of the jogos, then
    filed), each jogo with its appeals: who appealed, when, why, and the comissão's decision or that it waits."""
    out: list[dict] = []
    for appeal in appeals:
        if not out or out[-1]["key"] != appeal.jogo.key:
            out.append(_jogo_head(dupla, appeal.jogo, where) | {"appeals": []})
        out[-1]["appeals"].append(appeal)
    for jogo in out:
        jogo["appeals"] = appeal_notes(jogo["appeals"])
    return out


def _to_score(dupla: Dupla, where: Where) -> list[dict]:
    """This dupla's jogos it may score itself from its link (``may_self_score``), in the order of the event."""
    tournament = dupla.tournament
    if not tournament.allow_self_scoring:
        return []
    jogos = (
        Jogo.objects.filter(tournament_id=dupla.tournament_id, status__in=(SCHEDULED, IN_PROGRESS))
        .filter(Q(dupla_a=dupla) | Q(dupla_b=dupla))
        .select_related(*SUMULA_RELATED)
        .order_by("stage__order", "round", "mesa", "id")
    )
    out = []
    for jogo in jogos:
        if not may_self_score(tournament=tournament, dupla=dupla, jogo=jogo):
            continue
        opponent = jogo.dupla_b if jogo.dupla_a_id == dupla.pk else jogo.dupla_a
        out.append(
            {
                "key": jogo.key,
                "mesa": jogo.mesa,
                **where(jogo),
                "status": status_view(jogo.status),
                "opponent": opponent.display_name,
                "url": reverse("privatelink:score", kwargs={"token": dupla.token, "key": jogo.key}),
            }
        )
    return out


def self_score_present(*, dupla: Dupla, jogo: Jogo, data: Sumula) -> dict:
    """A dupla's scoring screen of its own jogo (``/d/<token>/jogos/<key>/``): the board, the pad of the partida
    being played (the referee's buttons, each a form posting here), the sheet, the undo of the last mão."""
    duplas = [dupla_names(jogo.dupla_a), dupla_names(jogo.dupla_b)]
    phase = phase_of(data.status)
    partidas = data.partidas
    last = partidas[-1] if partidas else None
    last_mao = last.maos[-1].id if last and last.maos else None
    current = data.current
    partida_number: int | None
    if current is not None:
        assert last is not None
        partida_number, points = last.number, list(current)
    elif phase == "entry":
        partida_number, points = len(partidas) + 1, [0, 0]
    else:
        partida_number, points = (last.number, list(last.score)) if last else (None, [0, 0])
    options = data.options
    situation = ""
    if options and phase == "entry":
        if options.situation == "mao_de_onze":
            onze = duplas[0 if options.score[0] == 11 else 1]["short"]
            situation = _("Mão de onze: %(dupla)s decide — aceita vale 3; recusa dá 1 ponto à outra dupla") % {
                "dupla": onze
            }
        elif options.situation == "mao_de_ferro":
            situation = _("Mão de ferro (11 x 11): quem vencer a mão vence a partida")
        else:
            situation = _("Mão normal")
    winner_side = [d["key"] for d in duplas].index(data.winner) if data.winner else None
    answered = any(data.confirmation_details.values())
    mine = 0 if jogo.dupla_a_id == dupla.pk else 1
    return {
        "jogo": jogo,
        "title": jogo_label(tournament_live_get(tournament=dupla.tournament))(jogo),  # never the jogo's key
        "sumula": data,
        "duplas": duplas,
        "mine": mine,
        "opponent": duplas[1 - mine],
        "phase": phase,
        "status": status_view(data.status),
        "partida_number": partida_number,
        "situation": situation,
        "board": [
            {
                "side": i,
                "dupla": duplas[i],
                "won": data.score[i],
                "points": points[i],
                "winner": winner_side == i,
                "mine": i == mine,
            }
            for i in (0, 1)
        ],
        "pad": pad_present(options, duplas) if phase == "entry" else None,
        "sheet": sheet_rows(data, duplas),
        "last_mao": last_mao,
        "may_undo": bool(last_mao) and not answered and phase == "entry",
        "empty": not partidas,
        "sumula_url": reverse("tournaments:sumula", kwargs={"slug": dupla.tournament.slug, "key": jogo.key}),
        "page_url": reverse("privatelink:dupla", kwargs={"token": dupla.token}),
    }


def dupla_page_present_head(*, dupla: Dupla) -> EventHead:
    """The event's head as the dupla's pages show it (name, date, status)."""
    return presenters.event_head(tournament_live_get(tournament=dupla.tournament))
