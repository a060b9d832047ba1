"""Events in the states a visitor meets them, made through the desk's own services (no tournament file).

The fixtures (tests/conftest.py; they need the database, and ``live_server`` for browser tests) build them with
the ``*_make`` functions here:

- ``event_before``: registration open with public sign-up (AABB starter), 10 individual sign-ups and one pair
  through the public form, a limit of 5 duplas: the last 2 individuals are on the waiting list.
- ``event_drawn``: registration closed, the pairing draw made (11 individuals and a pair: 6 duplas, the odd
  individual left waiting), the competition draw published (2 groups of 3, then a knockout of 4) on 3 mesas;
  nothing played.
- ``event_during``: FENACEF groups then knockout, 12 duplas in 3 groups of 4 (2 per group + the 2 best thirds
  go on), 6 mesas with referees. Round 1 confirmed by both duplas (two jogos homologated); round 2: one jogo
  in progress with mãos recorded at its mesa (a live score), two awaiting confirmation (one half confirmed),
  one contested, two not begun; round 3 not begun. No knockout jogo yet.
- ``knockout_live_make``: the AABB starter (a knockout of 8 duplas, best of 5 in the first round, 3 after) with
  its quarter-finals under way: the first at its mesa (partida 1 won 12 x 0 by side a, partida 2 at 3 x 4), the
  second decided 3 x 0 for side a and awaiting confirmation, the third contested by side b, the fourth not begun.
- ``event_after``: FENACEF with a third-place jogo, 8 duplas in 2 groups of 4, every jogo played and confirmed
  through the bracket's final: finished, with the general classification and medals.

Each returns the ``Tournament``; ``showcase_jogo(tournament)`` gives the key of the jogo whose súmula page shows
the most (the jogo in progress, else the final, else the first jogo). Seeds are fixed: the same duplas, groups
and bracket every run. Results: within a group the dupla that joined the group first always wins (no ties, so
no tiebreak draw is needed); in the knockout the better placed dupla (side a) wins.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.draws import services as draws
from tournaments.models import Dupla, GroupEntry, Jogo, Registration, StaffRole, Tournament
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.services import registration_add, registration_close
from tournaments.roles import role_grant
from tournaments.setup.services import format_update, tournament_create, tournament_publish, tournament_update
from tournaments.sumula.commands import MaoAdd, ResultSet
from tournaments.sumula.services import Actor, sumula_answer, sumula_mao_add, sumula_result_set, sumula_sign

__all__ = [
    "event_after_make",
    "event_before_make",
    "event_drawn_make",
    "event_during_make",
    "knockout_live_make",
    "live_line",
    "showcase_jogo",
]

FIRST = [
    "Ana",
    "Bruno",
    "Carla",
    "Diego",
    "Elisa",
    "Fábio",
    "Gabriela",
    "Heitor",
    "Isabela",
    "João",
    "Karina",
    "Lucas",
    "Marina",
    "Nilton",
    "Olívia",
    "Paulo",
    "Renata",
    "Sérgio",
    "Tatiana",
    "Vinícius",
    "Wanda",
    "Yuri",
    "Zélia",
    "Otávio",
]
LAST = ["Souza", "Lima", "Dias", "Reis", "Melo", "Nunes", "Rocha", "Alves", "Costa", "Pereira", "Gomes", "Barbosa"]
PAIRING_SEED = 20240615
COMPETITION_SEED = 4242


# --- people ----------------------------------------------------------------------------------------


def _person(i: int, *, contact: bool = True) -> PersonIn:
    """The ``i``-th athlete: a distinct name, an adult's birth date, and an e-mail and phone for the sign-up."""
    name = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7) % len(LAST)]}"
    if i >= len(FIRST):
        name += f" {LAST[(i // len(FIRST)) % len(LAST)]}"
    return PersonIn(
        name=name,
        birth_date=date(1970 + i % 30, 1 + i % 12, 1 + i % 28),
        email=f"atleta{i + 1}@exemplo.com.br" if contact else "",
        phone=f"(11) 9{8000 + i:04d}-{1000 + i:04d}" if contact else "",
    )


def _user(username: str):
    # no password: fixtures never sign in; the comissões are staff accounts (only those create events by default)
    return get_user_model().objects.create_user(username=username, is_staff="comissao" in username)


def _signups(tournament: Tournament, *, individuals: int, pair_after: int, source: str) -> None:
    """``individuals`` sign-ups of one athlete, and one pair registering together after the first ``pair_after``."""
    n = 0
    for k in range(individuals + 1):
        if k == pair_after:
            registration_add(tournament=tournament, players=[_person(n), _person(n + 1)], source=source)
            n += 2
        else:
            registration_add(tournament=tournament, players=[_person(n)], source=source)
            n += 1


def _pairs(tournament: Tournament, count: int, *, organizer) -> None:
    """``count`` pairs registered together at the desk, then registration closed and the pairing draw run."""
    for k in range(count):
        registration_add(
            tournament=tournament,
            players=[_person(2 * k, contact=False), _person(2 * k + 1, contact=False)],
            source=Registration.DESK,
            user=organizer,
        )
    registration_close(tournament=tournament, user=organizer)
    draws.pairing_run(tournament=tournament, user=organizer, seed=PAIRING_SEED)


def _mesas(tournament: Tournament, count: int, *, organizer, referee) -> None:
    draws.mesas_save(
        tournament=tournament, user=organizer, count=count, referees=dict.fromkeys(range(1, count + 1), referee.pk)
    )


# --- results, as the súmula services record them ---------------------------------------------------


def _group_rank(tournament: Tournament) -> dict[int, int]:
    """Dupla id → its place of entry in its group (0 first): the lower always wins a group jogo."""
    return dict(GroupEntry.objects.filter(group__stage__tournament=tournament).values_list("dupla_id", "order"))


def _winner_side(jogo: Jogo, rank: dict[int, int]) -> int:
    if jogo.group_id is None:
        return 0  # the knockout: side a, the better placed
    return 0 if rank[jogo.dupla_a_id] < rank[jogo.dupla_b_id] else 1


def _scores(jogo: Jogo, side: int, *, spread: int = 0) -> list[list[int]]:
    """Enough partidas for ``side`` to win a best-of-``jogo.best_of``, the last one closer."""
    wins = jogo.best_of // 2 + 1
    out = []
    for k in range(wins):
        loser = (3 + 2 * k + spread) % 11
        out.append([12, loser] if side == 0 else [loser, 12])
    return out


def _result(tournament: Tournament, jogo: Jogo, rank: dict[int, int], *, referee, spread: int = 0) -> None:
    sumula_result_set(
        tournament=tournament,
        key=jogo.key,
        actor=Actor(user=referee, method="session"),
        data=ResultSet.from_json(
            {"partidas": _scores(jogo, _winner_side(jogo, rank), spread=spread), "id": f"resultado-{jogo.key}"}
        ),
    )


def _via(jogo: Jogo) -> int:
    """The jogo's via as stored now (the via an answer or a signature is for)."""
    return Jogo.objects.values_list("via", flat=True).get(pk=jogo.pk)


def _answer(tournament: Tournament, jogo: Jogo, dupla: Dupla, *, accept: bool = True, reason: str = "") -> None:
    sumula_answer(
        tournament=tournament,
        key=jogo.key,
        dupla=dupla,
        via=_via(jogo),
        accept=accept,
        reason=reason,
        actor=Actor(dupla=dupla, method="pin", device="celular da dupla"),
    )


def _confirmed(
    tournament: Tournament, jogo: Jogo, rank: dict[int, int], *, referee, spread: int = 0, sign: bool = False
) -> None:
    """Recorded by the referee, confirmed by both duplas by PIN; ``sign``: homologated by the referee too."""
    _result(tournament, jogo, rank, referee=referee, spread=spread)
    _answer(tournament, jogo, jogo.dupla_a)
    _answer(tournament, jogo, jogo.dupla_b)
    if sign:
        sumula_sign(
            tournament=tournament, key=jogo.key, via=_via(jogo), reason="", actor=Actor(user=referee, method="session")
        )


def _jogos(tournament: Tournament, **filters) -> list[Jogo]:
    return list(
        Jogo.objects.filter(tournament=tournament, **filters)
        .select_related("dupla_a", "dupla_b")
        .order_by("stage__order", "round", "third_place", "position", "mesa", "id")
    )


# --- the events ----------------------------------------------------------------------------------


def live_line(jogo: Jogo, number: int, a: int, b: int) -> str:
    """How the public pages tell the partida being played: "partida 2: Ana / Bia 3 x 4 Caio / Davi" (each dupla by
    its own name, else its players' first names; the first dupla's points first)."""

    def short(d: Dupla) -> str:
        return d.name or f"{d.player1.name.split()[0]} / {d.player2.name.split()[0]}"

    return f"partida {number}: {short(jogo.dupla_a)} {a} x {b} {short(jogo.dupla_b)}"


def event_before_make() -> Tournament:
    organizer = _user("comissao-primavera")
    day = timezone.localdate() + timedelta(days=30)
    t = tournament_create(
        user=organizer, starter="aabb", name="Copa Primavera de Truco", date=day, venue="Clube dos Bancários, salão 2"
    )
    t = tournament_publish(tournament=t, user=organizer)  # the organizer published it
    t = tournament_update(tournament=t, user=organizer, changes={"max_duplas": 5})
    _signups(t, individuals=10, pair_after=3, source=Registration.FORM)  # 12 athletes for 10 places
    return t


def event_drawn_make() -> Tournament:
    organizer, referee = _user("comissao-outono"), _user("arbitro-outono")
    t = tournament_create(
        user=organizer,
        starter="aabb",
        name="Copa Outono de Truco",
        date=timezone.localdate() + timedelta(days=7),
        venue="Sede campestre",
    )
    t = tournament_publish(tournament=t, user=organizer)  # the organizer published it
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    t = tournament_update(tournament=t, user=organizer, changes={"max_duplas": 8})
    format_update(
        tournament=t,
        user=organizer,
        format={
            "kind": "groups_knockout",
            "group_size": 3,
            "per_group": 2,
            "best_others": 0,
            "best_of_groups": 3,
            "best_of_knockout": 3,
            "best_of_rounds": {},
            "bracket_method": "seeded",
        },
    )
    _signups(t, individuals=11, pair_after=4, source=Registration.FORM)
    registration_close(tournament=t, user=organizer)
    draws.pairing_run(tournament=t, user=organizer, seed=PAIRING_SEED)  # the pair + 5 drawn, 1 left over
    _mesas(t, 3, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    t.refresh_from_db()
    return t


def event_during_make() -> Tournament:
    organizer, referee = _user("comissao-regional"), _user("arbitro-regional")
    t = tournament_create(
        user=organizer,
        starter="fenacef",
        name="Campeonato Regional de Truco",
        date=timezone.localdate(),
        venue="Ginásio Municipal",
    )
    t = tournament_publish(tournament=t, user=organizer)  # the organizer published it
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    format_update(tournament=t, user=organizer, format=t.format | {"best_others": 2})  # 3×2 + 2 thirds = 8
    _pairs(t, 12, organizer=organizer)
    _mesas(t, 6, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    t.refresh_from_db()
    rank = _group_rank(t)
    for n, jogo in enumerate(_jogos(t, round=1)):
        _confirmed(t, jogo, rank, referee=referee, spread=n, sign=n < 2)
    second = _jogos(t, round=2)
    assert len(second) == 6, len(second)
    live, awaiting, half, contested = second[0], second[1], second[2], second[3]
    # the jogo at its mesa: partida 1 won 12 x 0 by side a in four mãos of 3, partida 2 at 3 x 4
    maos = [(0, 3)] * 4 + [(1, 1), (0, 3), (1, 3)]
    for k, (to, points) in enumerate(maos):
        sumula_mao_add(
            tournament=t,
            key=live.key,
            mao=MaoAdd.from_json({"id": f"mao-{live.key}-{k}", "to": to, "points": points}),
            actor=Actor(user=referee, method="session", device="celular do árbitro"),
        )
    _result(t, awaiting, rank, referee=referee)
    _result(t, half, rank, referee=referee, spread=2)
    _answer(t, half, half.dupla_a)
    _result(t, contested, rank, referee=referee, spread=4)
    _answer(t, contested, contested.dupla_a)
    _answer(t, contested, contested.dupla_b, accept=False, reason="A segunda partida terminou 12 x 10, não 12 x 9.")
    t.refresh_from_db()
    return t


def knockout_live_make() -> Tournament:
    organizer, referee = _user("comissao-chave"), _user("arbitro-chave")
    t = tournament_create(
        user=organizer, starter="aabb", name="Copa da Chave", date=timezone.localdate(), venue="Salão"
    )
    t = tournament_publish(tournament=t, user=organizer)
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    _pairs(t, 8, organizer=organizer)
    _mesas(t, 4, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    t.refresh_from_db()
    live, awaiting, contested, _later = _jogos(t, round=1)
    for k, (to, points) in enumerate([(0, 3)] * 4 + [(1, 1), (0, 3), (1, 3)]):
        sumula_mao_add(
            tournament=t,
            key=live.key,
            mao=MaoAdd.from_json({"id": f"mao-{k}", "to": to, "points": points}),
            actor=Actor(user=referee, method="session"),
        )
    _result(t, awaiting, {}, referee=referee)  # side a wins 3 x 0: 12x3, 12x5, 12x7
    _result(t, contested, {}, referee=referee, spread=4)
    _answer(t, contested, contested.dupla_b, accept=False, reason="A segunda partida foi 12 x 10.")
    t.refresh_from_db()
    return t


def event_after_make() -> Tournament:
    organizer, referee = _user("comissao-taca"), _user("arbitro-taca")
    t = tournament_create(
        user=organizer,
        starter="fenacef",
        name="Taça Cidade de Truco",
        date=timezone.localdate() - timedelta(days=14),
        venue="Associação Atlética",
    )
    t = tournament_publish(tournament=t, user=organizer)  # the organizer published it
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    t = tournament_update(tournament=t, user=organizer, changes={"settings": {"third_place": "match"}})
    _pairs(t, 8, organizer=organizer)
    _mesas(t, 4, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    rank = _group_rank(t)
    n = 0
    while pending := _jogos(t, status=Jogo.SCHEDULED):  # the refresh creates the next knockout jogos
        for jogo in pending:
            _confirmed(t, jogo, rank, referee=referee, spread=n, sign=jogo.group_id is None)
            n += 1
    t.refresh_from_db()
    assert t.finished, "o torneio deveria estar encerrado"
    return t


def showcase_jogo(tournament: Tournament) -> str | None:
    """The jogo whose súmula page shows the most: in progress, else the final, else the first jogo."""
    jogos = Jogo.objects.filter(tournament=tournament)
    live = jogos.filter(status=Jogo.IN_PROGRESS).order_by("id").first()
    if live is not None:
        return live.key
    final = (
        jogos.filter(group__isnull=True, third_place=False)
        .exclude(status=Jogo.SCHEDULED)
        .order_by("-round", "position")
        .first()
    )
    if final is not None:
        return final.key
    first = jogos.order_by("round", "mesa", "id").first()
    return first.key if first is not None else None
