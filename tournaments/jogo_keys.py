"""Keys of the jogos the site makes itself (docs/contrato.md: every jogo has a key, unique in its tournament)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def jogo_keys_new(*, taken: Iterable[str]) -> Iterator[str]:
    """Keys ``j1``, ``j2``, … that are not in ``taken``, as many as asked for (keys a file gave stay as they are)."""
    used = set(taken)
    n = 0
    while True:
        n += 1
        if f"j{n}" not in used:
            yield f"j{n}"
