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
from .messages import Text, _, joined
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
KIND_LABELS = {
    "knockout": _("mata-mata"),
    "groups_knockout": _("grupos e mata-mata"),
    "round_robin": _("todos contra todos"),
}
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
    parts: list[str] = []
    for i, (size, count) in enumerate(counts):
        if i == 0 and count == 1:
            parts.append(_("%(count)s grupo de %(size)s", count=count, size=size))
        elif i == 0:
            parts.append(_("%(count)s grupos de %(size)s", count=count, size=size))
        else:
            parts.append(_("%(count)s de %(size)s", count=count, size=size))
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return _("%(first)s e %(last)s", first=joined(parts[:-1]), last=parts[-1])


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
            return _("%(sizes)s (duplas por grupo: %(size)s)", sizes=sizes_text(sizes), size=size)
    return _("mata-mata") if n >= 2 else _("mais duplas")


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
                _(
                    "Formato: com %(n)s duplas este formato daria até %(jogos)s jogos; o máximo num torneio é "
                    "%(max)s. Diminua o limite de duplas ou use grupos menores.",
                    n=n_duplas,
                    jogos=jogos,
                    max=max_jogos,
                )
            )
    return problems


def _format_problems(fmt: Mapping[str, Any], n_duplas: int | None) -> list[str]:
    problems: list[str] = []
    kind = fmt.get("kind")
    if kind not in KINDS:
        options = joined(list(KIND_LABELS.values()))
        return [_("Formato: tipo %(kind)s desconhecido; use um de: %(options)s.", kind=repr(kind), options=options)]
    for name, label in (
        ("best_of_groups", _("Melhor de, nos grupos")),
        ("best_of_knockout", _("Melhor de, no mata-mata")),
    ):
        value = fmt.get(name)
        if value is not None and (problem := best_of_error(value)):
            problems.append(Text("%(label)s: %(problem)s.", label=label, problem=problem))
    rounds = fmt.get("best_of_rounds") or {}
    round_numbers: list[int] = []
    if not isinstance(rounds, Mapping):
        problems.append(_("Melhor de por rodada: deve ser uma tabela rodada → melhor de."))
        rounds = {}
    for key, value in rounds.items():
        number = int(key) if isinstance(key, str) and key.isdigit() else key if _int(key) else None
        if number is None or number < 1:
            problems.append(
                _(
                    "Melhor de por rodada: rodada %(key)s inválida; use 1 para a primeira rodada, 2 para a segunda…",
                    key=repr(key),
                )
            )
            continue
        round_numbers.append(number)
        if problem := best_of_error(value):
            problems.append(
                _("Melhor de da rodada %(round)s do mata-mata: %(problem)s.", round=number, problem=problem)
            )
    method = fmt.get("bracket_method", "seeded")
    if method not in BRACKET_METHODS:
        problems.append(
            _(
                "Posições na chave: método %(method)s desconhecido; use cabeças de chave (seeded), sorteio (random) "
                "ou ordem fixa (fixed).",
                method=repr(method),
            )
        )
    if kind == "groups_knockout":
        size, per_group, best_others = fmt.get("group_size"), fmt.get("per_group"), fmt.get("best_others", 0)
        if not _int(size) or size not in GROUP_SIZES:
            problems.append(_("Duplas por grupo: %(size)s não serve; use 3, 4, 5 ou 6.", size=repr(size)))
            size = None
        if not _int(per_group) or per_group < 1:
            problems.append(_("Classificadas por grupo: %(value)s não serve; use 1 ou mais.", value=repr(per_group)))
            per_group = None
        if not _int(best_others) or best_others < 0:
            problems.append(
                _("Melhores demais colocadas: %(value)s não serve; use 0 ou mais.", value=repr(best_others))
            )
            best_others = None
        if method == "fixed":
            problems.append(
                _(
                    "Posições na chave: a ordem fixa só vale para o mata-mata direto; com grupos a chave "
                    "é cruzada pela classificação (use cabeças de chave ou sorteio)."
                )
            )
        if n_duplas is not None and size is not None and per_group is not None and best_others is not None:
            problems += _groups_problems(n_duplas, size, per_group, best_others, round_numbers)
    elif kind == "knockout" and n_duplas is not None:
        if n_duplas < 2:
            problems.append(_("Duplas: o mata-mata precisa de pelo menos 2 duplas; há %(n)s.", n=n_duplas))
        else:
            problems += _rounds_problems(round_numbers, bracket_rounds(n_duplas), n_duplas)
    elif kind == "round_robin" and n_duplas is not None:
        if n_duplas < 2:
            problems.append(_("Duplas: todos contra todos precisa de pelo menos 2 duplas; há %(n)s.", n=n_duplas))
        elif n_duplas > ROUND_ROBIN_MAX:
            jogos = n_duplas * (n_duplas - 1) // 2
            problems.append(
                _(
                    "Formato: todos contra todos com %(n)s duplas daria %(jogos)s jogos; o máximo é %(max)s duplas. "
                    "Proposta: %(proposal)s e depois mata-mata.",
                    n=n_duplas,
                    jogos=jogos,
                    max=ROUND_ROBIN_MAX,
                    proposal=_proposal(n_duplas),
                )
            )
        if round_numbers:
            problems.append(_("Melhor de por rodada: todos contra todos não tem mata-mata; deixe vazio."))
    return problems


def _rounds_problems(round_numbers: Sequence[int], total: int, entrants: int) -> list[str]:
    return [
        _(
            "Melhor de por rodada: a rodada %(round)s não existe; com %(n)s duplas a chave tem %(total)s rodada.",
            round=r,
            n=entrants,
            total=total,
        )
        if total == 1
        else _(
            "Melhor de por rodada: a rodada %(round)s não existe; com %(n)s duplas a chave tem %(total)s rodadas.",
            round=r,
            n=entrants,
            total=total,
        )
        for r in sorted(round_numbers)
        if r > total
    ]


def _groups_problems(n: int, size: int, per_group: int, best_others: int, round_numbers: Sequence[int]) -> list[str]:
    if n < MIN_GROUP:
        return [
            _(
                "Duplas: grupos precisam de pelo menos %(min)s duplas; há %(n)s. Proposta: %(proposal)s.",
                min=MIN_GROUP,
                n=n,
                proposal=_proposal(n),
            )
        ]
    sizes = group_sizes(n, size)
    if sizes is None:
        nearby = [str(s) for s in (size - 1, size + 1) if s >= MIN_GROUP]
        near = _("%(first)s ou %(last)s", first=nearby[0], last=nearby[1]) if len(nearby) == 2 else "".join(nearby)
        return [
            _(
                "Duplas por grupo: %(n)s duplas não se dividem em grupos de %(size)s (nem de %(near)s). "
                "Proposta: %(proposal)s.",
                n=n,
                size=size,
                near=near,
                proposal=_proposal(n),
            )
        ]
    problems: list[str] = []
    smallest = min(sizes)
    if per_group >= smallest:
        problems.append(
            _(
                "Classificadas por grupo: %(per_group)s, mas o menor grupo terá %(smallest)s duplas "
                "(%(sizes)s); use no máximo %(most)s.",
                per_group=per_group,
                smallest=smallest,
                sizes=sizes_text(sizes),
                most=smallest - 1,
            )
        )
    others = sum(max(0, s - per_group) for s in sizes)
    if best_others > others:
        problems.append(
            _(
                "Melhores demais colocadas: %(best_others)s, mas só %(others)s duplas ficam fora das vagas "
                "diretas; use no máximo %(others)s.",
                best_others=best_others,
                others=others,
            )
        )
    if not problems:
        q = qualifiers_count(sizes, per_group, best_others)
        if q < 2:
            problems.append(
                _(
                    "Classificadas: só %(q)s dupla passaria ao mata-mata; são precisas pelo menos 2 "
                    "(aumente as classificadas por grupo ou as melhores demais).",
                    q=q,
                )
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
            notes.append(
                _(
                    "%(n)s duplas não formam grupos iguais de %(size)s. Proposta: %(sizes)s.",
                    n=n_duplas,
                    size=size,
                    sizes=sizes_text(sizes),
                )
            )
        else:
            notes.append(_("%(n)s duplas: %(sizes)s.", n=n_duplas, sizes=sizes_text(sizes)))
        q = qualifiers_count(sizes, fmt.get("per_group") or 0, fmt.get("best_others") or 0)
        if q >= 2:
            byes = _byes_text(q, (_("para a melhor classificada"), _("para as melhores classificadas")))
            notes.append(_("%(q)s duplas passam ao mata-mata; %(byes)s", q=q, byes=byes))
    elif kind == "knockout" and n_duplas >= 2:
        who_by_method: dict[Any, tuple[Text, Text]] = {
            "seeded": (_("para o 1º cabeça de chave"), _("para os cabeças de chave")),
            "random": (_("sorteada"), _("sorteadas")),
        }
        who = who_by_method.get(fmt.get("bracket_method"))
        notes.append(_("%(n)s duplas no mata-mata; %(byes)s", n=n_duplas, byes=_byes_text(n_duplas, who)))
    elif kind == "round_robin" and n_duplas >= 2:
        jogos = n_duplas * (n_duplas - 1) // 2
        rounds = n_duplas - 1 if n_duplas % 2 == 0 else n_duplas
        notes.append(
            _(
                "%(n)s duplas num grupo só: %(jogos)s jogos em %(rounds)s rodadas.",
                n=n_duplas,
                jogos=jogos,
                rounds=rounds,
            )
        )
    return notes


def _byes_text(entrants: int, who: tuple[Text, Text] | None = None) -> Text:
    """The bracket's size and its folgas (the site's word for a bye, as the bracket's "— folga —"): the places
    with no opponent, whose duplas go straight to the 2nd round. ``who``: whom they go to (one, several)."""
    size = bracket_size(entrants)
    byes = size - entrants
    if not byes:
        return _("chave de %(size)s, sem folgas: todas as duplas jogam a 1ª rodada.", size=size)
    if byes == 1:
        if who:
            return _("chave de %(size)s com 1 folga %(who)s (passa direto à 2ª rodada).", size=size, who=who[0])
        return _("chave de %(size)s com 1 folga (passa direto à 2ª rodada).", size=size)
    if who:
        return _(
            "chave de %(size)s com %(byes)s folgas %(who)s (passam direto à 2ª rodada).",
            size=size,
            byes=byes,
            who=who[1],
        )
    return _("chave de %(size)s com %(byes)s folgas (passam direto à 2ª rodada).", size=size, byes=byes)
