"""The tournament file as bytes: decoding, JSON parsing and the checks every value gets.

``tournament_file_parse`` turns what an organizer uploads into Python data or
raises ``RuleViolation`` with one problem per line, each naming its place;
``tree_check`` (also run by the reader on data from any source) refuses what
no database column can hold: NUL and lone surrogates in texts, numbers out of
range, NaN, nesting too deep.
"""

import json
import math
import re
from typing import Any

from scoring.errors import RuleError, RuleViolation
from scoring.messages import Text, _, ngettext  # scoring's marker: a Text, worded at the web edge (tournaments.wording)

from ..limits import FILE_MAX_BYTES, JSON_MAX_DEPTH, JSON_MAX_PROBLEMS

INT_DIGITS_MAX = 19  # every integer of a file fits a 64-bit column (the draw seeds are the widest)
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")

FILE_PLACE = _("arquivo")  # the place of a problem of the whole file (a word: worded like the messages)

# json's messages, in Portuguese (the position is given apart)
_JSON_MESSAGES = {
    "Expecting value": _("esperava um valor"),
    "Expecting property name enclosed in double quotes": _("esperava o nome de um campo entre aspas duplas"),
    "Expecting ':' delimiter": _("esperava ':'"),
    "Expecting ',' delimiter": _("esperava ','"),
    "Unterminated string starting at": _("texto sem aspas de fechamento"),
    "Invalid control character at": _("caractere de controle dentro de um texto"),
    "Invalid \\escape": _("sequência de escape inválida"),
    "Invalid \\uXXXX escape": _("sequência \\uXXXX inválida"),
    "Extra data": _("há conteúdo depois do fim do JSON"),
    "Illegal trailing comma before end of object": _("vírgula sobrando antes de '}'"),
    "Illegal trailing comma before end of array": _("vírgula sobrando antes de ']'"),
}


class _RepeatedKeys(dict):
    """An object in which some key appeared more than once (reported by ``tree_check``)."""

    repeated: tuple[str, ...] = ()


class _BadNumber:
    """A number no column can hold, kept with its text so ``tree_check`` can name its place."""

    def __init__(self, text: str, problem: Text):
        self.text, self.problem = text, problem

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 24 else f"{self.text[:20]}…"


def _object(pairs: list[tuple[str, Any]]) -> dict:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    repeated: list[str] = []
    for k, _value in pairs:
        if k in seen:
            repeated.append(k)
        else:
            seen.add(k)
    marked = _RepeatedKeys(obj)
    marked.repeated = tuple(dict.fromkeys(repeated))
    return marked


def _int(text: str) -> int | _BadNumber:
    if len(text.lstrip("-")) > INT_DIGITS_MAX:
        return _BadNumber(text, _("número grande demais (%(digits)s algarismos)", digits=len(text.lstrip("-"))))
    return int(text)


def _constant(name: str) -> _BadNumber:
    return _BadNumber(name, _("%(name)s não é um número aceito; use um número finito", name=name))


def json_depth_exceeded(*, text: str, max_depth: int = JSON_MAX_DEPTH) -> tuple[int, int] | None:
    """Line and column of the first bracket nested deeper than ``max_depth`` (strings skipped); None if none is.

    Cheap for ordinary texts (fewer brackets than the limit: no scan), linear otherwise: safe to run
    before ``json.loads``, which recurses once per level.
    """
    if text.count("[") + text.count("{") <= max_depth:
        return None
    depth = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*+"|[\[{]|[\]}]', text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > max_depth:
                start = match.start()
                return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)
        elif token in "]}":
            depth -= 1
    return None


def json_invalid(*, line: int, column: int, problem: Text, body: bool = False) -> Text:
    """JSON that does not parse, at its line and column; ``body``: a request's body (the API), not a file."""
    if body:
        return _(
            "corpo JSON inválido na linha %(line)s, coluna %(column)s: %(problem)s",
            line=line,
            column=column,
            problem=problem,
        )
    return _(
        "JSON inválido na linha %(line)s, coluna %(column)s: %(problem)s", line=line, column=column, problem=problem
    )


def _too_deep(max_depth: int) -> Text:
    return _("aninhamento profundo demais (o máximo é %(n)s níveis)", n=max_depth)


def json_depth_problem(*, line: int, column: int, max_depth: int = JSON_MAX_DEPTH, body: bool = False) -> RuleError:
    return RuleError("", json_invalid(line=line, column=column, problem=_too_deep(max_depth), body=body))


def json_loads_checked(*, text: str, max_depth: int = JSON_MAX_DEPTH, body: bool = False) -> Any:
    """``text`` parsed with the rules every JSON the site reads gets (files and API bodies alike).

    Refused (RuleViolation, each problem at its place): invalid JSON (messages in Portuguese), nesting
    deeper than ``max_depth``, a key repeated in an object, NUL or a lone surrogate in a text or a key,
    integers no column holds, NaN and infinities. ``body``: the text is a request's body (its messages say so).
    """
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        message = next((pt for en, pt in _JSON_MESSAGES.items() if exc.msg.startswith(en)), Text(exc.msg))
        raise RuleViolation(
            [RuleError("", json_invalid(line=exc.lineno, column=exc.colno, problem=message, body=body))]
        ) from exc
    except RecursionError as exc:
        line, column = json_depth_exceeded(text=text, max_depth=max_depth) or (1, 1)
        raise RuleViolation([json_depth_problem(line=line, column=column, max_depth=max_depth, body=body)]) from exc
    problems = tree_check(data=data, max_depth=max_depth)
    if problems:
        raise RuleViolation(problems)
    return data


def tournament_file_parse(*, raw: bytes | str) -> Any:
    """The data of a tournament file (UTF-8 JSON, BOM allowed); RuleViolation with every problem found."""
    file_size_check(raw=raw, max_bytes=FILE_MAX_BYTES)
    from .values import sizes_precheck  # values reads the models: imported once Django is set up

    if oversized := sizes_precheck(raw=raw):  # lists beyond the limits: refused before the slow, checked parse
        raise RuleViolation(oversized)
    return json_loads_checked(text=file_text(raw=raw))


def json_file_parse(*, raw: bytes | str, max_bytes: int) -> Any:
    """The data of any JSON file the site reads (a circuit file, say) with the tournament file's checks: at most
    ``max_bytes``, UTF-8 (BOM allowed), and ``json_loads_checked``'s rules; RuleViolation with every problem."""
    file_size_check(raw=raw, max_bytes=max_bytes)
    return json_loads_checked(text=file_text(raw=raw))


def file_size_check(*, raw: bytes | str, max_bytes: int) -> None:
    """Refuse (RuleViolation) a file of more than ``max_bytes`` bytes (as UTF-8)."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size <= max_bytes:
        return
    message = _(
        "grande demais: %(size)s bytes; o máximo é %(mib)s MiB (%(max)s bytes)",
        size=size,
        mib=max_bytes // (1024 * 1024),
        max=max_bytes,
    )
    raise RuleViolation([RuleError(FILE_PLACE, message)])


def file_text(*, raw: bytes | str) -> str:
    """A file's text: UTF-8 (a BOM dropped), or RuleViolation naming the first invalid byte."""
    if not isinstance(raw, bytes):
        return raw.removeprefix("\ufeff")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RuleViolation([RuleError(FILE_PLACE, _("não está em UTF-8 (byte %(n)s inválido)", n=exc.start))]) from exc


def _child(place: str, step: str | int) -> str:
    if isinstance(step, int):
        return f"{place}[{step}]"
    name = step if re.fullmatch(r"[A-Za-z0-9_]+", step) else json.dumps(step)
    return f"{place}.{name}" if place else name


def _text_problem(text: str) -> Text | None:
    if text.isascii() and "\x00" not in text:  # most texts: no surrogate can be there
        return None
    bad = _BAD_CHAR.search(text)
    if bad is None:
        return None
    code = f"U+{ord(bad.group()):04X}"
    what = _("caractere nulo") if bad.group() == "\x00" else _("metade de um par substituto UTF-16")
    return _(
        "texto com caractere inválido (%(code)s, %(what)s) na posição %(position)s",
        code=code,
        what=what,
        position=bad.start() + 1,
    )


def tree_check(*, data: Any, max_depth: int = JSON_MAX_DEPTH) -> list[RuleError]:
    """Problems of values that no column can store, anywhere in ``data``, each at its place.

    Walks without recursion (any depth is safe) and stops listing after JSON_MAX_PROBLEMS.
    """
    problems: list[RuleError] = []
    unlisted = 0

    def add(place: str, message: Text) -> None:
        nonlocal unlisted
        if len(problems) < JSON_MAX_PROBLEMS:
            problems.append(RuleError(place or FILE_PLACE, message))
        else:
            unlisted += 1

    # a node's place is kept as (its parent's, the step to it) and written out only for a problem: a big file has
    # hundreds of thousands of values and (nearly) no problem
    Path = tuple[Any, str | int] | None

    def place_of(path: Path) -> str:
        steps: list[str | int] = []
        while path is not None:
            path, step = path
            steps.append(step)
        place = ""
        for step in reversed(steps):
            place = _child(place, step)
        return place

    stack: list[tuple[Any, Path, int]] = [(data, None, 0)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, dict):
            if depth >= max_depth:
                add(place_of(path), _too_deep(max_depth))
                continue
            for key in getattr(node, "repeated", ()):
                add(
                    place_of((path, key)) if _text_problem(key) is None else place_of(path),
                    _("campo repetido neste objeto: cada campo aparece uma vez"),
                )
            children = []
            for key, value in node.items():
                if not isinstance(key, str):
                    add(place_of(path), _("nome de campo %(key)s não é um texto", key=repr(key)))
                    continue
                problem = _text_problem(key)
                if problem:
                    add(place_of(path), _("nome de campo com caractere inválido: %(problem)s", problem=problem))
                    continue
                children.append((value, (path, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(node, (list, tuple)):
            if depth >= max_depth:
                add(place_of(path), _too_deep(max_depth))
                continue
            stack.extend((value, (path, i), depth + 1) for i, value in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            problem = _text_problem(node)
            if problem:
                add(place_of(path), problem)
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            if not _INT_MIN <= node <= _INT_MAX:
                add(
                    place_of(path),
                    _("número fora do intervalo aceito (de %(low)s a %(high)s)", low=_INT_MIN, high=_INT_MAX),
                )
        elif isinstance(node, float):
            if not math.isfinite(node):
                add(place_of(path), _("número fora do intervalo aceito; use um número finito"))
        elif isinstance(node, _BadNumber):
            add(place_of(path), node.problem)
        else:
            add(
                place_of(path),
                _("valor de tipo %(type)s não é aceito num arquivo de torneio", type=type(node).__name__),
            )
    if unlisted:
        problems.append(
            RuleError(
                FILE_PLACE,
                ngettext(
                    "mais %(n)s problema como estes; corrija os listados e importe de novo",
                    "mais %(n)s problemas como estes; corrija os listados e importe de novo",
                    unlisted,
                    n=unlisted,
                ),
            )
        )
    return problems
