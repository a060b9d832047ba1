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

from ..limits import FILE_MAX_BYTES, JSON_MAX_DEPTH, JSON_MAX_PROBLEMS

INT_DIGITS_MAX = 19  # every integer of a file fits a 64-bit column (the draw seeds are the widest)
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")

# json's messages, in Portuguese (the position is given apart)
_JSON_MESSAGES = {
    "Expecting value": "esperava um valor",
    "Expecting property name enclosed in double quotes": "esperava o nome de um campo entre aspas duplas",
    "Expecting ':' delimiter": "esperava ':'",
    "Expecting ',' delimiter": "esperava ','",
    "Unterminated string starting at": "texto sem aspas de fechamento",
    "Invalid control character at": "caractere de controle dentro de um texto",
    "Invalid \\escape": "sequência de escape inválida",
    "Invalid \\uXXXX escape": "sequência \\uXXXX inválida",
    "Extra data": "há conteúdo depois do fim do JSON",
    "Illegal trailing comma before end of object": "vírgula sobrando antes de '}'",
    "Illegal trailing comma before end of array": "vírgula sobrando antes de ']'",
}


class _RepeatedKeys(dict):
    """An object in which some key appeared more than once (reported by ``tree_check``)."""

    repeated: tuple[str, ...] = ()


class _BadNumber:
    """A number no column can hold, kept with its text so ``tree_check`` can name its place."""

    def __init__(self, text: str, problem: str):
        self.text, self.problem = text, problem

    def __repr__(self) -> str:
        return self.text if len(self.text) <= 24 else f"{self.text[:20]}…"


def _object(pairs: list[tuple[str, Any]]) -> dict:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    repeated: list[str] = []
    for k, _ in pairs:
        if k in seen:
            repeated.append(k)
        else:
            seen.add(k)
    marked = _RepeatedKeys(obj)
    marked.repeated = tuple(dict.fromkeys(repeated))
    return marked


def _int(text: str) -> int | _BadNumber:
    if len(text.lstrip("-")) > INT_DIGITS_MAX:
        return _BadNumber(text, f"número grande demais ({len(text.lstrip('-'))} algarismos)")
    return int(text)


def _constant(name: str) -> _BadNumber:
    return _BadNumber(name, f"{name} não é um número aceito; use um número finito")


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


def json_depth_problem(*, line: int, column: int, max_depth: int = JSON_MAX_DEPTH) -> RuleError:
    return RuleError(
        "",
        f"JSON inválido na linha {line}, coluna {column}: aninhamento profundo demais (o máximo é {max_depth} níveis)",
    )


def json_loads_checked(*, text: str, max_depth: int = JSON_MAX_DEPTH) -> Any:
    """``text`` parsed with the rules every JSON the site reads gets (files and API bodies alike).

    Refused (RuleViolation, each problem at its place): invalid JSON (messages in Portuguese), nesting
    deeper than ``max_depth``, a key repeated in an object, NUL or a lone surrogate in a text or a key,
    integers no column holds, NaN and infinities.
    """
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_int=_int, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        message = next((pt for en, pt in _JSON_MESSAGES.items() if exc.msg.startswith(en)), exc.msg)
        raise RuleViolation(
            [RuleError("", f"JSON inválido na linha {exc.lineno}, coluna {exc.colno}: {message}")]
        ) from exc
    except RecursionError as exc:
        line, column = json_depth_exceeded(text=text, max_depth=max_depth) or (1, 1)
        raise RuleViolation([json_depth_problem(line=line, column=column, max_depth=max_depth)]) from exc
    problems = tree_check(data=data, max_depth=max_depth)
    if problems:
        raise RuleViolation(problems)
    return data


def tournament_file_parse(*, raw: bytes | str) -> Any:
    """The data of a tournament file (UTF-8 JSON, BOM allowed); RuleViolation with every problem found."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > FILE_MAX_BYTES:
        raise RuleViolation(
            [
                RuleError(
                    "arquivo",
                    f"grande demais: {size} bytes; o máximo é "
                    f"{FILE_MAX_BYTES // (1024 * 1024)} MiB ({FILE_MAX_BYTES} bytes)",
                )
            ]
        )
    from .values import sizes_precheck  # values reads the models: imported once Django is set up

    if oversized := sizes_precheck(raw=raw):  # lists beyond the limits: refused before the slow, checked parse
        raise RuleViolation(oversized)
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RuleViolation([RuleError("arquivo", f"não está em UTF-8 (byte {exc.start} inválido)")]) from exc
    else:
        text = raw.removeprefix("\ufeff")
    return json_loads_checked(text=text)


def _child(place: str, step: str | int) -> str:
    if isinstance(step, int):
        return f"{place}[{step}]"
    name = step if re.fullmatch(r"[A-Za-z0-9_]+", step) else json.dumps(step)
    return f"{place}.{name}" if place else name


def _text_problem(text: str) -> str | None:
    bad = _BAD_CHAR.search(text)
    if bad is None:
        return None
    code = f"U+{ord(bad.group()):04X}"
    what = "caractere nulo" if bad.group() == "\x00" else "metade de um par substituto UTF-16"
    return f"texto com caractere inválido ({code}, {what}) na posição {bad.start() + 1}"


def tree_check(*, data: Any, max_depth: int = JSON_MAX_DEPTH) -> list[RuleError]:
    """Problems of values that no column can store, anywhere in ``data``, each at its place.

    Walks without recursion (any depth is safe) and stops listing after JSON_MAX_PROBLEMS.
    """
    problems: list[RuleError] = []
    unlisted = 0

    def add(place: str, message: str) -> None:
        nonlocal unlisted
        if len(problems) < JSON_MAX_PROBLEMS:
            problems.append(RuleError(place or "arquivo", message))
        else:
            unlisted += 1

    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        node, place, depth = stack.pop()
        if isinstance(node, dict):
            if depth >= max_depth:
                add(place, f"aninhamento profundo demais (o máximo é {max_depth} níveis)")
                continue
            for key in getattr(node, "repeated", ()):
                add(
                    _child(place, key) if _text_problem(key) is None else place,
                    "campo repetido neste objeto: cada campo aparece uma vez",
                )
            children = []
            for key, value in node.items():
                if not isinstance(key, str):
                    add(place, f"nome de campo {key!r} não é um texto")
                    continue
                problem = _text_problem(key)
                if problem:
                    add(place, f"nome de campo com caractere inválido: {problem}")
                    continue
                children.append((value, _child(place, key), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(node, (list, tuple)):
            if depth >= max_depth:
                add(place, f"aninhamento profundo demais (o máximo é {max_depth} níveis)")
                continue
            stack.extend((value, f"{place}[{i}]", depth + 1) for i, value in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            problem = _text_problem(node)
            if problem:
                add(place, problem)
        elif isinstance(node, bool) or node is None:
            pass
        elif isinstance(node, int):
            if not _INT_MIN <= node <= _INT_MAX:
                add(place, f"número fora do intervalo aceito (de {_INT_MIN} a {_INT_MAX})")
        elif isinstance(node, float):
            if not math.isfinite(node):
                add(place, "número fora do intervalo aceito; use um número finito")
        elif isinstance(node, _BadNumber):
            add(place, node.problem)
        else:
            add(place, f"valor de tipo {type(node).__name__} não é aceito num arquivo de torneio")
    if unlisted:
        problems.append(
            RuleError("arquivo", f"mais {unlisted} problema(s) como estes; corrija os listados e importe de novo")
        )
    return problems
