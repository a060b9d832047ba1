"""The competition format before the draw: how many groups of which sizes, and whether the format fits.

Pure functions (no Django). A format is the dict the desk stores in
``Tournament.format`` after the preset's defaults are filled in::

    {"kind": "knockout" | "groups_knockout" | "round_robin",
     "group_size": 4, "per_group": 2, "best_others": 0,
     "best_of_groups": None | int, "best_of_knockout": None | int, "best_of_rounds": {"2": 3},
     "bracket_method": "seeded" | "random" | "fixed"}

Messages are pt-BR and say where the problem is (the field of the format).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from .bracket_draw import bracket_size
from .rules import best_of_error

__all__ = [
    "BRACKET_METHODS",
    "KINDS",
    "MIN_GROUP",
    "ROUND_ROBIN_MAX",
    "bracket_rounds",
    "format_check",
    "format_jogos",
    "format_notes",
    "group_sizes",
    "qualifiers_count",
    "sizes_text",
]

KINDS = ("knockout", "groups_knockout", "round_robin")
KIND_LABELS = {"knockout": "mata-mata", "groups_knockout": "grupos e mata-mata", "round_robin": "todos contra todos"}
BRACKET_METHODS = ("seeded", "random", "fixed")
MIN_GROUP = 3  # a group of 2 is a single jogo
GROUP_SIZES = (3, 4, 5, 6)  # preferred sizes a format may ask for
ROUND_ROBIN_MAX = 64  # one group of 64 is already 2,016 jogos


def _even(n: int, count: int) -> list[int]:
    """``n`` split into ``count`` sizes differing by at most one, larger first."""
    base, extra = divmod(n, count)
    return [base + 1] * extra + [base] * (count - extra)


def group_sizes(n: int, preferred: int = 4) -> list[int] | None:
    """Sizes of the groups for ``n`` duplas, larger first; None when no split into groups of 3+ exists.

    Prefer ``preferred``; where the count does not divide, use ``preferred - 1``
    (as many groups of ``preferred`` as possible), then ``preferred + 1``, and
    only then any even split with groups no larger than ``preferred + 1``.
    Every answer is an even split (sizes differ by at most one), which is also
    what ``scoring.draws.groups_draw`` deals for that many groups.
    13 in groups of 4 → [4, 3, 3, 3]; 5 → [5]; 2 → None.
    """
    if n < MIN_GROUP or preferred < MIN_GROUP:
        return None
    # 1. sizes preferred - 1 and preferred, fewest groups (= most of the preferred size)
    count = -(-n // preferred)
    sizes = _even(n, count)
    if sizes[-1] >= max(MIN_GROUP, preferred - 1):
        return sizes
    # 2. sizes preferred and preferred + 1
    count = n // preferred
    if count >= 1:
        sizes = _even(n, count)
        if sizes[0] <= preferred + 1:
            return sizes
    # 3. anything even, no group above preferred + 1
    count = -(-n // (preferred + 1))
    sizes = _even(n, count)
    if sizes[-1] >= MIN_GROUP:
        return sizes
    return None


def sizes_text(sizes: Sequence[int]) -> str:
    """ "3 grupos de 3 e 1 de 4", "4 grupos de 4", "1 grupo de 5" (smaller groups first)."""
    counts = sorted(Counter(sizes).items())
    parts = []
    for i, (size, count) in enumerate(counts):
        if i == 0:
            parts.append(f"{count} {'grupo' if count == 1 else 'grupos'} de {size}")
        else:
            parts.append(f"{count} de {size}")
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " e " + parts[-1]


def qualifiers_count(sizes: Sequence[int], per_group: int, best_others: int) -> int:
    """Duplas that go on to the knockout: ``per_group`` of each group plus ``best_others`` (capped)."""
    direct = sum(min(per_group, s) for s in sizes)
    others = sum(max(0, s - per_group) for s in sizes)
    return direct + min(best_others, others)


def bracket_rounds(entrants: int) -> int:
    """Rounds of a bracket for ``entrants`` duplas (2 → 1, 3..4 → 2, 5..8 → 3…)."""
    return bracket_size(entrants).bit_length() - 1


def _int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _proposal(n: int) -> str:
    """Another preferred size that works for ``n`` duplas, or the single group."""
    for size in (4, 5, 3, 6):
        sizes = group_sizes(n, size)
        if sizes is not None:
            if len(set(sizes)) == 1 and sizes[0] in GROUP_SIZES:
                size = sizes[0]
            return f"{sizes_text(sizes)} (duplas por grupo: {size})"
    return "mata-mata" if n >= 2 else "mais duplas"


def format_jogos(fmt: Mapping[str, Any], n_duplas: int) -> int:
    """The most jogos the format makes of ``n_duplas`` (a checked format): round robins, then the bracket's
    jogos (one fewer than its duplas) plus a third-place jogo."""
    kind = fmt.get("kind")
    if kind == "round_robin":
        return n_duplas * (n_duplas - 1) // 2
    if kind == "knockout":
        return n_duplas
    sizes = group_sizes(n_duplas, fmt.get("group_size") or 4) or []
    q = qualifiers_count(sizes, fmt.get("per_group") or 0, fmt.get("best_others") or 0)
    return sum(s * (s - 1) // 2 for s in sizes) + (q if q >= 2 else 0)


def format_check(fmt: Mapping[str, Any], n_duplas: int | None = None, *, max_jogos: int | None = None) -> list[str]:
    """Problems of a format (pt-BR), each naming its field; with ``n_duplas``, also against that count
    (and, with ``max_jogos``, against the most jogos an event may have).

    Empty when the competition draw can be made. An uneven split into groups is
    not a problem (see ``format_notes``): ``group_size`` is the preferred size.
    """
    problems = _format_problems(fmt, n_duplas)
    if not problems and n_duplas is not None and max_jogos is not None:
        jogos = format_jogos(fmt, n_duplas)
        if jogos > max_jogos:
            problems.append(
                f"Formato: com {n_duplas} duplas este formato daria até {jogos} jogos; o máximo num "
                f"torneio é {max_jogos}. Diminua o limite de duplas ou use grupos menores."
            )
    return problems


def _format_problems(fmt: Mapping[str, Any], n_duplas: int | None) -> list[str]:
    problems: list[str] = []
    kind = fmt.get("kind")
    if kind not in KINDS:
        options = ", ".join(KIND_LABELS.values())
        return [f"Formato: tipo {kind!r} desconhecido; use um de: {options}."]
    for name, label in (("best_of_groups", "Melhor de, nos grupos"), ("best_of_knockout", "Melhor de, no mata-mata")):
        value = fmt.get(name)
        if value is not None and best_of_error(value):
            problems.append(f"{label}: {best_of_error(value)}.")
    rounds = fmt.get("best_of_rounds") or {}
    round_numbers: list[int] = []
    if not isinstance(rounds, Mapping):
        problems.append("Melhor de por rodada: deve ser uma tabela rodada → melhor de.")
        rounds = {}
    for key, value in rounds.items():
        number = int(key) if isinstance(key, str) and key.isdigit() else key if _int(key) else None
        if number is None or number < 1:
            problems.append(
                f"Melhor de por rodada: rodada {key!r} inválida; use 1 para a primeira rodada, 2 para a segunda…"
            )
            continue
        round_numbers.append(number)
        if best_of_error(value):
            problems.append(f"Melhor de da rodada {number} do mata-mata: {best_of_error(value)}.")
    method = fmt.get("bracket_method", "seeded")
    if method not in BRACKET_METHODS:
        problems.append(
            f"Posições na chave: método {method!r} desconhecido; use cabeças de chave (seeded), sorteio (random) ou ordem fixa (fixed)."
        )
    if kind == "groups_knockout":
        size, per_group, best_others = fmt.get("group_size"), fmt.get("per_group"), fmt.get("best_others", 0)
        if not _int(size) or size not in GROUP_SIZES:
            problems.append(f"Duplas por grupo: {size!r} não serve; use 3, 4, 5 ou 6.")
            size = None
        if not _int(per_group) or per_group < 1:
            problems.append(f"Classificadas por grupo: {per_group!r} não serve; use 1 ou mais.")
            per_group = None
        if not _int(best_others) or best_others < 0:
            problems.append(f"Melhores demais colocadas: {best_others!r} não serve; use 0 ou mais.")
            best_others = None
        if method == "fixed":
            problems.append(
                "Posições na chave: a ordem fixa só vale para o mata-mata direto; com grupos a chave "
                "é cruzada pela classificação (use cabeças de chave ou sorteio)."
            )
        if n_duplas is not None and size is not None and per_group is not None and best_others is not None:
            problems += _groups_problems(n_duplas, size, per_group, best_others, round_numbers)
    elif kind == "knockout" and n_duplas is not None:
        if n_duplas < 2:
            problems.append(f"Duplas: o mata-mata precisa de pelo menos 2 duplas; há {n_duplas}.")
        else:
            problems += _rounds_problems(round_numbers, bracket_rounds(n_duplas), n_duplas)
    elif kind == "round_robin" and n_duplas is not None:
        if n_duplas < 2:
            problems.append(f"Duplas: todos contra todos precisa de pelo menos 2 duplas; há {n_duplas}.")
        elif n_duplas > ROUND_ROBIN_MAX:
            jogos = n_duplas * (n_duplas - 1) // 2
            problems.append(
                f"Formato: todos contra todos com {n_duplas} duplas daria {jogos} jogos; o máximo é "
                f"{ROUND_ROBIN_MAX} duplas. Proposta: {_proposal(n_duplas)} e depois mata-mata."
            )
        if round_numbers:
            problems.append("Melhor de por rodada: todos contra todos não tem mata-mata; deixe vazio.")
    return problems


def _rounds_problems(round_numbers: Sequence[int], total: int, entrants: int) -> list[str]:
    return [
        f"Melhor de por rodada: a rodada {r} não existe; com {entrants} duplas a chave tem {total} "
        f"{'rodada' if total == 1 else 'rodadas'}."
        for r in sorted(round_numbers)
        if r > total
    ]


def _groups_problems(n: int, size: int, per_group: int, best_others: int, round_numbers: Sequence[int]) -> list[str]:
    if n < MIN_GROUP:
        return [f"Duplas: grupos precisam de pelo menos {MIN_GROUP} duplas; há {n}. Proposta: {_proposal(n)}."]
    sizes = group_sizes(n, size)
    if sizes is None:
        near = " ou ".join(str(s) for s in (size - 1, size + 1) if s >= MIN_GROUP)
        return [
            (
                f"Duplas por grupo: {n} duplas não se dividem em grupos de {size} (nem de {near}). "
                f"Proposta: {_proposal(n)}."
            )
        ]
    problems = []
    smallest = min(sizes)
    if per_group >= smallest:
        problems.append(
            f"Classificadas por grupo: {per_group}, mas o menor grupo terá {smallest} duplas "
            f"({sizes_text(sizes)}); use no máximo {smallest - 1}."
        )
    others = sum(max(0, s - per_group) for s in sizes)
    if best_others > others:
        problems.append(
            f"Melhores demais colocadas: {best_others}, mas só {others} duplas ficam fora das vagas "
            f"diretas; use no máximo {others}."
        )
    if not problems:
        q = qualifiers_count(sizes, per_group, best_others)
        if q < 2:
            problems.append(
                f"Classificadas: só {q} dupla passaria ao mata-mata; são precisas pelo menos 2 "
                "(aumente as classificadas por grupo ou as melhores demais)."
            )
        else:
            problems += _rounds_problems(round_numbers, bracket_rounds(q), q)
    return problems


def format_notes(fmt: Mapping[str, Any], n_duplas: int) -> list[str]:
    """What the draw will make of ``n_duplas`` (pt-BR), for a format without problems."""
    kind = fmt.get("kind")
    notes: list[str] = []
    if kind == "groups_knockout":
        size = fmt.get("group_size")
        sizes = group_sizes(n_duplas, size) if _int(size) else None
        if sizes is None:
            return notes
        if len(set(sizes)) > 1 or sizes[0] != size:
            notes.append(f"{n_duplas} duplas não formam grupos iguais de {size}. Proposta: {sizes_text(sizes)}.")
        else:
            notes.append(f"{n_duplas} duplas: {sizes_text(sizes)}.")
        q = qualifiers_count(sizes, fmt.get("per_group") or 0, fmt.get("best_others") or 0)
        if q >= 2:
            notes.append(f"{q} duplas passam ao mata-mata; {_byes_text(q, 'para as melhores classificadas')}")
    elif kind == "knockout" and n_duplas >= 2:
        who_by_method: dict[Any, str] = {"seeded": "para os cabeças de chave", "random": "sorteados"}
        who = who_by_method.get(fmt.get("bracket_method"), "")
        notes.append(f"{n_duplas} duplas no mata-mata; {_byes_text(n_duplas, who)}")
    elif kind == "round_robin" and n_duplas >= 2:
        jogos = n_duplas * (n_duplas - 1) // 2
        rounds = n_duplas - 1 if n_duplas % 2 == 0 else n_duplas
        notes.append(f"{n_duplas} duplas num grupo só: {jogos} jogos em {rounds} rodadas.")
    return notes


def _byes_text(entrants: int, who: str = "") -> str:
    size = bracket_size(entrants)
    byes = size - entrants
    if not byes:
        return f"chave de {size}, sem byes."
    who = f" {who}" if who else ""
    return f"chave de {size} com {byes} {'bye' if byes == 1 else 'byes'}{who} (passam direto à 2ª rodada)."
