"""docs/regulamentos.md: every article of the regulations points at a test that exists, or says why it cannot.

The test files are read with ``ast`` (never imported), so a reference to a test that was renamed or
removed fails here with the article that lost its proof.
"""

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "regulamentos.md"
# The rules in the repo (docs/regras.md keeps docs/regras.md's section numbers); the column is still headed "DOMAIN"
DOMAIN = ROOT / "docs" / "regras.md"

HEADER = ["Artigo", "O que diz (resumo)", "DOMAIN", "Testes"]
# (a word its section heading must contain, the least number of rows its table must have)
REGULATIONS = {
    "FENACEF": 60,
    "AABB": 15,
    "FPRT": 20,
    "Regras gerais": 8,
    "Truco Online": 15,
}
EXEMPT = ("não aplicável:", "pendente:")
REF = re.compile(r"`([^`]+)`")
NODE = re.compile(r"^(tests/[\w/]+\.py)::(\w+)(?:::(\w+))?$")
SECTION = re.compile(r"^§\d+(?:\.\d+)?$")


@dataclass(frozen=True)
class Row:
    regulation: str  # the section heading
    line: int
    article: str
    summary: str
    domain: str
    tests: str

    def __str__(self) -> str:
        return f"{self.regulation} / {self.article} (docs/regulamentos.md, linha {self.line})"


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse(text: str) -> tuple[dict[str, list[Row]], list[str]]:
    """Tables by section heading, and the problems of form found while reading."""
    tables: dict[str, list[Row]] = {}
    problems: list[str] = []
    heading = None
    in_table = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            heading, in_table = line[3:].strip(), False
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        cells = _cells(line)
        if not in_table:
            in_table = True
            if cells != HEADER:
                problems.append(f"linha {number}: cabeçalho de tabela deve ser {HEADER}, é {cells}")
            elif heading is not None:
                tables.setdefault(heading, [])
            continue
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue  # the separator row
        if heading is None:
            problems.append(f"linha {number}: tabela fora de uma seção de regulamento")
            continue
        if len(cells) != 4:
            problems.append(f"linha {number}: a linha deve ter 4 colunas, tem {len(cells)}: {line}")
            continue
        tables.setdefault(heading, []).append(Row(heading, number, *cells))
    return tables, problems


@cache
def defined_tests(path: str) -> frozenset[str]:
    """``name`` and ``Class::method`` of every function defined in a test file (read with ast)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(
                f"{node.name}::{item.name}"
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            )
    return frozenset(names)


def row_problems(row: Row) -> list[str]:
    """What is wrong with the Testes cell of one row (pt-BR, naming the article)."""
    cell = row.tests
    if not row.article:
        return [f"{row}: a coluna Artigo está vazia"]
    if cell.startswith(EXEMPT):
        reason = cell.split(":", 1)[1].strip()
        return [] if reason else [f"{row}: '{cell}' precisa dizer o motivo depois dos dois-pontos"]
    refs = REF.findall(cell)
    if not refs:
        return [f"{row}: nenhum teste citado (use `tests/arquivo.py::teste`, 'não aplicável: …' ou 'pendente: …')"]
    leftover = REF.sub("", cell).replace("<br>", "").replace(",", "").strip()
    problems = []
    if leftover:
        problems.append(f"{row}: texto solto na coluna Testes: {leftover!r}")
    for ref in refs:
        match = NODE.match(ref)
        if not match:
            problems.append(f"{row}: {ref!r} não é um id de teste do pytest (tests/arquivo.py::teste)")
            continue
        path, name, method = match.groups()
        if not (ROOT / path).is_file():
            problems.append(f"{row}: o arquivo de teste {path} não existe (citado em {ref})")
            continue
        wanted = f"{name}::{method}" if method else name
        if not wanted.split("::")[-1].startswith("test"):
            problems.append(f"{row}: {ref} não é um teste (o nome deve começar por 'test')")
        elif wanted not in defined_tests(path):
            problems.append(f"{row}: o teste {wanted} não está definido em {path}")
    return problems


def domain_sections() -> set[str]:
    assert DOMAIN.is_file(), "docs/regras.md não existe"
    found = set()
    for line in DOMAIN.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^#{2,4}\s+(\d+(?:\.\d+)?)\.?\s", line)
        if match:
            found.add("§" + match.group(1))
    return found


def domain_problems(row: Row, sections: set[str]) -> list[str]:
    cell = row.domain
    if cell in ("—", "-", ""):
        return [] if cell else [f"{row}: a coluna DOMAIN está vazia (use — quando não houver seção)"]
    problems = []
    for part in (p.strip() for p in cell.split(",")):
        if not SECTION.match(part):
            problems.append(f"{row}: {part!r} não é uma seção do DOMAIN (use §N ou §N.M)")
        elif part not in sections:
            problems.append(f"{row}: a seção {part} não existe em docs/regras.md")
    return problems


# --- the checks on the real document ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def doc():
    assert DOC.is_file(), "docs/regulamentos.md não existe"
    tables, problems = parse(DOC.read_text(encoding="utf-8"))
    return tables, problems


def _table_for(tables: dict[str, list[Row]], word: str) -> list[Row] | None:
    matches = [rows for heading, rows in tables.items() if word.lower() in heading.lower()]
    return matches[0] if len(matches) == 1 else None


def test_the_doc_has_one_table_per_regulation_each_with_its_articles(doc):
    tables, problems = doc
    assert problems == []
    for word, least in REGULATIONS.items():
        rows = _table_for(tables, word)
        assert rows is not None, f"docs/regulamentos.md: falta a seção (uma só) com a tabela de '{word}'"
        assert len(rows) >= least, f"a tabela de '{word}' tem {len(rows)} artigos; esperados pelo menos {least}"
        articles = [r.article for r in rows]
        repeated = sorted({a for a in articles if articles.count(a) > 1})
        assert not repeated, f"artigos repetidos na tabela de '{word}': {repeated}"


def test_every_article_names_an_existing_test_or_says_why_not(doc):
    tables, _ = doc
    problems = [p for rows in tables.values() for row in rows for p in row_problems(row)]
    assert not problems, "\n".join(problems)


def test_every_domain_section_cited_exists(doc):
    sections = domain_sections()
    assert {"§1", "§5.1", "§8"} <= sections, sections  # the headings were read
    tables, _ = doc
    problems = [p for rows in tables.values() for row in rows for p in domain_problems(row, sections)]
    assert not problems, "\n".join(problems)


def test_most_articles_have_tests_and_pending_ones_are_few(doc):
    tables, _ = doc
    rows = [r for rs in tables.values() for r in rs]
    tested = [r for r in rows if not r.tests.startswith(EXEMPT)]
    pending = [r for r in rows if r.tests.startswith("pendente:")]
    assert len(tested) >= 80, f"só {len(tested)} artigos com teste"
    assert len(pending) <= 15, f"{len(pending)} artigos pendentes: " + "; ".join(str(r) for r in pending)


# --- the checker itself catches what it must ---------------------------------------------------------------

SAMPLE = """# Regulamentos

## FENACEF 2023

| Artigo | O que diz (resumo) | DOMAIN | Testes |
|---|---|---|---|
| Art. 5 | WO | §4 | `tests/scoring/test_jogo.py::test_both_absent` |
| Art. 6 | Pontos | §5.1 | `tests/scoring/test_jogo.py::test_no_such_test` |
| Art. 7 | Geral | §9.9 | `tests/scoring/test_nothing.py::test_x` |
| Art. 8 | Baralho | — |  |
| Art. 9 | Cartas | — | não aplicável: |
| Art. 10 | Mesa | — | não aplicável: acontece na mesa |
| Art. 11 | Súmula | §2 | pendente: API da súmula |
| Art. 12 | Classe | — | `tests/site/test_regulamentos.py::test_every_article_names_an_existing_test_or_says_why_not`, solto |
"""


def test_the_checker_names_the_article_and_the_missing_test():
    tables, problems = parse(SAMPLE)
    assert problems == []
    rows = {r.article: r for r in tables["FENACEF 2023"]}
    assert row_problems(rows["Art. 5"]) == []
    assert row_problems(rows["Art. 10"]) == [] and row_problems(rows["Art. 11"]) == []
    [missing] = row_problems(rows["Art. 6"])
    assert "Art. 6" in missing and "test_no_such_test" in missing and "não está definido" in missing
    [no_file] = row_problems(rows["Art. 7"])
    assert "Art. 7" in no_file and "tests/scoring/test_nothing.py" in no_file and "não existe" in no_file
    [empty] = row_problems(rows["Art. 8"])
    assert "Art. 8" in empty and "nenhum teste citado" in empty
    [no_reason] = row_problems(rows["Art. 9"])
    assert "Art. 9" in no_reason and "motivo" in no_reason
    [loose] = row_problems(rows["Art. 12"])
    assert "texto solto" in loose and "solto" in loose
    assert domain_problems(rows["Art. 7"], {"§4", "§5.1"}) == [
        ("FENACEF 2023 / Art. 7 (docs/regulamentos.md, linha 9): a seção §9.9 não existe em docs/regras.md")
    ]
    assert domain_problems(rows["Art. 6"], {"§4", "§5.1"}) == []


def test_the_checker_finds_class_methods_and_bad_headers():
    source = ROOT / "tests" / "site" / "test_regulamentos.py"
    assert "test_every_article_names_an_existing_test_or_says_why_not" in defined_tests(str(source.relative_to(ROOT)))
    row = Row("X", 1, "Art. 1", "", "—", "`tests/site/test_regulamentos.py::Nothing::test_method`")
    [problem] = row_problems(row)
    assert "Nothing::test_method" in problem
    _, problems = parse("## X\n\n| Artigo | Resumo | Testes |\n|---|---|---|\n| a | b | c |\n")
    assert problems and "cabeçalho" in problems[0]
