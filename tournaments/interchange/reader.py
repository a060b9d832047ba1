"""Read a tournament file into a validated plan (no database access).

Every problem is collected with its place (``jogos[3].partidas[1].maos[5]``)
and the rule it breaks, in Portuguese; the writer runs only on a clean plan.
"""

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any

from scoring import draws as draw_rules
from scoring.bracket import Bracket, BracketJogo
from scoring.errors import RuleError
from scoring.jogo import WALKOVER_BOTH, JogoEntry, JogoResult, PartidaEntry, jogo_evaluate
from scoring.partida import Mao
from scoring.rules import RuleSettings, best_of_error, settings_build
from scoring.tournament import (DRAW_METHODS, GROUPS, KNOCKOUT, PREVIOUS, DuplaInfo, GroupSpec, JogoRecord, StageSpec,
                                group_best_of, groups_stage_compute, knockout_draw, knockout_stage_compute,
                                stage_entrants)

FORMAT, VERSION = "truco-torneio", 1


@dataclass
class PlayerPlan:
    key: str
    name: str
    birth_date: dt.date | None = None
    email: str = ""
    phone: str = ""


@dataclass
class RegistrationPlan:
    players: tuple[str, ...]
    waiting: bool  # still on the waiting list (not in a dupla)


@dataclass
class JogoPlan:
    stage: str
    group: str | None
    duplas: tuple[str, str]
    entry: JogoEntry | None  # None: scheduled, no result yet
    result: JogoResult | None
    round: int | None = None
    position: int | None = None
    third_place: bool = False
    mesa: int | None = None
    entry_order: int | None = None  # place in the file (results are replayed in this order)


@dataclass
class TournamentPlan:
    name: str
    slug: str
    date: dt.date | None
    start_time: dt.time | None
    venue: str
    category: str
    min_age: int | None
    max_duplas: int | None
    preset: str
    overrides: dict
    settings: RuleSettings
    regulation: str = ""
    players: list[PlayerPlan] = field(default_factory=list)
    registrations: list[RegistrationPlan] = field(default_factory=list)
    pairing_seed: int | None = None
    pairing_result: dict | None = None
    duplas: list[DuplaInfo] = field(default_factory=list)
    stages: list[StageSpec] = field(default_factory=list)
    stage_orders: dict[str, list[str | None]] = field(default_factory=dict)  # knockout draws made
    jogos: list[JogoPlan] = field(default_factory=list)


class _Errors(list):
    def add(self, place: str, message: str) -> None:
        self.append(RuleError(place, message))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _text(obj: dict, name: str, place: str, errors: _Errors, *, required: bool = False, max_len: int = 200) -> str:
    value = obj.get(name)
    if value is None or value == "":
        if required:
            errors.add(f"{place}.{name}" if place else name, "campo obrigatório")
        return ""
    if not isinstance(value, str):
        errors.add(f"{place}.{name}" if place else name, "deve ser um texto")
        return ""
    value = value.strip()
    if len(value) > max_len:
        errors.add(f"{place}.{name}" if place else name, f"texto longo demais (máximo {max_len} caracteres)")
    return value


def _iso(obj: dict, name: str, place: str, errors: _Errors, parse, problem: str):
    """An optional ISO date or time field; None (with the problem noted) when it does not parse."""
    value = obj.get(name)
    if value in (None, ""):
        return None
    if isinstance(value, str):
        try:
            return parse(value)
        except ValueError:
            pass
    errors.add(f"{place}.{name}", problem.format(value))
    return None


def _list(obj: dict, name: str, place: str, errors: _Errors) -> list:
    value = obj.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        errors.add(place, "deve ser uma lista")
        return []
    return value


def _keyed(raw: list, kind: str, what: str, errors: _Errors):
    """(index, place, object, key) for each object of the list ``kind`` with a unique, non-empty text key."""
    seen: set[str] = set()
    for i, obj in enumerate(raw):
        place = f"{kind}[{i}]"
        if not isinstance(obj, dict):
            errors.add(place, f"cada {what} deve ser um objeto com 'key'")
            continue
        key = obj.get("key")
        if not isinstance(key, str) or not key.strip():
            errors.add(f"{place}.key", "chave obrigatória (texto)")
            continue
        if key in seen:
            errors.add(f"{place}.key", f"chave {key!r} repetida: cada {what} tem uma chave única")
            continue
        seen.add(key)
        yield i, place, obj, key


def plan_read(data: Any) -> tuple[TournamentPlan | None, list[RuleError]]:
    """Validate a parsed tournament file; the plan, or every problem found."""
    errors = _Errors()
    if not isinstance(data, dict):
        return None, [RuleError("", "o arquivo deve ser um objeto JSON")]
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
    _read_jogos(data, plan, errors)
    if errors:
        return None, errors
    return plan, []


# --- tournament ---------------------------------------------------------------------

def _read_tournament(t: dict, errors: _Errors) -> TournamentPlan | None:
    name = _text(t, "name", "tournament", errors, required=True)
    slug = _text(t, "slug", "tournament", errors, max_len=120)
    date = _iso(t, "date", "tournament", errors, dt.date.fromisoformat, "data inválida {!r}: use AAAA-MM-DD")
    start_time = _iso(t, "start_time", "tournament", errors, dt.time.fromisoformat, "horário inválido {!r}: use HH:MM")
    min_age = t.get("min_age")
    if min_age is not None and (not _is_int(min_age) or not 0 <= min_age <= 120):
        errors.add("tournament.min_age", "idade mínima deve ser um inteiro entre 0 e 120")
        min_age = None
    max_duplas = t.get("max_duplas")
    if max_duplas is not None and (not _is_int(max_duplas) or max_duplas < 2):
        errors.add("tournament.max_duplas", "limite de duplas deve ser um inteiro ≥ 2")
        max_duplas = None
    settings, problems = settings_build(preset=t.get("preset"), overrides=t.get("settings"))
    errors.extend(p.nested("tournament") for p in problems)
    if settings is None:
        return None
    return TournamentPlan(
        name=name, slug=slug, date=date, start_time=start_time,
        venue=_text(t, "venue", "tournament", errors), category=_text(t, "category", "tournament", errors),
        min_age=min_age, max_duplas=max_duplas, preset=settings.preset,
        overrides=dict(t.get("settings") or {}), settings=settings,
        regulation=_text(t, "regulation", "tournament", errors, max_len=20000),
    )


def _age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


# --- players, registrations, pairing, duplas ----------------------------------------

def _read_people(data: dict, plan: TournamentPlan, errors: _Errors) -> None:
    players: dict[str, PlayerPlan] = {}
    for _, place, p, key in _keyed(_list(data, "players", "players", errors), "players", "atleta", errors):
        name = _text(p, "name", place, errors, required=True)
        birth = _iso(p, "birth_date", place, errors, dt.date.fromisoformat, "data inválida {!r}: use AAAA-MM-DD")
        if birth and plan.min_age is not None and plan.date is not None:
            age = _age_on(birth, plan.date)
            if age < plan.min_age:
                errors.add(f"{place}.birth_date", f"{name} terá {age} anos em {plan.date:%d/%m/%Y}; "
                                                   f"a categoria exige a partir de {plan.min_age} anos")
        players[key] = PlayerPlan(key=key, name=name, birth_date=birth, email=_text(p, "email", place, errors),
                                  phone=_text(p, "phone", place, errors, max_len=40))
    plan.players = list(players.values())

    used: dict[str, str] = {}  # player -> where it is used

    def take(player: Any, place: str) -> bool:
        if not isinstance(player, str) or player not in players:
            errors.add(place, f"atleta {player!r} não existe em players")
            return False
        if player in used:
            errors.add(place, f"o atleta {player!r} já está em {used[player]}: cada atleta se inscreve uma vez por torneio")
            return False
        used[player] = place.rsplit(".", 1)[0]
        return True

    duplas_raw = _list(data, "duplas", "duplas", errors)
    explicit: list[DuplaInfo] = []
    dupla_keys: set[str] = set()
    for _, place, d, key in _keyed(duplas_raw, "duplas", "dupla", errors):
        dupla_keys.add(key)
        members = d.get("players")
        if not isinstance(members, list) or len(members) != 2:
            errors.add(f"{place}.players", "uma dupla tem exatamente 2 atletas")
            continue
        ok = all([take(m, f"{place}.players[{j}]") for j, m in enumerate(members)])
        seed = d.get("seed")
        if seed is not None and (not _is_int(seed) or seed < 1):
            errors.add(f"{place}.seed", "cabeça de chave deve ser um inteiro ≥ 1")
            seed = None
        disq = d.get("disqualified", False)
        if not isinstance(disq, bool):
            errors.add(f"{place}.disqualified", "deve ser true ou false")
            disq = False
        reason = _text(d, "disqualified_reason", place, errors, max_len=300)
        if reason and not disq:
            errors.add(f"{place}.disqualified_reason", "só uma dupla desclassificada tem motivo de desclassificação")
        if ok:
            explicit.append(DuplaInfo(key=key, players=tuple(members), name=_text(d, "name", place, errors),
                                      seed=seed, disqualified=disq, disqualified_reason=reason if disq else ""))
    seeds = [d.seed for d in explicit if d.seed is not None]
    if len(seeds) != len(set(seeds)):
        errors.add("duplas", "duas duplas com o mesmo número de cabeça de chave")

    regs: list[tuple[str, ...]] = []
    for i, r in enumerate(_list(data, "registrations", "registrations", errors)):
        place = f"registrations[{i}]"
        members = r.get("players") if isinstance(r, dict) else None
        if not isinstance(members, list) or len(members) not in (1, 2):
            errors.add(f"{place}.players", "uma inscrição é individual (1 atleta) ou em dupla (2 atletas)")
            continue
        if all([take(m, f"{place}.players[{j}]") for j, m in enumerate(members)]):
            regs.append(tuple(members))

    pairing = data.get("pairing")
    formed: list[DuplaInfo] = []
    if pairing is not None:
        if not isinstance(pairing, dict) or not _is_int(pairing.get("seed")):
            errors.add("pairing.seed", "o sorteio das duplas precisa de uma semente inteira ('seed')")
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
            plan.registrations = [RegistrationPlan(players=r, waiting=r[0] in waiting or (len(r) == 2 and r[1] in waiting))
                                  for r in regs]
            plan.pairing_result = {"duplas": [list(p) for p in result.duplas], "waiting_list": list(result.waiting_list)}
    if pairing is None or not regs:
        plan.registrations = [RegistrationPlan(players=r, waiting=True) for r in regs]
    plan.duplas = explicit + formed
    if plan.max_duplas is not None and len(plan.duplas) > plan.max_duplas:
        errors.add("duplas", f"{len(plan.duplas)} duplas passam do limite de {plan.max_duplas} do torneio")


# --- stages -------------------------------------------------------------------------

def _read_stages(data: dict, plan: TournamentPlan, errors: _Errors) -> None:
    known = {d.key for d in plan.duplas}
    stages: list[StageSpec] = []
    raw_stages = _list(data, "stages", "stages", errors)
    for i, place, s, key in _keyed(raw_stages, "stages", "fase", errors):
        best_of = s.get("best_of")
        if best_of is not None and best_of_error(best_of):
            errors.add(f"{place}.best_of", best_of_error(best_of))
            best_of = None
        kind = s.get("kind")
        if kind == GROUPS:
            stage = _read_groups_stage(s, place, key, best_of, known, errors)
        elif kind == KNOCKOUT:
            stage = _read_knockout_stage(s, place, key, best_of, known, bool(stages), errors)
        else:
            errors.add(f"{place}.kind", f"tipo de fase {kind!r} desconhecido; use 'groups' ou 'knockout'")
            continue
        if stage is not None:
            stage = replace(stage, name=_text(s, "name", place, errors, max_len=120))
            if stage.kind == KNOCKOUT and stage.entrants == PREVIOUS and stages and stages[-1].kind == GROUPS \
                    and stages[-1].per_group + stages[-1].best_others < 1:
                errors.add(f"stages[{i - 1}].qualify", "informe quantas duplas se classificam (qualify.per_group)")
            stages.append(stage)
    plan.stages = stages
    if errors:
        return
    info = {d.key: d for d in plan.duplas}
    for i, stage in enumerate(stages):  # knockouts with a known list of entrants are drawn at once
        if stage.kind == KNOCKOUT and stage.entrants != PREVIOUS:
            order, problems = knockout_draw(stage=stage, entrants=[(d, None) for d in stage.entrants], duplas=info)
            errors.extend(p.nested(f"stages[{i}]") for p in problems)
            if order is not None:
                plan.stage_orders[stage.key] = order


def _read_groups_stage(s: dict, place: str, key: str, best_of, known: set[str], errors: _Errors) -> StageSpec | None:
    groups: list[GroupSpec] = []
    in_stage: dict[str, str] = {}
    raw_groups = _list(s, "groups", f"{place}.groups", errors)
    if not raw_groups:
        errors.add(f"{place}.groups", "uma fase de grupos precisa de pelo menos um grupo")
    for j, g in enumerate(raw_groups):
        gplace = f"{place}.groups[{j}]"
        if not isinstance(g, dict) or not isinstance(g.get("key"), str) or not g["key"].strip():
            errors.add(gplace, "cada grupo precisa de uma chave ('key') e das duplas")
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
    if not _is_int(per_group) or per_group < 0 or not _is_int(best_others) or best_others < 0:
        errors.add(f"{place}.qualify", "per_group e best_others devem ser inteiros ≥ 0")
        per_group, best_others = 0, 0
    elif groups and per_group > min(len(g.duplas) for g in groups):
        errors.add(f"{place}.qualify.per_group", f"{per_group} classificados por grupo é mais do que as duplas do menor grupo")
    elif groups and best_others > sum(len(g.duplas) - per_group for g in groups):
        errors.add(f"{place}.qualify.best_others", "não há duplas suficientes para tantos melhores colocados")
    sorteios: list[tuple[str | None, tuple[str, ...]]] = []
    for k, draw in enumerate(_list(s, "sorteios", f"{place}.sorteios", errors)):
        dplace = f"{place}.sorteios[{k}]"
        order = draw.get("order") if isinstance(draw, dict) else None
        group = draw.get("group") if isinstance(draw, dict) else None
        if group is not None and not isinstance(group, str):
            errors.add(f"{dplace}.group", "o grupo deve ser a chave (texto) de um grupo desta fase")
            continue
        if not isinstance(order, list) or len(order) < 2 or not all(isinstance(d, str) for d in order) \
                or len(set(order)) != len(order):
            errors.add(f"{dplace}.order", "o resultado do sorteio lista as duplas empatadas, sem repetir, da melhor para a pior")
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
    return StageSpec(key=key, kind=GROUPS, best_of=best_of, groups=tuple(groups), per_group=per_group,
                     best_others=best_others, sorteios=tuple(sorteios))


def _read_knockout_stage(s: dict, place: str, key: str, best_of, known: set[str], has_previous: bool,
                         errors: _Errors) -> StageSpec | None:
    rounds: dict[int, int] = {}
    raw_rounds = s.get("best_of_rounds") or {}
    if not isinstance(raw_rounds, dict):
        errors.add(f"{place}.best_of_rounds", "deve ser um objeto {\"rodada\": melhor de}")
        raw_rounds = {}
    for r, n in raw_rounds.items():
        try:
            number = int(r)
        except (TypeError, ValueError):
            number = 0
        if number < 1:
            errors.add(f"{place}.best_of_rounds", f"rodada {r!r} inválida: use 1 para a primeira rodada, 2 para a seguinte…")
        elif best_of_error(n):
            errors.add(f"{place}.best_of_rounds.{r}", best_of_error(n))
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
    if seed is not None and not _is_int(seed):
        errors.add(f"{place}.draw.seed", "a semente do sorteio deve ser um inteiro")
        seed = None
    if method == "random" and seed is None:
        errors.add(f"{place}.draw.seed", "o sorteio aleatório da chave precisa de uma semente ('seed')")
    order = None
    if method == "fixed":
        order = draw.get("order")
        if not isinstance(order, list):
            errors.add(f"{place}.draw.order", "com method 'fixed', informe a ordem da chave (null para bye)")
            order = None
        else:
            order = tuple(order)
    return StageSpec(key=key, kind=KNOCKOUT, best_of=best_of, best_of_rounds=rounds, entrants=entrants,
                     draw_method=method, draw_seed=seed, draw_order=order)


# --- jogos --------------------------------------------------------------------------

def _side_of(value: Any, duplas: tuple[str, str]) -> int | None:
    return duplas.index(value) if isinstance(value, str) and value in duplas else None


def _read_result(j: dict, place: str, duplas: tuple[str, str], best_of: int, errors: _Errors) -> JogoEntry | None:
    """The jogo's result as recorded, in the order of ``duplas``; None when nothing is recorded yet."""
    has = [k for k in ("partidas", "walkover", "penalty") if j.get(k) not in (None, [])]
    if not has:
        return None
    if len(has) > 1 and "walkover" in has:
        errors.add(place, "um jogo com WO não tem partidas nem penalidade")
        return None
    walkover = None
    if j.get("walkover") is not None:
        w = j["walkover"]
        walkover = WALKOVER_BOTH if w == WALKOVER_BOTH else _side_of(w, duplas)
        if walkover is None:
            errors.add(f"{place}.walkover", f"WO deve ser a chave da dupla ausente ({duplas[0]!r} ou {duplas[1]!r}) ou 'both'")
            return None
        return JogoEntry(best_of=best_of, walkover=walkover)
    lost_by, reason = None, ""
    if j.get("penalty") is not None:
        pen = j["penalty"]
        lost_by = _side_of(pen.get("lost_by") if isinstance(pen, dict) else None, duplas)
        reason = (pen.get("reason") or "").strip() if isinstance(pen, dict) and isinstance(pen.get("reason"), str) else ""
        if lost_by is None:
            errors.add(f"{place}.penalty.lost_by", f"perda do jogo: informe a dupla punida ({duplas[0]!r} ou {duplas[1]!r})")
            return None
        if not reason:
            errors.add(f"{place}.penalty.reason", "toda penalidade precisa de um motivo")
            return None
    partidas: list[PartidaEntry] = []
    raw = j.get("partidas") or []
    if not isinstance(raw, list):
        errors.add(f"{place}.partidas", "deve ser uma lista de partidas")
        return None
    for k, p in enumerate(raw):
        pplace = f"{place}.partidas[{k}]"
        if isinstance(p, list):
            if len(p) != 2 or not all(_is_int(x) for x in p):
                errors.add(pplace, "placar deve ser um par de inteiros [a, b]")
                return None
            partidas.append(PartidaEntry(score=(p[0], p[1])))
        elif isinstance(p, dict) and "penalty" in p:
            pen = p["penalty"] if isinstance(p["penalty"], dict) else {}
            side = _side_of(pen.get("lost_by"), duplas)
            if side is None:
                errors.add(f"{pplace}.penalty.lost_by", f"perda da partida: informe a dupla punida ({duplas[0]!r} ou {duplas[1]!r})")
                return None
            why = pen.get("reason") if isinstance(pen.get("reason"), str) else ""
            partidas.append(PartidaEntry(lost_by=side, reason=why))
        elif isinstance(p, dict) and isinstance(p.get("maos"), list):
            maos: list[Mao] = []
            for m, mao in enumerate(p["maos"]):
                if not isinstance(mao, dict) or "to" not in mao:
                    errors.add(f"{pplace}.maos[{m}]", "cada mão é um objeto com 'to' (0, 1 ou null) e 'points'")
                    return None
                maos.append(Mao(to=mao.get("to"), points=mao.get("points"), how=mao.get("how") or "played",
                                reason=mao.get("reason") if isinstance(mao.get("reason"), str) else ""))
            partidas.append(PartidaEntry(maos=tuple(maos)))
        else:
            errors.add(pplace, "uma partida é um placar [a, b], um objeto com 'maos' ou um objeto com 'penalty'")
            return None
    # perda do jogo overrides what was played: the jogo is recorded as lost by ⌈N/2⌉ x 0
    return JogoEntry(best_of=best_of, partidas=tuple(partidas) if lost_by is None else (), lost_by=lost_by,
                     reason=reason)


def _flipped(entry: JogoEntry) -> JogoEntry:
    """The same record seen with the duplas the other way round."""
    def side(v):
        return v if v is None or v == WALKOVER_BOTH else 1 - v

    partidas = []
    for p in entry.partidas:
        partidas.append(PartidaEntry(
            score=None if p.score is None else (p.score[1], p.score[0]),
            maos=None if p.maos is None else tuple(replace(m, to=side(m.to)) for m in p.maos),
            lost_by=side(p.lost_by), reason=p.reason))
    return replace(entry, partidas=tuple(partidas), walkover=side(entry.walkover), lost_by=side(entry.lost_by))


def _read_jogos(data: dict, plan: TournamentPlan, errors: _Errors) -> None:
    stages = {s.key: s for s in plan.stages}
    info = {d.key: d for d in plan.duplas}
    settings = plan.settings
    records: list[JogoRecord] = []
    group_pairs: dict[tuple[str, frozenset], int] = {}  # (stage, pair) -> index in plan.jogos
    used_slots: set[tuple[str, int, int, bool]] = set()
    blocked_stages: set[str] = set()
    brackets: dict[str, Bracket] = {}  # the last build of each knockout stage's bracket

    for i, j in enumerate(_list(data, "jogos", "jogos", errors)):
        place = f"jogos[{i}]"
        if not isinstance(j, dict):
            errors.add(place, "cada jogo deve ser um objeto")
            continue
        stage = stages.get(j.get("stage")) if isinstance(j.get("stage"), str) else None
        if stage is None:
            errors.add(f"{place}.stage", f"fase {j.get('stage')!r} não existe")
            continue
        duplas = j.get("duplas")
        if not isinstance(duplas, list) or len(duplas) != 2 or duplas[0] == duplas[1] \
                or not all(isinstance(d, str) and d in info for d in duplas):
            errors.add(f"{place}.duplas", "um jogo tem duas duplas diferentes, pelas chaves de duplas")
            continue
        duplas = (duplas[0], duplas[1])
        mesa = j.get("mesa")
        if mesa is not None and (not _is_int(mesa) or mesa < 1):
            errors.add(f"{place}.mesa", "a mesa deve ser um inteiro ≥ 1")
            mesa = None
        before = len(errors)
        if stage.kind == GROUPS:
            group = next((g for g in stage.groups if g.key == j.get("group")), None)
            if group is None:
                errors.add(f"{place}.group", f"grupo {j.get('group')!r} não existe na fase {stage.key!r}")
                continue
            outsiders = [d for d in duplas if d not in group.duplas]
            if outsiders:
                errors.add(f"{place}.duplas", f"dupla(s) {', '.join(outsiders)} fora do grupo {group.key!r}")
                continue
            pair_key = (stage.key, frozenset(duplas))
            if pair_key in group_pairs:
                errors.add(place, f"jogo repetido: {duplas[0]} x {duplas[1]} já consta em jogos[{group_pairs[pair_key]}]")
                continue
            group_pairs[pair_key] = i
            best_of = group_best_of(stage=stage, settings=settings)
            entry = _read_result(j, place, duplas, best_of, errors)
            result = None
            if entry is not None and len(errors) == before:
                result, problems = jogo_evaluate(entry=entry, settings=settings)
                errors.extend(p.nested(place) for p in problems)
            plan.jogos.append(JogoPlan(stage=stage.key, group=group.key, duplas=duplas, entry=entry, result=result,
                                       mesa=mesa, entry_order=i))
            if result is not None and len(errors) == before:
                records.append(JogoRecord(stage=stage.key, group=group.key, duplas=duplas, result=result))
            continue

        # knockout: the jogo must be one the bracket has produced at this point
        if j.get("group") is not None:
            errors.add(f"{place}.group", "jogos da fase eliminatória não têm grupo")
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
            slot = _find_slot(brackets[stage.key].jogos(), duplas, used_slots, stage.key)
        if slot is None:
            stage_records = [r for r in records if r.stage == stage.key]
            brackets[stage.key] = knockout_stage_compute(stage=stage, order=order, jogos=stage_records,
                                                         settings=settings).bracket
            slot = _find_slot(brackets[stage.key].jogos(), duplas, used_slots, stage.key)
        if slot is None:
            errors.add(f"{place}.duplas", _no_slot_message(brackets[stage.key].jogos(), duplas))
            continue
        used_slots.add((stage.key, slot.round, slot.position, slot.third_place))
        reversed_order = slot.duplas != duplas
        entry = _read_result(j, place, duplas, slot.best_of, errors)
        result = None
        if entry is not None and len(errors) == before:
            # checked in the file's order so messages quote its scores; stored in the bracket's order
            result, problems = jogo_evaluate(entry=entry, settings=settings)
            errors.extend(p.nested(place) for p in problems)
            if reversed_order and not problems:
                entry = _flipped(entry)
                result, _ = jogo_evaluate(entry=entry, settings=settings)
        bracket_duplas = (slot.duplas[0], slot.duplas[1])
        plan.jogos.append(JogoPlan(stage=stage.key, group=None, duplas=bracket_duplas, entry=entry, result=result,
                                   round=slot.round, position=slot.position, third_place=slot.third_place,
                                   mesa=mesa, entry_order=i))
        if result is not None and len(errors) == before:
            records.append(JogoRecord(stage=stage.key, duplas=bracket_duplas, result=result, round=slot.round,
                                      position=slot.position, third_place=slot.third_place))

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
            for group, order in view.unused_sorteios:
                k = stage.sorteios.index((group, order))
                where = f"no grupo {group!r}" if group else "entre os grupos"
                errors.add(f"stages[{i}].sorteios[{k}]",
                           f"o sorteio lista duplas que não estão empatadas após o saldo {where}: {', '.join(order)}")


def _previous_view(plan: TournamentPlan, index: int, records: list[JogoRecord]):
    if index == 0:
        return None
    prev = plan.stages[index - 1]
    if prev.kind == GROUPS:
        return groups_stage_compute(stage=prev, jogos=records, settings=plan.settings)
    return knockout_stage_compute(stage=prev, order=plan.stage_orders.get(prev.key), jogos=records,
                                  settings=plan.settings)


def _draw_from_previous(plan: TournamentPlan, stage: StageSpec, records: list[JogoRecord], errors: _Errors,
                        place: str, info: dict) -> list[str | None] | None:
    index = plan.stages.index(stage)
    previous = _previous_view(plan, index, records)
    entrants = stage_entrants(stage=stage, previous=previous)
    if entrants is None:
        prev = plan.stages[index - 1]
        if errors:
            pass  # a consequence of the problems already reported, not a problem of its own
        elif getattr(previous, "complete", False):
            errors.add(place, f"a chave da fase {stage.key!r} ainda não foi sorteada: há um empate na fase "
                              f"{prev.key!r} que decide uma vaga e aguarda o sorteio (informe-o em sorteios)")
        else:
            errors.add(place, f"a chave da fase {stage.key!r} ainda não foi sorteada: a fase {prev.key!r} "
                              "não terminou (todos os jogos precisam de resultado antes)")
        return None
    order, problems = knockout_draw(stage=stage, entrants=entrants, duplas=info)
    errors.extend(p.nested(f"stages[{index}]") for p in problems)
    return order


def _find_slot(jogos: list[BracketJogo], duplas: tuple[str, str], used: set, stage: str) -> BracketJogo | None:
    for slot in jogos:
        if slot.ready and set(slot.duplas) == set(duplas) and (stage, slot.round, slot.position, slot.third_place) not in used:
            return slot
    return None


def _no_slot_message(jogos: list[BracketJogo], duplas: tuple[str, str]) -> str:
    a, b = duplas
    for slot in jogos:
        if set(slot.duplas) == {a, b} and slot.decided:
            return f"o jogo {a} x {b} já foi decidido nesta chave"
    waiting = [s for s in jogos if not s.decided and not s.bye]
    for d in duplas:
        if not any(d in s.duplas for s in jogos):
            return f"a dupla {d!r} não está nesta chave"
    ready = [f"{s.duplas[0]} x {s.duplas[1]}" for s in waiting if s.ready]
    hint = f" (jogos possíveis agora: {'; '.join(ready[:6])})" if ready else ""
    return f"a chave não tem, neste ponto, um jogo entre {a} e {b}{hint}"

