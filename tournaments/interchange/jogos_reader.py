"""The jogos of a tournament file: results checked against the rules, knockout jogos placed in the bracket."""

import re

from django.contrib.auth import get_user_model

from scoring.bracket import Bracket, BracketJogo
from scoring.jogo import jogo_evaluate
from scoring.messages import Text, _, ngettext
from scoring.tournament import (
    GROUPS,
    KNOCKOUT,
    GroupStageView,
    JogoRecord,
    KnockoutStageView,
    StageSpec,
    group_best_of,
    groups_stage_compute,
    knockout_draw,
    knockout_stage_compute,
    stage_entrants,
)
from tournaments.models import Jogo

from ..result_form import entry_flipped, is_int, result_read
from .plan import JogoPlan, TournamentPlan
from .sumula_reader import sumula_read
from .values import Errors, bounded_int, list_read, text_read

KEY_PATTERN = re.compile(r"[\w.-]+")


def jogos_read(data: dict, plan: TournamentPlan, errors: Errors) -> None:
    stages = {s.key: s for s in plan.stages}
    info = {d.key: d for d in plan.duplas}
    settings = plan.settings
    records: list[JogoRecord] = []
    group_pairs: dict[tuple[str, frozenset], int] = {}  # (stage, pair) -> index in plan.jogos
    used_slots: set[tuple[str, int, int, bool]] = set()
    blocked_stages: set[str] = set()
    brackets: dict[str, Bracket] = {}  # the last build of each knockout stage's bracket
    ready: dict[str, dict[frozenset, list[BracketJogo]]] = {}  # its jogos ready to play, by their two duplas
    groups = {s.key: {g.key: g for g in s.groups} for s in plan.stages}
    keys: dict[str, int] = {}  # jogo key -> index of the jogo that has it
    referees: dict[str, str] = {}  # username -> the first place that names it

    for i, j in enumerate(list_read(data, "jogos", "jogos", errors)):
        place = f"jogos[{i}]"
        if not isinstance(j, dict):
            errors.add(place, _("cada jogo deve ser um objeto"))
            continue
        stage = stages.get(stage_key) if isinstance(stage_key := j.get("stage"), str) else None
        if stage is None:
            errors.add(f"{place}.stage", _("fase %(stage)s não existe", stage=repr(j.get("stage"))))
            continue
        duplas = j.get("duplas")
        if (
            not isinstance(duplas, list)
            or len(duplas) != 2
            or duplas[0] == duplas[1]
            or not all(isinstance(d, str) and d in info for d in duplas)
        ):
            errors.add(f"{place}.duplas", _("um jogo tem duas duplas diferentes, pelas chaves de duplas"))
            continue
        duplas = (duplas[0], duplas[1])
        mesa = j.get("mesa")
        if mesa is not None:
            mesa = bounded_int(mesa, f"{place}.mesa", errors, column=(Jogo, "mesa"), what=_("a mesa"), low=1)
        key = _key_read(j, i, keys, errors)
        online = _online_read(j.get("online"), f"{place}.online", errors)
        known_problems = len(errors)
        referee = text_read(j, "referee", place, errors, column=(get_user_model(), "username")) or None
        if referee and len(errors) == known_problems:  # a name no account can have is said once, by text_read
            referees.setdefault(referee, f"{place}.referee")
        before = len(errors)
        if stage.kind == GROUPS:
            group_key = j.get("group")
            group = groups[stage.key].get(group_key) if isinstance(group_key, str) else None
            if group is None:
                errors.add(
                    f"{place}.group",
                    _(
                        "grupo %(group)s não existe na fase %(stage)s",
                        group=repr(j.get("group")),
                        stage=repr(stage.key),
                    ),
                )
                continue
            outsiders = [d for d in duplas if d not in group.duplas]
            if outsiders:
                errors.add(
                    f"{place}.duplas",
                    ngettext(
                        "dupla %(duplas)s fora do grupo %(group)s",
                        "duplas %(duplas)s fora do grupo %(group)s",
                        len(outsiders),
                        duplas=", ".join(outsiders),
                        group=repr(group.key),
                    ),
                )
                continue
            pair_key = (stage.key, frozenset(duplas))
            if pair_key in group_pairs:
                errors.add(
                    place,
                    _(
                        "jogo repetido: %(a)s x %(b)s já consta em %(where)s",
                        a=duplas[0],
                        b=duplas[1],
                        where=f"jogos[{group_pairs[pair_key]}]",
                    ),
                )
                continue
            group_pairs[pair_key] = i
            best_of = group_best_of(stage=stage, settings=settings)
            entry = result_read(j, place, duplas, best_of, errors)
            result = None
            if entry is not None and len(errors) == before:
                result, problems = jogo_evaluate(entry=entry, settings=settings)
                errors.extend(p.nested(place) for p in problems)
            sumula = sumula_read(j, place, duplas, duplas, best_of, result, settings, errors)
            plan.jogos.append(
                JogoPlan(
                    stage=stage.key,
                    group=group.key,
                    duplas=duplas,
                    entry=entry,
                    result=result,
                    mesa=mesa,
                    entry_order=i,
                    key=key,
                    referee=referee,
                    sumula=sumula,
                    online=online,
                )
            )
            if sumula.counted is not None and len(errors) == before:
                records.append(JogoRecord(stage=stage.key, group=group.key, duplas=duplas, result=sumula.counted))
            continue

        # knockout: the jogo must be one the bracket has produced at this point
        if j.get("group") is not None:
            errors.add(f"{place}.group", _("jogos da fase eliminatória não têm grupo"))
            continue
        if stage.key in blocked_stages:
            continue
        order = plan.stage_orders.get(stage.key)
        if order is None:
            order = _draw_from_previous(plan, stage, records, errors, place, info)
            if order is None:
                blocked_stages.add(stage.key)
                continue
            plan.stage_orders[stage.key] = order
        # A ready, unused slot of an older build is the same in a fresh one (results only decide more
        # jogos), so the bracket is rebuilt only when the jogo is not among those already known.
        slot = None
        if stage.key in brackets:
            slot = _find_slot(ready[stage.key].get(frozenset(duplas), []), used_slots, stage.key)
        if slot is None:
            stage_records = [r for r in records if r.stage == stage.key]
            bracket = knockout_stage_compute(stage=stage, order=order, jogos=stage_records, settings=settings).bracket
            assert bracket is not None  # built from the order given
            brackets[stage.key] = bracket
            ready[stage.key] = _ready_by_pair(bracket.jogos())
            slot = _find_slot(ready[stage.key].get(frozenset(duplas), []), used_slots, stage.key)
        if slot is None:
            errors.add(f"{place}.duplas", _no_slot_message(brackets[stage.key].jogos(), duplas))
            continue
        used_slots.add((stage.key, slot.round, slot.position, slot.third_place))
        reversed_order = slot.duplas != duplas
        entry = result_read(j, place, duplas, slot.best_of, errors)
        result = None
        if entry is not None and len(errors) == before:
            # checked in the file's order so messages quote its scores; stored in the bracket's order
            result, problems = jogo_evaluate(entry=entry, settings=settings)
            errors.extend(p.nested(place) for p in problems)
            if reversed_order and not problems:
                entry = entry_flipped(entry)
                result, _problems = jogo_evaluate(entry=entry, settings=settings)
        slot_a, slot_b = slot.duplas
        assert slot_a is not None and slot_b is not None  # the slot holds the jogo's two duplas (_find_slot)
        bracket_duplas = (slot_a, slot_b)
        sumula = sumula_read(j, place, duplas, bracket_duplas, slot.best_of, result, settings, errors)
        plan.jogos.append(
            JogoPlan(
                stage=stage.key,
                group=None,
                duplas=bracket_duplas,
                entry=entry,
                result=result,
                round=slot.round,
                position=slot.position,
                third_place=slot.third_place,
                mesa=mesa,
                entry_order=i,
                key=key,
                referee=referee,
                sumula=sumula,
                online=online,
            )
        )
        if sumula.counted is not None and len(errors) == before:
            records.append(
                JogoRecord(
                    stage=stage.key,
                    duplas=bracket_duplas,
                    result=sumula.counted,
                    round=slot.round,
                    position=slot.position,
                    third_place=slot.third_place,
                )
            )

    _referees_check(referees, errors)
    if errors:
        return
    # stages drawn from the previous one as soon as it is complete, even with no jogo of theirs in the file
    for i, stage in enumerate(plan.stages):
        if stage.kind == KNOCKOUT and stage.key not in plan.stage_orders:
            entrants = stage_entrants(stage=stage, previous=_previous_view(plan, i, records))
            if entrants is not None:
                order, problems = knockout_draw(stage=stage, entrants=entrants, duplas=info)
                errors.extend(p.nested(f"stages[{i}]") for p in problems)
                if order is not None:
                    plan.stage_orders[stage.key] = order
    for i, stage in enumerate(plan.stages):
        if stage.kind == GROUPS:
            view = groups_stage_compute(stage=stage, jogos=records, settings=settings)
            for group_key, tied in view.unused_sorteios:
                k = stage.sorteios.index((group_key, tied))
                where = _("no grupo %(group)s", group=repr(group_key)) if group_key else _("entre os grupos")
                errors.add(
                    f"stages[{i}].sorteios[{k}]",
                    _(
                        "o sorteio lista duplas que não estão empatadas após o saldo %(where)s: %(duplas)s",
                        where=where,
                        duplas=", ".join(tied),
                    ),
                )


def _key_read(j: dict, index: int, keys: dict[str, int], errors: Errors) -> str | None:
    """The jogo's ``key``: optional; unique among the jogos; it goes in addresses (súmula, QR), so URL-safe."""
    place = f"jogos[{index}]"
    key = text_read(j, "key", place, errors, column=(Jogo, "key")) or None
    if key is None:
        return None
    if not KEY_PATTERN.fullmatch(key):
        errors.add(
            f"{place}.key",
            _(
                "chave %(key)s: use só letras, números, '-', '_' ou '.' (ela vai no endereço da súmula do jogo)",
                key=repr(key),
            ),
        )
        return None
    if key in keys:
        errors.add(
            f"{place}.key", _("chave %(key)s repetida: já é a de %(where)s", key=repr(key), where=f"jogos[{keys[key]}]")
        )
        return None
    keys[key] = index
    return key


def _online_read(value: object, place: str, errors: Errors) -> bool:
    """A jogo's ``online``: absent/false, true (a mesa online) or the export's ``{"table": ID}`` (its table on the
    site that wrote the file: the jogo is online; the table itself, with its logs, stays on that site)."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, dict) and set(value) == {"table"} and is_int(value["table"]) and value["table"] >= 1:
        return True
    errors.add(place, _('"online" é true (mesa online) ou {"table": número da mesa}'))
    return False


def _referees_check(referees: dict[str, str], errors: Errors) -> None:
    """Every referee a jogo names is an account of this site (the import gives it the referee role)."""
    if not referees:
        return
    known = set(get_user_model().objects.filter(username__in=list(referees)).values_list("username", flat=True))
    for username, place in referees.items():
        if username not in known:
            errors.add(
                place,
                _(
                    "árbitro %(user)s não tem conta neste site: crie-a antes "
                    "(manage.py staff_add SLUG %(username)s referee) ou tire o campo",
                    user=repr(username),
                    username=username,
                ),
            )


def _previous_view(
    plan: TournamentPlan, index: int, records: list[JogoRecord]
) -> GroupStageView | KnockoutStageView | None:
    if index == 0:
        return None
    prev = plan.stages[index - 1]
    if prev.kind == GROUPS:
        return groups_stage_compute(stage=prev, jogos=records, settings=plan.settings)
    return knockout_stage_compute(
        stage=prev, order=plan.stage_orders.get(prev.key), jogos=records, settings=plan.settings
    )


def _draw_from_previous(
    plan: TournamentPlan, stage: StageSpec, records: list[JogoRecord], errors: Errors, place: str, info: dict
) -> list[str | None] | None:
    index = plan.stages.index(stage)
    previous = _previous_view(plan, index, records)
    entrants = stage_entrants(stage=stage, previous=previous)
    if entrants is None:
        prev = plan.stages[index - 1]
        if errors:
            pass  # a consequence of the problems already reported, not a problem of its own
        elif getattr(previous, "complete", False):
            errors.add(
                place,
                _(
                    "a chave da fase %(stage)s ainda não foi sorteada: há um empate na fase "
                    "%(previous)s que decide uma vaga e aguarda o sorteio (informe-o em sorteios)",
                    stage=repr(stage.key),
                    previous=repr(prev.key),
                ),
            )
        else:
            errors.add(
                place,
                _(
                    "a chave da fase %(stage)s ainda não foi sorteada: a fase %(previous)s "
                    "não terminou (todos os jogos precisam de resultado antes)",
                    stage=repr(stage.key),
                    previous=repr(prev.key),
                ),
            )
        return None
    order, problems = knockout_draw(stage=stage, entrants=entrants, duplas=info)
    errors.extend(p.nested(f"stages[{index}]") for p in problems)
    return order


def _ready_by_pair(jogos: list[BracketJogo]) -> dict[frozenset, list[BracketJogo]]:
    """A bracket's jogos ready to play, in its order, by their two duplas (a file's jogo is found at once)."""
    out: dict[frozenset, list[BracketJogo]] = {}
    for slot in jogos:
        if slot.ready:
            out.setdefault(frozenset(slot.duplas), []).append(slot)
    return out


def _find_slot(ready: list[BracketJogo], used: set, stage: str) -> BracketJogo | None:
    """The first of these ready jogos (of the jogo's two duplas) that no jogo of the file took yet."""
    for slot in ready:
        if (stage, slot.round, slot.position, slot.third_place) not in used:
            return slot
    return None


def _no_slot_message(jogos: list[BracketJogo], duplas: tuple[str, str]) -> Text:
    a, b = duplas
    for slot in jogos:
        if set(slot.duplas) == {a, b} and slot.decided:
            return _("o jogo %(a)s x %(b)s já foi decidido nesta chave", a=a, b=b)
    waiting = [s for s in jogos if not s.decided and not s.bye]
    for d in duplas:
        if not any(d in s.duplas for s in jogos):
            return _("a dupla %(dupla)s não está nesta chave", dupla=repr(d))
    ready = [f"{s.duplas[0]} x {s.duplas[1]}" for s in waiting if s.ready]
    if ready:
        return _(
            "a chave não tem, neste ponto, um jogo entre %(a)s e %(b)s (jogos possíveis agora: %(ready)s)",
            a=a,
            b=b,
            ready="; ".join(ready[:6]),
        )
    return _("a chave não tem, neste ponto, um jogo entre %(a)s e %(b)s", a=a, b=b)
