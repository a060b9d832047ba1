"""The season archive (issue 45 point 5): a circuit closed by its organizer, and the next season made from it.

Closing (``circuit_close``) stores the season's ranking as it stands (``CircuitSnapshot``: every public value of
the ``CircuitStanding``) and marks the circuit closed; from then on the ranking, its page, file, CSV, PDF and
the atletas' pages read that snapshot (``circuit_frozen``, called by ``selectors``), and an etapa's later results
no longer move the circuit's places (``services.etapa_places_follow``), so the rankings "after an etapa" stay as
they were too. Every other write of a closed circuit is refused (``services.circuit_write``). Closing is one
audited write of the circuit, and cannot be done twice.

A new season (``circuit_season_next``) is a new circuit, under a new slug, that carries the old one's rules (the
template, the points table, best N, the qualification) and its equipes: each atleta's equipe of the old season
(``CircuitEquipe``), which the new ranking gives the atleta until an etapa of the new season names another
(``equipes_carried``). The old circuit links to the new one (``Circuit.previous`` / ``next_season``). Only the
circuit's organizer (``permissions.may_manage_circuit``) closes it or makes its next season.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.circuit import EtapaScore, Qualify, TeamRow
from scoring.text import name_clean

from ..models import Atleta, Circuit, CircuitAtleta, CircuitEquipe, CircuitSnapshot
from ..permissions import may_create_circuit, may_manage_circuit
from .selectors import CircuitStanding, EtapaColumn, StandingRow, circuit_etapas, circuit_finished

__all__ = [
    "SNAPSHOT_FORMAT",
    "Season",
    "circuit_close",
    "circuit_frozen",
    "circuit_season",
    "circuit_season_next",
    "close_problems",
    "equipes_carried",
    "season_name_next",
    "standing_dump",
    "standing_load",
]

SNAPSHOT_FORMAT = 1  # the stored snapshot's layout (``standing_dump``)
CLOSE = "close"
SEASON_NEXT = "season_next"


# --- the frozen ranking ---------------------------------------------------------------------------------------


def standing_dump(standing: CircuitStanding) -> dict[str, Any]:
    """A ranking as JSON values (rows as short lists: a season of thousands of atletas stays small)."""
    return {
        "format": SNAPSHOT_FORMAT,
        "circuit_name": standing.circuit_name,
        "circuit_slug": standing.circuit_slug,
        "etapas": [
            {
                "key": e.key,
                "name": e.name,
                "date": e.date.isoformat() if e.date else None,
                "weight": e.weight,
                "final": e.final,
                "finished": e.finished,
                "published": e.published,
            }
            for e in standing.etapas
        ],
        "counted": list(standing.counted),
        "previous": standing.previous,
        "rows": [
            [
                r.rank,
                r.key,
                r.name,
                r.points,
                r.etapas,
                list(r.places),
                [[s.etapa, s.place, s.points, s.counted] for s in r.results.values()],
                r.movement,
                r.qualify,
                r.tied_line,
                r.team,
            ]
            for r in standing.rows
        ],
        "teams": [[t.rank, t.team, t.points, list(t.atletas)] for t in standing.teams],
        "qualify": None
        if standing.qualify is None
        else {
            "top": standing.qualify.top,
            "min_etapas": standing.qualify.min_etapas,
            "alternates": standing.qualify.alternates,
        },
        "count_best": standing.count_best,
        "points": dict(standing.points),
    }


def standing_load(data: dict[str, Any], *, version: int) -> CircuitStanding:
    """The ranking ``standing_dump`` stored, as the selectors give it (``version``: the circuit's, now)."""
    rows = []
    for rank, key, name, points, etapas, places, results, movement, qualify, tied_line, team in data["rows"]:
        rows.append(
            StandingRow(
                rank=rank,
                key=key,
                name=name,
                points=points,
                etapas=etapas,
                places=(places[0], places[1], places[2]),
                results={e: EtapaScore(etapa=e, place=p, points=pts, counted=c) for e, p, pts, c in results},
                movement=movement,
                qualify=qualify,
                tied_line=tied_line,
                team=team,
            )
        )
    qualify = data.get("qualify")
    return CircuitStanding(
        circuit_name=data["circuit_name"],
        circuit_slug=data["circuit_slug"],
        version=version,
        etapas=tuple(
            EtapaColumn(
                key=e["key"],
                name=e["name"],
                date=datetime.date.fromisoformat(e["date"]) if e["date"] else None,
                weight=e["weight"],
                final=e["final"],
                finished=e["finished"],
                published=e["published"],
            )
            for e in data["etapas"]
        ),
        after=None,
        counted=tuple(data["counted"]),
        previous=data["previous"],
        rows=tuple(rows),
        teams=tuple(TeamRow(rank=r, team=t, points=p, atletas=tuple(a)) for r, t, p, a in data["teams"]),
        qualify=None if qualify is None else Qualify(**qualify),
        count_best=data["count_best"],
        points=dict(data["points"]),
    )


def circuit_frozen(*, circuit: Circuit) -> CircuitStanding | None:
    """A closed circuit's final ranking, as stored when it was closed (None: the circuit is not closed). The
    selectors keep what this returns in the shared cache under the circuit's version."""
    if circuit.closed_at is None:
        return None
    stored = CircuitSnapshot.objects.filter(circuit=circuit).values_list("standing", flat=True).first()
    if stored is None:
        return None
    return standing_load(stored, version=circuit.version)


# --- closing ----------------------------------------------------------------------------------------------------


def close_problems(*, circuit: Circuit) -> list[str]:
    """Why the circuit cannot be closed now (empty: it can): an etapa that has not finished (its places are not
    final) or a draft etapa keeps it open; a circuit without a finished etapa has no ranking to keep."""
    if circuit.closed_at is not None:
        when = timezone.localtime(circuit.closed_at).strftime("%d/%m/%Y")
        return [_("este circuito já foi encerrado em %(d)s") % {"d": when}]
    etapas = circuit_etapas(circuit=circuit)
    if not etapas:
        return [_("o circuito não tem etapas: não há ranking para encerrar")]
    finished = circuit_finished(circuit=circuit)
    out = []
    for etapa in etapas:
        tournament = etapa.tournament
        if not tournament.published:
            out.append(
                _("a etapa %(t)s é um rascunho: publique-a e termine-a, ou retire-a do circuito")
                % {"t": tournament.name}
            )
        elif tournament.slug not in finished:
            out.append(
                _("a etapa %(t)s ainda não terminou: termine-a ou retire-a do circuito") % {"t": tournament.name}
            )
    return out


def circuit_close(*, circuit: Circuit, user: Any) -> Circuit:
    """Close the season: its ranking as it stands is stored and read from then on (public, marked "encerrado");
    audited; refused when already closed, with an etapa unfinished, or for anyone but its organizer."""
    from .selectors import _standing_compute  # the ranking computed now, never one kept in a cache
    from .services import CircuitRefused, circuit_write

    if not may_manage_circuit(user=user, circuit=circuit):
        raise CircuitRefused([("", _("só o organizador do circuito pode encerrá-lo"))])
    problems = close_problems(circuit=circuit)
    if problems:
        raise CircuitRefused([("", p) for p in problems])
    with circuit_write(circuit=circuit, action=CLOSE, user=user) as w:
        # under the circuit's lock: another close, or a write in between, is seen here
        circuit.refresh_from_db()
        problems = close_problems(circuit=circuit)
        if problems:
            raise CircuitRefused([("", p) for p in problems])
        standing = _standing_compute(circuit=circuit, after=None)
        assert standing is not None  # no ``after``: always a ranking
        CircuitSnapshot.objects.create(circuit=circuit, standing=standing_dump(standing))
        circuit.closed_at = timezone.now()
        circuit.closed_by = user if getattr(user, "is_authenticated", False) else None
        circuit.save(update_fields=["closed_at", "closed_by"])
        w.after = {
            "closed_at": circuit.closed_at.isoformat(),
            "etapas": list(standing.counted),
            "atletas": len(standing.rows),
            "equipes": len(standing.teams),
            "leader": standing.rows[0].key if standing.rows else None,
        }
        w.summary = _("temporada encerrada: ranking final de %(n)s atletas guardado") % {"n": len(standing.rows)}
    return circuit


# --- the next season ---------------------------------------------------------------------------------------------


def season_name_next(name: str) -> str:
    """The next season's name as the desk suggests it: the last year in the name plus one ("Liga 2025" →
    "Liga 2026"); else the name as it is."""
    import re

    years = list(re.finditer(r"(?<!\d)(19|20)\d\d(?!\d)", name))
    if not years:
        return name
    last = years[-1]
    return name[: last.start()] + str(int(last.group()) + 1) + name[last.end() :]


def _equipes_of(circuit: Circuit) -> dict[int, str]:
    """Each atleta's equipe at the end of ``circuit`` (atleta id → equipe): the final ranking's (the snapshot's
    once closed, else the rows'), over those the season had itself carried from the one before."""
    out = dict(CircuitEquipe.objects.filter(circuit=circuit).values_list("atleta_id", "team"))
    frozen = circuit_frozen(circuit=circuit)
    if frozen is not None:
        teams = {row.key: row.team for row in frozen.rows if row.team}
        ids = dict(Atleta.objects.filter(key__in=list(teams)).values_list("key", "pk"))
        out.update({ids[k]: team for k, team in teams.items() if k in ids})
    else:
        out.update(CircuitAtleta.objects.filter(circuit=circuit).exclude(team="").values_list("atleta_id", "team"))
    return out


def circuit_season_next(*, circuit: Circuit, user: Any, name: str, slug: str) -> Circuit:
    """A new season of ``circuit``: a new circuit (``name``, ``slug``) with its rules, points table and equipes,
    organized by ``user``; the old one links to it. Audited on both. Refused for anyone but the old one's
    organizer, and when it already has a next season."""
    from .services import CircuitRefused, _settings_of, _slug_problems, circuit_write

    if not (may_manage_circuit(user=user, circuit=circuit) and may_create_circuit(user=user)):
        raise CircuitRefused([("", _("só o organizador do circuito pode criar a temporada seguinte"))])
    problems: list[tuple[str, str]] = []
    if not name_clean(name):
        problems.append(("name", _("dê um nome à nova temporada")))
    problems += _slug_problems(slug)
    if Circuit.objects.filter(previous=circuit).exists():
        problems.append(("", _("este circuito já tem a temporada seguinte")))
    if problems:
        raise CircuitRefused(problems)
    with circuit_write(circuit=circuit, action=SEASON_NEXT, user=user) as old:
        if Circuit.objects.filter(previous=circuit).exists():  # made meanwhile: seen under the lock
            raise CircuitRefused([("", _("este circuito já tem a temporada seguinte"))])
        circuit.refresh_from_db()
        equipes = _equipes_of(circuit)
        summary = _("nova temporada de %(c)s: %(n)s") % {"c": circuit.name, "n": name_clean(name)}
        with circuit_write(circuit=None, action="create", user=user, summary=summary) as new:
            new.circuit = Circuit.objects.create(
                name=name_clean(name),
                slug=slug,
                template=circuit.template,
                points=dict(circuit.points),
                count_best=circuit.count_best,
                qualify_top=circuit.qualify_top,
                qualify_min_etapas=circuit.qualify_min_etapas,
                qualify_alternates=circuit.qualify_alternates,
                previous=circuit,
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
            CircuitEquipe.objects.bulk_create(
                [CircuitEquipe(circuit=new.circuit, atleta_id=a, team=t) for a, t in sorted(equipes.items())]
            )
            new.after = {**_settings_of(new.circuit), "previous": circuit.slug, "equipes": len(equipes)}
        made = new.circuit
        assert made is not None
        old.after = {"next": made.slug, "equipes": len(equipes)}
        old.summary = _("temporada seguinte criada: %(n)s") % {"n": made.name}
    return made


def equipes_carried(*, circuit: Circuit, by_key: bool) -> dict[str, str]:
    """The equipes this season carried from the one before (atleta → equipe; the atleta's key, else its id as
    text: the two ways the ranking's code names atletas); empty for a first season. One query (none for a
    circuit that is no one's next season)."""
    if circuit.previous_id is None:
        return {}
    rows = CircuitEquipe.objects.filter(circuit=circuit)
    if by_key:
        return dict(rows.values_list("atleta__key", "team"))
    return {str(a): t for a, t in rows.values_list("atleta_id", "team")}


# --- what the pages say -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Season:
    """A circuit's place among its seasons, as its pages say it."""

    closed: bool
    closed_on: str  # "12/12/2025"; "" while open
    previous: tuple[str, str] | None  # (name, slug) of the season before
    next: tuple[str, str] | None  # (name, slug) of the season after


def circuit_season(*, circuit: Circuit) -> Season:
    """Whether the circuit is closed, and its seasons before and after (two small queries at most; the pages that
    show it are kept per circuit version, which a new season moves on the old one)."""
    before = (
        Circuit.objects.filter(pk=circuit.previous_id).values_list("name", "slug").first()
        if circuit.previous_id
        else None
    )
    after = Circuit.objects.filter(previous_id=circuit.pk).values_list("name", "slug").first()
    return Season(
        closed=circuit.closed_at is not None,
        closed_on=timezone.localtime(circuit.closed_at).strftime("%d/%m/%Y") if circuit.closed_at else "",
        previous=(before[0], before[1]) if before else None,
        next=(after[0], after[1]) if after else None,
    )
