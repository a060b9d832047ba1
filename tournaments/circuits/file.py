"""The circuit file (INTERCHANGE.md "Circuits, atletas and rankings"): read one into a new circuit over
tournaments already on the site, and write one with its computed sections (public data only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from ..models import Circuit, CircuitEtapa, Tournament
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

__all__ = ["FORMAT", "circuit_file_export", "circuit_import"]

FORMAT, VERSION = "truco-circuito", 1


def circuit_import(*, data: object, user: Any = None) -> Circuit:
    """A new circuit from the file ``data`` (parsed JSON). Every problem is reported at once, each naming its
    place (``circuit.points.5-8: …``, ``etapas[2].tournament: …``), and then nothing is written. The computed
    sections (``athletes``, ``ranking``, ``teams``) are ignored."""
    problems: list[tuple[str, str]] = []
    if not isinstance(data, Mapping):
        raise CircuitRefused([("", _("o arquivo deve ser um objeto JSON com circuit e etapas"))])
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
    problems += [p for p in settings.problems() if p[0] != "circuit.name"]
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
        if tslug in seen:
            problems.append(
                (f"{where}.tournament", _("%(s)s já está em etapas[%(i)s]") % {"s": tslug, "i": seen[tslug]})
            )
            continue
        seen[tslug] = i
        tournament = Tournament.objects.filter(slug=tslug).first()
        found = etapa_problems(circuit=None, tournament=tournament, where=f"{where}.tournament", slug=tslug)
        weight = etapa.get("weight", 1)
        found += _weight_problems(weight, where=f"{where}.weight")
        final = etapa.get("final", False)
        if not isinstance(final, bool):
            found.append((f"{where}.final", _("deve ser true ou false")))
        problems += found
        if not found and tournament is not None:
            chosen.append((tournament, weight, final))
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


def circuit_file_settings(*, circuit: Circuit) -> dict[str, Any]:
    """The file's ``circuit`` and ``etapas`` as they are now."""
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
    for etapa in circuit_etapas(circuit=circuit):
        item: dict[str, Any] = {"tournament": etapa.tournament.slug}
        if etapa.weight != 1:
            item["weight"] = etapa.weight
        if etapa.final:
            item["final"] = True
        etapas.append(item)
    return {"format": FORMAT, "version": VERSION, "circuit": head, "etapas": etapas}


def circuit_file_export(*, circuit: Circuit, after: str | None = None) -> dict[str, Any] | None:
    """The circuit file with its computed sections (as it stood after the etapa ``after``); None when
    ``after`` names no etapa of the circuit."""
    standing = circuit_standing(circuit=circuit, after=after)
    if standing is None:
        return None
    data = circuit_file_settings(circuit=circuit)
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
