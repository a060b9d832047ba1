"""The tournament file's ``pairing_draws``: the pairing draws already made, as the export writes them.

``pairing`` (the contract's) asks the import to make a pairing draw; ``pairing_draws`` records the draws an event
has already made (docs/regras.md §2 step 3), each with its seed and its result as the site recorded it: the duplas it
formed (player keys, and the keys those duplas got), who it left waiting, and the registrations it took. The import
writes them back as they were, without drawing again, so that after the draw the registrations not in a dupla are
the waiting list (INTERCHANGE.md, "What the export writes") and the public record of the draw is the same.

Part of the reader (``reader.py``): every problem is collected with its place (``pairing_draws[0].duplas[2]``).
"""

from typing import Any

from django.db.models import Model

from scoring.messages import Text, _
from tournaments.models import Draw, Dupla, Player, Tournament

from .. import limits
from ..limits import column_max_length
from .plan import PairingDrawPlan, RegistrationPlan
from .values import Errors, bounded_int, key_too_long

__all__ = ["PLACE", "RESULT_FIELDS", "arrival_merge", "pairing_draws_read"]

PLACE = "pairing_draws"
# what the file carries of a draw's result, as ``draws.pairing`` and the import record it
RESULT_FIELDS = ("duplas", "waiting_list", "registrations", "dupla_keys", "max_duplas")


def pairing_draws_read(
    data: dict, *, players: set[str], registered: dict[str, str], errors: Errors
) -> tuple[list[PairingDrawPlan], list[tuple[str, ...]]]:
    """The recorded pairing draws, and the registrations they paired (to be written as in a dupla).

    A draw's result is a record: its keys need only be keys (what the site recorded; a dupla it made may have
    been edited since). The registrations it paired are written, so their players must be in ``players``, and
    registered once: ``registered`` maps a player to the place of their registration in the file's
    ``registrations``.
    """
    raw = data.get(PLACE)
    if raw is None:
        return [], []
    if not isinstance(raw, list):
        errors.add(PLACE, _("deve ser uma lista"))
        return [], []
    draws: list[PairingDrawPlan] = []
    paired: list[tuple[str, ...]] = []
    taken = dict(registered)
    for i, item in enumerate(raw):
        place = f"{PLACE}[{i}]"
        if not isinstance(item, dict):
            errors.add(place, _("cada sorteio das duplas deve ser um objeto com seed e o seu resultado"))
            continue
        before = len(errors)
        seed = item.get("seed")
        if seed is not None:
            seed = bounded_int(seed, f"{place}.seed", errors, column=(Draw, "seed"), what=_("a semente do sorteio"))
        pairs = _keys_lists(item, "duplas", place, sizes=(2,), errors=errors)
        result: dict[str, Any] = {"duplas": pairs, "waiting_list": _keys(item, "waiting_list", place, errors)}
        if "registrations" in item:
            result["registrations"] = _keys_lists(item, "registrations", place, sizes=(1, 2), errors=errors)
        if "dupla_keys" in item:
            keys = _keys(item, "dupla_keys", place, errors, column=(Dupla, "key"))
            if len(keys) != len(pairs):
                errors.add(
                    f"{place}.dupla_keys",
                    _("uma chave para cada dupla sorteada: %(n)s chaves para %(m)s duplas", n=len(keys), m=len(pairs)),
                )
            result["dupla_keys"] = keys
        if item.get("max_duplas") is not None:
            result["max_duplas"] = bounded_int(
                item["max_duplas"],
                f"{place}.max_duplas",
                errors,
                column=(Tournament, "max_duplas"),
                what=_("o limite de duplas"),
                low=0,
            )
        if len(errors) > before:
            continue
        draws.append(PairingDrawPlan(seed=seed, result=result))
        paired += _paired(result, place, players, taken, errors)
    return draws, paired


def _paired(
    result: dict[str, Any], place: str, players: set[str], taken: dict[str, str], errors: Errors
) -> list[tuple[str, ...]]:
    """The registrations of a draw's result that it paired (all their players in its duplas): the others it left
    waiting, and they are in the file's registrations (or a later draw's)."""
    in_pairs = {p for pair in result["duplas"] for p in pair}
    out: list[tuple[str, ...]] = []
    for j, members in enumerate(result.get("registrations", [])):
        if not all(p in in_pairs for p in members):
            continue
        where = f"{place}.registrations[{j}]"
        problems = 0
        for m, p in enumerate(members):
            if p not in players:
                errors.add(f"{where}[{m}]", _("atleta %(player)s não existe em players", player=repr(p)))
                problems += 1
            elif p in taken:
                errors.add(
                    f"{where}[{m}]",
                    _(
                        "o atleta %(player)s já está em %(where)s: cada atleta se inscreve uma vez por torneio",
                        player=repr(p),
                        where=taken[p],
                    ),
                )
                problems += 1
        if not problems:
            taken.update(dict.fromkeys(members, where))
            out.append(tuple(members))
    return out


def _list(item: dict, name: str, place: str, errors: Errors) -> list:
    """The list ``item[name]`` (empty when absent; refused when it is not a list, or longer than any event's)."""
    value = item.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > limits.MAX_PLAYERS:
        errors.add(f"{place}.{name}", _("deve ser uma lista"))
        return []
    return value


def _key_problem(value: Any, limit: int) -> Text | None:
    """Why ``value`` is no key (a text of 1 to ``limit`` characters), or None."""
    if not isinstance(value, str) or not value:
        return _("chave obrigatória (texto)")
    if len(value) > limit:
        return key_too_long(len(value), limit)
    return None


def _keys(
    item: dict, name: str, place: str, errors: Errors, *, column: tuple[type[Model], str] = (Player, "key")
) -> list[str]:
    """A list of keys (of players, unless ``column`` says whose): texts that fit that column."""
    value = _list(item, name, place, errors)
    limit = column_max_length(model=column[0], field=column[1])
    out: list[str] = []
    for k, key in enumerate(value):
        if problem := _key_problem(key, limit):
            errors.add(f"{place}.{name}[{k}]", problem)
            continue
        out.append(key)
    return out


def _keys_lists(item: dict, name: str, place: str, *, sizes: tuple[int, ...], errors: Errors) -> list[list[str]]:
    """A list of lists of player keys, each of one of ``sizes`` players."""
    value = _list(item, name, place, errors)
    limit = column_max_length(model=Player, field="key")
    out: list[list[str]] = []
    for k, members in enumerate(value):
        where = f"{place}.{name}[{k}]"
        if not isinstance(members, list) or len(members) not in sizes:
            if sizes == (2,):
                errors.add(where, _("uma dupla tem exatamente 2 atletas"))
            else:
                errors.add(where, _("uma inscrição é individual (1 atleta) ou em dupla (2 atletas)"))
            continue
        problems = [(m, problem) for m, p in enumerate(members) if (problem := _key_problem(p, limit))]
        for m, problem in problems:
            errors.add(f"{where}[{m}]", problem)
        if not problems and len(set(members)) != len(members):
            errors.add(
                f"{where}[1]",
                _(
                    "o atleta %(player)s já está em %(where)s: cada atleta se inscreve uma vez por torneio",
                    player=repr(members[0]),
                    where=where,
                ),
            )
        elif not problems:
            out.append(list(members))
    return out


def arrival_merge(
    registrations: list[RegistrationPlan], *, draws: list[PairingDrawPlan], paired: list[tuple[str, ...]]
) -> list[RegistrationPlan]:
    """Every registration in order of arrival: ``registrations`` (the file's, in their order) with those the draws
    paired put back where the draws took them (a draw takes the registrations in order of arrival).

    The file's registrations keep their own order (it decides the waiting list); a paired one goes just before the
    first of the file's that the draw took after it, and those the draws took last go after the file's.
    """
    ahead = set(paired)
    later = {r.players: i for i, r in enumerate(registrations)}
    out: list[RegistrationPlan] = []
    done = 0  # the file's registrations already placed
    for draw in draws:
        for members in draw.result.get("registrations", []):
            key = tuple(members)
            if key in ahead:
                ahead.discard(key)
                out.append(RegistrationPlan(players=key, waiting=False))
            elif key in later and later[key] >= done:
                out += registrations[done : later[key] + 1]
                done = later[key] + 1
    return out + registrations[done:]
