"""The circuit file (INTERCHANGE.md "Circuits, atletas and rankings"): read one into a new circuit over
tournaments already on the site, and write one with its computed sections (public data only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Model
from django.utils.translation import gettext as _

from scoring.circuit import DEFAULT_POINTS
from scoring.errors import RuleError, RuleViolation

from .. import limits
from ..interchange.jsonfile import json_file_parse, tree_check
from ..limits import column_int_range, column_max_length
from ..models import Circuit, CircuitAtleta, CircuitEtapa, Tournament
from ..wording import worded
from .selectors import circuit_etapas, circuit_standing
from .services import (
    CircuitRefused,
    CircuitSettings,
    _places_store,
    _slug_problems,
    _weight_problems,
    circuit_write,
    etapa_problems,
)

__all__ = ["FORMAT", "circuit_file_export", "circuit_file_parse", "circuit_import"]

FORMAT, VERSION = "truco-circuito", 1


def circuit_file_parse(*, raw: bytes | str) -> object:
    """The data of a circuit file read as a tournament file is (``interchange.jsonfile``: size, UTF-8, nesting,
    repeated keys, NUL, numbers no column holds), or ``CircuitRefused`` with every problem at its place."""
    try:
        return json_file_parse(raw=raw, max_bytes=limits.CIRCUIT_FILE_MAX_BYTES)
    except RuleViolation as exc:
        raise CircuitRefused(_problems(exc.errors)) from exc


def _problems(errors: list[RuleError]) -> list[tuple[str, str]]:
    return [(e.place, worded(e.message)) for e in errors]


def circuit_import(*, data: object, user: Any = None) -> Circuit:
    """A new circuit from the file ``data`` (parsed JSON). Every problem is reported at once, each naming its
    place (``circuit.points.5-8: …``, ``etapas[2].tournament: …``), and then nothing is written. The computed
    sections (``athletes``, ``ranking``, ``teams``) are ignored. Every value is checked against the column that
    stores it, whatever the source of ``data``."""
    problems: list[tuple[str, str]] = []
    if not isinstance(data, Mapping):
        raise CircuitRefused([("", _("o arquivo deve ser um objeto JSON com circuit e etapas"))])
    if found := tree_check(data=data):  # NUL, lone surrogates, numbers no column holds, nesting
        raise CircuitRefused(_problems(found))
    if isinstance(data.get("etapas"), list) and len(data["etapas"]) > limits.CIRCUIT_MAX_ETAPAS:
        raise CircuitRefused(
            [
                (
                    "etapas",
                    _("etapas demais: %(n)s (o máximo num arquivo de circuito é %(max)s)")
                    % {"n": len(data["etapas"]), "max": limits.CIRCUIT_MAX_ETAPAS},
                )
            ]
        )
    if data.get("format") != FORMAT:
        problems.append(("format", _('deve ser "%(f)s" (veio %(v)r)') % {"f": FORMAT, "v": data.get("format")}))
    if data.get("version") != VERSION:
        problems.append(
            ("version", _("versão %(v)r não suportada (esperada %(e)s)") % {"v": data.get("version"), "e": VERSION})
        )
    raw = data.get("circuit")
    if not isinstance(raw, Mapping):
        problems.append(("circuit", _("falta o objeto circuit (nome, endereço, pontos)")))
        raise CircuitRefused(problems)
    name = raw.get("name")
    slug = raw.get("slug")
    if not isinstance(name, str) or not name.strip():
        problems.append(("circuit.name", _("dê um nome ao circuito")))
        name = ""
    elif len(name.strip()) > (most := column_max_length(model=Circuit, field="name")):
        problems.append(("circuit.name", _("no máximo %(n)s caracteres") % {"n": most}))
    if not isinstance(slug, str) or not slug:
        problems.append(("circuit.slug", _("dê o endereço do circuito (letras sem acento, números e hífens)")))
        slug = ""
    else:
        problems += _slug_problems(slug, where="circuit.slug")
    points = raw.get("points")
    if points is not None and not isinstance(points, Mapping):
        problems.append(("circuit.points", _("deve ser um objeto: colocação → pontos")))
        points = None
    qualify = raw.get("qualify")
    if qualify is not None and not isinstance(qualify, Mapping):
        problems.append(("circuit.qualify", _("deve ser um objeto com top, min_etapas e alternates")))
        qualify = None
    if qualify is not None and "top" not in qualify:
        problems.append(("circuit.qualify.top", _("diga quantos atletas se classificam para a final")))
    settings = CircuitSettings(
        name=name or "-",
        points=points,
        count_best=raw.get("count_best"),
        qualify_top=qualify.get("top") if qualify else None,
        qualify_min_etapas=qualify.get("min_etapas", 0) if qualify else 0,
        qualify_alternates=qualify.get("alternates", 0) if qualify else 0,
    )
    found = [p for p in settings.problems() if p[0] != "circuit.name"]
    problems += found
    for field, where, least in (
        ("count_best", "circuit.count_best", 1),
        ("qualify_top", "circuit.qualify.top", 1),
        ("qualify_min_etapas", "circuit.qualify.min_etapas", 0),
        ("qualify_alternates", "circuit.qualify.alternates", 0),
    ):
        if not any(p[0] == where for p in found):  # a whole number of the rule: does its column hold it?
            problems += _column_problems(getattr(settings, field), where=where, field=(Circuit, field), least=least)
    etapas = data.get("etapas", [])
    if not isinstance(etapas, list):
        problems.append(("etapas", _("deve ser uma lista de etapas")))
        etapas = []
    chosen: list[tuple[Tournament, int, bool]] = []
    seen: dict[str, int] = {}
    for i, etapa in enumerate(etapas):
        where = f"etapas[{i}]"
        if not isinstance(etapa, Mapping):
            problems.append((where, _('deve ser um objeto com "tournament"')))
            continue
        tslug = etapa.get("tournament")
        if not isinstance(tslug, str) or not tslug:
            problems.append((f"{where}.tournament", _("diga o endereço (slug) do torneio")))
            continue
        if len(tslug) > (most := column_max_length(model=Tournament, field="slug")):
            problems.append(
                (
                    f"{where}.tournament",
                    _("endereço longo demais: %(n)s caracteres (máximo %(max)s)") % {"n": len(tslug), "max": most},
                )
            )
            continue
        if tslug in seen:
            problems.append(
                (f"{where}.tournament", _("%(s)s já está em etapas[%(i)s]") % {"s": tslug, "i": seen[tslug]})
            )
            continue
        seen[tslug] = i
        tournament = Tournament.objects.filter(slug=tslug).first()
        found = etapa_problems(circuit=None, tournament=tournament, where=f"{where}.tournament", slug=tslug, user=user)
        weight = etapa.get("weight", 1)
        found += _weight_problems(weight, where=f"{where}.weight") or _column_problems(
            weight, where=f"{where}.weight", field=(CircuitEtapa, "weight"), least=1
        )
        final = etapa.get("final", False)
        if not isinstance(final, bool):
            found.append((f"{where}.final", _("deve ser true ou false")))
        problems += found
        if not found and tournament is not None:
            chosen.append((tournament, weight, final))
    if not problems:
        problems += _total_problems(points, weights=[w for _t, w, _f in chosen])
    if problems:
        raise CircuitRefused(problems)
    with circuit_write(
        circuit=None, action="import", user=user, summary=_("circuito importado: %(n)s") % {"n": name}
    ) as w:
        circuit = Circuit.objects.create(
            name=name.strip(),
            slug=slug,
            template=Circuit.FINAL if any(final for _t, _w, final in chosen) or qualify else Circuit.LIGA,
            points=dict(points) if points is not None else Circuit._meta.get_field("points").get_default(),
            count_best=settings.count_best,
            qualify_top=settings.qualify_top,
            qualify_min_etapas=settings.qualify_min_etapas,
            qualify_alternates=settings.qualify_alternates,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        for order, (tournament, weight, final) in enumerate(chosen, start=1):
            CircuitEtapa.objects.create(circuit=circuit, tournament=tournament, weight=weight, final=final, order=order)
            _places_store(tournament=tournament)
        w.circuit = circuit
        w.rows_all = True
        w.after = circuit_file_settings(circuit=circuit)
        w.tournaments = {t.pk for t, _w, _f in chosen}
    return circuit


def _column_problems(value: object, *, where: str, field: tuple[type[Model], str], least: int) -> list[tuple[str, str]]:
    """A whole number the rule accepts (``least`` or more) beyond what its column stores."""
    high = column_int_range(model=field[0], field=field[1])[1]
    if isinstance(value, int) and not isinstance(value, bool) and value > high:
        return [(where, _("deve ser um número inteiro de %(low)s a %(high)s") % {"low": least, "high": high})]
    return []


def _total_problems(points: Mapping[str, object] | None, *, weights: list[int]) -> list[tuple[str, str]]:
    """An atleta's season total (the most points a place gives, times every etapa's weight) must fit the ranking's
    column, however the etapas end."""
    values = [v for v in (points or DEFAULT_POINTS).values() if isinstance(v, int)]
    total = max(values, default=0) * sum(weights)
    _low, high = column_int_range(model=CircuitAtleta, field="points")
    if total <= high:
        return []
    return [
        (
            "circuit.points",
            _("com estes pontos e pesos um atleta poderia somar %(n)s pontos; o máximo é %(max)s")
            % {"n": total, "max": high},
        )
    ]


def circuit_file_settings(*, circuit: Circuit, public: bool = False) -> dict[str, Any]:
    """The file's ``circuit`` and ``etapas`` as they are now (``public``: without the draft etapas)."""
    head: dict[str, Any] = {
        "name": circuit.name,
        "slug": circuit.slug,
        "points": dict(circuit.points),
        "count_best": circuit.count_best,
    }
    if circuit.qualify_top:
        head["qualify"] = {
            "top": circuit.qualify_top,
            "min_etapas": circuit.qualify_min_etapas,
            "alternates": circuit.qualify_alternates,
        }
    etapas = []
    for etapa in circuit_etapas(circuit=circuit, public=public):
        item: dict[str, Any] = {"tournament": etapa.tournament.slug}
        if etapa.weight != 1:
            item["weight"] = etapa.weight
        if etapa.final:
            item["final"] = True
        etapas.append(item)
    return {"format": FORMAT, "version": VERSION, "circuit": head, "etapas": etapas}


def circuit_file_export(*, circuit: Circuit, after: str | None = None) -> dict[str, Any] | None:
    """The circuit file with its computed sections (as it stood after the etapa ``after``), public data only: a
    draft etapa is left out until it is published; None when ``after`` names no published etapa of the
    circuit."""
    standing = circuit_standing(circuit=circuit, after=after)
    if standing is None:
        return None
    data = circuit_file_settings(circuit=circuit, public=True)
    if after is not None:
        data["after"] = after
    data["athletes"] = [{"key": row.key, "name": row.name} for row in standing.rows]
    order = [e.key for e in standing.etapas]
    data["ranking"] = [
        {
            "rank": row.rank,
            "athlete": row.key,
            "points": row.points,
            "etapas": row.etapas,
            "places": {"1": row.places[0], "2": row.places[1], "3": row.places[2]},
            "results": [
                {"etapa": r.etapa, "place": r.place, "points": r.points, "counted": r.counted}
                for r in sorted(row.results.values(), key=lambda r: order.index(r.etapa))
            ],
            "qualified": row.qualify == "qualified",
            "alternate": row.qualify == "alternate",
        }
        for row in standing.rows
    ]
    data["teams"] = [
        {"rank": t.rank, "team": t.team, "points": t.points, "athletes": list(t.atletas)} for t in standing.teams
    ]
    return data
