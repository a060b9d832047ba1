"""Reads of the atletas (DOMAIN §7): the site-wide Nível ranking and an atleta's history. Public data only: a
name, a key, the Nível and results of published tournaments (never a birth date or a contact)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import EmptyPage, Paginator
from django.db.models import Exists, F, OuterRef, QuerySet

from scoring.atleta import name_normalize
from scoring.jogo import WALKOVER_BOTH
from scoring.ranking import UNRANKED_LEVEL

from ..models import Atleta, AtletaAudit, Player, Tournament
from ..selectors import tournament_state_get
from ..state import jogo_order

__all__ = ["AtletaHistory", "RankingPage", "atleta_history", "atleta_joined_into", "atletas_public", "atletas_ranking"]

PER_PAGE = 50
SEARCH_MAX = 80  # characters of a search kept (the box allows as many)


def atletas_public() -> QuerySet[Atleta]:
    """The atletas a visitor may see: those with a player in a published tournament."""
    published = Player.objects.filter(atleta_id=OuterRef("pk"), tournament__published=True)
    return Atleta.objects.filter(Exists(published))


@dataclass
class RankingRow:
    rank: int | None  # None: no counted jogo yet (Marreco)
    key: str
    name: str
    score: int | None
    level: str
    played: int
    won: int


@dataclass
class RankingPage:
    rows: list[RankingRow]
    query: str
    number: int
    pages: int
    count: int


def atletas_ranking(*, q: str = "", page: int = 1, per_page: int = PER_PAGE) -> RankingPage:
    """The site-wide Nível ranking: by score (higher first; atletas with the same score share the rank), then
    by more jogos won, then by name; atletas with no counted jogo (Marreco) after, by name. ``q``: every word in
    the name, ignoring case, accents and repeated spaces. A page past the last gives the last."""
    query = " ".join(q.split())[:SEARCH_MAX]
    qs = atletas_public()
    for word in name_normalize(query).split():
        qs = qs.filter(name_search__contains=word)
    qs = qs.annotate(
        score=F("nivel__score"),
        level=F("nivel__level"),
        played=F("nivel__played"),
        won=F("nivel__won"),
    ).order_by(F("nivel__score").desc(nulls_last=True), F("nivel__won").desc(nulls_last=True), "name_search", "pk")
    paginator = Paginator(qs.values("key", "name", "score", "level", "played", "won"), per_page)
    try:
        current = paginator.page(page)
    except EmptyPage:
        current = paginator.page(paginator.num_pages)
    items = list(current.object_list)
    rows: list[RankingRow] = []
    rank: int | None = None
    previous: int | None = None
    for i, item in enumerate(items):
        score = item["score"]
        if score is None:
            rank = None
        elif previous is None or score != previous:
            # the first row of a page, or a lower score: 1 + the atletas with a higher score (over everyone)
            if i == 0:
                rank = atletas_public().filter(nivel__score__gt=score).count() + 1
            else:
                rank = current.start_index() + i
        previous = score
        rows.append(
            RankingRow(
                rank=rank,
                key=item["key"],
                name=item["name"],
                score=score,
                level=item["level"] or UNRANKED_LEVEL,
                played=item["played"] or 0,
                won=item["won"] or 0,
            )
        )
    return RankingPage(rows=rows, query=query, number=current.number, pages=paginator.num_pages, count=paginator.count)


@dataclass
class HistoryJogo:
    stage: str
    round: int | None
    opponent: str
    opponent_dupla_url_key: str
    score: tuple[int, int]  # partidas won: (the atleta's dupla, the opponent)
    outcome: str  # "won" | "lost"
    walkover: bool


@dataclass
class HistoryEvent:
    tournament: Tournament
    date: datetime.date | None
    dupla_key: str | None
    dupla_name: str
    partner: str
    partner_key: str | None  # the partner's atleta key
    place: int | None  # in the general classification, once final
    medal: str | None
    finished: bool
    jogos: list[HistoryJogo] = field(default_factory=list)
    circuit: Any = None  # ``circuits.selectors.EtapaPoints`` when the tournament is an etapa (set by the page)


@dataclass
class AtletaHistory:
    atleta: Atleta
    score: int | None
    level: str
    played: int
    won: int
    walkovers_lost: int
    events: list[HistoryEvent]


def atleta_history(*, key: str) -> AtletaHistory | None:
    """An atleta by public key, with the Nível and every published tournament played, newest first (with their
    counted jogos in order of play); None for an unknown key or an atleta seen only in drafts."""
    atleta = atletas_public().filter(key=key).select_related("nivel").first()
    if atleta is None:
        return None
    players = list(
        Player.objects.filter(atleta=atleta, tournament__published=True)
        .select_related("tournament")
        .order_by(F("tournament__date").desc(nulls_last=True), "-tournament_id", "-id")
    )
    events: list[HistoryEvent] = []
    partners: dict[int, HistoryEvent] = {}
    for player in players:
        t = player.tournament
        state = tournament_state_get(tournament=t)
        dupla = next(
            (d for d in state.duplas.values() if player.key in (d.player1.key, d.player2.key)),
            None,
        )
        event = HistoryEvent(
            tournament=t,
            date=t.date,
            dupla_key=dupla.key if dupla else None,
            dupla_name=dupla.display_name if dupla else "",
            partner="",
            partner_key=None,
            place=None,
            medal=None,
            finished=state.view.finished,
        )
        events.append(event)
        if dupla is None:
            continue
        mate = dupla.player2 if dupla.player1.key == player.key else dupla.player1
        event.partner = mate.name
        partners[mate.id] = event
        if state.view.finished:
            for row in state.view.classification:
                if row.dupla == dupla.key:
                    event.place, event.medal = row.place, row.medal
        stage_order = {s.id: s.order for s in state.stage_models.values()}
        stage_name = {s.key: str(s) for s in state.stage_models.values()}
        for jogo in sorted(state.jogo_rows, key=lambda r: jogo_order(r, stage_order)):
            record = state.record_by_jogo.get(jogo.id)
            if record is None or not record.result.finished or dupla.key not in record.duplas:
                continue
            side = record.duplas.index(dupla.key)
            other = state.duplas.get(record.duplas[1 - side])
            res = record.result
            won = res.winner == side
            event.jogos.append(
                HistoryJogo(
                    stage=stage_name.get(record.stage, record.stage),
                    round=record.round,
                    opponent=other.display_name if other else record.duplas[1 - side],
                    opponent_dupla_url_key=record.duplas[1 - side],
                    score=(res.partidas_won[side], res.partidas_won[1 - side]),
                    outcome="won" if won else "lost",
                    walkover=res.walkover is not None and (res.walkover == WALKOVER_BOTH or res.walkover in (0, 1)),
                )
            )
    if partners:
        for pk, atleta_key in Player.objects.filter(pk__in=partners).values_list("pk", "atleta__key"):
            partners[pk].partner_key = atleta_key
    nivel = getattr(atleta, "nivel", None)
    return AtletaHistory(
        atleta=atleta,
        score=nivel.score if nivel else None,
        level=nivel.level if nivel else UNRANKED_LEVEL,
        played=nivel.played if nivel else 0,
        won=nivel.won if nivel else 0,
        walkovers_lost=nivel.walkovers_lost if nivel else 0,
        events=events,
    )


def players_public(*, player_ids: list[int]) -> dict[int, tuple[str, str]]:
    """Each of these players' atleta key ("" without one) and equipe ("" without one): one query, public data."""
    rows = Player.objects.filter(pk__in=player_ids).values_list("pk", "atleta__key", "team")
    return {pk: (key or "", team) for pk, key, team in rows}


def atleta_keys(*, player_ids: list[int]) -> dict[int, str]:
    """The atleta key of each of these players (one query; a player without an atleta is left out)."""
    return dict(Player.objects.filter(pk__in=player_ids, atleta__isnull=False).values_list("pk", "atleta__key"))


def atleta_joined_into(*, key: str) -> str | None:
    """The public key an atleta's old ``key`` now leads to, when a join on the desk removed it (followed through
    later joins); None when it leads nowhere public (no such join, or the atleta kept is gone or unpublished)."""
    seen = {key}
    for _ in range(20):  # a chain of joins, each a step
        nxt = (
            AtletaAudit.objects.filter(action=AtletaAudit.JOIN, other_key=key)
            .order_by("-at", "-id")
            .values_list("atleta_key", flat=True)
            .first()
        )
        if nxt is None or nxt in seen:
            return None
        if atletas_public().filter(key=nxt).exists():
            return nxt
        seen.add(nxt)
        key = nxt
    return None
