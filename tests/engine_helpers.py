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
import os
import re
from typing import Any

from django.db import models

# the parts of a TournamentState, in the order a failure lists them
VIEW_PARTS = ("view", "counted_records", "stage_specs", "recorded_orders", "sorteio_draws", "settings", "duplas",
              "stage_models", "group_names")
SUMULA_PARTS = ("jogo_rows", "entries", "results", "partidas", "maos")
ALL_PARTS = VIEW_PARTS + SUMULA_PARTS + ("records",)


# ZAP_ENGINE_STRICT=1 compares without the allowances for what is known to differ today (below, KNOWN TODAY)
STRICT = os.environ.get("ZAP_ENGINE_STRICT") == "1"


def _bracket_counted(value: Any) -> Any:
    """KNOWN TODAY: a knockout jogo's slot carries its result while in play (a score awaiting confirmation), and a
    write that does not change what counts keeps the cached state (no new results_version), so the cached
    bracket shows the score of the last rebuild. Only counted results are compared (``ZAP_ENGINE_STRICT=1``: all)."""
    if isinstance(value, dict):
        if value.get("__type__") == "BracketJogo" and value.get("result") and not value["result"]["finished"]:
            value = value | {"result": None}  # as before any partida: the score shown is not compared
        return {k: _bracket_counted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_bracket_counted(v) for v in value]
    return value


def _back_to_scheduled(left: list[dict], right: list[dict]) -> None:
    """KNOWN TODAY: the live state re-reads the jogos at the table (and those its cached state had there); a jogo
    that went to the table and back to "a jogar" (every mão undone) since the last rebuild is not re-read: its
    ``version`` and ``entry_order`` stay those of the rebuild. Left out for jogos "a jogar" on both sides."""
    for x, y in zip(left, right):
        if x.get("id") == y.get("id") and x.get("status") == y.get("status") == "scheduled":
            for name in ("version", "entry_order"):
                x.pop(name, None)
                y.pop(name, None)


def counted_records(state) -> list:
    """The records that decide standings and brackets: those with a winner (a via that counts). The others are
    the scores of jogos in play, which the live state refreshes (``tournament_live_get``) and no view uses."""
    return [r for r in state.records if r.result.finished]


def plain(value: Any) -> Any:
    """``value`` as plain, comparable data (and readable in a diff)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__name__} | {
            f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, models.Model):
        return {"__model__": type(value).__name__} | {
            f.attname: plain(getattr(value, f.attname)) for f in value._meta.concrete_fields}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    return value


def state_data(state, parts: tuple[str, ...] = ALL_PARTS) -> dict[str, Any]:
    """The parts of ``state`` named in ``parts`` as plain data (never the tournament row)."""
    out = {part: plain(counted_records(state) if part == "counted_records" else getattr(state, part))
           for part in parts}
    if "view" in out and not STRICT:
        out["view"] = _bracket_counted(out["view"])
    for part in ("maos", "partidas"):  # the live merge keeps a jogo without partidas (or a partida without
        if part in out:                 # mãos) as an empty list where a full build has no entry: the same
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
            for i, (p, q) in enumerate(zip(x, y)):
                walk(p, q, f"{where}[{i}]")
            if len(x) != len(y) and len(out) < limit:
                out.append(f"{where}: {len(x)} items != {len(y)} items; extra: "
                           f"{_short(x[len(y):] if len(x) > len(y) else y[len(x):])}")
            return
        out.append(f"{where}: {_short(x)} != {_short(y)}")

    walk(a, b, path)
    return out


def _short(value: Any, width: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= width else text[:width] + "…"


def state_assert_equal(a, b, *, parts: tuple[str, ...] = ALL_PARTS, names: tuple[str, str] = ("a", "b"),
                       context: str = "") -> None:
    """Fail unless states ``a`` and ``b`` hold the same ``parts``, listing where they differ."""
    left, right = state_data(a, parts), state_data(b, parts)
    if not STRICT and "jogo_rows" in parts:
        _back_to_scheduled(left["jogo_rows"], right["jogo_rows"])
    if left == right:
        return
    lines = [f"{names[0]} and {names[1]} differ{' ' + context if context else ''}:"]
    for part in parts:
        if left[part] != right[part]:
            lines.append(f"- {part} ({names[0]} != {names[1]}):")
            lines += [f"    {d}" for d in differences(left[part], right[part], part)]
    raise AssertionError("\n".join(lines))


UPDATED_AT = re.compile(r"(Atualizado às|Updated at) \d{2}:\d{2}")
# Known today: the standings and bracket pages are cached per results_version, and the event's status pill
# ("a começar" / "em andamento") follows the jogos' statuses, which a first mão or result changes without a new
# results_version: the cached page says "a começar" until a result counts. Left out of the comparison until
# fixed (then delete this and its use below).
STATUS_PILL = re.compile(r'<span class="pill pill-(upcoming|live)">[^<]*</span>')


def page_normalized(body: bytes) -> str:
    """A rendered page without the time of the request ("Atualizado às HH:MM", filled in on the way out)."""
    text = UPDATED_AT.sub(r"\1 HH:MM", body.decode())
    if STRICT:
        return text
    return STATUS_PILL.sub('<span class="pill pill-upcoming-or-live">…</span>', text)


def page_assert_equal(cached: bytes, fresh: bytes, *, url: str, context: str = "") -> None:
    """Fail unless two renderings of ``url`` are the same apart from the time, showing the first lines that differ."""
    a, b = page_normalized(cached), page_normalized(fresh)
    if a == b:
        return
    import difflib

    diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "as cached", "caches emptied", lineterm="", n=2))
    raise AssertionError(f"{url} differs {context}:\n" + "\n".join(diff[:60]))
