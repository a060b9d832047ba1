"""Writes of circuits (DOMAIN §7.3), all through ``circuit_write``: it locks the circuit's row, records the audit
entry and moves the circuit's ``version`` (the ranking's cache key comes from it, never from a bump by hand).

``etapa_places_follow`` keeps the derived ``EtapaPlace`` rows of an etapa: called once a results or structural
write of a tournament commits (``writes._commit``), it recomputes that etapa's final places and moves its
circuit's version when they changed (a counted result of an unfinished etapa changes nothing here).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import connections, router, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from scoring.circuit import DEFAULT_POINTS, points_table_parse
from scoring.errors import RuleViolation
from scoring.text import name_clean

from ..models import (
    Atleta,
    Circuit,
    CircuitAudit,
    CircuitEtapa,
    CircuitExclusion,
    CircuitSorteio,
    EtapaPlace,
    Player,
    Tournament,
)
from ..permissions import may_attach_etapa, may_manage_circuit
from ..plainsql import rows_where_in
from ..wording import worded
from .parts import circuit_rows_update

__all__ = [
    "CircuitRefused",
    "CircuitSettings",
    "circuit_create",
    "circuit_etapa_attach",
    "circuit_etapa_detach",
    "circuit_etapa_set",
    "circuit_exclude",
    "circuit_include",
    "circuit_settings_set",
    "circuit_sorteio_record",
    "circuit_tie_draw",
    "circuit_write",
    "circuits_follow_players",
    "etapa_places_after_write",
    "etapa_places_follow",
    "etapa_places_later",
]

log = logging.getLogger(__name__)

# what each template starts with (the desk's "criar a partir de um modelo")
TEMPLATES: Mapping[str, Mapping[str, Any]] = {
    Circuit.LIGA: {"count_best": None, "qualify_top": None, "qualify_min_etapas": 0, "qualify_alternates": 0},
    Circuit.FINAL: {"count_best": None, "qualify_top": 16, "qualify_min_etapas": 2, "qualify_alternates": 4},
}


# the writes a closed circuit still takes (``archive``): its next season made (the old one links to it)
WHILE_CLOSED = frozenset({"season_next"})


class CircuitRefused(Exception):
    """A circuit write refused: ``problems`` are (where, message in Portuguese)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{where}: {message}" if where else message for where, message in problems))
        self.problems = problems


@dataclass
class CircuitWrite:
    """A circuit write under way: the circuit (set it when creating one), the audit's after, the tournaments
    whose event pages show something that changed (their pages follow once the write commits)."""

    circuit: Circuit | None
    after: Any = None
    summary: str = ""
    tournaments: set[int] = field(default_factory=set)
    rows_all: bool = False  # the ranking's rules or etapas changed: every atleta's row is made again
    rows_atletas: set[int] = field(default_factory=set)  # else the rows of these atletas


@contextmanager
def circuit_write(
    *, circuit: Circuit | None, action: str, user: Any = None, summary: str = "", before: Any = None, audit: bool = True
) -> Iterator[CircuitWrite]:
    """Run the body as one write of ``circuit`` (None: being created; set ``write.circuit``): one transaction,
    the circuit's row locked first, an audit entry, and a new ``version`` on the way out."""
    from ..writes import PRIVATE, tournament_write  # the write path imports the atletas, which import this

    with tournament_write(tournament=None, action=f"circuit_{action}", user=user, kind=PRIVATE):
        if circuit is not None:
            locked = (
                Circuit.objects.select_for_update().filter(pk=circuit.pk).values_list("version", "closed_at").first()
            )
            if locked is None:
                raise CircuitRefused([("", _("este circuito não existe mais"))])
            if locked[1] is not None and action not in WHILE_CLOSED:
                # a closed season (``archive.circuit_close``): its rules, etapas and ranking stay as they were
                raise CircuitRefused(
                    [("", _("este circuito está encerrado: as regras, as etapas e o ranking não mudam mais"))]
                )
        write = CircuitWrite(circuit=circuit, summary=summary)
        yield write
        if write.circuit is None:
            return
        if write.rows_all or write.rows_atletas:
            write.circuit.refresh_from_db()  # the rules as the body left them
            circuit_rows_update(circuit=write.circuit, atleta_ids=None if write.rows_all else write.rows_atletas)
        Circuit.objects.filter(pk=write.circuit.pk).update(version=F("version") + 1)
        write.circuit.refresh_from_db(fields=["version"])
        if audit:
            CircuitAudit.objects.create(
                circuit=write.circuit,
                user=user if user is not None and getattr(user, "is_authenticated", False) else None,
                action=action,
                summary=(write.summary or action)[:300],
                before=before,
                after=write.after,
            )
        if write.tournaments:
            transaction.on_commit(functools.partial(_pages_follow, ids=sorted(write.tournaments)), robust=True)


def _pages_follow(*, ids: list[int]) -> None:
    """The event pages of these tournaments say which circuit they belong to: a new version of their pages."""
    from ..writes import PAGES, tournament_write

    for tournament in Tournament.objects.filter(pk__in=ids):
        with tournament_write(tournament=tournament, action="circuit", kind=PAGES):
            pass


def _refuse_unless(allowed: bool, message: str) -> None:
    if not allowed:
        raise CircuitRefused([("", message)])


# --- settings -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CircuitSettings:
    """What the desk and the circuit file set: the points table in the file's form, best N, qualification."""

    name: str
    points: Mapping[str, int] | None = None
    count_best: int | None = None
    qualify_top: int | None = None
    qualify_min_etapas: int = 0
    qualify_alternates: int = 0

    def problems(self, *, where: str = "circuit") -> list[tuple[str, str]]:
        """Every problem, each with the place it is in (``circuit.points.5-8``, ``circuit.count_best``)."""
        out: list[tuple[str, str]] = []
        if not name_clean(self.name):
            out.append((f"{where}.name", _("dê um nome ao circuito")))
        try:
            points_table_parse(self.points, where=f"{where}.points")
        except RuleViolation as error:
            out += [(e.place, worded(e.message)) for e in error.errors]
        for name, value, least in (
            ("count_best", self.count_best, 1),
            ("qualify.top", self.qualify_top, 1),
            ("qualify.min_etapas", self.qualify_min_etapas, 0),
            ("qualify.alternates", self.qualify_alternates, 0),
        ):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < least):
                out.append((f"{where}.{name}", _("deve ser um número inteiro, %(n)s ou mais") % {"n": least}))
        return out


def _settings_of(circuit: Circuit) -> dict[str, Any]:
    return {
        "name": circuit.name,
        "points": circuit.points,
        "count_best": circuit.count_best,
        "qualify_top": circuit.qualify_top,
        "qualify_min_etapas": circuit.qualify_min_etapas,
        "qualify_alternates": circuit.qualify_alternates,
    }


def circuit_create(*, user: Any, name: str, slug: str, template: str = Circuit.LIGA) -> Circuit:
    """A new circuit from a template (``Circuit.LIGA`` or ``Circuit.FINAL``), organized by ``user``."""
    from ..permissions import may_create_circuit

    _refuse_unless(may_create_circuit(user=user), _("só quem organiza torneios no site pode criar um circuito"))
    problems: list[tuple[str, str]] = []
    if template not in TEMPLATES:
        problems.append(("template", _("modelo desconhecido: %(t)s") % {"t": template}))
    if not name_clean(name):
        problems.append(("name", _("dê um nome ao circuito")))
    problems += _slug_problems(slug)
    if problems:
        raise CircuitRefused(problems)
    with circuit_write(
        circuit=None, action="create", user=user, summary=_("circuito criado: %(n)s") % {"n": name}
    ) as w:
        w.circuit = Circuit.objects.create(
            name=name_clean(name),
            slug=slug,
            template=template,
            points=dict(DEFAULT_POINTS),
            created_by=user if getattr(user, "is_authenticated", False) else None,
            **TEMPLATES[template],
        )
        w.rows_all = True
        w.after = _settings_of(w.circuit)
    return w.circuit


RESERVED_CIRCUIT_SLUGS = frozenset({"atletas"})  # /organizar/circuitos/atletas/ is the atletas' desk


def _slug_problems(slug: str, *, where: str = "slug") -> list[tuple[str, str]]:
    from django.core.validators import validate_slug

    try:
        validate_slug(slug)
    except Exception:
        return [(where, _("use só letras sem acento, números e hífens (veio %(s)r)") % {"s": slug})]
    if slug in RESERVED_CIRCUIT_SLUGS:
        return [(where, _("o endereço %(s)s é reservado do site: escolha outro") % {"s": slug})]
    if len(slug) > 100:
        return [(where, _("no máximo 100 caracteres"))]
    if Circuit.objects.filter(slug=slug).exists():
        return [(where, _("já existe um circuito com o endereço %(s)s") % {"s": slug})]
    return []


def circuit_settings_set(*, circuit: Circuit, user: Any, settings: CircuitSettings) -> Circuit:
    """Change a circuit's name, points table, best N and qualification (all checked first; nothing half-set)."""
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    problems = settings.problems()
    if problems:
        raise CircuitRefused(problems)
    before = _settings_of(circuit)
    with circuit_write(circuit=circuit, action="settings", user=user, before=before) as w:
        circuit.name = name_clean(settings.name)
        circuit.points = dict(settings.points) if settings.points is not None else dict(DEFAULT_POINTS)
        circuit.count_best = settings.count_best
        circuit.qualify_top = settings.qualify_top
        circuit.qualify_min_etapas = settings.qualify_min_etapas
        circuit.qualify_alternates = settings.qualify_alternates
        circuit.save(
            update_fields=[
                "name",
                "points",
                "count_best",
                "qualify_top",
                "qualify_min_etapas",
                "qualify_alternates",
            ]
        )
        w.rows_all = True
        w.after = _settings_of(circuit)
        w.summary = _("regras do circuito alteradas")
        w.tournaments = set(circuit.etapas.values_list("tournament_id", flat=True))
    return circuit


# --- etapas ---------------------------------------------------------------------------------------------------


def etapa_problems(
    *, circuit: Circuit | None, tournament: Tournament | None, where: str, slug: str, user: Any = None
) -> list[tuple[str, str]]:
    """Why ``tournament`` cannot be an etapa of ``circuit`` for ``user`` (empty: it can). A draft is offered to its
    own organizers alone (``may_attach_etapa``): to anyone else it is no tournament at all."""
    if tournament is None or (not tournament.published and not may_attach_etapa(user=user, tournament=tournament)):
        return [(where, _("não há torneio com o endereço %(s)s no site") % {"s": slug})]
    other = CircuitEtapa.objects.filter(tournament=tournament).select_related("circuit").first()
    if other is not None and (circuit is None or other.circuit_id != circuit.pk):
        return [(where, _("%(t)s já é etapa do circuito %(c)s") % {"t": tournament.name, "c": other.circuit.name})]
    return []


def circuit_etapa_attach(
    *, circuit: Circuit, user: Any, tournament: Tournament, weight: int = 1, final: bool = False
) -> CircuitEtapa:
    """Make ``tournament`` (one that ``user`` organizes) an etapa of ``circuit``, after the others."""
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    problems = etapa_problems(
        circuit=circuit, tournament=tournament, where="tournament", slug=tournament.slug, user=user
    )
    if problems and not tournament.published:  # someone else's draft: not even its name is said
        raise CircuitRefused(problems)
    _refuse_unless(
        may_attach_etapa(user=user, tournament=tournament),
        _("você só pode incluir torneios que você organiza (%(t)s não é um deles)") % {"t": tournament.name},
    )
    if CircuitEtapa.objects.filter(circuit=circuit, tournament=tournament).exists():
        problems.append(("tournament", _("%(t)s já é etapa deste circuito") % {"t": tournament.name}))
    problems += _weight_problems(weight)
    if problems:
        raise CircuitRefused(problems)
    with circuit_write(circuit=circuit, action="etapa_attach", user=user) as w:
        last = circuit.etapas.order_by("-order").values_list("order", flat=True).first()
        etapa = CircuitEtapa.objects.create(
            circuit=circuit, tournament=tournament, weight=weight, final=final, order=(last or 0) + 1
        )
        _places_store(tournament=tournament)
        w.after = {"tournament": tournament.slug, "weight": weight, "final": final}
        w.rows_all = True
        w.summary = _("etapa incluída: %(t)s") % {"t": tournament.name}
        w.tournaments = {tournament.pk}
    return etapa


def _weight_problems(weight: object, *, where: str = "weight") -> list[tuple[str, str]]:
    if isinstance(weight, bool) or not isinstance(weight, int) or weight < 1:
        return [(where, _("o peso deve ser um número inteiro, 1 ou mais (veio %(v)r)") % {"v": weight})]
    return []


def circuit_etapa_set(*, etapa: CircuitEtapa, user: Any, weight: int, final: bool) -> CircuitEtapa:
    """Change an etapa's weight and whether it is the final."""
    circuit = etapa.circuit
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    problems = _weight_problems(weight)
    if problems:
        raise CircuitRefused(problems)
    before = {"weight": etapa.weight, "final": etapa.final}
    with circuit_write(circuit=circuit, action="etapa_set", user=user, before=before) as w:
        etapa.weight, etapa.final = weight, final
        etapa.save(update_fields=["weight", "final"])
        w.after = {"weight": weight, "final": final}
        w.rows_all = True
        w.summary = _("etapa alterada: %(t)s") % {"t": etapa.tournament.name}
    return etapa


def circuit_etapa_detach(*, etapa: CircuitEtapa, user: Any) -> None:
    """Take an etapa out of its circuit (its tournament stays as it is)."""
    circuit = etapa.circuit
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    tournament = etapa.tournament
    with circuit_write(circuit=circuit, action="etapa_detach", user=user, before={"tournament": tournament.slug}) as w:
        EtapaPlace.objects.filter(tournament=tournament).delete()
        etapa.delete()
        w.rows_all = True
        w.summary = _("etapa retirada: %(t)s") % {"t": tournament.name}
        w.tournaments = {tournament.pk}


# --- exclusions and sorteios ----------------------------------------------------------------------------------


def circuit_exclude(*, circuit: Circuit, user: Any, atleta: Atleta, reason: str) -> CircuitExclusion:
    """Exclude an atleta from the circuit's ranking (a disqualification "da Etapa e do Campeonato")."""
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    if not reason.strip():
        raise CircuitRefused([("reason", _("diga o motivo da exclusão"))])
    if CircuitExclusion.objects.filter(circuit=circuit, atleta=atleta).exists():
        raise CircuitRefused([("", _("%(a)s já está excluído deste circuito") % {"a": atleta.name})])
    with circuit_write(circuit=circuit, action="exclude", user=user) as w:
        exclusion = CircuitExclusion.objects.create(circuit=circuit, atleta=atleta, reason=reason.strip()[:300])
        w.after = {"atleta": atleta.key, "reason": exclusion.reason}
        w.rows_all = True
        w.summary = _("%(a)s excluído do circuito: %(r)s") % {"a": atleta.name, "r": exclusion.reason}
    return exclusion


def circuit_include(*, circuit: Circuit, user: Any, atleta: Atleta) -> None:
    """Undo an exclusion."""
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    exclusion = CircuitExclusion.objects.filter(circuit=circuit, atleta=atleta).first()
    if exclusion is None:
        raise CircuitRefused([("", _("%(a)s não está excluído deste circuito") % {"a": atleta.name})])
    with circuit_write(
        circuit=circuit, action="include", user=user, before={"atleta": atleta.key, "reason": exclusion.reason}
    ) as w:
        exclusion.delete()
        w.rows_all = True
        w.summary = _("%(a)s volta ao ranking do circuito") % {"a": atleta.name}


def circuit_sorteio_record(*, circuit: Circuit, user: Any, atletas: list[str]) -> CircuitSorteio:
    """Record a sorteio among tied atletas (keys, the first ahead): it settles their tie at a qualification line."""
    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    if len(atletas) < 2 or len(set(atletas)) != len(atletas):
        raise CircuitRefused([("atletas", _("um sorteio ordena dois ou mais atletas diferentes"))])
    known = dict(Atleta.objects.filter(key__in=atletas).values_list("key", "name"))
    unknown = [k for k in atletas if k not in known]
    if unknown:
        raise CircuitRefused([("atletas", _("atleta desconhecido: %(k)s") % {"k": ", ".join(unknown)})])
    with circuit_write(circuit=circuit, action="sorteio", user=user) as w:
        sorteio = CircuitSorteio.objects.create(circuit=circuit, atletas=list(atletas))
        w.after = {"atletas": list(atletas)}
        w.summary = _("sorteio registrado: %(a)s") % {"a": " > ".join(known[k] for k in atletas)}
    return sorteio


def circuit_tie_draw(*, circuit: Circuit, user: Any, line: str, expected: Iterable[str]) -> CircuitSorteio:
    """Draw (``secrets``) the order of the atletas tied at a qualification ``line`` (``qualified`` or
    ``alternate``) and record it as a sorteio. ``expected`` are the keys the desk showed: when the tie is no
    longer that one (a write in between), nothing is drawn."""
    import secrets

    from .selectors import circuit_standing

    _refuse_unless(may_manage_circuit(user=user, circuit=circuit), _("só o organizador do circuito pode alterá-lo"))
    standing = circuit_standing(circuit=circuit)
    tied = [row.key for row in standing.rows if row.qualify == "tied" and row.tied_line == line] if standing else []
    if not tied:
        raise CircuitRefused([("", _("não há empate nesta linha da classificação: nada foi sorteado"))])
    if sorted(tied) != sorted(expected):
        raise CircuitRefused([("", _("o empate mudou desde que a página foi aberta: confira e sorteie de novo"))])
    order = list(tied)
    secrets.SystemRandom().shuffle(order)
    return circuit_sorteio_record(circuit=circuit, user=user, atletas=order)


# --- the derived places of an etapa ---------------------------------------------------------------------------


def _places_store(*, tournament: Tournament) -> tuple[set[int], bool]:
    """Make ``tournament``'s EtapaPlace rows what its state says now (none until it has finished): the players
    whose place changed, and whether the etapa started or stopped counting (finished or not). Runs inside a
    circuit write."""
    from ..selectors import tournament_state_get

    wanted: dict[int, int | None] = {}
    state = tournament_state_get(tournament=tournament)
    if state.view.finished:
        ids = dict(Player.objects.filter(tournament=tournament).values_list("key", "pk"))
        for row in state.view.classification:
            for key in row.players:
                if key in ids:
                    wanted[ids[key]] = row.place
    stored = dict(EtapaPlace.objects.filter(tournament=tournament).values_list("player_id", "place"))
    if stored == wanted:
        return set(), False
    changed = {p for p in set(stored) | set(wanted) if stored.get(p, -1) != wanted.get(p, -1)}
    EtapaPlace.objects.filter(tournament=tournament).delete()
    EtapaPlace.objects.bulk_create(
        [EtapaPlace(tournament=tournament, player_id=player, place=place) for player, place in wanted.items()]
    )
    return changed, bool(stored) != bool(wanted)


PUBLISHED = "tournament.publish"  # the action of ``setup.services.tournament_publish``'s write


def etapa_places_after_write(write: Any) -> None:
    """At the end of a tournament's write (``writes.write_followers_add``): after a result, a disqualification or a
    structural change, once it commits, the etapa's final places (when it is one; its circuit's ranking follows)."""
    from ..writes import RESULTS, STRUCTURE

    if write.tournament is None:
        return
    tournament_id = write.tournament.pk
    if write.action == PUBLISHED:
        # a draft etapa joins its circuit's public ranking: its name, date and places (if it has finished)
        transaction.on_commit(
            functools.partial(etapa_places_later, tournament_id=tournament_id, published=True), robust=True
        )
    elif write.kind == STRUCTURE or (write.kind == RESULTS and (write.jogos or write.duplas)):
        transaction.on_commit(functools.partial(etapa_places_later, tournament_id=tournament_id), robust=True)


def etapa_places_later(*, tournament_id: int, published: bool = False) -> None:
    """After a results or structural write of a tournament commits: when it is an etapa, its places follow."""
    try:
        etapa_places_follow(tournament_id=tournament_id, published=published)
    except Exception:
        log.exception("Circuito: as colocações da etapa %s não foram atualizadas", tournament_id)


def etapa_places_follow(*, tournament_id: int, published: bool = False) -> bool:
    """Recompute an etapa's places (a tournament in no circuit: nothing to do, one query); its circuit's version
    moves when they changed, or when the etapa was just ``published`` (a draft counts in no ranking: every row is
    made again with it). Whether the ranking changed."""
    circuit_id = _etapa_circuit(tournament_id)
    if circuit_id is None:
        return False
    circuit = Circuit.objects.get(pk=circuit_id)
    if circuit.closed_at is not None:  # a closed season: its etapas' places stay as they were when it closed
        return False
    tournament = Tournament.objects.get(pk=tournament_id)
    try:
        with circuit_write(circuit=circuit, action="etapa_places", audit=False) as w:
            players, counts = _places_store(tournament=tournament)
            if not players and not published:
                raise _Unchanged
            w.summary = tournament.name
            # an etapa that starts or stops counting moves every row (the movement is since the last etapa);
            # else the rows of the atletas whose places changed
            w.rows_all = counts or published
            w.rows_atletas = set(
                Player.objects.filter(pk__in=players, atleta__isnull=False).values_list("atleta_id", flat=True)
            )
    except _Unchanged:
        return False
    return True


def _etapa_circuit(tournament_id: int) -> int | None:
    """The circuit whose etapa the tournament is (None: it is in none), in one plain statement (``plainsql``):
    every counted result asks, and the queryset cost 1.2 ms to compile for a query of 0.2."""
    connection = connections[router.db_for_read(CircuitEtapa)]
    # one row at most: a tournament is the etapa of one circuit at most (a one-to-one)
    rows = rows_where_in(CircuitEtapa, "tournament_id", [tournament_id], connection=connection)
    return rows[0][_CIRCUIT_COLUMN] if rows else None


_CIRCUIT_COLUMN = [f.attname for f in CircuitEtapa._meta.concrete_fields].index("circuit_id")


class _Unchanged(Exception):
    """Nothing changed: the circuit write rolls back (its version stays)."""


def circuits_follow_players(*, player_ids: Iterable[int], atleta_ids: Iterable[int] = ()) -> None:
    """Players changed atleta (a join or a split on the desk) or equipe: in the circuits they played, the rows of
    their atletas now (and of ``atleta_ids``: the atletas they left) are made again and the rankings move to a
    new version. Inside the change's own write."""
    from ..writes import write_required

    write_required(what="circuits_follow_players")
    players = list(Player.objects.filter(pk__in=list(player_ids)).values_list("tournament_id", "atleta_id"))
    atletas = {a for _t, a in players if a is not None} | set(atleta_ids)
    tournaments = {t for t, _a in players}
    for circuit in Circuit.objects.filter(etapas__tournament_id__in=tournaments).distinct():
        circuit_rows_update(circuit=circuit, atleta_ids=atletas)
        Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1)
