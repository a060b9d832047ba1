"""The benchmark's figures and how they are reported: what ``bench`` measured, next to its targets."""

from dataclasses import dataclass, field

from tournaments.models import Tournament

from ._import_bench import TARGET_BIG_IMPORT_S, ImportBench
from ._printing_bench import PrintingBench
from ._sumula_bench import SumulaBench

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


def report_lines(results: list[SizeResult]) -> list[str]:
    """The benchmark's table, a line each: every size's figures next to its target and verdict."""
    out: list[str] = []
    if not results:
        return out
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
            same = getattr(first, attr) == getattr(last, attr) and not first.queries_varied and not last.queries_varied
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
        + [f"{_sumula(r).mao_median_ms:.1f} ms (p95 {_sumula(r).mao_p95_ms:.1f})" for r in results]
        + [f"≤ {TARGET_MAO_MS:.0f} ms", _verdict(_sumula(large).mao_median_ms <= TARGET_MAO_MS)],
        ["súmula: consultas SQL por mão"]
        + [str(_sumula(r).mao_queries) for r in results]
        + ["igual em todos os tamanhos", _verdict(len({_sumula(r).mao_queries for r in results}) == 1)],
        ["súmula: 1ª confirmação (PIN)"] + [f"{_sumula(r).confirm_first_ms:.0f} ms" for r in results] + ["", ""],
        ["súmula: confirmação que conta (classificação)"]
        + [f"{_sumula(r).confirm_counting_ms:.0f} ms" for r in results]
        + [f"≤ {TARGET_CONFIRM_MS:.0f} ms", _verdict(_sumula(large).confirm_counting_ms <= TARGET_CONFIRM_MS)],
        ["súmula: situações após as confirmações"]
        + [_sumula(r).statuses for r in results]
        + ["… → confirmed", _verdict(_sumula(large).statuses.endswith("confirmed"))],
    ]
    widths = [max(len(row[i]) for row in [head] + rows) for i in range(len(head))]
    out.append("")
    for k, row in enumerate([head] + rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:-2], widths[1:-2], strict=False)]
        cells += [row[-2].ljust(widths[-2]), row[-1]]
        out.append("  ".join(cells).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    if any(p.queries_varied for r in results for p in r.pages.values()):
        out.append("* o número de consultas variou entre as medições (mostrado o maior)")
    return out


def printing_lines(p: PrintingBench, duplas: int) -> list[str]:
    """The printing benchmark's table, a line each."""
    out: list[str] = []
    rows = [["impressão (pedido inteiro, estado esvaziado antes)", "tempo", "meta", ""]] + _printing_rows(p, duplas)
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    out.append("")
    for k, row in enumerate(rows):
        out.append(
            "  ".join([row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].ljust(widths[2]), row[3]]).rstrip()
        )
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def import_lines(bench: ImportBench) -> list[str]:
    """The big import's table (issue 41: under 5 s at 4,096 duplas), a line each."""
    rows = [[f"importação de {bench.duplas} duplas (tournament_import)", "jogos", "tempo", "CPU", "meta", ""]]
    for t in bench.timings:
        rows.append(
            [
                t.label,
                str(t.jogos),
                _seconds(t.wall_s),
                _seconds(t.cpu_s),
                f"< {TARGET_BIG_IMPORT_S:.0f} s",
                _verdict(t.wall_s < TARGET_BIG_IMPORT_S),
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = [""]
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:4], widths[1:4], strict=True)]
        out.append("  ".join([*cells, row[4].ljust(widths[4]), row[5]]).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


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


def _sumula(result: SizeResult) -> SumulaBench:
    """The súmula's figures of a size: measured for every size that reaches the table."""
    assert result.sumula is not None, f"{result.duplas} duplas: the súmula was not measured"
    return result.sumula


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
