"""The templates marked with scoring's ``_("…")`` (``scoring.messages``) in some source files, read from the source:
what the catalogue must translate, with the same placeholders."""

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _calls(paths: Iterable[Path], name: str, strings: int) -> list[tuple[str, ...]]:
    """The first ``strings`` arguments (string literals) of every call of ``name`` in these files, in order."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == name
                and len(node.args) >= strings
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:strings])
            ):
                found.append(tuple(str(a.value) for a in node.args[:strings] if isinstance(a, ast.Constant)))
    return found


def marked_templates(paths: Iterable[Path]) -> list[str]:
    """Every ``_("template", …)`` in these files, in order."""
    return [template for (template,) in _calls(paths, "_", 1)]


def marked_plurals(paths: Iterable[Path]) -> list[tuple[str, str]]:
    """Every ``ngettext("singular", "plural", n, …)`` in these files (scoring's or Django's), in order."""
    return [(singular, plural) for singular, plural in _calls(paths, "ngettext", 2)]


def plurals_missing(catalog: Mapping[object, str], plurals: Iterable[tuple[str, str]]) -> list[str]:
    """The plural entries (singular, plural) the catalogue lacks, or whose translations lose a placeholder."""
    missing = []
    for singular, plural in plurals:
        forms = [catalog.get((singular, i)) or "" for i in (0, 1)]
        if not all(forms) or any(set(PLACEHOLDER.findall(f)) != set(PLACEHOLDER.findall(plural)) for f in forms):
            missing.append(singular)
    return missing
