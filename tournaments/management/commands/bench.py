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
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from tournaments.caching import pages_clear
from tournaments.draws.competition import competition_publish
from tournaments.interchange.writer import tournament_export
from tournaments.models import Dupla, Player, Tournament
from tournaments.selectors import tournament_state_cache_clear, tournament_state_load
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament
from tournaments.writes import tournament_rebuild

from ._printing_bench import PrintingBench, printing_bench
from ._sumula_bench import SumulaBench, sumula_bench

PAGES = (
    ("standings", "classificacao"),
    ("bracket", "chave"),
    ("jogos", "jogos"),
    ("detail", "evento"),
    ("tv", "tv"),
    ("duplas", "duplas"),
)

# Targets (for the largest size; query counts: equal at the smallest and the largest size).
TARGET_IMPORT_S = 20.0
TARGET_EXPORT_S = 2.0
TARGET_PAGE_MS = 150.0
TARGET_FIRST_VISIT_MS = 50.0  # the first visit after a write (issue 9)
TARGET_PAGE_QUERIES = 10
TARGET_MAO_MS = 30.0  # a mão POST through the API, median
TARGET_CONFIRM_MS = 150.0  # the confirmation that makes a result count (standings recomputed)
TARGET_PRINT_RATIO = 2.0  # a round of 256 súmulas / the bracket: whole request within 2× of a plain canvas


@dataclass
class PageResult:
    status: str = ""
    queries: int | None = None  # warm: the tournament's views and the page already cached
    queries_varied: bool = False
    median_ms: float = 0.0
    cold_queries: int | None = None  # cold: every cache emptied before each request (a process that has nothing)
    cold_median_ms: float = 0.0
    after_write_ms: float = 0.0  # the first visit after a write, in the process that wrote
    after_write_elsewhere_ms: float = 0.0  # … in another process (its own states empty; the shared cache as left)
    size_kb: float = 0.0


@dataclass
class SizeResult:
    duplas: int
    jogos: int = 0
    file_kb: float = 0.0
    import_s: float = 0.0
    export_s: float = 0.0
    state_ms: float = 0.0
    pages: dict[str, PageResult] = field(default_factory=dict)
    sumula: SumulaBench | None = None
    tournament: Tournament | None = None
    draw_s: float = 0.0  # the competition draw of a fresh event of this size (groups of 4 + knockout), published
    drawn_page_ms: float = 0.0  # its classificação, first visit after the draw


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
        try:
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
        finally:
            for t in created:
                t.delete()  # cascades to everything in the tournament
        self.report(results)
        if printing is not None:
            self.report_printing(printing, results[-1].duplas)
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

    # --- the table ----------------------------------------------------------------

    def report(self, results: list[SizeResult]) -> None:
        if not results:
            return
        small, large = results[0], results[-1]
        head = ["medida"] + [f"{r.duplas} duplas" for r in results] + [f"meta ({large.duplas} duplas)", ""]
        rows: list[list[str]] = [
            ["jogos no arquivo"] + [str(r.jogos) for r in results] + ["", ""],
            ["tamanho do arquivo"] + [f"{r.file_kb:.0f} KiB" for r in results] + ["", ""],
            ["importação (tournament_import)"]
            + [_seconds(r.import_s) for r in results]
            + [f"< {TARGET_IMPORT_S:.0f} s", _verdict(large.import_s < TARGET_IMPORT_S)],
            ["exportação (+ json.dumps)"]
            + [_seconds(r.export_s) for r in results]
            + [f"< {TARGET_EXPORT_S:.0f} s", _verdict(large.export_s < TARGET_EXPORT_S)],
            ["classificação (tournament_state_load)"] + [f"{r.state_ms:.0f} ms" for r in results] + ["", ""],
            ["sorteio: grupos de 4 + chave, publicado"] + [_seconds(r.draw_s) for r in results] + ["", ""],
            ["sorteio: 1ª visita à classificação"] + [f"{r.drawn_page_ms:.0f} ms" for r in results] + ["", ""],
        ]
        for name, slug_part in PAGES:
            first, last = small.pages[name], large.pages[name]
            rendered = first.status == "200" and last.status == "200"  # an error page proves nothing
            for label, attr, time_attr in (
                ("sem cache", "cold_queries", "cold_median_ms"),
                ("com cache", "queries", "median_ms"),
            ):
                same = (
                    getattr(first, attr) == getattr(last, attr) and not first.queries_varied and not last.queries_varied
                )
                ok_queries = same and getattr(last, attr) is not None and getattr(last, attr) <= TARGET_PAGE_QUERIES
                rows.append(
                    [f"/{slug_part}/ consultas SQL, {label}"]
                    + [f"{getattr(r.pages[name], attr)}{'*' if r.pages[name].queries_varied else ''}" for r in results]
                    + [
                        f"≤ {TARGET_PAGE_QUERIES}, igual em {small.duplas} e {large.duplas}",
                        _verdict(ok_queries, rendered),
                    ]
                )
                rows.append(
                    [f"/{slug_part}/ tempo no servidor, {label}"]
                    + [f"{getattr(r.pages[name], time_attr):.0f} ms" for r in results]
                    + [f"< {TARGET_PAGE_MS:.0f} ms", _verdict(getattr(last, time_attr) < TARGET_PAGE_MS, rendered)]
                )
            for label, attr in (
                ("1ª visita após escrita, mesmo processo", "after_write_ms"),
                ("1ª visita após escrita, outro processo", "after_write_elsewhere_ms"),
            ):
                rows.append(
                    [f"/{slug_part}/ {label}"]
                    + [f"{getattr(r.pages[name], attr):.0f} ms" for r in results]
                    + [
                        f"≤ {TARGET_FIRST_VISIT_MS:.0f} ms",
                        _verdict(getattr(last, attr) <= TARGET_FIRST_VISIT_MS, rendered),
                    ]
                )
            rows.append(
                [f"/{slug_part}/ resposta"]
                + [_status(r.pages[name]) for r in results]
                + ["200", _verdict(last.status == "200")]
            )
        rows += [
            ["súmula: mão POST pela API, mediana"]
            + [f"{r.sumula.mao_median_ms:.1f} ms (p95 {r.sumula.mao_p95_ms:.1f})" for r in results]
            + [f"≤ {TARGET_MAO_MS:.0f} ms", _verdict(large.sumula.mao_median_ms <= TARGET_MAO_MS)],
            ["súmula: consultas SQL por mão"]
            + [str(r.sumula.mao_queries) for r in results]
            + ["igual em todos os tamanhos", _verdict(len({r.sumula.mao_queries for r in results}) == 1)],
            ["súmula: 1ª confirmação (PIN)"] + [f"{r.sumula.confirm_first_ms:.0f} ms" for r in results] + ["", ""],
            ["súmula: confirmação que conta (classificação)"]
            + [f"{r.sumula.confirm_counting_ms:.0f} ms" for r in results]
            + [f"≤ {TARGET_CONFIRM_MS:.0f} ms", _verdict(large.sumula.confirm_counting_ms <= TARGET_CONFIRM_MS)],
            ["súmula: situações após as confirmações"]
            + [r.sumula.statuses for r in results]
            + ["… → confirmed", _verdict(large.sumula.statuses.endswith("confirmed"))],
        ]
        widths = [max(len(row[i]) for row in [head] + rows) for i in range(len(head))]
        self.stdout.write("")
        for k, row in enumerate([head] + rows):
            cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:-2], widths[1:-2], strict=False)]
            cells += [row[-2].ljust(widths[-2]), row[-1]]
            self.stdout.write("  ".join(cells).rstrip())
            if k == 0:
                self.stdout.write("  ".join("-" * w for w in widths))
        if any(p.queries_varied for r in results for p in r.pages.values()):
            self.stdout.write("* o número de consultas variou entre as medições (mostrado o maior)")

    def report_printing(self, p: PrintingBench, duplas: int) -> None:
        rows = [["impressão (pedido inteiro, estado esvaziado antes)", "tempo", "meta", ""]] + _printing_rows(p, duplas)
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        self.stdout.write("")
        for k, row in enumerate(rows):
            self.stdout.write(
                "  ".join([row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].ljust(widths[2]), row[3]]).rstrip()
            )
            if k == 0:
                self.stdout.write("  ".join("-" * w for w in widths))


def _printing_rows(p: PrintingBench, duplas: int) -> list[list[str]]:
    ratio = p.batch_s / p.baseline_s if p.baseline_s else float("inf")
    bracket_ratio = p.bracket_s / p.baseline_s if p.baseline_s else float("inf")
    return [
        ["base: canvas simples, 256 páginas (QR em caminho)", _seconds(p.baseline_path_s), "", ""],
        ["base: canvas simples, 256 páginas (QR widget)", _seconds(p.baseline_widget_s), "", ""],
        [
            f"súmulas em branco: {p.batch_pages} páginas, pedido inteiro",
            _seconds(p.batch_s),
            f"≤ {TARGET_PRINT_RATIO:.0f}× a base ({_seconds(TARGET_PRINT_RATIO * p.baseline_s)})",
            f"{_verdict(ratio <= TARGET_PRINT_RATIO)} ({ratio:.2f}×)",
        ],
        ["súmulas em branco: tamanho do PDF", f"{p.batch_kb:.0f} KiB", "", ""],
        [
            "súmulas em branco: consultas SQL (64 → 512 duplas)",
            f"{p.batch_queries_small} → {p.batch_queries}",
            "iguais",
            _verdict(p.batch_queries_small == p.batch_queries),
        ],
        [
            f"chave.pdf, {duplas} duplas jogadas ({p.bracket_pages} páginas)",
            _seconds(p.bracket_s),
            f"≤ {TARGET_PRINT_RATIO:.0f}× a base",
            (f"{_verdict(bracket_ratio <= TARGET_PRINT_RATIO)} ({bracket_ratio:.2f}×)"),
        ],
        [f"chave.pdf, 1024 duplas sorteadas ({p.bracket_drawn_pages} páginas)", _seconds(p.bracket_drawn_s), "", ""],
        [
            "página com cache, sozinha / durante a impressão",
            f"{p.page_alone_ms:.1f} / {p.page_during_ms:.1f} ms (máx. {p.page_during_max_ms:.0f})",
            "",
            "",
        ],
    ]


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


def _seconds(value: float) -> str:
    return f"{value:.2f} s"


def _verdict(ok: bool, measurable: bool = True) -> str:
    if not measurable:
        return "n/d (página sem 200)"
    return "ok" if ok else "FALHA"


def _status(page: PageResult) -> str:
    if page.status == "200":
        return f"200, {page.size_kb:.0f} KiB"
    return page.status


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
