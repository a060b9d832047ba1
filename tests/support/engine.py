"""Comparing two derived tournament states (``selectors.TournamentState``) part by part, with a readable diff.

``state_data(state)`` turns a state into plain data (dicts, lists, scalars): dataclasses through
``dataclasses.asdict``, model instances through their concrete fields. The ``tournament`` row itself is left
out (its versions differ between a cached state and a fresh one by design), and so is anything that is a cache
rather than the state's content.

``state_assert_equal(a, b)`` fails with the parts that differ and, for each, the first paths where they do
(``view.stages[0].tables[1].rows[2].points: 3 != 2``), so a failing example reads without a debugger.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from django.db import models

# the parts of a TournamentState, in the order a failure lists them
VIEW_PARTS = (
    "view",
    "counted_records",
    "counted_jogo_rows",
    "stage_specs",
    "recorded_orders",
    "sorteio_draws",
    "settings",
    "duplas",
    "stage_models",
    "group_names",
)
SUMULA_PARTS = ("jogo_rows", "entries", "results", "partidas", "maos")
ALL_PARTS = VIEW_PARTS + SUMULA_PARTS + ("records",)


JOGO_FIXED = (
    "id",
    "key",
    "tournament_id",
    "stage_id",
    "group_id",
    "round",
    "position",
    "third_place",
    "dupla_a_id",
    "dupla_b_id",
    "best_of",
    "mesa",
    "referee_id",
)
JOGO_COUNTED = ("status", "via", "counted_via", "walkover", "lost_by", "penalty_reason", "signed_reason")
COUNTING_STATUSES = ("confirmed", "homologated")


def counted_jogo_rows(state) -> list[dict]:
    """The jogos as the cached state must have them: every jogo with its duplas and place (knockout jogos made
    or moved by a write included) and whether its result counts; the súmula fields of those that count."""
    out = []
    for row in state.jogo_rows:
        counts = row.status in COUNTING_STATUSES
        out.append(
            {k: getattr(row, k) for k in JOGO_FIXED if hasattr(row, k)}
            | {"counts": counts}
            | ({k: getattr(row, k) for k in JOGO_COUNTED if hasattr(row, k)} if counts else {})
        )
    return out


def counted_records(state) -> list:
    """The records that decide standings and brackets: those with a winner (a via that counts). The others are
    the scores of jogos in play, which the live state refreshes (``tournament_live_get``) and no view uses."""
    return [r for r in state.records if r.result.finished]


def plain(value: Any) -> Any:
    """``value`` as plain, comparable data (and readable in a diff)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__name__} | {
            f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, models.Model):
        return {"__model__": type(value).__name__} | {
            f.attname: plain(getattr(value, f.attname)) for f in value._meta.concrete_fields
        }
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    return value


def state_data(state, parts: tuple[str, ...] = ALL_PARTS) -> dict[str, Any]:
    """The parts of ``state`` named in ``parts`` as plain data (never the tournament row)."""
    derived = {"counted_records": counted_records, "counted_jogo_rows": counted_jogo_rows}
    out = {part: plain(derived[part](state) if part in derived else getattr(state, part)) for part in parts}
    for part in ("maos", "partidas"):  # the live merge keeps a jogo without partidas (or a partida without
        if part in out:  # mãos) as an empty list where a full build has no entry: the same
            out[part] = {k: v for k, v in out[part].items() if v}
    return out


def differences(a: Any, b: Any, path: str = "", limit: int = 12) -> list[str]:
    """The first ``limit`` places where plain data ``a`` and ``b`` differ, as ``path: a != b`` lines."""
    out: list[str] = []

    def walk(x: Any, y: Any, where: str) -> None:
        if len(out) >= limit or x == y:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for k in list(x) + [k for k in y if k not in x]:
                if k not in y:
                    out.append(f"{where}[{k!r}]: only in the first: {_short(x[k])}")
                elif k not in x:
                    out.append(f"{where}[{k!r}]: only in the second: {_short(y[k])}")
                else:
                    walk(x[k], y[k], f"{where}.{k}" if isinstance(k, str) and k.isidentifier() else f"{where}[{k!r}]")
                if len(out) >= limit:
                    return
            if list(x) != list(y) and not out:
                out.append(f"{where}: same items in another order: {list(x)} != {list(y)}")
            return
        if isinstance(x, list) and isinstance(y, list):
            for i, (p, q) in enumerate(zip(x, y, strict=False)):
                walk(p, q, f"{where}[{i}]")
            if len(x) != len(y) and len(out) < limit:
                out.append(
                    f"{where}: {len(x)} items != {len(y)} items; extra: "
                    f"{_short(x[len(y) :] if len(x) > len(y) else y[len(x) :])}"
                )
            return
        out.append(f"{where}: {_short(x)} != {_short(y)}")

    walk(a, b, path)
    return out


def _short(value: Any, width: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= width else text[:width] + "…"


def state_assert_equal(
    a, b, *, parts: tuple[str, ...] = ALL_PARTS, names: tuple[str, str] = ("a", "b"), context: str = ""
) -> None:
    """Fail unless states ``a`` and ``b`` hold the same ``parts``, listing where they differ."""
    left, right = state_data(a, parts), state_data(b, parts)
    if left == right:
        return
    lines = [f"{names[0]} and {names[1]} differ{' ' + context if context else ''}:"]
    for part in parts:
        if left[part] != right[part]:
            lines.append(f"- {part} ({names[0]} != {names[1]}):")
            lines += [f"    {d}" for d in differences(left[part], right[part], part)]
    raise AssertionError("\n".join(lines))


UPDATED_AT = re.compile(r"(Atualizado às|Updated at) \d{2}:\d{2}")


def page_normalized(body: bytes) -> str:
    """A rendered page without the time of the request ("Atualizado às HH:MM", filled in on the way out)."""
    return UPDATED_AT.sub(r"\1 HH:MM", body.decode())


def page_assert_equal(cached: bytes, fresh: bytes, *, url: str, context: str = "") -> None:
    """Fail unless two renderings of ``url`` are the same apart from the time, showing the first lines that differ."""
    a, b = page_normalized(cached), page_normalized(fresh)
    if a == b:
        return
    import difflib

    diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "as cached", "caches emptied", lineterm="", n=2))
    raise AssertionError(f"{url} differs {context}:\n" + "\n".join(diff[:60]))
