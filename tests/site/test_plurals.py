"""Plurals are said through ngettext (``{% blocktranslate count %}``, Django's ``ngettext``, scoring's
``ngettext``), never as "3 suplente(s)" or "vitória(s)" (issue 41 item 13): no text of the site's templates,
Python or scripts writes a word with "(s)", "(es)" or "(ões)"."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHORTCUT = re.compile(r"\w\((?:s|es|ões|ns|is)\)")  # "vitória(s)", "via(s) anterior(es)", "inscrição(ões)"
JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")


def _python_texts(path: Path) -> list[str]:
    """The string literals of a module (f-strings' literal parts too), not its code."""
    return [
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _sources() -> list[tuple[Path, list[str]]]:
    out = []
    for folder in ("tournaments", "scoring", "config"):
        out += [(p, _python_texts(p)) for p in sorted((ROOT / folder).rglob("*.py")) if "migrations" not in p.parts]
    out += [(p, [p.read_text(encoding="utf-8")]) for p in sorted((ROOT / "templates").rglob("*.html"))]
    scripts = [p for p in sorted((ROOT / "static" / "js").rglob("*.js")) if not p.name.endswith(".min.js")]
    out += [(p, JS_STRING.findall(p.read_text(encoding="utf-8"))) for p in scripts]
    return out


def test_no_plural_written_with_parentheses():
    sources = _sources()
    assert len(sources) > 300  # the site's code and templates were read
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)!r} in {text[max(0, match.start() - 40) : match.end() + 20]!r}"
        for path, texts in sources
        for text in texts
        for match in SHORTCUT.finditer(text)
        if "%(" not in text[max(0, match.start() - 1) : match.start() + 2]
    ]
    assert not found, "\n".join(found)
