"""Benchmark: import, export, standings and the public pages for synthetic tournaments of growing size.

Run it through ``make bench`` (a throwaway SQLite file) or ``make bench-postgres``
(a throwaway PostgreSQL database): it writes tournaments and deletes them at the
end, and refuses a database whose name does not mention "bench" unless told
otherwise.
"""

import cProfile
import io
import json
import logging
import pstats
import re
import statistics
import time
import warnings
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from tournaments import limits
from tournaments.caching import pages_clear
from tournaments.draws.competition import competition_publish
from tournaments.interchange.writer import tournament_export
from tournaments.models import Dupla, Player, Tournament
from tournaments.selectors import tournament_state_cache_clear, tournament_state_load
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament
from tournaments.writes import tournament_rebuild

from ._bench_report import PAGES, PageResult, SizeResult, import_lines, printing_lines, report_lines
from ._exports_bench import ExportsBench, exports_bench, exports_lines
from ._import_bench import ImportBench, import_bench
from ._printing_bench import PrintingBench, printing_bench
from ._share_bench import ShareBench, share_bench, share_lines
from ._sumula_bench import sumula_bench


class Command(BaseCommand):
    help = (
        "Mede importação, exportação, classificação e as páginas públicas com torneios sintéticos "
        "(use make bench / make bench-postgres: banco descartável)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--sizes", default="64,256,1024", help="números de duplas, separados por vírgula (padrão: 64,256,1024)"
        )
        parser.add_argument(
            "--repeat",
            type=int,
            default=5,
            help="medições de cada página e da classificação, após um aquecimento (mediana)",
        )
        parser.add_argument("--seed", type=int, default=0, help="semente dos torneios sintéticos")
        parser.add_argument(
            "--maos-every",
            type=int,
            default=10,
            help="a cada N jogos, as partidas são registradas mão a mão (0: nunca)",
        )
        parser.add_argument(
            "--profile",
            action="store_true",
            help="no maior tamanho, roda cada etapa mais uma vez sob cProfile (fora das "
            "medições) e mostra as funções mais caras",
        )
        parser.add_argument(
            "--skip-printing", action="store_true", help="não mede a impressão (256 súmulas, a chave de 1.024 duplas)"
        )
        parser.add_argument(
            "--skip-exports",
            action="store_true",
            help="não mede as planilhas (classificacao.xlsx, ranking.xlsx e inscricoes.xlsx do maior evento)",
        )
        parser.add_argument(
            "--skip-share",
            action="store_true",
            help="não mede os cartões de compartilhar nem os quadros para incorporar (/embed/) do maior evento",
        )
        parser.add_argument(
            "--import-duplas",
            type=int,
            default=limits.MAX_DUPLAS,
            help=f"mede a importação de um arquivo deste tamanho, mata-mata e evento inteiro, com atletas novos e "
            f"já no site (padrão: {limits.MAX_DUPLAS}, o maior que um arquivo aceita; 0: não mede)",
        )
        parser.add_argument(
            "--any-database",
            action="store_true",
            help="aceita um banco cujo nome não contém 'bench' (ele recebe e perde torneios)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            sizes = [int(s) for s in options["sizes"].split(",") if s.strip()]
        except ValueError:
            raise CommandError("--sizes: use números separados por vírgula, ex.: 64,256,1024") from None
        if not sizes or min(sizes) < 4:
            raise CommandError("--sizes: cada tamanho precisa de pelo menos 4 duplas")
        db_name = str(connection.settings_dict.get("NAME") or "")
        if "bench" not in db_name and not options["any_database"]:
            raise CommandError(
                f"o banco {db_name!r} não parece descartável (o nome não contém 'bench'); "
                "use make bench / make bench-postgres, ou --any-database"
            )
        self.repeat = max(1, options["repeat"])
        self.profile = options["profile"]
        self.profiles: list[tuple[str, str]] = []
        shared = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
        self.stdout.write(
            f"cache compartilhado: {shared}; estados compartilhados: {'sim' if settings.ZAP_SHARE_STATES else 'não'}"
        )
        self.stdout.write(
            f"banco: {connection.vendor} ({db_name}); "
            f"páginas: mediana de {self.repeat} após 1 aquecimento, DEBUG desligado; "
            "sem cache = todo cache esvaziado antes de cada pedido (um processo sem nada); 1ª visita após escrita = "
            "logo após uma escrita (tournament_rebuild), no processo que escreveu ou em outro"
        )
        created: list[Tournament] = []
        results: list[SizeResult] = []
        printing: PrintingBench | None = None
        imports: ImportBench | None = None
        exports: ExportsBench | None = None
        shares: ShareBench | None = None
        try:
            if options["import_duplas"]:
                # first, so that its atletas are new to the site (its seeds are not the other sizes')
                imports = import_bench(duplas=options["import_duplas"], seed=options["seed"] + 1000, created=created)
                self.stdout.write(f"  importação de {options['import_duplas']} duplas: medida", ending="\n")
            for n in sorted(sizes):
                profile = self.profile and n == max(sizes)
                results.append(self.measure(n, options, created, profile))
                self.stdout.write(f"  {n} duplas: medido", ending="\n")
            if not options["skip_printing"]:
                with _as_served():
                    largest = results[-1].tournament
                    printing = printing_bench(
                        bracket_tournament=largest,
                        repeat=max(1, min(self.repeat, 3)),
                        seed=options["seed"],
                        created=created,
                    )
                self.stdout.write("  impressão: medida", ending="\n")
            if not options["skip_exports"]:
                with _as_served():
                    largest = results[-1].tournament
                    assert largest is not None
                    exports = exports_bench(
                        tournament=largest, duplas=results[-1].duplas, repeat=max(1, min(self.repeat, 3))
                    )
                self.stdout.write("  planilhas: medidas", ending="\n")
            if not options["skip_share"]:
                with _as_served():
                    largest = results[-1].tournament
                    assert largest is not None
                    shares = share_bench(
                        tournament=largest, duplas=results[-1].duplas, repeat=max(1, min(self.repeat, 5))
                    )
                self.stdout.write("  cartões e quadros: medidos", ending="\n")
        finally:
            for t in created:
                t.delete()  # cascades to everything in the tournament
        for line in report_lines(results):
            self.stdout.write(line)
        if printing is not None:
            for line in printing_lines(printing, results[-1].duplas):
                self.stdout.write(line)
        if exports is not None:
            for line in exports_lines(exports):
                self.stdout.write(line)
        if shares is not None:
            for line in share_lines(shares):
                self.stdout.write(line)
        if imports is not None:
            for line in import_lines(imports):
                self.stdout.write(line)
        for title, text in self.profiles:
            self.stdout.write(f"\n--- cProfile: {title} ---\n{text}")

    # --- measuring ----------------------------------------------------------------

    @staticmethod
    def timed(func):
        """Run ``func`` once; its result and wall time (s)."""
        start = time.perf_counter()
        value = func()
        return value, time.perf_counter() - start

    def profiled(self, title: str, func):
        """Run ``func`` once more under cProfile (outside the timings) and keep the costliest functions."""
        profiler = cProfile.Profile()
        value = profiler.runcall(func)
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(30)
        out.write("(ordenado por tempo próprio)\n")
        stats.sort_stats("tottime").print_stats(20)
        self.profiles.append((title, _trim_profile(out.getvalue())))
        return value

    def measure(self, n: int, options, created: list[Tournament], profile: bool) -> SizeResult:
        data = synthetic_tournament(duplas=n, seed=options["seed"], maos_every=options["maos_every"])
        text = json.dumps(data, ensure_ascii=False)
        result = SizeResult(duplas=n, jogos=len(data["jogos"]), file_kb=len(text.encode()) / 1024)

        payload = json.loads(text)  # a fresh copy, as the command would read it
        tournament, result.import_s = self.timed(lambda: tournament_import(data=payload))
        created.append(tournament)
        result.tournament = tournament
        if profile:
            payload = json.loads(text)
            created.append(self.profiled(f"importação, {n} duplas", lambda: tournament_import(data=payload)))

        def export():
            return json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=2)

        _, result.export_s = self.timed(export)
        result.draw_s, result.drawn_page_ms = self.draw(n, created)
        if profile:
            self.profiled(f"exportação, {n} duplas", export)

        def state():
            return tournament_state_load(tournament=tournament)  # computed, never read from the cache

        state()  # warm-up
        result.state_ms = statistics.median(self.timed(state)[1] for _ in range(self.repeat)) * 1000
        if profile:
            self.profiled(f"tournament_state_load, {n} duplas", state)

        with _as_served():
            client = Client()
            for name, _ in PAGES:
                url = reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug})
                result.pages[name] = self.page(client, url, tournament)
                if profile:
                    self.profiled(f"página {url}", lambda: client.get(url))  # noqa: B023 (called at once)
            result.sumula = sumula_bench(tournament=tournament)
        return result

    def draw(self, n: int, created: list[Tournament]) -> tuple[float, float]:
        """A fresh event of ``n`` duplas drawn into groups of 4 and a knockout and published (as the desk does)."""
        t = Tournament.objects.create(
            name=f"Sorteio {n}",
            slug=f"bench-sorteio-{n}",
            preset="fenacef",
            registration_closed=True,
            format={
                "kind": "groups_knockout",
                "group_size": 4,
                "per_group": 2,
                "best_others": 0,
                "bracket_method": "seeded",
            },
        )
        created.append(t)
        players = Player.objects.bulk_create(
            [Player(tournament=t, key=f"p{i}", name=f"Jogador {i:05d}", order=i) for i in range(1, 2 * n + 1)]
        )
        Dupla.objects.bulk_create(
            [
                Dupla(
                    tournament=t,
                    key=f"d{i}",
                    player1=players[2 * i - 2],
                    player2=players[2 * i - 1],
                    order=i,
                    seed=i if i <= n // 4 else None,
                )
                for i in range(1, n + 1)
            ]
        )
        _, seconds = self.timed(lambda: competition_publish(tournament=t, user=None, seed=7))
        t.refresh_from_db()
        with _as_served():
            response, page_s = self.timed(
                lambda: Client().get(reverse("tournaments:standings", kwargs={"slug": t.slug}))
            )
        if response.status_code != 200:
            raise CommandError(f"classificação do torneio sorteado: {response.status_code}")
        return seconds, page_s * 1000

    def page(self, client: Client, url: str, tournament: Tournament) -> PageResult:
        out = PageResult()

        def get():
            try:
                response = client.get(url)
            except Exception as exc:  # an unfinished template, a bug in a view: measured and reported
                return type(exc).__name__, 0
            return str(response.status_code), len(response.content)

        get()  # warm-up (template loading, URL resolving)
        cold_counts, cold_times = [], []
        for _ in range(self.repeat):
            tournament_state_cache_clear()
            pages_clear()
            with CaptureQueriesContext(connection) as queries:
                _, elapsed = self.timed(get)
            cold_counts.append(len(queries.captured_queries))
            cold_times.append(elapsed)
        counts, times = [], []
        for _ in range(self.repeat):
            with CaptureQueriesContext(connection) as queries:
                (status, size), elapsed = self.timed(get)
            counts.append(len(queries.captured_queries))
            times.append(elapsed)
            out.status, out.size_kb = status, size / 1024
        after, elsewhere = [], []
        for _ in range(self.repeat):
            tournament_rebuild(tournament=tournament)  # what every write ends with: a new version, its views computed
            after.append(self.timed(get)[1])
            tournament_rebuild(tournament=tournament)
            # another worker: none of this process's states, the shared cache as left once the writer's copy landed
            tournament_state_cache_clear()
            elsewhere.append(self.timed(get)[1])
        out.after_write_ms = statistics.median(after) * 1000
        out.after_write_elsewhere_ms = statistics.median(elsewhere) * 1000
        out.queries = max(counts)
        out.cold_queries = max(cold_counts)
        out.queries_varied = len(set(counts)) > 1 or len(set(cold_counts)) > 1
        out.median_ms = statistics.median(times) * 1000
        out.cold_median_ms = statistics.median(cold_times) * 1000
        return out


@contextmanager
def _as_served():
    """Requests as a production server answers them: DEBUG off, and quiet (the table says what failed)."""
    with (
        override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver", "127.0.0.1", "localhost"]),
        _quiet_request_errors(),
        warnings.catch_warnings(),
    ):
        warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: no collectstatic here
        yield


@contextmanager
def _quiet_request_errors():
    """A failing page is reported in the table; its traceback would drown it (django.request logs each one),
    and so would the line per request of zap.requests."""
    loggers = [logging.getLogger("django.request"), logging.getLogger("zap.requests")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=False):
            logger.setLevel(level)


def _trim_profile(text: str) -> str:
    """pstats output without its preamble lines and with the long paths shortened."""
    lines = [
        line
        for line in text.splitlines()
        if line.strip()
        and "function calls" not in line
        and not line.startswith("Ordered by")
        and not line.strip().startswith("List reduced")
    ]
    base = f"{settings.BASE_DIR}/"
    return "\n".join(re.sub(r"\S*/site-packages/", "", line.replace(base, "")) for line in lines)
