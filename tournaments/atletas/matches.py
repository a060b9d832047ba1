"""Reads for the atletas' desk (DOMAIN §7.1): likely matches to join, an atleta's registrations to split, the
history of joins and splits. Private to the desk, yet lean: a birth date is never shown, only whether there is
one and how two differ ("só o ano difere"), which is what tells a typo from a namesake.

Scoped by ``permissions.atletas_circuits_of``: a superuser sees every atleta; a circuit's organizer the atletas
who played its etapas (a pair only when both played one circuit of theirs)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from scoring.atleta import name_normalize, names_look_alike

from ..models import Atleta, AtletaAudit, Dupla, Player
from ..permissions import atletas_circuits_of, may_join_atletas
from .services import name_shown

__all__ = [
    "AtletaDesk",
    "LikelyMatch",
    "MatchSide",
    "Played",
    "atleta_desk",
    "atletas_audit_list",
    "atletas_desk_search",
    "atletas_likely_matches",
    "atletas_pair",
]

GROUPS_MAX = 100  # names with more than one atleta shown at once (the search narrows them)
SEARCH_MAX = 80


@dataclass(frozen=True)
class Played:
    """A registration of an atleta: the tournament, the partner, whether a birth date was given."""

    player_id: int
    name: str
    tournament_name: str
    tournament_slug: str
    date: datetime.date | None
    partner: str
    has_birth_date: bool


@dataclass
class MatchSide:
    id: int
    key: str
    name: str
    played: list[Played] = field(default_factory=list)

    @property
    def has_birth_date(self) -> bool:
        return any(p.has_birth_date for p in self.played)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the atleta's registrations, each once, as an atleta would show them (the choices of the
        name it shows)."""
        return tuple(dict.fromkeys(name_shown(p.name) for p in self.played))


@dataclass(frozen=True)
class LikelyMatch:
    keep: MatchSide  # the older atleta (its key stays on a join)
    other: MatchSide
    note: str  # how their birth dates compare (never the dates), or that their names look alike

    @property
    def names(self) -> tuple[str, ...]:
        """The names the atleta may show once the two are joined."""
        return tuple(dict.fromkeys(self.keep.names + self.other.names))


def _words(q: str) -> list[str]:
    return name_normalize(" ".join(q.split())[:SEARCH_MAX]).split()


def _scoped(*, user: Any, q: str) -> tuple[QuerySet[Atleta], dict[int, set[int]] | None]:
    scope = atletas_circuits_of(user=user)
    qs = Atleta.objects.all()
    if scope is not None:
        qs = qs.filter(pk__in=list(scope))
    for word in _words(q):
        qs = qs.filter(name_search__contains=word)
    return qs, scope


def _sides(atletas: list[Atleta]) -> tuple[dict[int, MatchSide], dict[int, list[datetime.date | None]]]:
    """Each atleta with their registrations (two queries: the players, their duplas), and their birth dates (kept
    here to compare, never handed to a page)."""
    sides = {a.pk: MatchSide(id=a.pk, key=a.key, name=a.name) for a in atletas}
    rows = list(
        Player.objects.filter(atleta_id__in=list(sides))
        .order_by("tournament__date", "tournament_id", "id")
        .values_list(
            "id", "atleta_id", "name", "birth_date", "tournament__name", "tournament__slug", "tournament__date"
        )
    )
    partner: dict[int, str] = {}
    ids = [r[0] for r in rows]
    duplas = Dupla.objects.filter(Q(player1_id__in=ids) | Q(player2_id__in=ids)).values_list(
        "player1_id", "player2_id", "player1__name", "player2__name"
    )
    for p1, p2, n1, n2 in duplas:
        partner[p1], partner[p2] = n2 or "", n1 or ""
    dates: dict[int, list[datetime.date | None]] = defaultdict(list)
    for pk, atleta_id, name, birth, t_name, t_slug, t_date in rows:
        sides[atleta_id].played.append(
            Played(
                player_id=pk,
                name=name,
                tournament_name=t_name,
                tournament_slug=t_slug,
                date=t_date,
                partner=partner.get(pk, ""),
                has_birth_date=birth is not None,
            )
        )
        dates[atleta_id].append(birth)
    return sides, dates


def dates_note(*, a: list[datetime.date | None], b: list[datetime.date | None]) -> str:
    """How two atletas' birth dates compare, without saying them."""
    da, db = {d for d in a if d is not None}, {d for d in b if d is not None}
    if not da and not db:
        return _("nenhum dos dois tem data de nascimento")
    if not da or not db:
        return _("um deles não tem data de nascimento")
    if da & db:
        return _("mesma data de nascimento")
    for x in da:
        for y in db:
            if (x.day, x.month) == (y.month, y.day) and x.year == y.year:
                return _("datas de nascimento com dia e mês trocados")
            differ = [x.day != y.day, x.month != y.month, x.year != y.year]
            if sum(differ) == 1:
                if differ[2]:
                    return _("datas de nascimento diferentes só no ano")
                if differ[1]:
                    return _("datas de nascimento diferentes só no mês")
                return _("datas de nascimento diferentes só no dia")
    return _("datas de nascimento diferentes")


def atletas_likely_matches(*, user: Any, q: str = "", groups: int = GROUPS_MAX) -> list[LikelyMatch]:
    """Pairs of atletas who may be one person, that ``user`` may join (``permissions.may_join_atletas``), never
    two who played one same tournament, that a split parted or that someone marked as different people:

    - the same normalized name, their birth dates differing or one missing (the automatic rule left them apart);
      the names come grouped in SQL (one query over ``name_search``, indexed), at most ``groups`` of them;
    - names one typo apart (``scoring.atleta.names_look_alike``: "Ribeiro" / "Riberio") with the same birth date:
      the birth dates shared by more than one atleta found in SQL, the names compared within each date.

    Then the atletas and their registrations, in two queries."""
    qs, scope = _scoped(user=user, q=q)
    if scope is not None and not scope:
        return []
    names = list(
        qs.order_by()
        .values("name_search")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .order_by("name_search")
        .values_list("name_search", flat=True)[:groups]
    )
    same_name = list(qs.filter(name_search__in=names).order_by("name_search", "pk")) if names else []
    typos = _typo_pairs(qs, limit=groups)
    atletas = {a.pk: a for a in same_name} | {a.pk: a for pair in typos for a in pair}
    if not atletas:
        return []
    sides, dates = _sides(list(atletas.values()))
    keys = [a.key for a in atletas.values()]
    parted = {
        frozenset(pair)
        for pair in AtletaAudit.objects.filter(
            action__in=[AtletaAudit.SPLIT, AtletaAudit.DISTINCT], atleta_key__in=keys, other_key__in=keys
        ).values_list("atleta_key", "other_key")
    }
    pairs: list[tuple[Atleta, Atleta, str]] = []
    by_name: dict[str, list[Atleta]] = defaultdict(list)
    for a in same_name:
        by_name[a.name_search].append(a)
    for name in names:
        group = by_name[name]
        pairs += [(a, b, "") for i, a in enumerate(group) for b in group[i + 1 :]]
    typo_note = _("nomes parecidos (talvez erro de digitação) e mesma data de nascimento")
    pairs += [(a, b, typo_note) for a, b in typos]
    out: list[LikelyMatch] = []
    for a, b, note in pairs:
        sa, sb = sides[a.pk], sides[b.pk]
        if {p.tournament_slug for p in sa.played} & {p.tournament_slug for p in sb.played}:
            continue
        if frozenset((a.key, b.key)) in parted:
            continue
        if scope is not None and not (scope.get(a.pk, set()) & scope.get(b.pk, set())):
            continue
        out.append(LikelyMatch(keep=sa, other=sb, note=note or dates_note(a=dates[a.pk], b=dates[b.pk])))
    return out


def _typo_pairs(qs: QuerySet[Atleta], *, limit: int) -> list[tuple[Atleta, Atleta]]:
    """Pairs of atletas of ``qs`` with a birth date in common and names one typo apart (the older atleta first),
    in the order of their names; at most ``limit``. Two queries: the birth dates more than one atleta of ``qs``
    shares, then those atletas' names by date."""
    players = Player.objects.filter(atleta__in=qs.order_by().values("pk"), birth_date__isnull=False)
    shared = (
        players.order_by()
        .values("birth_date")
        .annotate(n=Count("atleta", distinct=True))
        .filter(n__gt=1)
        .values("birth_date")
    )
    by_date: dict[datetime.date | None, dict[int, str]] = defaultdict(dict)  # no None: filtered out
    for birth, atleta_id, name in (
        players.filter(birth_date__in=shared).values_list("birth_date", "atleta_id", "atleta__name_search").distinct()
    ):
        by_date[birth][atleta_id] = name
    found: dict[tuple[int, int], tuple[str, str]] = {}
    for atletas in by_date.values():
        ids = sorted(atletas)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if names_look_alike(atletas[a], atletas[b]):
                    found[(a, b)] = (atletas[a], atletas[b])
    chosen = sorted(found, key=lambda pair: found[pair])[:limit]
    if not chosen:
        return []
    loaded = {a.pk: a for a in Atleta.objects.filter(pk__in={i for pair in chosen for i in pair})}
    return [(loaded[a], loaded[b]) for a, b in chosen if a in loaded and b in loaded]


def atletas_desk_search(*, user: Any, q: str, limit: int = 50) -> list[MatchSide]:
    """The atletas ``user`` may join or split whose name has every word of ``q``, with their registrations."""
    if not _words(q):
        return []
    qs, scope = _scoped(user=user, q=q)
    if scope is not None and not scope:
        return []
    atletas = list(qs.order_by("name_search", "pk")[:limit])
    sides, _dates = _sides(atletas)
    return [sides[a.pk] for a in atletas]


def atletas_pair(*, user: Any, keys: list[str]) -> LikelyMatch | None:
    """Two atletas an organizer picked to join (the older first: its key stays), with their registrations and how
    their birth dates compare; None unless both exist and ``user`` may join them."""
    atletas = list(Atleta.objects.filter(key__in=keys).order_by("pk"))
    if len(atletas) != 2 or not may_join_atletas(user=user, atletas=atletas):
        return None
    sides, dates = _sides(atletas)
    a, b = atletas
    return LikelyMatch(keep=sides[a.pk], other=sides[b.pk], note=dates_note(a=dates[a.pk], b=dates[b.pk]))


@dataclass(frozen=True)
class AtletaDesk:
    atleta: Atleta
    side: MatchSide
    history: list[AtletaAudit]


def atleta_desk(*, user: Any, key: str) -> AtletaDesk | None:
    """An atleta for the desk (registrations to split, joins and splits that named it); None when there is no
    such atleta or ``user`` may not split it."""
    atleta = Atleta.objects.filter(key=key).first()
    if atleta is None or not may_join_atletas(user=user, atletas=[atleta]):
        return None
    sides, _dates = _sides([atleta])
    history = list(
        AtletaAudit.objects.filter(Q(atleta_key=key) | Q(other_key=key))
        .select_related("user")
        .order_by("-at", "-id")[:50]
    )
    return AtletaDesk(atleta=atleta, side=sides[atleta.pk], history=history)


def atletas_audit_list(*, user: Any, limit: int = 30) -> list[AtletaAudit]:
    """The latest joins and splits ``user`` may see: every one for a superuser; else their own, and those that
    named an atleta of their circuits."""
    qs = AtletaAudit.objects.select_related("user").order_by("-at", "-id")
    scope = atletas_circuits_of(user=user)
    if scope is not None:
        keys = list(Atleta.objects.filter(pk__in=list(scope)).values_list("key", flat=True))
        qs = qs.filter(Q(user=user) | Q(atleta_key__in=keys) | Q(other_key__in=keys))
    return list(qs[:limit])
