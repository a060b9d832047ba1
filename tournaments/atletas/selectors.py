"""Reads of the atletas (DOMAIN §7): the site-wide Nível ranking and an atleta's history. Public data only: a
name, a key, the Nível and results of published tournaments (never a birth date or a contact)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import EmptyPage, Paginator
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from scoring.atleta import name_normalize
from scoring.jogo import WALKOVER_BOTH
from scoring.ranking import UNRANKED_LEVEL

from ..models import Atleta, AtletaAudit, Player, Tournament
from ..selectors import tournament_state_get
from ..state import jogo_order

__all__ = [
    "AtletaHistory",
    "RankingPage",
    "atleta_history",
    "atleta_joined_into",
    "atletas_apart",
    "atletas_public",
    "atletas_ranking",
]

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
    apart: str = ""  # what tells this atleta from a namesake ("" without one): ``atletas_apart``


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
    ranks = _ranks(scores=[item["score"] for item in items], start=current.start_index(), searched=bool(query))
    rows: list[RankingRow] = []
    for item in items:
        score = item["score"]
        rows.append(
            RankingRow(
                rank=None if score is None else ranks[score],
                key=item["key"],
                name=item["name"],
                score=score,
                level=item["level"] or UNRANKED_LEVEL,
                played=item["played"] or 0,
                won=item["won"] or 0,
            )
        )
    apart = atletas_apart(atletas=[(r.key, r.name) for r in rows])
    for row in rows:
        row.apart = apart.get(row.key, "")
    return RankingPage(rows=rows, query=query, number=current.number, pages=paginator.num_pages, count=paginator.count)


def atletas_apart(*, atletas: Iterable[tuple[str, str]]) -> dict[str, str]:
    """What tells each of these atletas (key, name) from another atleta of the same name (the same name ignoring
    case, accents and spaces) on a public page: the equipe of their latest registration that names one and the
    city of their latest tournament ("Feras do Truco, Campinas/SP"); only public data of published tournaments (no
    birth date: the site keeps no consent to show even its year). Atletas without a namesake are left out. One
    query."""
    by_name: dict[str, set[str]] = defaultdict(set)
    for key, name in atletas:
        by_name[name_normalize(name)].add(key)
    if not by_name:
        return {}
    rows = (
        Player.objects.filter(atleta__name_search__in=list(by_name), tournament__published=True)
        .order_by(F("tournament__date").desc(nulls_last=True), "-tournament_id", "-id")
        .values_list("atleta__key", "atleta__name_search", "team", "tournament__city")
    )
    namesakes: dict[str, set[str]] = defaultdict(set)
    team: dict[str, str] = {}
    city: dict[str, str] = {}
    for key, name, its_team, its_city in rows:
        namesakes[name].add(key)
        if its_team.strip():
            team.setdefault(key, " ".join(its_team.split()))
        if its_city.strip():
            city.setdefault(key, its_city.strip())
    out: dict[str, str] = {}
    for name, keys in by_name.items():
        if len(namesakes.get(name, ())) < 2:
            continue
        for key in keys:
            said = ", ".join(p for p in (team.get(key), city.get(key)) if p)
            if said:
                out[key] = said
    return out


def _ranks(*, scores: list[int | None], start: int, searched: bool) -> dict[int, int]:
    """Each score of a page's rows (``scores``, in the page's order) → its rank in the whole ranking: 1 + the
    atletas (over everyone, whatever the search) with a higher score. Down the whole ranking a row's position gives
    it, but for the first row of a page (one count); a search's rows are counted over everyone (one query)."""
    distinct = list(dict.fromkeys(score for score in scores if score is not None))
    if not distinct:
        return {}
    if searched:
        counts = atletas_public().aggregate(
            **{f"s{i}": Count("pk", filter=Q(nivel__score__gt=score)) for i, score in enumerate(distinct)}
        )
        return {score: counts[f"s{i}"] + 1 for i, score in enumerate(distinct)}
    out = {distinct[0]: atletas_public().filter(nivel__score__gt=distinct[0]).count() + 1}
    for i, score in enumerate(scores):
        if score is not None and score not in out:
            out[score] = start + i  # a lower score than the row before: its position in the whole ranking
    return out


@dataclass
class HistoryJogo:
    stage: str  # the stage's name as stored; the page names the stage and round as people do (``round_title``)
    round: int | None
    opponent: str
    opponent_dupla_url_key: str
    score: tuple[int, int]  # partidas won: (the atleta's dupla, the opponent)
    outcome: str  # "won" | "lost"
    walkover: bool
    row: Any = None  # the jogo's ``JogoRow``, for the page to name its round (``presenters.jogo_place``)
    round_title: str = ""  # set by the page: "Quartas de final", "Grupo A · Rodada 2", "Disputa de 3º lugar"


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
    state: Any = None  # the tournament's ``TournamentState`` (the page names the jogos' rounds from it)


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
            state=state,
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
                    row=jogo,
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
