"""The templates marked with scoring's ``_("…")`` (``scoring.messages``) in some source files, read from the source:
what the catalogue must translate, with the same placeholders."""

import ast
import re
from collections.abc import Iterable
from pathlib import Path

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def marked_templates(paths: Iterable[Path]) -> list[str]:
    """Every ``_("template", …)`` in these files, in order."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return found
