"""Read a tournament file into a validated plan (no database access).

Every problem is collected with its place (``jogos[3].partidas[1].maos[5]``)
and the rule it breaks, in Portuguese; the writer runs only on a clean plan.
Single values are checked in values.py, the jogos in jogos_reader.py.
"""

import datetime as dt
from dataclasses import replace
from typing import Any

from scoring import draws as draw_rules
from scoring.errors import RuleError
from scoring.rules import best_of_error, settings_build
from scoring.tournament import DRAW_METHODS, GROUPS, KNOCKOUT, PREVIOUS, DuplaInfo, GroupSpec, StageSpec, knockout_draw
from tournaments.models import Draw, Dupla, Group, Player, Stage, Tournament
from tournaments.round_times import round_times_check

from . import limits
from .jogos_reader import jogos_read
from .jsonfile import tree_check
from .limits import column_max_length
from .plan import JogoPlan, PlayerPlan, RegistrationPlan, TournamentPlan
from .values import (
    Errors,
    best_of_problem,
    bounded_int,
    is_int,
    iso_read,
    keyed_read,
    list_read,
    sizes_check,
    text_read,
    time_of_day,
)

__all__ = ["FORMAT", "VERSION", "JogoPlan", "PlayerPlan", "RegistrationPlan", "TournamentPlan", "plan_read"]

FORMAT, VERSION = "truco-torneio", 1


def plan_read(data: Any) -> tuple[TournamentPlan | None, list[RuleError]]:
    """Validate a parsed tournament file; the plan, or every problem found."""
    errors = Errors()
    if not isinstance(data, dict):
        return None, [RuleError("arquivo", "deve ser um objeto JSON (com format, version, tournament…)")]
    problems = tree_check(data=data)  # texts and numbers no column can hold, at any depth
    if problems:
        return None, problems
    sizes_check(data, errors)  # refused at once, before any heavy work
    if errors:
        return None, errors
    if data.get("format") != FORMAT:
        errors.add("format", f"deve ser {FORMAT!r}")
    if data.get("version") != VERSION:
        errors.add("version", f"versão {data.get('version')!r} não suportada; use {VERSION}")
    t = data.get("tournament")
    if not isinstance(t, dict):
        errors.add("tournament", "campo obrigatório: um objeto com nome, data, preset…")
        return None, errors
    plan = _read_tournament(t, errors)
    if plan is None:
        return None, errors
    _read_people(data, plan, errors)
    if errors:
        return None, errors  # duplas are the vocabulary of everything below
    _read_stages(data, plan, errors)
    if errors:
        return None, errors
    jogos_read(data, plan, errors)
    if errors:
        return None, errors
    return plan, []


# --- tournament ---------------------------------------------------------------------


def _settings_limits(overrides: Any, errors: Errors) -> None:
    """Override values the rules accept but no real event (nor a column) holds."""
    if not isinstance(overrides, dict):
        return
    for name in ("best_of_groups", "best_of_first_knockout", "best_of_later_knockout"):
        value = overrides.get(name)
        if is_int(value) and best_of_error(value) is None and (problem := best_of_problem(value)) is not None:
            errors.add(f"tournament.settings.{name}", problem)  # over the file's limit
    points = overrides.get("class_points")
    if isinstance(points, dict):
        for key, value in points.items():
            if is_int(value) and value > limits.MAX_CLASS_POINTS:
                errors.add(
                    f"tournament.settings.class_points.{key}",
                    f"pontos classificatórios demais: {value} (o máximo é {limits.MAX_CLASS_POINTS})",
                )


def _read_tournament(t: dict, errors: Errors) -> TournamentPlan | None:
    name = text_read(t, "name", "tournament", errors, column=(Tournament, "name"), required=True)
    slug = text_read(t, "slug", "tournament", errors, column=(Tournament, "slug"))
    date = iso_read(t, "date", "tournament", errors, dt.date.fromisoformat, "data inválida {!r}: use AAAA-MM-DD")
    start_time = iso_read(
        t,
        "start_time",
        "tournament",
        errors,
        time_of_day,
        "horário inválido {!r}: use HH:MM (hora local, sem fuso horário)",
    )
    min_age = t.get("min_age")
    if min_age is not None:
        min_age = bounded_int(
            min_age,
            "tournament.min_age",
            errors,
            column=(Tournament, "min_age"),
            what="a idade mínima",
            low=0,
            high=120,
        )
    max_duplas = t.get("max_duplas")
    if max_duplas is not None:
        max_duplas = bounded_int(
            max_duplas,
            "tournament.max_duplas",
            errors,
            column=(Tournament, "max_duplas"),
            what="o limite de duplas",
            low=2,
            high=limits.MAX_DUPLAS,
        )
    _settings_limits(t.get("settings"), errors)
    settings, problems = settings_build(preset=t.get("preset"), overrides=t.get("settings"))
    errors.extend(p.nested("tournament") for p in problems)
    if settings is None:
        return None
    return TournamentPlan(
        name=name,
        slug=slug,
        date=date,
        start_time=start_time,
        venue=text_read(t, "venue", "tournament", errors, column=(Tournament, "venue")),
        city=text_read(t, "city", "tournament", errors, column=(Tournament, "city")),
        category=text_read(t, "category", "tournament", errors, column=(Tournament, "category")),
        min_age=min_age,
        max_duplas=max_duplas,
        preset=settings.preset,
        overrides=dict(t.get("settings") or {}),
        settings=settings,
        regulation=text_read(t, "regulation", "tournament", errors, max_len=limits.REGULATION_MAX_CHARS),
    )


def _age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


# --- players, registrations, pairing, duplas ----------------------------------------


def _read_people(data: dict, plan: TournamentPlan, errors: Errors) -> None:
    players: dict[str, PlayerPlan] = {}
    for _, place, p, key in keyed_read(
        list_read(data, "players", "players", errors), "players", "atleta", errors, (Player, "key")
    ):
        name = text_read(p, "name", place, errors, column=(Player, "name"), required=True)
        birth = iso_read(p, "birth_date", place, errors, dt.date.fromisoformat, "data inválida {!r}: use AAAA-MM-DD")
        if birth and plan.min_age is not None and plan.date is not None:
            age = _age_on(birth, plan.date)
            if age < plan.min_age:
                errors.add(
                    f"{place}.birth_date",
                    f"{name} terá {age} anos em {plan.date:%d/%m/%Y}; "
                    f"a categoria exige a partir de {plan.min_age} anos",
                )
        players[key] = PlayerPlan(
            key=key,
            name=name,
            birth_date=birth,
            email=text_read(p, "email", place, errors, column=(Player, "email")),
            phone=text_read(p, "phone", place, errors, column=(Player, "phone")),
        )
    plan.players = list(players.values())

    used: dict[str, str] = {}  # player -> where it is used

    def take(player: Any, place: str) -> bool:
        if not isinstance(player, str) or player not in players:
            errors.add(place, f"atleta {player!r} não existe em players")
            return False
        if player in used:
            errors.add(
                place, f"o atleta {player!r} já está em {used[player]}: cada atleta se inscreve uma vez por torneio"
            )
            return False
        used[player] = place.rsplit(".", 1)[0]
        return True

    duplas_raw = list_read(data, "duplas", "duplas", errors)
    explicit: list[DuplaInfo] = []
    dupla_keys: set[str] = set()
    for _, place, d, key in keyed_read(duplas_raw, "duplas", "dupla", errors, (Dupla, "key")):
        dupla_keys.add(key)
        members = d.get("players")
        if not isinstance(members, list) or len(members) != 2:
            errors.add(f"{place}.players", "uma dupla tem exatamente 2 atletas")
            continue
        ok = all([take(m, f"{place}.players[{j}]") for j, m in enumerate(members)])  # noqa: C419 (every member is taken, each problem reported)
        seed = d.get("seed")
        if seed is not None:
            seed = bounded_int(seed, f"{place}.seed", errors, column=(Dupla, "seed"), what="a cabeça de chave", low=1)
        disq = d.get("disqualified", False)
        if not isinstance(disq, bool):
            errors.add(f"{place}.disqualified", "deve ser true ou false")
            disq = False
        reason = text_read(d, "disqualified_reason", place, errors, column=(Dupla, "disqualified_reason"))
        if reason and not disq:
            errors.add(f"{place}.disqualified_reason", "só uma dupla desclassificada tem motivo de desclassificação")
        if ok:
            explicit.append(
                DuplaInfo(
                    key=key,
                    players=tuple(members),
                    name=text_read(d, "name", place, errors, column=(Dupla, "name")),
                    seed=seed,
                    disqualified=disq,
                    disqualified_reason=reason if disq else "",
                )
            )
    seeds = [d.seed for d in explicit if d.seed is not None]
    if len(seeds) != len(set(seeds)):
        errors.add("duplas", "duas duplas com o mesmo número de cabeça de chave")

    regs: list[tuple[str, ...]] = []
    for i, r in enumerate(list_read(data, "registrations", "registrations", errors)):
        place = f"registrations[{i}]"
        members = r.get("players") if isinstance(r, dict) else None
        if not isinstance(members, list) or len(members) not in (1, 2):
            errors.add(f"{place}.players", "uma inscrição é individual (1 atleta) ou em dupla (2 atletas)")
            continue
        if all([take(m, f"{place}.players[{j}]") for j, m in enumerate(members)]):  # noqa: C419 (every member is taken, each problem reported)
            regs.append(tuple(members))

    pairing = data.get("pairing")
    formed: list[DuplaInfo] = []
    if pairing is not None:
        if not isinstance(pairing, dict) or not is_int(pairing.get("seed")):
            errors.add("pairing.seed", "o sorteio das duplas precisa de uma semente inteira ('seed')")
        elif (
            bounded_int(pairing["seed"], "pairing.seed", errors, column=(Draw, "seed"), what="a semente do sorteio")
            is None
        ):
            pass
        elif regs:
            capacity = None if plan.max_duplas is None else max(0, plan.max_duplas - len(explicit))
            result = draw_rules.pairing_draw(registrations=regs, seed=pairing["seed"], max_duplas=capacity)
            plan.pairing_seed = pairing["seed"]
            for n, pair in enumerate(result.duplas, start=1):
                key = f"r{n}"
                if key in dupla_keys:
                    errors.add("pairing", f"a dupla sorteada {key!r} colide com uma chave de duplas; renomeie a dupla")
                formed.append(DuplaInfo(key=key, players=tuple(pair)))
            waiting = set(result.waiting_list)
            plan.registrations = [
                RegistrationPlan(players=r, waiting=r[0] in waiting or (len(r) == 2 and r[1] in waiting)) for r in regs
            ]
            plan.pairing_result = {
                "duplas": [list(p) for p in result.duplas],
                "waiting_list": list(result.waiting_list),
            }
    if pairing is None or not regs:
        plan.registrations = [RegistrationPlan(players=r, waiting=True) for r in regs]
    plan.duplas = explicit + formed
    if len(plan.duplas) > limits.MAX_DUPLAS:
        errors.add(
            "duplas",
            f"duplas demais: {len(plan.duplas)} com as sorteadas "
            f"(o máximo num arquivo de torneio é {limits.MAX_DUPLAS})",
        )
    if plan.max_duplas is not None and len(plan.duplas) > plan.max_duplas:
        errors.add("duplas", f"{len(plan.duplas)} duplas passam do limite de {plan.max_duplas} do torneio")


# --- stages -------------------------------------------------------------------------


def _read_stages(data: dict, plan: TournamentPlan, errors: Errors) -> None:
    known = {d.key for d in plan.duplas}
    stages: list[StageSpec] = []
    raw_stages = list_read(data, "stages", "stages", errors)
    for i, place, s, key in keyed_read(raw_stages, "stages", "fase", errors, (Stage, "key")):
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
            errors.add(f"{place}.kind", f"tipo de fase {kind!r} desconhecido; use 'groups' ou 'knockout'")
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
                errors.add(f"stages[{i - 1}].qualify", "informe quantas duplas se classificam (qualify.per_group)")
            stages.append(stage)
    plan.stages = stages
    if errors:
        return
    scheduled = sum(len(g.duplas) * (len(g.duplas) - 1) // 2 for s in stages for g in s.groups) + sum(
        len(s.entrants) if s.entrants != PREVIOUS else len(plan.duplas) for s in stages if s.kind == KNOCKOUT
    )
    if scheduled > limits.MAX_JOGOS:
        errors.add(
            "stages", f"as fases dão até {scheduled} jogos; o máximo num arquivo de torneio é {limits.MAX_JOGOS}"
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
        errors.add(f"{place}.groups", "uma fase de grupos precisa de pelo menos um grupo")
    for j, g in enumerate(raw_groups):
        gplace = f"{place}.groups[{j}]"
        if not isinstance(g, dict) or not isinstance(g.get("key"), str) or not g["key"].strip():
            errors.add(gplace, "cada grupo precisa de uma chave ('key') e das duplas")
            continue
        if len(g["key"]) > column_max_length(model=Group, field="key"):
            errors.add(
                f"{gplace}.key",
                f"chave longa demais: {len(g['key'])} caracteres "
                f"(máximo {column_max_length(model=Group, field='key')})",
            )
            continue
        if any(x.key == g["key"] for x in groups):
            errors.add(f"{gplace}.key", f"grupo {g['key']!r} repetido")
            continue
        members = g.get("duplas")
        if not isinstance(members, list) or len(members) < 2:
            errors.add(f"{gplace}.duplas", "um grupo precisa de pelo menos 2 duplas")
            continue
        ok = True
        for k, d in enumerate(members):
            if not isinstance(d, str) or d not in known:
                errors.add(f"{gplace}.duplas[{k}]", f"dupla {d!r} não existe")
                ok = False
            elif d in in_stage:
                errors.add(f"{gplace}.duplas[{k}]", f"a dupla {d!r} já está no grupo {in_stage[d]!r} desta fase")
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
        errors.add(f"{place}.qualify", "per_group e best_others devem ser inteiros ≥ 0")
        per_group, best_others = 0, 0
    elif groups and per_group > min(len(g.duplas) for g in groups):
        errors.add(
            f"{place}.qualify.per_group", f"{per_group} classificados por grupo é mais do que as duplas do menor grupo"
        )
    elif groups and best_others > sum(len(g.duplas) - per_group for g in groups):
        errors.add(f"{place}.qualify.best_others", "não há duplas suficientes para tantos melhores colocados")
    sorteios: list[tuple[str | None, tuple[str, ...]]] = []
    for k, draw in enumerate(list_read(s, "sorteios", f"{place}.sorteios", errors)):
        dplace = f"{place}.sorteios[{k}]"
        order = draw.get("order") if isinstance(draw, dict) else None
        group = draw.get("group") if isinstance(draw, dict) else None
        if group is not None and not isinstance(group, str):
            errors.add(f"{dplace}.group", "o grupo deve ser a chave (texto) de um grupo desta fase")
            continue
        if (
            not isinstance(order, list)
            or len(order) < 2
            or not all(isinstance(d, str) for d in order)
            or len(set(order)) != len(order)
        ):
            errors.add(
                f"{dplace}.order",
                "o resultado do sorteio lista as duplas empatadas, sem repetir, da melhor para a pior",
            )
            continue
        if group is not None:
            spec = next((g for g in groups if g.key == group), None)
            if spec is None:
                errors.add(f"{dplace}.group", f"grupo {group!r} não existe nesta fase")
                continue
            strangers = [d for d in order if d not in spec.duplas]
            if strangers:
                errors.add(f"{dplace}.order", f"duplas fora do grupo {group!r}: {', '.join(map(str, strangers))}")
                continue
        elif any(d not in in_stage for d in order):
            errors.add(f"{dplace}.order", "o sorteio entre grupos lista duplas que não estão nesta fase")
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
        errors.add(f"{place}.best_of_rounds", 'deve ser um objeto {"rodada": melhor de}')
        raw_rounds = {}
    for r, n in raw_rounds.items():
        try:
            number = int(r)
        except (TypeError, ValueError):
            number = 0
        if not 1 <= number <= limits.MAX_KNOCKOUT_ROUNDS:
            errors.add(
                f"{place}.best_of_rounds",
                f"rodada {r!r} inválida: use 1 para a primeira rodada, 2 para a "
                f"seguinte… (no máximo {limits.MAX_KNOCKOUT_ROUNDS})",
            )
        elif problem := best_of_problem(n):
            errors.add(f"{place}.best_of_rounds.{r}", problem)
        else:
            rounds[number] = n
    entrants = s.get("entrants", PREVIOUS)
    if entrants == PREVIOUS:
        if not has_previous:
            errors.add(f"{place}.entrants", "'previous' exige uma fase anterior; liste as duplas da chave")
    elif isinstance(entrants, list):
        bad = [e for e in entrants if not isinstance(e, str) or e not in known]
        if bad:
            errors.add(f"{place}.entrants", f"duplas inexistentes: {', '.join(map(str, bad))}")
        elif len(set(entrants)) != len(entrants):
            errors.add(f"{place}.entrants", "uma dupla aparece duas vezes")
        elif len(entrants) < 2:
            errors.add(f"{place}.entrants", "a chave precisa de pelo menos 2 duplas")
        entrants = tuple(entrants)
    else:
        errors.add(f"{place}.entrants", "use 'previous' ou a lista das chaves das duplas")
    draw = s.get("draw") or {"method": "seeded"}
    if not isinstance(draw, dict):
        errors.add(f"{place}.draw", "deve ser um objeto com method")
        draw = {}
    method = draw.get("method", "seeded")
    if method not in DRAW_METHODS:
        errors.add(f"{place}.draw.method", f"método {method!r} desconhecido; use seeded, random ou fixed")
    seed = draw.get("seed")
    if seed is not None:
        seed = bounded_int(seed, f"{place}.draw.seed", errors, column=(Stage, "draw_seed"), what="a semente do sorteio")
    if method == "random" and seed is None:
        errors.add(f"{place}.draw.seed", "o sorteio aleatório da chave precisa de uma semente ('seed')")
    order = None
    if method == "fixed":
        order = draw.get("order")
        if not isinstance(order, list):
            errors.add(f"{place}.draw.order", "com method 'fixed', informe a ordem da chave (null para bye)")
            order = None
        elif not all(d is None or isinstance(d, str) for d in order):
            errors.add(f"{place}.draw.order", "a ordem da chave lista chaves de duplas (textos), com null para bye")
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
