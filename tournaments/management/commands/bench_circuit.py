"""Benchmark: a circuit of 20 etapas × 256 duplas (about 10,000 atletas) — its ranking page on a first visit after
a counted result, cached, and how many queries (issue 25 point 6; targets: ≤ 10 queries, ≤ 50 ms first visit,
≤ 3 ms cached).

Run it through ``make bench-circuit`` (a throwaway SQLite file, then a throwaway PostgreSQL database): it
writes tournaments and refuses a database whose name does not mention "bench".
"""

from __future__ import annotations

import logging
import random
import statistics
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments.circuits.file import circuit_import
from tournaments.circuits.selectors import circuit_get, circuit_page, circuit_standing
from tournaments.draws.duplas import dupla_disqualify
from tournaments.models import CircuitAtleta, Dupla
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament

FIRST = ["Ana", "Bruno", "Carla", "Diego", "Elaine", "Fábio", "Gisele", "Hugo", "Iara", "João", "Kátia", "Lucas"]
LAST = ["Souza", "Lima", "Pereira", "Costa", "Almeida", "Rocha", "Dias", "Barros", "Teixeira", "Moura", "Nunes"]


def _pool(size: int, seed: int) -> list[tuple[str, str]]:
    """``size`` distinct people (name, birth date): the atletas the etapas draw their players from."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    people: list[tuple[str, str]] = []
    while len(people) < size:
        person = (
            f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}",
            f"{rng.randint(1950, 2004)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        )
        if person not in seen:
            seen.add(person)
            people.append(person)
    return people


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class Command(BaseCommand):
    help = "Mede o ranking de um circuito de 20 etapas × 256 duplas (use make bench-circuit: banco descartável)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--etapas", type=int, default=20)
        parser.add_argument("--duplas", type=int, default=256)
        parser.add_argument("--atletas", type=int, default=10_000, help="pessoas de onde as etapas tiram os atletas")
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--any-database", action="store_true", help="aceita um banco sem 'bench' no nome")

    def handle(self, *args: Any, **options: Any) -> None:
        name = str(settings.DATABASES["default"]["NAME"])
        if "bench" not in name and not options["any_database"]:
            raise CommandError(f"o banco {name!r} não parece descartável (o nome não tem 'bench')")
        etapas, duplas, size, repeat = options["etapas"], options["duplas"], options["atletas"], options["repeat"]
        out = self.stdout.write
        logging.getLogger("zap.requests").setLevel(logging.WARNING)  # one line per visit would drown the figures
        out(
            f"circuito: {etapas} etapas × {duplas} duplas, {connection.vendor}, cache {caches['default'].__class__.__name__}"
        )
        people = _pool(size, seed=7)
        per = 2 * duplas
        step = max(1, (size - per) // max(1, etapas - 1))  # etapas overlap: atletas who play several
        started = time.perf_counter()
        slugs = []
        for i in range(etapas):
            data = synthetic_tournament(duplas=duplas, seed=100 + i)
            data["tournament"]["slug"] = slug = f"bench-etapa-{i + 1}"
            data["tournament"]["name"] = f"Etapa {i + 1}"
            data["tournament"]["date"] = f"2025-{1 + i // 2:02d}-{1 + 14 * (i % 2):02d}"
            for k, player in enumerate(data["players"]):
                player["name"], player["birth_date"] = people[(i * step + k) % size]
            tournament_import(data=data)
            slugs.append(slug)
        out(f"  {etapas} etapas importadas em {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        circuit = circuit_import(
            data={
                "format": "truco-circuito",
                "version": 1,
                "circuit": {
                    "name": "Circuito de Medição",
                    "slug": "bench-circuito",
                    "count_best": 8,
                    "qualify": {"top": 64, "min_etapas": 3, "alternates": 16},
                },
                "etapas": [{"tournament": s} for s in slugs[:-1]]
                + [{"tournament": slugs[-1], "weight": 2, "final": True}],
            }
        )
        rows = CircuitAtleta.objects.filter(circuit=circuit).count()
        out(
            f"  circuito importado (todas as linhas do ranking: {rows} atletas) em {time.perf_counter() - started:.1f} s"
        )

        client = Client()
        path = f"/circuitos/{circuit.slug}/"
        page_served = client.get(path).status_code == 200

        def visit() -> tuple[float, int]:
            fresh = circuit_get(slug=circuit.slug)
            assert fresh is not None
            with CaptureQueriesContext(connection) as queries:
                began = time.perf_counter()
                if page_served:
                    response = client.get(path)
                    assert response.status_code == 200, response.status_code
                else:
                    circuit_page(circuit=fresh)
                took = time.perf_counter() - began
            return took, len(queries.captured_queries)

        firsts, counts, follows = [], [], []
        dq_duplas = list(
            Dupla.objects.filter(tournament__slug__in=slugs[:-1]).order_by("?").values_list("pk", flat=True)[:repeat]
        )
        for pk in dq_duplas:
            dupla = Dupla.objects.get(pk=pk)
            began = time.perf_counter()
            dupla_disqualify(dupla=dupla, user=None, reason="medição")  # a counted result: its places move
            follows.append(time.perf_counter() - began)
            took, queries = visit()
            firsts.append(took)
            counts.append(queries)
        cached = [visit()[0] for _ in range(repeat * 4)]
        out("  (uma desclassificação numa etapa terminada: as colocações dessa etapa mudam, o ranking segue)")
        out(
            f"  a escrita que conta, com as colocações e as linhas do ranking: mediana {_ms(statistics.median(follows))}"
        )
        out(
            f"  primeira visita depois dela ({'página /circuitos/<slug>/' if page_served else 'circuit_page'}): "
            f"mediana {_ms(statistics.median(firsts))}, máx {_ms(max(firsts))}  [alvo ≤ 50 ms]"
        )
        out(f"  consultas na primeira visita: {max(counts)}  [alvo ≤ 10]")
        out(f"  página em cache: mediana {_ms(statistics.median(cached))}, máx {_ms(max(cached))}  [alvo ≤ 3 ms]")
        fresh = circuit_get(slug=circuit.slug)
        assert fresh is not None
        caches["default"].clear()
        began = time.perf_counter()
        circuit_standing(circuit=fresh)
        out(f"  o ranking inteiro calculado do zero (JSON, CSV, PDF, ?apos=): {_ms(time.perf_counter() - began)}")
