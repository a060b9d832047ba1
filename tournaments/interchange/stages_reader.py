"""The tournament file's ``stages``: groups and knockout stages, with their draws (no database access).

Part of the reader (``reader.py``): every problem is collected with its place (``stages[1].groups[0]``).
"""

from dataclasses import replace

from scoring.messages import _
from scoring.tournament import DRAW_METHODS, GROUPS, KNOCKOUT, PREVIOUS, GroupSpec, StageSpec, knockout_draw
from tournaments.models import Group, Stage
from tournaments.round_times import round_times_check

from .. import limits
from ..limits import column_max_length
from .plan import TournamentPlan
from .values import (
    Errors,
    best_of_problem,
    bounded_int,
    is_int,
    key_too_long,
    keyed_read,
    list_read,
    text_read,
)


def stages_read(data: dict, plan: TournamentPlan, errors: Errors) -> None:
    known = {d.key for d in plan.duplas}
    stages: list[StageSpec] = []
    raw_stages = list_read(data, "stages", "stages", errors)
    for i, place, s, key in keyed_read(raw_stages, "stages", _("fase"), errors, (Stage, "key")):
        best_of = s.get("best_of")
        if best_of is not None and (problem := best_of_problem(best_of)):
            errors.add(f"{place}.best_of", problem)
            best_of = None
        kind = s.get("kind")
        if kind == GROUPS:
            stage = _read_groups_stage(s, place, key, best_of, known, errors)
        elif kind == KNOCKOUT:
            stage = _read_knockout_stage(s, place, key, best_of, known, bool(stages), errors)
        else:
            errors.add(
                f"{place}.kind", _("tipo de fase %(kind)s desconhecido; use 'groups' ou 'knockout'", kind=repr(kind))
            )
            continue
        times, time_problems = round_times_check(s.get("round_times"))
        for where_, message in time_problems:
            errors.add(f"{place}.round_times" + (f".{where_}" if where_ else ""), message)
        if times:
            plan.round_times[key] = times
        if stage is not None:
            stage = replace(stage, name=text_read(s, "name", place, errors, column=(Stage, "name")))
            if (
                stage.kind == KNOCKOUT
                and stage.entrants == PREVIOUS
                and stages
                and stages[-1].kind == GROUPS
                and stages[-1].per_group + stages[-1].best_others < 1
            ):
                errors.add(f"stages[{i - 1}].qualify", _("informe quantas duplas se classificam (qualify.per_group)"))
            stages.append(stage)
    plan.stages = stages
    if errors:
        return
    scheduled = sum(len(g.duplas) * (len(g.duplas) - 1) // 2 for s in stages for g in s.groups) + sum(
        len(s.entrants) if s.entrants != PREVIOUS else len(plan.duplas) for s in stages if s.kind == KNOCKOUT
    )
    if scheduled > limits.MAX_JOGOS:
        errors.add(
            "stages",
            _(
                "as fases dão até %(n)s jogos; o máximo num arquivo de torneio é %(max)s",
                n=scheduled,
                max=limits.MAX_JOGOS,
            ),
        )
        return
    info = {d.key: d for d in plan.duplas}
    for i, stage in enumerate(stages):  # knockouts with a known list of entrants are drawn at once
        if stage.kind == KNOCKOUT and stage.entrants != PREVIOUS:
            order, problems = knockout_draw(stage=stage, entrants=[(d, None) for d in stage.entrants], duplas=info)
            errors.extend(p.nested(f"stages[{i}]") for p in problems)
            if order is not None:
                plan.stage_orders[stage.key] = order


def _read_groups_stage(
    s: dict, place: str, key: str, best_of: int | None, known: set[str], errors: Errors
) -> StageSpec | None:
    groups: list[GroupSpec] = []
    in_stage: dict[str, str] = {}
    raw_groups = list_read(s, "groups", f"{place}.groups", errors)
    if not raw_groups:
        errors.add(f"{place}.groups", _("uma fase de grupos precisa de pelo menos um grupo"))
    for j, g in enumerate(raw_groups):
        gplace = f"{place}.groups[{j}]"
        if not isinstance(g, dict) or not isinstance(g.get("key"), str) or not g["key"].strip():
            errors.add(gplace, _("cada grupo precisa de uma chave ('key') e das duplas"))
            continue
        if len(g["key"]) > column_max_length(model=Group, field="key"):
            errors.add(f"{gplace}.key", key_too_long(len(g["key"]), column_max_length(model=Group, field="key")))
            continue
        if any(x.key == g["key"] for x in groups):
            errors.add(f"{gplace}.key", _("grupo %(key)s repetido", key=repr(g["key"])))
            continue
        members = g.get("duplas")
        if not isinstance(members, list) or len(members) < 2:
            errors.add(f"{gplace}.duplas", _("um grupo precisa de pelo menos 2 duplas"))
            continue
        ok = True
        for k, d in enumerate(members):
            if not isinstance(d, str) or d not in known:
                errors.add(f"{gplace}.duplas[{k}]", _("dupla %(dupla)s não existe", dupla=repr(d)))
                ok = False
            elif d in in_stage:
                errors.add(
                    f"{gplace}.duplas[{k}]",
                    _(
                        "a dupla %(dupla)s já está no grupo %(group)s desta fase",
                        dupla=repr(d),
                        group=repr(in_stage[d]),
                    ),
                )
                ok = False
            else:
                in_stage[d] = g["key"]
        if ok:
            groups.append(GroupSpec(key=g["key"], duplas=tuple(members)))
    qualify = s.get("qualify") or {}
    if not isinstance(qualify, dict):
        qualify = {"per_group": None}
    per_group, best_others = qualify.get("per_group", 0), qualify.get("best_others", 0)
    if not is_int(per_group) or per_group < 0 or not is_int(best_others) or best_others < 0:
        errors.add(f"{place}.qualify", _("per_group e best_others devem ser inteiros ≥ 0"))
        per_group, best_others = 0, 0
    elif groups and per_group > min(len(g.duplas) for g in groups):
        errors.add(
            f"{place}.qualify.per_group",
            _("%(n)s classificados por grupo é mais do que as duplas do menor grupo", n=per_group),
        )
    elif groups and best_others > sum(len(g.duplas) - per_group for g in groups):
        errors.add(f"{place}.qualify.best_others", _("não há duplas suficientes para tantos melhores colocados"))
    sorteios: list[tuple[str | None, tuple[str, ...]]] = []
    for k, draw in enumerate(list_read(s, "sorteios", f"{place}.sorteios", errors)):
        dplace = f"{place}.sorteios[{k}]"
        order = draw.get("order") if isinstance(draw, dict) else None
        group = draw.get("group") if isinstance(draw, dict) else None
        if group is not None and not isinstance(group, str):
            errors.add(f"{dplace}.group", _("o grupo deve ser a chave (texto) de um grupo desta fase"))
            continue
        if (
            not isinstance(order, list)
            or len(order) < 2
            or not all(isinstance(d, str) for d in order)
            or len(set(order)) != len(order)
        ):
            errors.add(
                f"{dplace}.order",
                _("o resultado do sorteio lista as duplas empatadas, sem repetir, da melhor para a pior"),
            )
            continue
        if group is not None:
            spec = next((g for g in groups if g.key == group), None)
            if spec is None:
                errors.add(f"{dplace}.group", _("grupo %(group)s não existe nesta fase", group=repr(group)))
                continue
            strangers = [d for d in order if d not in spec.duplas]
            if strangers:
                errors.add(
                    f"{dplace}.order",
                    _(
                        "duplas fora do grupo %(group)s: %(duplas)s",
                        group=repr(group),
                        duplas=", ".join(map(str, strangers)),
                    ),
                )
                continue
        elif any(d not in in_stage for d in order):
            errors.add(f"{dplace}.order", _("o sorteio entre grupos lista duplas que não estão nesta fase"))
            continue
        sorteios.append((group, tuple(order)))
    return StageSpec(
        key=key,
        kind=GROUPS,
        best_of=best_of,
        groups=tuple(groups),
        per_group=per_group,
        best_others=best_others,
        sorteios=tuple(sorteios),
    )


def _read_knockout_stage(
    s: dict, place: str, key: str, best_of: int | None, known: set[str], has_previous: bool, errors: Errors
) -> StageSpec | None:
    rounds: dict[int, int] = {}
    raw_rounds = s.get("best_of_rounds") or {}
    if not isinstance(raw_rounds, dict):
        errors.add(f"{place}.best_of_rounds", _('deve ser um objeto {"rodada": melhor de}'))
        raw_rounds = {}
    for r, n in raw_rounds.items():
        try:
            number = int(r)
        except (TypeError, ValueError):
            number = 0
        if not 1 <= number <= limits.MAX_KNOCKOUT_ROUNDS:
            errors.add(
                f"{place}.best_of_rounds",
                _(
                    "rodada %(round)s inválida: use 1 para a primeira rodada, 2 para a seguinte… (no máximo %(max)s)",
                    round=repr(r),
                    max=limits.MAX_KNOCKOUT_ROUNDS,
                ),
            )
        elif problem := best_of_problem(n):
            errors.add(f"{place}.best_of_rounds.{r}", problem)
        else:
            rounds[number] = n
    entrants = s.get("entrants", PREVIOUS)
    if entrants == PREVIOUS:
        if not has_previous:
            errors.add(f"{place}.entrants", _("'previous' exige uma fase anterior; liste as duplas da chave"))
    elif isinstance(entrants, list):
        bad = [e for e in entrants if not isinstance(e, str) or e not in known]
        if bad:
            errors.add(f"{place}.entrants", _("duplas inexistentes: %(duplas)s", duplas=", ".join(map(str, bad))))
        elif len(set(entrants)) != len(entrants):
            errors.add(f"{place}.entrants", _("uma dupla aparece duas vezes"))
        elif len(entrants) < 2:
            errors.add(f"{place}.entrants", _("a chave precisa de pelo menos 2 duplas"))
        entrants = tuple(entrants)
    else:
        errors.add(f"{place}.entrants", _("use 'previous' ou a lista das chaves das duplas"))
    draw = s.get("draw") or {"method": "seeded"}
    if not isinstance(draw, dict):
        errors.add(f"{place}.draw", _("deve ser um objeto com method"))
        draw = {}
    method = draw.get("method", "seeded")
    if method not in DRAW_METHODS:
        errors.add(
            f"{place}.draw.method",
            _("método %(method)s desconhecido; use seeded, random ou fixed", method=repr(method)),
        )
    seed = draw.get("seed")
    if seed is not None:
        seed = bounded_int(
            seed, f"{place}.draw.seed", errors, column=(Stage, "draw_seed"), what=_("a semente do sorteio")
        )
    if method == "random" and seed is None:
        errors.add(f"{place}.draw.seed", _("o sorteio aleatório da chave precisa de uma semente ('seed')"))
    order = None
    if method == "fixed":
        order = draw.get("order")
        if not isinstance(order, list):
            errors.add(f"{place}.draw.order", _("com method 'fixed', informe a ordem da chave (null para bye)"))
            order = None
        elif not all(d is None or isinstance(d, str) for d in order):
            errors.add(f"{place}.draw.order", _("a ordem da chave lista chaves de duplas (textos), com null para bye"))
            order = None
        else:
            order = tuple(order)
    return StageSpec(
        key=key,
        kind=KNOCKOUT,
        best_of=best_of,
        best_of_rounds=rounds,
        entrants=entrants,
        draw_method=method,
        draw_seed=seed,
        draw_order=order,
    )
