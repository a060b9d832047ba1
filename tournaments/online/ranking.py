"""The online ranking (DOMAIN §9.5): each account's score over its counted online partidas, walked by the same rule
as the atletas' Nível (``scoring.ranking.walk_step``), its level and statistics; the ranking's pages; and the link
between an account and an atleta (staff or a circuit organizer).

A partida counts when it ends with a winner (by points or by an abandonment, §9.2) with four people at the table:
no robot. Each account at it walks one step (a guest has no ranking: Marreco). At a tournament jogo's table a
seat is a player of a dupla (``TableSeat.player``): the account linked to that player's atleta walks for it.
Partidas that tie out, never start or end otherwise (a host closing the table) have no log with a winner and do
not count.

``partida_count`` runs inside the write that ends the partida (``services._finish``, the table's row locked), so
the ranking a visitor reads next already has it: a handful of statements on the rows of four accounts, never a
walk over anyone's history. ``ranking_rebuild`` walks every point again (``manage.py`` shells and tests).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.ranking import UNRANKED_LEVEL, WALK_START, Walk, level_slug, player_level, walk_step
from truco.state import SEATS, dupla_of

from ..models import AccountAtleta, Atleta, OnlineProfile, OnlineRating, OnlineRatingPoint, OnlineTable, PartidaLog
from ..models import TableSeat as SeatRow
from ..permissions import may_join_atletas, may_moderate_online
from ..refusals import Refused
from .people import profile_for_user

__all__ = [
    "PER_PAGE",
    "STAT_FIELDS",
    "AtletaOnline",
    "PlayerPage",
    "RankingPage",
    "RankingRow",
    "SeatStats",
    "account_link",
    "account_unlink",
    "atleta_online",
    "may_link_account",
    "partida_count",
    "partida_stats",
    "player_get",
    "player_slug",
    "ranking_page",
    "ranking_rebuild",
]

PER_PAGE: Final = 50
SEARCH_MAX: Final = 60
LAST_PARTIDAS: Final = 20
COUNTED_ENDINGS: Final = frozenset({"points", "abandonment"})
STAT_FIELDS: Final = ("maos", "maos_won", "trucos_asked", "truco_maos", "truco_maos_won", "ran")
ID_PREFIX: Final = "~"  # a player's address by number when the username is an e-mail (never shown publicly)


# --- a partida's statistics, from its log (pure) ---------------------------------------------------------------


@dataclass
class SeatStats:
    """One seat's part of a partida, read from its game log (INTERCHANGE "The game log")."""

    won: bool = False
    abandoned: bool = False
    maos: int = 0  # mãos that ended (one an abandonment cut short is not one)
    maos_won: int = 0
    trucos_asked: int = 0  # truco asked and raises, by this seat
    truco_maos: int = 0  # mãos in which a bet was accepted (a raise accepts the level before it)
    truco_maos_won: int = 0  # of those, the ones this seat's dupla scored
    ran: int = 0  # bets this seat ran from (an answer "false", or its time to answer ran out)

    def stats(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in STAT_FIELDS}


def partida_stats(data: Mapping[str, Any]) -> list[SeatStats]:
    """Each seat's statistics in a finished partida's log (by seat, 0–3). The log is the engine's own (stored
    at the partida's end), so it is read as written; what is missing counts as nothing."""
    out = [SeatStats() for _ in range(SEATS)]
    winner = data.get("winner")
    for seat, stats in enumerate(out):
        stats.won = winner is not None and dupla_of(seat) == winner
        stats.abandoned = data.get("abandoned_by") == seat
    for mao in data.get("maos") or []:
        accepted = False
        for event in mao.get("events") or []:
            kind, seat = event.get("type"), event.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < SEATS:
                continue
            if kind == "bet":
                out[seat].trucos_asked += 1
            elif kind == "answer":
                answer = event.get("accept")
                if answer is True:
                    accepted = True
                elif answer == "raise":
                    accepted = True
                    out[seat].trucos_asked += 1
                elif answer is False:
                    out[seat].ran += 1
            elif kind == "expiry" and event.get("then") == "ran":
                out[seat].ran += 1
        result = mao.get("result")
        if not isinstance(result, Mapping):
            continue
        to = result.get("to")
        for seat, stats in enumerate(out):
            stats.maos += 1
            mine = to is not None and to == dupla_of(seat)
            stats.maos_won += mine
            if accepted:
                stats.truco_maos += 1
                stats.truco_maos_won += mine
    return out


# --- counting a finished partida ------------------------------------------------------------------------------


def _accounts_at(seats: Sequence[SeatRow]) -> dict[int, OnlineProfile] | None:
    """Each seat's account profile (seats of guests left out); None when the table does not count: a robot
    sits, or a seat is empty."""
    if len(seats) != SEATS or any(row.robot or (row.profile_id is None and row.player_id is None) for row in seats):
        return None
    out: dict[int, OnlineProfile] = {}
    linked: dict[int, int] = {}
    players = {row.seat: row.player_id for row in seats if row.player_id is not None}
    if players:
        from ..models import Player

        atleta_of = dict(Player.objects.filter(pk__in=players.values()).values_list("pk", "atleta_id"))
        atletas = {a for a in atleta_of.values() if a is not None}
        users = dict(
            AccountAtleta.objects.filter(atleta_id__in=atletas, ended_at__isnull=True).values_list(
                "atleta_id", "user_id"
            )
        )
        for seat, player_id in players.items():
            user_id = users.get(atleta_of.get(player_id) or 0)
            if user_id is not None:
                linked[seat] = user_id
    for row in seats:
        profile = row.profile
        if profile is not None and profile.user_id is not None:
            out[row.seat] = profile
        elif row.seat in linked:
            from django.contrib.auth import get_user_model

            user = get_user_model().objects.filter(pk=linked[row.seat], is_active=True).first()
            if user is not None:
                out[row.seat] = profile_for_user(user=user)
    # one account walks once per partida, whatever seats it reached
    seen: set[int] = set()
    for seat in sorted(out):
        if out[seat].pk in seen:
            del out[seat]
        else:
            seen.add(out[seat].pk)
    return out


def partida_count(*, log: PartidaLog, seats: Sequence[SeatRow]) -> list[int]:
    """Count a partida that just ended (its log saved, the table's row locked) in the online ranking: one step
    of the walk for each account at it (DOMAIN §9.5). Returns the profiles that walked (none when it does not
    count)."""
    if log.winner is None or log.ended_by not in COUNTED_ENDINGS:
        return []
    accounts = _accounts_at(seats)
    if not accounts:
        return []
    stats = partida_stats(log.data)
    ids = sorted(p.pk for p in accounts.values())
    with transaction.atomic():
        OnlineRating.objects.bulk_create(
            [OnlineRating(profile_id=pid, updated_at=log.finished_at) for pid in ids], ignore_conflicts=True
        )
        # the rows in one order: two tables ending at once with a player in common wait, never deadlock
        ratings = {r.pk: r for r in OnlineRating.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
        points = []
        for seat, profile in sorted(accounts.items()):
            rating = ratings[profile.pk]
            mine = stats[seat]
            walk = walk_step(
                Walk(played=rating.played, won=rating.won, abandoned=rating.abandoned, score=rating.score),
                won=mine.won,
                abandoned=mine.abandoned,
            )
            rating.played, rating.won, rating.abandoned, rating.score = walk
            rating.level = player_level(score=walk.score)
            for name in STAT_FIELDS:
                setattr(rating, name, getattr(rating, name) + getattr(mine, name))
            rating.updated_at = log.finished_at
            points.append(
                OnlineRatingPoint(
                    profile_id=profile.pk,
                    log=log,
                    n=walk.played,
                    seat=seat,
                    won=mine.won,
                    abandoned=mine.abandoned and not mine.won,
                    score=walk.score,
                    at=log.finished_at,
                    **mine.stats(),
                )
            )
        OnlineRating.objects.bulk_update(
            list(ratings.values()),
            ["played", "won", "abandoned", "score", "level", "updated_at", *STAT_FIELDS],
        )
        OnlineRatingPoint.objects.bulk_create(points)
    return ids


def ranking_rebuild(*, profile_ids: Iterable[int] | None = None) -> int:
    """Walk the counted partidas of these accounts (None: every account with one) again from their points, in
    the order they ended, and store their ratings: what ``partida_count`` kept step by step. Returns how many
    accounts it wrote."""
    points = OnlineRatingPoint.objects.order_by("profile_id", "at", "log_id")
    if profile_ids is not None:
        points = points.filter(profile_id__in=list(profile_ids))
    by_profile: dict[int, list[OnlineRatingPoint]] = {}
    for point in points:
        by_profile.setdefault(point.profile_id, []).append(point)
    with transaction.atomic():
        for profile_id, rows in by_profile.items():
            walk = WALK_START
            totals = dict.fromkeys(STAT_FIELDS, 0)
            for point in rows:
                walk = walk_step(walk, won=point.won, abandoned=point.abandoned)
                if point.score != walk.score:
                    OnlineRatingPoint.objects.filter(pk=point.pk).update(score=walk.score)
                for name in STAT_FIELDS:
                    totals[name] += getattr(point, name)
            OnlineRating.objects.update_or_create(
                profile_id=profile_id,
                defaults={
                    "played": walk.played,
                    "won": walk.won,
                    "abandoned": walk.abandoned,
                    "score": walk.score,
                    "level": player_level(score=walk.score),
                    "updated_at": rows[-1].at,
                    **totals,
                },
            )
    return len(by_profile)


# --- addresses ------------------------------------------------------------------------------------------------


def player_slug(*, username: str, profile_id: int) -> str:
    """The player's address (``/jogar/jogadores/<slug>/``): the account's username, or ``~<profile>`` when the
    username is an e-mail address (a public page never shows one)."""
    return f"{ID_PREFIX}{profile_id}" if "@" in username else username


def _profile_by_slug(slug: str) -> OnlineProfile | None:
    if slug.startswith(ID_PREFIX):
        number = slug[len(ID_PREFIX) :]
        if not number.isdigit() or len(number) > 12:
            return None
        profile = OnlineProfile.objects.select_related("user").filter(pk=int(number), user__isnull=False).first()
        if profile is None or profile.user is None or "@" not in profile.user.get_username():
            return None  # an account with a plain username is found by it, not by number
        return profile
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=slug, is_active=True).first()
    if user is None or "@" in slug:
        return None
    return profile_for_user(user=user)


# --- the ranking's page ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankingRow:
    rank: int
    slug: str
    name: str
    avatar: str
    score: int
    level: str
    level_slug: str
    played: int
    won: int
    abandoned: int


@dataclass(frozen=True, slots=True)
class RankingPage:
    rows: list[RankingRow]
    query: str
    number: int
    pages: int
    count: int  # accounts listed (those the search finds)


def _ranked() -> Any:
    """The accounts listed: a rating with a counted partida (only accounts have one: ``partida_count``), less
    the deactivated accounts (a short list read once per statement, not a join over every rating)."""
    inactive = OnlineProfile.objects.filter(user__is_active=False).values("pk")
    return OnlineRating.objects.filter(played__gt=0).exclude(profile_id__in=inactive)


def ranking_page(*, q: str = "", page: int = 1, per_page: int = PER_PAGE) -> RankingPage:
    """The online ranking: accounts with a counted partida, by score (higher first; the same score shares the
    rank), then more partidas won, then who got there first. ``q``: every word in the display name (case
    ignored). A page past the last gives the last. Three or four statements: the count, the page's accounts, their
    names, and the ranks when the page starts in a tie or searches."""
    query = " ".join(str(q).split())[:SEARCH_MAX]
    qs = _ranked()
    for word in query.split():
        qs = qs.filter(profile__display_name__icontains=word)
    count = qs.count()
    pages = max(1, math.ceil(count / per_page))
    number = min(max(1, page), pages)
    start = (number - 1) * per_page
    # the page's accounts by the index alone, then their names: a deep page skips rows, not joins
    ids = list(
        qs.order_by("-score", "-won", "profile_id").values_list("profile_id", flat=True)[start : start + per_page]
    )
    found = {
        item[0]: item
        for item in OnlineRating.objects.filter(pk__in=ids).values_list(
            "profile_id",
            "profile__display_name",
            "profile__avatar",
            "profile__user__username",
            "score",
            "level",
            "played",
            "won",
            "abandoned",
        )
    }
    items = [found[pk] for pk in ids if pk in found]
    ranks = _ranks(items=[item[4] for item in items], start=start, searched=bool(query))
    rows = [
        RankingRow(
            rank=rank,
            slug=player_slug(username=username, profile_id=pid),
            name=name,
            avatar=avatar,
            score=score,
            level=level,
            level_slug=level_slug(level),
            played=played,
            won=won,
            abandoned=abandoned,
        )
        for rank, (pid, name, avatar, username, score, level, played, won, abandoned) in zip(ranks, items, strict=True)
    ]
    return RankingPage(rows=rows, query=query, number=number, pages=pages, count=count)


def _ranks(*, items: list[int], start: int, searched: bool) -> list[int]:
    """The rank of each score on a page (the same score shares the rank: 1, 1, 3). Listing everyone, a row's
    place is its position, so only the page's first score, when it continues a tie from the page before, asks
    the database how many are above it; a search asks once per distinct score on the page."""
    if not items:
        return []
    if searched:
        scores = sorted(set(items), reverse=True)
        above = _ranked().aggregate(**{f"s{i}": Count("pk", filter=Q(score__gt=s)) for i, s in enumerate(scores)})
        first = {s: above[f"s{i}"] + 1 for i, s in enumerate(scores)}
        return [first[s] for s in items]
    ranks: list[int] = []
    for i, score in enumerate(items):
        if i == 0:
            ranks.append(1 if start == 0 else _ranked().filter(score__gt=score).count() + 1)
        elif score == items[i - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(start + i + 1)
    return ranks


# --- a player's page ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartidaItem:
    table_id: int
    n: int
    at: datetime
    won: bool
    abandoned: bool
    score: int  # after it
    tournament: bool  # a tournament jogo's partida


@dataclass(frozen=True, slots=True)
class AtletaLink:
    key: str
    name: str
    nivel_score: int | None
    nivel_level: str


@dataclass
class PlayerPage:
    profile_id: int
    user_id: int
    slug: str
    name: str
    avatar: str
    level: str
    level_slug: str
    score: int | None  # None: no counted partida yet (Marreco)
    rank: int | None
    played: int = 0
    won: int = 0
    abandoned: int = 0
    stats: dict[str, int] = field(default_factory=dict)
    points: list[tuple[int, int, datetime]] = field(default_factory=list)  # (n, score, at), in order
    last: list[PartidaItem] = field(default_factory=list)
    atleta: AtletaLink | None = None


def player_get(*, slug: str) -> PlayerPage | None:
    """An account's public page: its level, score and rank, statistics, the score after each counted partida,
    the last partidas and its atleta (with the Nível) when linked. None when no active account has this
    address."""
    profile = _profile_by_slug(str(slug)[:160])
    if profile is None or profile.user is None or not profile.user.is_active:
        return None
    rating = OnlineRating.objects.filter(pk=profile.pk).first()
    played = rating.played if rating is not None else 0
    score = rating.score if rating is not None and played else None
    level = player_level(score=score) if score is not None else UNRANKED_LEVEL
    page = PlayerPage(
        profile_id=profile.pk,
        user_id=profile.user_id or 0,
        slug=player_slug(username=profile.user.get_username() if profile.user else "", profile_id=profile.pk),
        name=profile.display_name,
        avatar=profile.avatar,
        level=level,
        level_slug=level_slug(level),
        score=score,
        rank=None if score is None else _ranked().filter(score__gt=score).count() + 1,
    )
    if rating is not None and played:
        page.played, page.won, page.abandoned = rating.played, rating.won, rating.abandoned
        page.stats = {name: getattr(rating, name) for name in STAT_FIELDS}
        page.points = list(
            OnlineRatingPoint.objects.filter(profile=profile).order_by("n").values_list("n", "score", "at")
        )
        last = (
            OnlineRatingPoint.objects.filter(profile=profile)
            .order_by("-n")
            .values_list("log__table_id", "log__n", "at", "won", "abandoned", "score", "log__table__kind")[
                :LAST_PARTIDAS
            ]
        )
        page.last = [
            PartidaItem(table_id=t, n=n, at=at, won=won, abandoned=ab, score=s, tournament=kind == OnlineTable.TORNEIO)
            for t, n, at, won, ab, s, kind in last
        ]
    page.atleta = _atleta_of(profile.user_id or 0)
    return page


def _atleta_of(user_id: int) -> AtletaLink | None:
    link = (
        AccountAtleta.objects.filter(user_id=user_id, ended_at__isnull=True)
        .select_related("atleta", "atleta__nivel")
        .first()
    )
    if link is None:
        return None
    atleta = link.atleta
    nivel = getattr(atleta, "nivel", None)
    return AtletaLink(
        key=atleta.key,
        name=atleta.name,
        nivel_score=nivel.score if nivel is not None else None,
        nivel_level=nivel.level if nivel is not None else UNRANKED_LEVEL,
    )


@dataclass(frozen=True, slots=True)
class AtletaOnline:
    """The online side of an atleta's page: the linked account's name, address, level and score."""

    slug: str
    name: str
    avatar: str
    level: str
    level_slug: str
    score: int | None
    played: int
    won: int


def atleta_online(*, atleta_id: int) -> AtletaOnline | None:
    """The account linked to this atleta, with its online ranking (None: no account linked)."""
    link = AccountAtleta.objects.filter(atleta_id=atleta_id, ended_at__isnull=True, user__is_active=True).first()
    if link is None:
        return None
    profile = profile_for_user(user=link.user)
    rating = OnlineRating.objects.filter(pk=profile.pk, played__gt=0).first()
    score = rating.score if rating is not None else None
    level = player_level(score=score) if score is not None else UNRANKED_LEVEL
    return AtletaOnline(
        slug=player_slug(username=link.user.get_username(), profile_id=profile.pk),
        name=profile.display_name,
        avatar=profile.avatar,
        level=level,
        level_slug=level_slug(level),
        score=score,
        played=rating.played if rating is not None else 0,
        won=rating.won if rating is not None else 0,
    )


# --- linking an account to an atleta --------------------------------------------------------------------------


def may_link_account(*, user: Any, atleta: Atleta | None = None) -> bool:
    """Link or unlink an account and an atleta (DOMAIN §9.5): the site's staff; or a circuit's organizer for an
    atleta who played an etapa of one of their circuits (the rule of joining atletas, ``may_join_atletas``).
    Without ``atleta``: whether ``user`` may link some atleta at all (the form is shown)."""
    if may_moderate_online(user=user):
        return True
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if atleta is None:
        from ..models import Circuit

        return Circuit.objects.filter(created_by=user).exists()
    return may_join_atletas(user=user, atletas=[atleta])


def account_link(*, by: Any, user_id: int, atleta_key: str, reason: str, now: datetime | None = None) -> AccountAtleta:
    """Link account ``user_id`` to the atleta ``atleta_key`` (``a7``), recorded with who, when and why. Refused
    (in Portuguese) when ``by`` may not, the atleta does not exist, or either is linked already."""
    key = str(atleta_key or "").strip()[:20]
    reason = " ".join(str(reason or "").split())[:300]
    atleta = Atleta.objects.filter(key=key).first() if key else None
    if atleta is None:
        raise Refused.invalid(_("Não há atleta com o código “%(key)s”.") % {"key": key})
    if not may_link_account(user=by, atleta=atleta):
        raise Refused.forbidden(
            _("Só a equipe do site ou quem organiza um circuito em que este atleta jogou liga uma conta a ele.")
        )
    if not reason:
        raise Refused.invalid(_("Diga o motivo da ligação."))
    try:
        with transaction.atomic():
            if AccountAtleta.objects.filter(user_id=user_id, ended_at__isnull=True).exists():
                raise Refused.conflict(_("Esta conta já está ligada a um atleta: desligue antes."))
            if AccountAtleta.objects.filter(atleta=atleta, ended_at__isnull=True).exists():
                raise Refused.conflict(_("Este atleta já está ligado a outra conta."))
            return AccountAtleta.objects.create(
                user_id=user_id, atleta=atleta, reason=reason, by=by, at=now or timezone.now()
            )
    except IntegrityError:  # linked meanwhile by another request
        raise Refused.conflict(_("Esta conta ou este atleta acabou de ser ligado.")) from None


def account_unlink(*, by: Any, user_id: int, now: datetime | None = None) -> None:
    """End the account's live link to its atleta (the row stays, with who and when)."""
    link = AccountAtleta.objects.filter(user_id=user_id, ended_at__isnull=True).select_related("atleta").first()
    if link is None:
        raise Refused.conflict(_("Esta conta não está ligada a nenhum atleta."))
    if not may_link_account(user=by, atleta=link.atleta):
        raise Refused.forbidden(
            _("Só a equipe do site ou quem organiza um circuito em que este atleta jogou desliga uma conta dele.")
        )
    AccountAtleta.objects.filter(pk=link.pk, ended_at__isnull=True).update(ended_at=now or timezone.now(), ended_by=by)
