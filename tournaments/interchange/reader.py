"""Read a tournament file into a validated plan (no database access).

Every problem is collected with its place (``jogos[3].partidas[1].maos[5]``)
and the rule it breaks, in Portuguese (scoring's ``_``: a ``Text`` the web edge words in the reader's
language); the writer runs only on a clean plan.
Single values are checked in values.py, the stages in stages_reader.py, the jogos in jogos_reader.py.
"""

import datetime as dt
from typing import Any

from scoring import draws as draw_rules
from scoring.errors import RuleError
from scoring.messages import Text, _
from scoring.rules import best_of_error, settings_build
from scoring.tournament import DuplaInfo
from tournaments.models import Draw, Dupla, Player, Tournament

from .. import limits
from ..online.event import online_setting_read, wo_tolerance_read
from .jogos_reader import jogos_read
from .jsonfile import FILE_PLACE, tree_check
from .pairing_reader import arrival_merge, pairing_draws_read
from .plan import JogoPlan, PlayerPlan, RegistrationPlan, TournamentPlan
from .setup_reader import present_read, setup_read
from .stages_reader import stages_read
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
        return None, [RuleError(FILE_PLACE, _("deve ser um objeto JSON (com format, version, tournament…)"))]
    problems = tree_check(data=data)  # texts and numbers no column can hold, at any depth
    if problems:
        return None, problems
    sizes_check(data, errors)  # refused at once, before any heavy work
    if errors:
        return None, errors
    if data.get("format") != FORMAT:
        errors.add("format", _("deve ser %(format)s", format=repr(FORMAT)))
    if data.get("version") != VERSION:
        errors.add(
            "version",
            _("versão %(given)s não suportada; use %(version)s", given=repr(data.get("version")), version=VERSION),
        )
    t = data.get("tournament")
    if not isinstance(t, dict):
        errors.add("tournament", _("campo obrigatório: um objeto com nome, data, preset…"))
        return None, errors
    plan = _read_tournament(t, errors)
    if plan is None:
        return None, errors
    _read_people(data, plan, errors)
    if errors:
        return None, errors  # duplas are the vocabulary of everything below
    stages_read(data, plan, errors)
    if errors:
        return None, errors
    plan.online, problem = online_setting_read(plan.online, stage_keys=[s.key for s in plan.stages])
    if problem:
        errors.add("tournament.settings.online", problem)
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
                    _(
                        "pontos classificatórios demais: %(n)s (o máximo é %(max)s)",
                        n=value,
                        max=limits.MAX_CLASS_POINTS,
                    ),
                )


def _read_tournament(t: dict, errors: Errors) -> TournamentPlan | None:
    name = text_read(t, "name", "tournament", errors, column=(Tournament, "name"), required=True)
    slug = text_read(t, "slug", "tournament", errors, column=(Tournament, "slug"))
    date = iso_read(t, "date", "tournament", errors, dt.date.fromisoformat, _bad_date)
    start_time = iso_read(
        t,
        "start_time",
        "tournament",
        errors,
        time_of_day,
        lambda value: _("horário inválido %(value)s: use HH:MM (hora local, sem fuso horário)", value=value),
    )
    min_age = t.get("min_age")
    if min_age is not None:
        min_age = bounded_int(
            min_age,
            "tournament.min_age",
            errors,
            column=(Tournament, "min_age"),
            what=_("a idade mínima"),
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
            what=_("o limite de duplas"),
            low=2,
            high=limits.MAX_DUPLAS,
        )
    overrides = t.get("settings")
    online, tolerance = "none", 15
    if isinstance(overrides, dict):  # the online play's settings are the event's, not the rules' (online/tournament)
        overrides = dict(overrides)
        online = overrides.pop("online", "none")
        tolerance, problem = wo_tolerance_read(overrides.pop("wo_tolerance_minutes", None))
        if problem:
            errors.add("tournament.settings.wo_tolerance_minutes", problem)
    _settings_limits(overrides, errors)
    settings, problems = settings_build(preset=t.get("preset"), overrides=overrides)
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
        overrides=dict(overrides or {}),
        settings=settings,
        online=online,
        wo_tolerance_minutes=tolerance,
        regulation=text_read(t, "regulation", "tournament", errors, max_len=limits.REGULATION_MAX_CHARS),
        setup=setup_read(t, errors),
    )


def _bad_date(value: str) -> Text:
    return _("data inválida %(value)s: use AAAA-MM-DD", value=value)


def _age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


# --- players, registrations, pairing, duplas ----------------------------------------


def _read_people(data: dict, plan: TournamentPlan, errors: Errors) -> None:
    players: dict[str, PlayerPlan] = {}
    for _i, place, p, key in keyed_read(
        list_read(data, "players", "players", errors), "players", _("atleta"), errors, (Player, "key")
    ):
        name = text_read(p, "name", place, errors, column=(Player, "name"), required=True)
        birth = iso_read(p, "birth_date", place, errors, dt.date.fromisoformat, _bad_date)
        if birth and plan.min_age is not None and plan.date is not None:
            age = _age_on(birth, plan.date)
            if age < plan.min_age:
                errors.add(
                    f"{place}.birth_date",
                    _(
                        "%(name)s terá %(age)s anos em %(date)s; a categoria exige a partir de %(min_age)s anos",
                        name=name,
                        age=age,
                        date=f"{plan.date:%d/%m/%Y}",
                        min_age=plan.min_age,
                    ),
                )
        players[key] = PlayerPlan(
            key=key,
            name=name,
            birth_date=birth,
            email=text_read(p, "email", place, errors, column=(Player, "email")),
            phone=text_read(p, "phone", place, errors, column=(Player, "phone")),
            team=" ".join(text_read(p, "team", place, errors, column=(Player, "team")).split()),
        )
    plan.players = list(players.values())

    used: dict[str, str] = {}  # player -> where it is used

    def take(player: Any, place: str) -> bool:
        if not isinstance(player, str) or player not in players:
            errors.add(place, _("atleta %(player)s não existe em players", player=repr(player)))
            return False
        if player in used:
            errors.add(
                place,
                _(
                    "o atleta %(player)s já está em %(where)s: cada atleta se inscreve uma vez por torneio",
                    player=repr(player),
                    where=used[player],
                ),
            )
            return False
        used[player] = place.rsplit(".", 1)[0]
        return True

    duplas_raw = list_read(data, "duplas", "duplas", errors)
    explicit: list[DuplaInfo] = []
    dupla_keys: set[str] = set()
    for _i, place, d, key in keyed_read(duplas_raw, "duplas", _("dupla"), errors, (Dupla, "key")):
        dupla_keys.add(key)
        members = d.get("players")
        if not isinstance(members, list) or len(members) != 2:
            errors.add(f"{place}.players", _("uma dupla tem exatamente 2 atletas"))
            continue
        ok = all([take(m, f"{place}.players[{j}]") for j, m in enumerate(members)])  # noqa: C419 (every member is taken, each problem reported)
        seed = d.get("seed")
        if seed is not None:
            seed = bounded_int(
                seed, f"{place}.seed", errors, column=(Dupla, "seed"), what=_("a cabeça de chave"), low=1
            )
        disq = d.get("disqualified", False)
        if not isinstance(disq, bool):
            errors.add(f"{place}.disqualified", _("deve ser true ou false"))
            disq = False
        reason = text_read(d, "disqualified_reason", place, errors, column=(Dupla, "disqualified_reason"))
        if reason and not disq:
            errors.add(f"{place}.disqualified_reason", _("só uma dupla desclassificada tem motivo de desclassificação"))
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
        errors.add("duplas", _("duas duplas com o mesmo número de cabeça de chave"))

    regs: list[tuple[str, ...]] = []
    registered: dict[str, str] = {}  # player -> their registration's place
    present: dict[tuple[str, ...], bool | None] = {}  # the check-in of each
    for i, r in enumerate(list_read(data, "registrations", "registrations", errors)):
        place = f"registrations[{i}]"
        members = r.get("players") if isinstance(r, dict) else None
        if not isinstance(members, list) or len(members) not in (1, 2):
            errors.add(f"{place}.players", _("uma inscrição é individual (1 atleta) ou em dupla (2 atletas)"))
            continue
        if all([take(m, f"{place}.players[{j}]") for j, m in enumerate(members)]):  # noqa: C419 (every member is taken, each problem reported)
            regs.append(tuple(members))
            registered.update(dict.fromkeys(members, place))
            present[tuple(members)] = present_read(r, place, errors)

    plan.pairing_draws, paired = pairing_draws_read(data, players=set(players), registered=registered, errors=errors)
    pairing = data.get("pairing")
    formed: list[DuplaInfo] = []
    if pairing is not None:
        if not isinstance(pairing, dict) or not is_int(pairing.get("seed")):
            errors.add("pairing.seed", _("o sorteio das duplas precisa de uma semente inteira ('seed')"))
        elif (
            bounded_int(pairing["seed"], "pairing.seed", errors, column=(Draw, "seed"), what=_("a semente do sorteio"))
            is None
        ):
            pass
        elif regs:
            capacity = None if plan.max_duplas is None else max(0, plan.max_duplas - len(explicit))
            drawn = [r for r in regs if present[r] is not False]  # as at the desk: the absent are left out
            result = draw_rules.pairing_draw(registrations=drawn, seed=pairing["seed"], max_duplas=capacity)
            plan.pairing_seed = pairing["seed"]
            for n, pair in enumerate(result.duplas, start=1):
                key = f"r{n}"
                if key in dupla_keys:
                    errors.add(
                        "pairing",
                        _("a dupla sorteada %(key)s colide com uma chave de duplas; renomeie a dupla", key=repr(key)),
                    )
                formed.append(DuplaInfo(key=key, players=tuple(pair)))
            paired_now = {p for pair in result.duplas for p in pair}
            plan.registrations = [
                RegistrationPlan(players=r, waiting=not all(p in paired_now for p in r), present=present[r])
                for r in regs
            ]
            # recorded as the desk records its draws (draws.pairing): what it took, made and left waiting
            plan.pairing_result = {
                "duplas": [list(p) for p in result.duplas],
                "waiting_list": list(result.waiting_list),
                "registrations": [list(r) for r in drawn],
                "max_duplas": capacity,
                "dupla_keys": [d.key for d in formed],
            }
    if pairing is None or not regs:
        plan.registrations = [RegistrationPlan(players=r, waiting=True, present=present[r]) for r in regs]
    if paired:
        plan.registrations = arrival_merge(plan.registrations, draws=plan.pairing_draws, paired=paired)
    plan.duplas = explicit + formed
    if len(plan.duplas) > limits.MAX_DUPLAS:
        errors.add(
            "duplas",
            _(
                "duplas demais: %(n)s com as sorteadas (o máximo num arquivo de torneio é %(max)s)",
                n=len(plan.duplas),
                max=limits.MAX_DUPLAS,
            ),
        )
    if plan.max_duplas is not None and len(plan.duplas) > plan.max_duplas:
        errors.add(
            "duplas", _("%(n)s duplas passam do limite de %(max)s do torneio", n=len(plan.duplas), max=plan.max_duplas)
        )
