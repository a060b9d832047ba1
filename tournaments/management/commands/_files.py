"""What the import and export commands share: reading a file (or stdin) up to a size, writing one (or stdout)."""

from __future__ import annotations

import sys

from django.core.management.base import CommandError, OutputWrapper


def input_read(*, path: str, limit: int) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most one more than ``limit`` (enough to refuse a file
    too big without reading all of it)."""
    if path == "-":
        return sys.stdin.buffer.read(limit + 1)
    try:
        with open(path, "rb") as fh:
            return fh.read(limit + 1)
    except OSError as exc:
        raise CommandError(f"não foi possível ler {path}: {exc.strerror}") from exc


def output_write(*, text: str, path: str | None, stdout: OutputWrapper) -> None:
    """``text`` into ``path`` (UTF-8), or to standard output when there is none."""
    if not path:
        stdout.write(text, ending="")
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise CommandError(f"não foi possível escrever {path}: {exc.strerror}") from exc
