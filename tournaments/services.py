"""Writes: a tournament from its file. Each write goes through ``writes.tournament_write`` (one transaction,
all or nothing; the engine recomputes what it changed on the way out)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from scoring import draws as draw_rules
from scoring import mesas as mesa_rules
from scoring.errors import RuleViolation
from scoring.jogo import WALKOVER_BOTH, JogoEntry
from scoring.tournament import GROUPS, group_best_of, knockout_best_of

from . import plainsql
from .atletas.services import atletas_link_new, atletas_rename
from .interchange.reader import JogoPlan, TournamentPlan, plan_read
from .interchange.sumula_reader import SumulaPlan
from .jogo_keys import jogo_keys_new
from .models import (
    Draw,
    Dupla,
    Group,
    GroupEntry,
    Jogo,
    Mao,
    Mesa,
    Partida,
    Player,
    Registration,
    StaffRole,
    Stage,
    SumulaVia,
    Tournament,
)
from .roles import role_grant
from .writes import tournament_write

SIDE = {0: "a", 1: "b", None: ""}


def walkover_column(walkover: int | str) -> str:
    """A jogo's ``walkover`` column of a record's walkover (``JogoEntry.walkover``: "both", or the absent side)."""
    if walkover == WALKOVER_BOTH:
        return "both"
    assert isinstance(walkover, int)  # else a side, 0 or 1
    return SIDE[walkover]


# the desk's own words under /organizar/ (``desk.organizer_urls``): a tournament there would hide them, or they
# its desk
RESERVED_SLUGS = frozenset({"novo", "importar", "atletas", "circuitos"})


def slug_make(*, name: str, wanted: str = "") -> str:
    """``wanted`` if free, else a unique slug made from the name (``nome``, ``nome-2``…); never a reserved word."""
    if wanted:
        base = slugify(wanted)[:100]
        if base and base not in RESERVED_SLUGS and not Tournament.objects.filter(slug=base).exists():
            return base
    base = slugify(name)[:100] or "torneio"
    candidate, n = base, 2
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True)) | RESERVED_SLUGS
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


SLUG_ATTEMPTS = 50


def tournament_import(*, data: Any, performed_by: User | None = None) -> Tournament:
    """Create one tournament from a tournament file (docs/contrato.md); RuleViolation lists every problem.

    Safe to run concurrently: imports of the same file at once each get their own slug.
    """
    plan, errors = plan_read(data)
    if errors:
        raise RuleViolation(errors)
    assert plan is not None  # plan_read gives a plan when it finds no problem
    with tournament_write(tournament=None, action="tournament.import", user=performed_by) as write:
        write.tournament = _plan_write(plan, performed_by)
        return write.tournament


def _tournament_create(plan: TournamentPlan, created_by: User | None = None) -> Tournament:
    """The Tournament row, under a slug nobody holds.

    ``slug_make`` checks, then the row is inserted: another import may take the
    same slug in between (PostgreSQL: its insert waits for ours to commit,
    then fails on the unique index). Only that insert is retried, in a
    savepoint, with a slug made again; any other IntegrityError is raised.
    """
    setup = plan.setup
    for _attempt in range(SLUG_ATTEMPTS):
        slug = slug_make(name=plan.name, wanted=plan.slug)
        try:
            with transaction.atomic():
                return Tournament.objects.create(
                    name=plan.name,
                    slug=slug,
                    date=plan.date,
                    start_time=plan.start_time,
                    venue=plan.venue,
                    city=plan.city,
                    category=plan.category,
                    min_age=plan.min_age,
                    max_duplas=plan.max_duplas,
                    preset=plan.preset,
                    settings=plan.overrides,
                    regulation=plan.regulation,
                    mesas=setup.mesas,
                    format=setup.competition_format,
                    registration_closed=setup.registration_closed,
                    public_signup=setup.public_signup,
                    registration_opens=setup.registration_opens,
                    registration_closes=setup.registration_closes,
                    allow_self_scoring=setup.allow_self_scoring,
                    online=plan.online,
                    wo_tolerance_minutes=plan.wo_tolerance_minutes,
                    created_by=created_by,
                )
        except IntegrityError:
            if not Tournament.objects.filter(slug=slug).exists():
                raise  # not the slug: a real problem
    raise IntegrityError(f"nenhum endereço livre para o torneio após {SLUG_ATTEMPTS} tentativas (slug {slug!r})")


def _plan_write(plan: TournamentPlan, performed_by: User | None) -> Tournament:
    tournament = _tournament_create(plan, created_by=performed_by)
    if tournament.mesas:
        Mesa.objects.bulk_create([Mesa(tournament=tournament, number=n) for n in range(1, tournament.mesas + 1)])
    players = [
        Player(
            tournament=tournament,
            key=p.key,
            name=p.name,
            birth_date=p.birth_date,
            email=p.email,
            phone=p.phone,
            team=p.team,
            order=i,
        )
        for i, p in enumerate(plan.players)
    ]
    named = atletas_link_new(players=players)  # matched in bulk before the players are written: each written once
    # thousands of rows for a big event (players, duplas, registrations): written as plain rows
    db = transaction.get_connection()
    ids = plainsql.rows_insert(Player, [_columns(p, PLAYER_COLUMNS) for p in players], connection=db)
    player = {p.key: pk for p, pk in zip(players, ids, strict=True)}
    atletas_rename(ids=named)
    plainsql.rows_insert(
        Registration,
        [
            {
                "tournament_id": tournament.pk,
                "order": i + 1,
                "player1_id": player[r.players[0]],
                "player2_id": player[r.players[1]] if len(r.players) > 1 else None,
                "status": Registration.WAITING if r.waiting else Registration.PAIRED,
                "present": r.present,
            }
            for i, r in enumerate(plan.registrations)
        ],
        connection=db,
    )
    ids = plainsql.rows_insert(
        Dupla,
        [
            {
                "tournament_id": tournament.pk,
                "key": d.key,
                "name": d.name,
                "player1_id": player[d.players[0]],
                "player2_id": player[d.players[1]],
                "seed": d.seed,
                "disqualified": d.disqualified,
                "disqualified_reason": d.disqualified_reason,
                "order": i,
            }
            for i, d in enumerate(plan.duplas)
        ],
        connection=db,
    )
    dupla = {d.key: pk for d, pk in zip(plan.duplas, ids, strict=True)}
    # the pairing draws the event made before (pairing_draws), then the one the file asks for (pairing)
    pairings = [(made.seed, made.result) for made in plan.pairing_draws]
    if plan.pairing_result is not None:
        pairings.append((plan.pairing_seed, plan.pairing_result))
    draws: list[Draw] = [
        Draw(
            tournament=tournament,
            kind=Draw.PAIRING,
            method="random",
            seed=seed,
            result=result,
            performed_by=performed_by,
            note="importado do arquivo",
        )
        for seed, result in pairings
    ]
    stages = Stage.objects.bulk_create(
        [
            Stage(
                tournament=tournament,
                key=s.key,
                name=s.name,
                order=i,
                kind=s.kind,
                best_of=s.best_of,
                best_of_rounds={str(k): v for k, v in s.best_of_rounds.items()},
                qualify_per_group=s.per_group,
                qualify_best_others=s.best_others,
                entrants=s.entrants if isinstance(s.entrants, str) else list(s.entrants),
                draw_method=s.draw_method,
                draw_seed=s.draw_seed,
                round_times=plan.round_times.get(s.key, {}),
            )
            for i, s in enumerate(plan.stages)
        ]
    )
    stage = {s.key: s for s in stages}
    group_rows = Group.objects.bulk_create(
        [Group(stage=stage[s.key], key=g.key, order=i) for s in plan.stages for i, g in enumerate(s.groups)]
    )
    group = {(g.stage.key, g.key): g for g in group_rows}
    plainsql.rows_insert(
        GroupEntry,
        [
            {"group_id": group[(s.key, g.key)].pk, "dupla_id": dupla[d], "order": i}
            for s in plan.stages
            for g in s.groups
            for i, d in enumerate(g.duplas)
        ],
        connection=db,
    )
    for spec in plan.stages:
        for group_key, order in spec.sorteios:
            draws.append(
                Draw(
                    tournament=tournament,
                    kind=Draw.TIEBREAK,
                    stage=stage[spec.key],
                    group=group[(spec.key, group_key)] if group_key else None,
                    method="fixed",
                    result={"order": list(order)},
                    performed_by=performed_by,
                    note="importado do arquivo",
                )
            )
        if spec.key in plan.stage_orders:
            draws.append(
                Draw(
                    tournament=tournament,
                    kind=Draw.BRACKET,
                    stage=stage[spec.key],
                    method=spec.draw_method,
                    seed=spec.draw_seed,
                    result={"order": plan.stage_orders[spec.key]},
                    performed_by=performed_by,
                    note="importado do arquivo",
                )
            )
    Draw.objects.bulk_create(draws)

    jogos = _group_schedule(plan) + [j for j in plan.jogos if j.group is None]
    _jogos_write(tournament, jogos, stage, group, dupla, plan)
    if any(j.online for j in plan.jogos):  # a hybrid event's mesas online get their tables (an online event's
        from .online.tournament import tables_open  # come with the write's end, tables_after_write)

        tables_open(tournament=tournament)
    return tournament


def _group_schedule(plan: TournamentPlan) -> list[JogoPlan]:
    """Every round-robin jogo of every group, with its rounds and mesas, carrying the file's results."""
    from_file = {(j.stage, frozenset(j.duplas)): j for j in plan.jogos if j.group is not None}
    out: list[JogoPlan] = []
    for spec in plan.stages:
        if spec.kind != GROUPS:
            continue
        per_round: dict[int, list[JogoPlan]] = {}
        for g in spec.groups:
            for r, pairs in enumerate(draw_rules.round_robin(duplas=g.duplas), start=1):
                for a, b in pairs:
                    known = from_file.get((spec.key, frozenset((a, b))))
                    jogo = known or JogoPlan(stage=spec.key, group=g.key, duplas=(a, b), entry=None, result=None)
                    jogo.round = r
                    per_round.setdefault(r, []).append(jogo)
        for r in sorted(per_round):
            taken = {j.mesa for j in per_round[r] if j.mesa}
            mesa = 1
            for jogo in per_round[r]:
                if jogo.mesa is None:
                    while mesa in taken:
                        mesa += 1
                    jogo.mesa = mesa
                    taken.add(mesa)
                out.append(jogo)
    return out


def _jogos_write(
    tournament: Tournament,
    jogos: list[JogoPlan],
    stage: dict[str, Stage],
    group: dict[tuple[str, str], Group],
    dupla: dict[str, int],
    plan: TournamentPlan,
) -> None:
    # tens of thousands of rows for a big event (jogos, partidas, mãos): written as plain rows, not instances
    db = transaction.get_connection()
    rows: list[dict[str, object]] = []
    fresh = jogo_keys_new(taken=[j.key for j in jogos if j.key])
    referees = _referees_grant(tournament=tournament, usernames={j.referee for j in jogos if j.referee})
    knockout_mesas: dict[str, dict[tuple[int, int], int]] = {}  # by stage: its jogos' mesas by (round, position)
    for j in jogos:
        entry: JogoEntry | None = j.entry
        walkover = ""
        if entry is not None and entry.walkover is not None:
            walkover = walkover_column(entry.walkover)
        best_of = entry.best_of if entry is not None else _best_of_for(plan, j)
        mesa = j.mesa
        if mesa is None and j.group is None:
            assert j.round is not None and j.position is not None  # its place in the bracket (jogos_reader)
            if j.stage not in knockout_mesas:
                knockout_mesas[j.stage] = mesa_rules.knockout_mesas(
                    order=plan.stage_orders[j.stage], mesas=tournament.mesas
                )
            mesa = knockout_mesas[j.stage][(j.round, j.position)]
        rows.append(
            {
                "tournament_id": tournament.pk,
                "stage_id": stage[j.stage].pk,
                "group_id": group[(j.stage, j.group)].pk if j.group else None,
                "dupla_a_id": dupla[j.duplas[0]],
                "dupla_b_id": dupla[j.duplas[1]],
                "round": j.round,
                "mesa": mesa,
                "position": j.position,
                "third_place": j.third_place,
                "best_of": best_of,
                "walkover": walkover,
                "lost_by": SIDE[entry.lost_by] if entry is not None else "",
                "penalty_reason": entry.reason if entry else "",
                "entry_order": j.entry_order if entry is not None else None,  # a result's place; set when one comes
                "key": j.key or next(fresh),
                "referee_id": referees.get(j.referee) if j.referee is not None else None,
                "online": j.online,
                **_sumula_fields(j.sumula),
            }
        )
    created = plainsql.rows_insert(Jogo, rows, connection=db)
    plainsql.rows_insert(
        SumulaVia,
        [
            {
                "jogo_id": jogo_id,
                "via": v.via,
                "via_reason": v.via_reason,
                "by": v.by,
                "at": v.at or timezone.now(),
                "status": v.status,
                "result": v.result,
                "confirmations": answers_store(v.answers, source="file"),
            }
            for jogo_id, j in zip(created, jogos, strict=True)
            if j.sumula is not None
            for v in j.sumula.history
        ],
        connection=db,
    )
    partidas: list[dict[str, object]] = []
    maos_for: list[tuple[int, tuple]] = []
    for jogo_id, j in zip(created, jogos, strict=True):
        if j.entry is None:
            continue
        for n, p in enumerate(j.entry.partidas, start=1):
            row: dict[str, object] = {"jogo_id": jogo_id, "number": n}
            if p.lost_by is not None:
                row |= {"mode": Partida.PENALTY, "lost_by": SIDE[p.lost_by], "penalty_reason": p.reason}
            elif p.maos is not None:
                row |= {"mode": Partida.MAOS}
                maos_for.append((len(partidas), p.maos))
            else:
                assert p.score is not None  # neither lost nor by mãos: its final score
                row |= {"mode": Partida.SCORE, "score_a": p.score[0], "score_b": p.score[1]}
            partidas.append(row)
    created_partidas = plainsql.rows_insert(Partida, partidas, connection=db)
    plainsql.rows_insert(
        Mao,
        [
            {
                "partida_id": created_partidas[index],
                "order": k,
                "to": m.to,
                "points": m.points,
                "how": m.how,
                "reason": m.reason,
                "key": m.key,
            }
            for index, maos in maos_for
            for k, m in enumerate(maos)
        ],
        connection=db,
    )


def _sumula_fields(sumula: SumulaPlan | None) -> dict[str, object]:
    """A jogo row's súmula columns from the file's (``sumula_reader.SumulaPlan``; None: a jogo still to play)."""
    if sumula is None:
        return {"status": Jogo.SCHEDULED}
    return {
        "status": sumula.status,
        "via": sumula.via,
        "via_reason": sumula.via_reason,
        "counted_via": sumula.counted_via,
        "confirmations": answers_store(sumula.answers, source="file"),
    }


def answers_store(answers: tuple[str | None, str | None], *, source: str) -> dict[str, dict[str, str]]:
    """The duplas' answers (per side) as a jogo's ``confirmations`` column."""
    return {side: {"answer": answer, "by": source} for side, answer in zip("ab", answers, strict=False) if answer}


def _referees_grant(*, tournament: Tournament, usernames: set[str]) -> dict[str, int]:
    """The users a file names as referees of its jogos (the reader checked they exist), by username; each
    joins the tournament's staff as referee unless it already has a role there."""
    if not usernames:
        return {}
    users = list(get_user_model().objects.filter(username__in=usernames))
    has_role = set(StaffRole.objects.filter(tournament=tournament, user__in=users).values_list("user_id", flat=True))
    for user in users:
        if user.pk not in has_role:
            role_grant(tournament=tournament, user=user, role=StaffRole.REFEREE)
    return {user.get_username(): user.pk for user in users}


PLAYER_COLUMNS = ("tournament_id", "key", "name", "birth_date", "email", "phone", "team", "order", "atleta_id")


def _columns(obj: object, names: tuple[str, ...]) -> dict[str, object]:
    return {name: getattr(obj, name) for name in names}


def _best_of_for(plan: TournamentPlan, j: JogoPlan) -> int:
    spec = next(s for s in plan.stages if s.key == j.stage)
    if spec.kind == GROUPS:
        return group_best_of(stage=spec, settings=plan.settings)
    return knockout_best_of(stage=spec, round_number=j.round or 1, settings=plan.settings)
