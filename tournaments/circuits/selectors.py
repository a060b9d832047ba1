"""Reads of circuits (DOMAIN §7.3): the season ranking as it stands, or as it stood after an etapa, with each
atleta's results per etapa, movement, qualification and the equipe ranking. Public data only (names, keys,
places and points).

``circuit_standing`` reads five rows sets (the circuit, its etapas, the etapas' places with their atletas, its
exclusions and sorteios), computes the ranking in ``scoring.circuit`` and keeps it in the shared cache under the
circuit's version, which every write of the circuit and every change of an etapa's places moves.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import caches
from django.db.models import F, QuerySet

from scoring.circuit import (
    ALTERNATE,
    QUALIFIED,
    TIED,
    CircuitRow,
    EtapaScore,
    Qualify,
    TeamRow,
    circuit_movement,
    circuit_qualify,
    circuit_ranking,
    points_table_parse,
    team_ranking,
)

from ..caching import CACHE_ERRORS, SHARED, release
from ..models import Atleta, Circuit, CircuitAudit, CircuitEtapa, CircuitExclusion, CircuitSorteio, EtapaPlace
from ..roles import display_name
from .places import season_etapas, season_places

__all__ = [
    "CircuitStanding",
    "EtapaColumn",
    "EtapaPoints",
    "StandingRow",
    "atleta_circuit_points",
    "circuit_audit",
    "circuit_etapas",
    "circuit_exclusions",
    "circuit_finished",
    "circuit_get",
    "circuit_of",
    "circuit_sorteios",
    "circuit_standing",
    "circuits_public",
]

CACHE_SECONDS = 24 * 3600


def circuits_public() -> QuerySet[Circuit]:
    """Every circuit on the site, newest first, with how many etapas it shows (a draft etapa is not counted: a
    draft stays invisible to the public until it is published)."""
    from django.db.models import Count, Q

    shown = Count("etapas", filter=Q(etapas__tournament__published=True))
    return Circuit.objects.annotate(etapa_count=shown).order_by("-created_at", "-id")


def circuit_get(*, slug: str) -> Circuit | None:
    return Circuit.objects.filter(slug=slug).first()


def circuit_etapas(*, circuit: Circuit, public: bool = False) -> list[CircuitEtapa]:
    """The etapas in calendar order (the tournament's date; the order given where dates are equal or missing).
    ``public``: only the published ones. A draft attached to a circuit stays invisible to the public (its name,
    date and slug, its places) and counts in no ranking until it is published: every ranking, page and file
    reads the public etapas; the circuit's desk lists them all."""
    etapas = CircuitEtapa.objects.filter(circuit=circuit)
    if public:
        etapas = etapas.filter(tournament__published=True)
    return list(etapas.select_related("tournament").order_by(F("tournament__date").asc(nulls_last=True), "order", "id"))


def circuit_exclusions(*, circuit: Circuit) -> list[CircuitExclusion]:
    """The atletas excluded from the circuit's ranking, by name."""
    return list(
        CircuitExclusion.objects.filter(circuit=circuit)
        .select_related("atleta")
        .order_by("atleta__name_search", "atleta__name")
    )


def circuit_audit(*, circuit: Circuit, limit: int = 100) -> list[CircuitAudit]:
    """The circuit's last ``limit`` audit entries, newest first, with who did them."""
    return list(CircuitAudit.objects.filter(circuit=circuit).select_related("user").order_by("-at", "-id")[:limit])


@dataclass(frozen=True, slots=True)
class SorteioMade:
    at: datetime.datetime
    user: str  # the account that drew it ("" when unknown: an import, an account since deleted)
    atletas: tuple[str, ...]  # names, the first ahead


def circuit_sorteios(*, circuit: Circuit) -> list[SorteioMade]:
    """The sorteios recorded for the circuit, oldest first, with who drew each (from its audit entry)."""
    sorteios = list(CircuitSorteio.objects.filter(circuit=circuit).order_by("at", "id"))
    audits = list(
        CircuitAudit.objects.filter(circuit=circuit, action="sorteio").select_related("user").order_by("at", "id")
    )
    keys = {k for s in sorteios for k in s.atletas}
    names = dict(Atleta.objects.filter(key__in=keys).values_list("key", "name"))
    out = []
    for sorteio in sorteios:
        audit = next((a for a in audits if (a.after or {}).get("atletas") == sorteio.atletas), None)
        if audit is not None:
            audits.remove(audit)
        out.append(
            SorteioMade(
                at=sorteio.at,
                user=display_name(audit.user) if audit is not None else "",
                atletas=tuple(names.get(k, k) for k in sorteio.atletas),
            )
        )
    return out


def circuit_finished(*, circuit: Circuit) -> frozenset[str]:
    """The slugs of the circuit's finished etapas (those with places kept), in one query: what a ranking "after"
    an earlier etapa cannot tell."""
    return frozenset(
        EtapaPlace.objects.filter(tournament__circuit_etapa__circuit=circuit, tournament__published=True)
        .values_list("tournament__slug", flat=True)
        .distinct()
    )


def circuit_of(*, tournament_id: int) -> Circuit | None:
    """The circuit this tournament is an etapa of (one query), or None."""
    return Circuit.objects.filter(etapas__tournament_id=tournament_id).first()


@dataclass(frozen=True, slots=True)
class EtapaColumn:
    key: str  # the tournament's slug
    name: str
    date: datetime.date | None
    weight: int
    final: bool
    finished: bool  # its classification is final: it counts
    published: bool


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    key: str
    name: str
    points: int
    etapas: int
    places: tuple[int, int, int]
    results: dict[str, EtapaScore]  # by etapa key
    movement: int | None  # places gained since the previous finished etapa; None: new in the ranking
    qualify: str  # qualified / alternate / tied / out; "" without qualification
    tied_line: str  # for "tied": the line the tie crosses (qualified / alternate)
    team: str


@dataclass(frozen=True, slots=True)
class CircuitStanding:
    circuit_name: str
    circuit_slug: str
    version: int
    etapas: tuple[EtapaColumn, ...]  # every etapa, in calendar order
    after: str | None  # the etapa the ranking is "after" (``?apos=``); None: as it stands
    counted: tuple[str, ...]  # the finished etapas the ranking is over
    previous: str | None  # the finished etapa before the last one counted (movement is since then)
    rows: tuple[StandingRow, ...]
    teams: tuple[TeamRow, ...]
    qualify: Qualify | None
    count_best: int | None
    points: dict[str, int]


def _columns(*, etapas: list[CircuitEtapa], finished: set[int]) -> tuple[EtapaColumn, ...]:
    return tuple(
        EtapaColumn(
            key=e.tournament.slug,
            name=e.tournament.name,
            date=e.tournament.date,
            weight=e.weight,
            final=e.final,
            finished=e.tournament_id in finished,
            published=e.tournament.published,
        )
        for e in etapas
    )


def _key(circuit: Circuit, after: str | None) -> str:
    return f"circuit:{release()}:{circuit.pk}.{circuit.created_at.timestamp():.6f}:v{circuit.version}:{after or ''}"


def circuit_standing(*, circuit: Circuit, after: str | None = None) -> CircuitStanding | None:
    """The ranking over the finished etapas (up to and including ``after``, an etapa's slug); None when
    ``after`` names no etapa of this circuit."""
    key = _key(circuit, after)
    cache = caches[SHARED]
    try:
        kept = cache.get(key)
    except CACHE_ERRORS:
        kept = None
    if isinstance(kept, CircuitStanding):
        return kept
    standing = _standing_compute(circuit=circuit, after=after)
    if standing is not None:
        try:
            cache.set(key, standing, CACHE_SECONDS)
        except CACHE_ERRORS:
            pass
    return standing


def _standing_compute(*, circuit: Circuit, after: str | None) -> CircuitStanding | None:
    if after is None and circuit.closed_at is not None:
        from .archive import circuit_frozen  # a closed season: the ranking stored when it closed

        frozen = circuit_frozen(circuit=circuit)
        if frozen is not None:
            return frozen
    etapas = circuit_etapas(circuit=circuit, public=True)
    slugs = [e.tournament.slug for e in etapas]
    if after is not None:
        if after not in slugs:
            return None
        etapas_in = etapas[: slugs.index(after) + 1]
    else:
        etapas_in = etapas
    read = season_places(tournament_ids=[e.tournament_id for e in etapas_in], by_key=True)
    names = read.names
    finished = read.finished()
    scored = season_etapas(etapas=etapas_in, read=read, finished=finished, key=lambda e: e.tournament.slug)
    excluded = set(CircuitExclusion.objects.filter(circuit=circuit).values_list("atleta__key", flat=True))
    drawn = [k for s in CircuitSorteio.objects.filter(circuit=circuit).order_by("at", "id") for k in s.atletas]
    table = points_table_parse(circuit.points)
    ranking = circuit_ranking(etapas=scored, table=table, count_best=circuit.count_best, excluded=excluded, names=names)
    counted = [e for e in scored if e.finished]
    previous: list[CircuitRow] = []
    previous_key = None
    if len(counted) > 1:
        previous_key = counted[-2].key
        cut = scored[: [e.key for e in scored].index(counted[-1].key)]
        previous = circuit_ranking(etapas=cut, table=table, count_best=circuit.count_best, excluded=excluded)
    movement = circuit_movement(before=previous, after=ranking) if previous else {}
    qualify = None
    states = {}
    if circuit.qualify_top:
        qualify = Qualify(
            top=circuit.qualify_top, min_etapas=circuit.qualify_min_etapas, alternates=circuit.qualify_alternates
        )
        states = circuit_qualify(
            etapas=scored, table=table, qualify=qualify, count_best=circuit.count_best, excluded=excluded, drawn=drawn
        )
    teams = read.team_latest(order=[e.tournament_id for e in etapas_in])  # the equipe of their latest etapa
    if circuit.previous_id is not None:  # else the one carried from the season before (``archive``)
        from .archive import equipes_carried

        teams = {**equipes_carried(circuit=circuit, by_key=True), **teams}
    out_rows = tuple(
        StandingRow(
            rank=row.rank,
            key=row.atleta,
            name=names.get(row.atleta, row.atleta),
            points=row.points,
            etapas=row.etapas,
            places=row.places,
            results={r.etapa: r for r in row.results},
            movement=movement.get(row.atleta) if previous else None,
            qualify=states[row.atleta].status if row.atleta in states else "",
            tied_line=states[row.atleta].line if row.atleta in states else "",
            team=teams.get(row.atleta, ""),
        )
        for row in ranking
    )
    return CircuitStanding(
        circuit_name=circuit.name,
        circuit_slug=circuit.slug,
        version=circuit.version,
        etapas=_columns(etapas=etapas, finished=finished),
        after=after,
        counted=tuple(e.key for e in counted),
        previous=previous_key,
        rows=out_rows,
        teams=tuple(team_ranking(rows=ranking, teams=teams)),
        qualify=qualify,
        count_best=circuit.count_best,
        points=dict(circuit.points),
    )


@dataclass(frozen=True, slots=True)
class EtapaPoints:
    """What an atleta earned in a circuit by one etapa (for their page)."""

    circuit_name: str
    circuit_slug: str
    points: int | None  # None: the etapa has not finished (or the atleta is out of the ranking)
    counted: bool
    disqualified: bool


def atleta_circuit_points(*, atleta_key: str, tournament_ids: list[int]) -> dict[int, EtapaPoints]:
    """For each of these tournaments that is an etapa, its circuit and the points the atleta earned there, from
    the circuit's ranking as it stands (one query, then one ``circuit_standing`` per circuit, kept per version)."""
    etapas = list(CircuitEtapa.objects.filter(tournament_id__in=tournament_ids).select_related("circuit", "tournament"))
    standings: dict[int, dict[str, EtapaScore]] = {}
    out: dict[int, EtapaPoints] = {}
    for etapa in etapas:
        circuit = etapa.circuit
        if circuit.pk not in standings:
            standing = circuit_standing(circuit=circuit)
            row = next((r for r in standing.rows if r.key == atleta_key), None) if standing else None
            standings[circuit.pk] = row.results if row else {}
        result = standings[circuit.pk].get(etapa.tournament.slug)
        out[etapa.tournament_id] = EtapaPoints(
            circuit_name=circuit.name,
            circuit_slug=circuit.slug,
            points=result.points if result else None,
            counted=result.counted if result else False,
            disqualified=result is not None and result.place is None,
        )
    return out


# --- the ranking page, from the rows by part --------------------------------------------------------------------

PER_PAGE = 100
SEARCH_MAX = 80


@dataclass(frozen=True, slots=True)
class CircuitPage:
    """One page of a circuit's ranking (``q``: a search by name; ranks stay those of the whole ranking)."""

    circuit_name: str
    circuit_slug: str
    version: int
    etapas: tuple[EtapaColumn, ...]
    after: str | None
    counted: tuple[str, ...]
    rows: tuple[StandingRow, ...]
    teams: tuple[TeamRow, ...]
    qualify: Qualify | None
    count_best: int | None
    points: dict[str, int]
    query: str
    number: int
    pages: int
    count: int  # rows found (all of the ranking without a search)
    total: int  # rows in the ranking
    previous: str | None  # the finished etapa before the last one counted (movement is since it); None: none
    positions: tuple[int, ...]  # where each row stands in the whole ranking's order (0…)
    lines: dict[int, str]  # a qualification line falls after the row at this position: "qualified"/"alternate"
    names: dict[str, str]  # the names of the equipes' atletas


def line_positions(marks: Iterable[tuple[int, str, str]]) -> dict[int, str]:
    """Where the qualification lines fall, from (position, qualification, tied line) of the rows that have one,
    in the ranking's order: after the last row on or above each line. None at all when the ranking's order no
    longer follows the qualification (the final played: its points reorder the atletas, and an alternate may
    stand above a qualified one); each row's mark still says where it stands."""

    def on(line: str) -> list[int]:
        return sorted(pos for pos, state, tied in marks_list if state == line or (state == TIED and tied == line))

    marks_list = list(marks)
    qualified, alternate = on(QUALIFIED), on(ALTERNATE)
    if qualified and alternate and alternate[0] < qualified[-1]:
        return {}
    out: dict[int, str] = {}
    if qualified:
        out[qualified[-1]] = QUALIFIED
    if alternate and alternate[-1] not in out:
        out[alternate[-1]] = ALTERNATE
    return out


def standing_page(*, standing: CircuitStanding, q: str = "", page: int = 1, per_page: int = PER_PAGE) -> CircuitPage:
    """A page of a ranking already computed whole (as it stood after an etapa): no query. ``q`` keeps the atletas
    with every word of it in their name (ignoring case and accents), ranks staying those of the whole ranking; a
    page past the last gives the last."""
    from scoring.atleta import name_normalize

    query = " ".join(q.split())[:SEARCH_MAX]
    words = name_normalize(query).split()
    found = [(i, r) for i, r in enumerate(standing.rows) if all(w in name_normalize(r.name) for w in words)]
    pages = max(1, -(-len(found) // per_page))
    number = min(max(page, 1), pages)
    shown = found[(number - 1) * per_page : number * per_page]
    return CircuitPage(
        circuit_name=standing.circuit_name,
        circuit_slug=standing.circuit_slug,
        version=standing.version,
        etapas=standing.etapas,
        after=standing.after,
        counted=standing.counted,
        rows=tuple(r for _i, r in shown),
        teams=standing.teams,
        qualify=standing.qualify,
        count_best=standing.count_best,
        points=standing.points,
        query=query,
        number=number,
        pages=pages,
        count=len(found),
        total=len(standing.rows),
        previous=standing.previous,
        positions=tuple(i for i, _r in shown),
        lines=standing_lines(standing=standing),
        names={r.key: r.name for r in standing.rows},
    )


def standing_lines(*, standing: CircuitStanding) -> dict[int, str]:
    """Where the qualification lines fall in a ranking computed whole (see ``line_positions``)."""
    if not standing.qualify:
        return {}
    return line_positions((i, r.qualify, r.tied_line) for i, r in enumerate(standing.rows) if r.qualify)


def circuit_page(
    *, circuit: Circuit, after: str | None = None, q: str = "", page: int = 1, per_page: int = PER_PAGE
) -> CircuitPage | None:
    """A page of the ranking as it stands (from the rows by part: a few queries, however long the season), or as
    it stood after the etapa ``after`` (the whole ranking computed, cached per version); None when ``after``
    names no etapa of this circuit. A page past the last gives the last."""
    from scoring.atleta import name_normalize

    query = " ".join(q.split())[:SEARCH_MAX]
    words = name_normalize(query).split()
    if after is not None or circuit.closed_at is not None:  # a closed season: its stored ranking (``archive``)
        standing = circuit_standing(circuit=circuit, after=after)
        return None if standing is None else standing_page(standing=standing, q=q, page=page, per_page=per_page)
    from .ranksql import RowsPage, circuit_positions, circuit_rows_head, circuit_rows_page, circuit_teams, qualify_heads

    etapas = circuit_etapas(circuit=circuit, public=True)
    slug_of = {e.tournament_id: e.tournament.slug for e in etapas}
    number = max(page, 1)
    counted_ids = _finished_etapas(etapas=etapas)
    previous = len(counted_ids) > 1

    def read(number: int) -> RowsPage:
        offset = (number - 1) * per_page
        if words:
            return circuit_rows_page(circuit=circuit, words=words, limit=per_page, offset=offset)
        return circuit_rows_head(circuit=circuit, limit=per_page, offset=offset, previous=previous)

    part = read(number)
    pages = max(1, -(-part.count // per_page))
    if number > pages:
        number = pages
        part = read(number)
    ranked = part.rows
    qualify = None
    states: dict[str, tuple[str, str]] = {}
    if circuit.qualify_top:
        qualify = Qualify(
            top=circuit.qualify_top, min_etapas=circuit.qualify_min_etapas, alternates=circuit.qualify_alternates
        )
        drawn = [k for s in CircuitSorteio.objects.filter(circuit=circuit).order_by("at", "id") for k in s.atletas]
        states = qualify_heads(circuit=circuit, qualify=qualify, drawn=drawn)
    lines: dict[int, str] = {}
    if states:
        at = part.positions  # the heads of the qualification are mostly the heads of the ranking: read already
        if not set(states) <= set(at):
            at = circuit_positions(circuit=circuit, keys=sorted(states))
        lines = line_positions((at[k], state, tied) for k, (state, tied) in states.items() if k in at)
    teams, names = circuit_teams(circuit=circuit)
    finished_slugs = [e.tournament.slug for e in etapas if e.tournament_id in counted_ids]
    rows = tuple(
        StandingRow(
            rank=row.rank,
            key=row.key,
            name=row.name,
            points=row.points,
            etapas=row.played,
            places=row.places,
            results={
                slug_of[tid]: EtapaScore(etapa=slug_of[tid], place=place, points=points, counted=counted)
                for tid, place, points, counted in row.results
                if tid in slug_of
            },
            movement=row.movement,
            qualify=(states[row.key][0] if row.key in states else "out" if row.q_played else "") if qualify else "",
            tied_line=states[row.key][1] if row.key in states else "",
            team=row.team,
        )
        for row in ranked
    )
    return CircuitPage(
        circuit_name=circuit.name,
        circuit_slug=circuit.slug,
        version=circuit.version,
        etapas=_columns(etapas=etapas, finished=counted_ids),
        after=None,
        counted=tuple(finished_slugs),
        rows=rows,
        teams=tuple(teams),
        qualify=qualify,
        count_best=circuit.count_best,
        points=dict(circuit.points),
        query=query,
        number=number,
        pages=pages,
        count=part.count,
        total=part.total,
        previous=finished_slugs[-2] if len(finished_slugs) > 1 else None,
        positions=tuple(row.pos for row in ranked),
        lines=lines,
        names=names,
    )


def _finished_etapas(*, etapas: list[CircuitEtapa]) -> set[int]:
    """The etapas that count (finished: they have places). One query."""
    ids = [e.tournament_id for e in etapas]
    return set(EtapaPlace.objects.filter(tournament_id__in=ids).values_list("tournament_id", flat=True).distinct())
