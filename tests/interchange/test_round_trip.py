"""Round trip (INTERCHANGE.md): "importing it again rebuilds the same state".

Both ways, for every example file (the tournament files in docs/, the demo files, the tests' example files) and
every starter of the desk ("Olimpíada AABB", "FENACEF", "em branco"):

- a file: import → export → import → export gives the same export, apart from ids and timestamps;
- an event built on the site from a starter (through the desk's own services, in the states an event goes
  through): export → import → export gives the same;

and the state rebuilt behaves the same afterwards: the same next steps (closing registration, the pairing and
competition draws, the results to the final) on the event and on its copy give the same export again.

The ``ranking`` section is the players' site-wide Nível at export time (DOMAIN §7.2): the copy's players are the
same atletas, so both exports are compared at one moment, after the copy exists.
"""

import copy
import datetime as dt
import json
import re
from itertools import count
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import event_states, files, printing, sumula
from tournaments.draws import services as draws
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, Registration, Tournament
from tournaments.refusals import Refused
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.presence import registration_checkin
from tournaments.registrations.services import registration_add, registration_close
from tournaments.services import tournament_import
from tournaments.setup.services import tournament_create
from tournaments.setup.starters import STARTERS
from tournaments.sumula.commands import ResultSet
from tournaments.sumula.services import Actor, sumula_answer, sumula_result_set, sumula_sign
from tournaments.synthetic import synthetic_tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


# --- the example files ---------------------------------------------------------------------------------------


# The contract's own example (docs/contrato.md, as INTERCHANGE.md) shows the shape of each section, not an event: its
# players stop at p1 while its duplas name p4 and p5.
SHAPES_ONLY = {"contrato"}


def docs_files() -> dict[str, dict]:
    """Every whole tournament file shown in docs/ (a JSON block with format and tournament)."""
    out = {}
    for page in sorted((ROOT / "docs").glob("*.md")):
        if page.stem in SHAPES_ONLY:
            continue
        blocks = re.findall(r"^```json\n(.*?)^```", page.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
        for n, block in enumerate(blocks):
            try:
                data = json.loads(block)
            except ValueError:
                continue  # a fragment (a stage, a jogo, a computed section)
            if isinstance(data, dict) and data.get("format") == "truco-torneio" and "tournament" in data:
                out[f"docs/{page.stem}#{n}"] = data
    return out


def issue_41_file() -> dict:
    """15 individuals and 2 pairs paired by the recorded draw of seed 7: the odd one out waits (issue 41)."""
    data = files.base_file(max_duplas=16)
    data["players"] = files.players(19)
    data["duplas"], data["stages"], data["jogos"] = [], [], []
    data["registrations"] = [{"players": ["p1", "p2"]}, {"players": ["p3", "p4"]}]
    data["registrations"] += [{"players": [f"p{i}"]} for i in range(5, 20)]
    data["pairing"] = {"seed": 7}
    return data


def example_files() -> dict[str, object]:
    """name -> a function that makes the file (some need the database)."""
    out: dict[str, object] = {name: (lambda data=data: data) for name, data in docs_files().items()}
    for path in sorted((ROOT / "demo").glob("*.json")):
        out[f"demo/{path.name}"] = lambda path=path: json.loads(path.read_text(encoding="utf-8"))
    out |= {
        "issue 41": issue_41_file,
        "base_file": files.base_file,
        "groups_file": files.groups_file,
        "groups_file, no sorteio": lambda: files.groups_file(sorteio=False),
        "demo_file": lambda: files.demo_file(tournament_import_as_fixture),
        "knockout_file": files.knockout_file,
        "knockout_file, live": lambda: files.knockout_file(finished=False),
        "large_file": files.large_file,
        "big_file": files.big_file,
        "big_file, live": lambda: files.big_file(live=True),
        "cup_file": sumula.cup_file,
        "cup_with_births": printing.cup_with_births,
        "cards_file": printing.cards_file,
        "knockout4_file": printing.knockout4_file,
        "groups_only_file": printing.groups_only_file,
        "long_names_knockout_file": printing.long_names_knockout_file,
        "synthetic, mãos": lambda: synthetic_tournament(duplas=24, seed=3, maos_every=3),
    }
    out |= {f"edge_files[{i}]": (lambda i=i: files.edge_files()[i]) for i in range(len(files.edge_files()))}
    return out


def tournament_import_as_fixture(data: dict) -> Tournament:
    return tournament_import(data=data)


EXAMPLES = example_files()


# --- the comparison --------------------------------------------------------------------------------------------


def exported(tournament: Tournament, *, include_private: bool) -> dict:
    """The tournament's file, as JSON gives it back (the command's and the desk's download)."""
    return json.loads(json.dumps(tournament_export(tournament=tournament, include_private=include_private)))


def comparable(data: dict) -> dict:
    """A file without what a copy may not share: its slug (taken by the original)."""
    data = copy.deepcopy(data)
    data["tournament"].pop("slug", None)
    return data


def round_trip(tournament: Tournament, *, include_private: bool = True) -> Tournament:
    """Export ``tournament``, import the export, export the copy: the same file. Returns the copy."""
    first = exported(tournament, include_private=include_private)
    again = tournament_import(data=copy.deepcopy(first))
    second = exported(again, include_private=include_private)
    now = exported(tournament, include_private=include_private)  # the Nível as it stands with the copy there
    assert {**now, "ranking": None} == {**first, "ranking": None}  # the import changed nothing of the original
    assert_same(comparable(now), comparable(second))
    return again


def assert_same(first: dict, second: dict) -> None:
    """Section by section, so that a failure names the part that changed."""
    assert list(first) == list(second)
    for key in first:
        assert first[key] == second[key], key


# --- files: import → export → import → export -----------------------------------------------------------------


def test_every_example_file_is_found():
    """docs/ and demo/ hold whole files (the list would silently shrink if a page or a folder moved)."""
    assert any(name.startswith("docs/arquivo-do-torneio") for name in EXAMPLES)
    assert {"demo/aabb-2024.json", "demo/fenacef-2023.json"} <= set(EXAMPLES)


@pytest.mark.parametrize("name", list(EXAMPLES))
@pytest.mark.parametrize("include_private", [True, False], ids=["private", "public"])
def test_example_file_round_trips(name, include_private):
    make = EXAMPLES[name]
    assert callable(make)
    round_trip(tournament_import(data=make()), include_private=include_private)


def test_the_odd_one_out_stays_on_the_waiting_list_after_a_round_trip():
    """Issue 41: the pairing draw left one individual waiting; the copy has the same waiting list, the same draw
    on its public record, and the registrations the draw paired."""
    original = tournament_import(data=issue_41_file())
    first = exported(original, include_private=True)
    assert len(first["waiting_list"]) == 1 and first["registrations"] == [{"players": first["waiting_list"]}]
    copy_ = round_trip(original)
    assert exported(copy_, include_private=True)["waiting_list"] == first["waiting_list"]
    for t in (original, copy_):
        draw = t.draws.get(kind="pairing")
        assert draw.seed == 7 and draw.result["waiting_list"] == first["waiting_list"]
        statuses = sorted(Registration.objects.filter(tournament=t).values_list("status", flat=True))
        assert statuses == ["paired"] * 16 + ["waiting"]  # 2 pairs + 14 individuals paired, 1 waiting


# --- events built on the site: export → import → export, then the same next steps -----------------------------


def staff(username: str):
    return get_user_model().objects.create_user(username=username, is_staff=True)


PEOPLE = count()


def person() -> PersonIn:
    """A new adult, never seen before in this test run (names differ by a number)."""
    n = next(PEOPLE)
    return PersonIn(name=f"Atleta Ida e Volta {n}", birth_date=dt.date(1980 + n % 20, 1 + n % 12, 1 + n % 28))


def play_on(tournament: Tournament) -> None:
    """Every jogo still to play, round after round until the last: the referee's result (the first dupla wins), both
    duplas confirm, the organizer signs. Jogos in order of play, by key: the same on an event and on its copy."""
    order = ("stage__order", "round", "third_place", "position", "mesa", "key")
    organizer = Actor(user=None, method="command")
    while jogos := list(Jogo.objects.filter(tournament=tournament, status=Jogo.SCHEDULED).order_by(*order)):
        for jogo in jogos:
            scores = [[12, 3 + k] for k in range(jogo.best_of // 2 + 1)]
            sumula_result_set(
                tournament=tournament,
                key=jogo.key,
                actor=organizer,
                data=ResultSet.from_json({"partidas": scores, "id": f"resultado-{jogo.key}"}),
            )
            for dupla in (jogo.dupla_a, jogo.dupla_b):
                via = Jogo.objects.values_list("via", flat=True).get(pk=jogo.pk)
                sumula_answer(
                    tournament=tournament,
                    key=jogo.key,
                    dupla=dupla,
                    via=via,
                    accept=True,
                    reason="",
                    actor=Actor(dupla=dupla, method="pin"),
                )
            via = Jogo.objects.values_list("via", flat=True).get(pk=jogo.pk)
            sumula_sign(tournament=tournament, key=jogo.key, via=via, reason="", actor=organizer)


def draw_on(tournament: Tournament, user) -> None:
    """What an organizer does next before the event: close registration, the pairing draw, the competition draw."""
    tournament.refresh_from_db()
    if not tournament.registration_closed:
        registration_close(tournament=tournament, user=user)
    draws.pairing_run(tournament=tournament, user=user, seed=99)
    tournament.refresh_from_db()
    draws.competition_publish(tournament=tournament, user=user, seed=4242)


def same_after(tournament: Tournament, copy_: Tournament, step) -> None:
    """``step`` on the event and on its copy: their exports stay the same."""
    step(tournament)
    step(copy_)
    for t in (tournament, copy_):
        t.refresh_from_db()
    assert_same(
        comparable(exported(tournament, include_private=True)), comparable(exported(copy_, include_private=True))
    )


@pytest.mark.parametrize("starter", list(STARTERS))
def test_a_new_event_from_each_starter_round_trips(starter):
    """Just made from the starter (name, date, venue): the copy has the starter's format, registration window and
    regulation, and takes the same registrations and draws to the same duplas and bracket."""
    organizer = staff(f"comissao-{starter}")
    event = tournament_create(user=organizer, starter=starter, name=f"Copa {starter}", date=dt.date(2030, 5, 4))
    copy_ = round_trip(event)
    for field in ("format", "public_signup", "registration_closed", "regulation", "city", "start_time", "max_duplas"):
        assert getattr(copy_, field) == getattr(event, field), field
    entries = [[person()] for _ in range(9)] + [[person(), person()]]

    def register_and_draw(t: Tournament) -> None:
        for players in entries:
            registration_add(tournament=t, players=players, user=organizer)
        draw_on(t, organizer)

    same_after(event, copy_, register_and_draw)


@pytest.mark.parametrize(
    "make",
    [
        event_states.event_before_make,
        event_states.event_drawn_make,
        event_states.event_during_make,
        event_states.knockout_live_make,
        event_states.event_after_make,
    ],
    ids=["before", "drawn", "during", "knockout live", "after"],
)
def test_an_event_built_at_the_desk_round_trips_and_plays_on_the_same(make):
    """The desk's events in each state (AABB and FENACEF starters: registration open with a waiting list; the
    pairing draw with its odd one out and the groups drawn on 3 mesas; results in every súmula status; a knockout
    under way; finished): the copy exports the same, and the same next steps give the same export."""
    event = make()
    copy_ = round_trip(event)
    organizer = staff("comissao-seguinte")
    if not event.stages.exists():
        same_after(event, copy_, lambda t: draw_on(t, organizer))
    same_after(event, copy_, play_on)


def test_a_blank_event_taken_through_the_desk_round_trips():
    """The blank starter with what an organizer adds: mesas, pairs and individuals, check-in (an absent player),
    the pairing draw (the absent left out, the odd one out waiting), the competition draw."""
    organizer = staff("comissao-em-branco")
    event = tournament_create(user=organizer, starter="blank", name="Copa em Branco", date=dt.date(2030, 6, 1))
    for players in [[person(), person()], [person()], [person()], [person()], [person()], [person()], [person()]]:
        registration_add(tournament=event, players=players, user=organizer)
    absent = Registration.objects.filter(tournament=event, player2__isnull=True).order_by("order").first()
    registration_checkin(registration=absent, present=False, user=organizer)
    registration_close(tournament=event, user=organizer)
    draws.mesas_save(tournament=event, user=organizer, count=2, referees={})
    event.refresh_from_db()
    copy_ = round_trip(event)
    assert (
        copy_.mesas == 2
        and Registration.objects.get(tournament=copy_, player1__key=absent.player1.key).present is False
    )

    def pair_and_draw(t: Tournament) -> None:
        draws.pairing_run(tournament=t, user=organizer, seed=5)
        t.refresh_from_db()
        draws.competition_publish(tournament=t, user=organizer, seed=6)

    same_after(event, copy_, pair_and_draw)
    assert exported(event, include_private=False)["waiting_list"]  # the absent one and the odd one out wait
    copy_ = round_trip(event)
    same_after(event, copy_, play_on)


# --- any registrations, any draw: a property --------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    starter=st.sampled_from(list(STARTERS)),
    limit=st.one_of(st.none(), st.integers(min_value=2, max_value=6)),
    sizes=st.lists(st.sampled_from([1, 1, 2]), min_size=2, max_size=14),
    absent=st.sets(st.integers(min_value=0, max_value=13), max_size=3),
    seed=st.integers(min_value=0, max_value=2**31),
    drawn=st.booleans(),
)
def test_registrations_and_the_pairing_draw_round_trip(starter, limit, sizes, absent, seed, drawn):
    """Whatever the registrations (individuals and pairs, beyond the limit or not, some absent) and whether the
    pairing draw ran: the copy has the same waiting list and registrations, and a pairing draw (or another one)
    with the same seed makes the same duplas on both."""
    organizer = staff(f"comissao-{next(PEOPLE)}")
    event = tournament_create(user=organizer, starter=starter, name="Copa Sorteada", date=dt.date(2030, 7, 6))
    if limit is not None:
        Tournament.objects.filter(pk=event.pk).update(max_duplas=limit)
        event.refresh_from_db()
    for i, size in enumerate(sizes):
        registration = registration_add(
            tournament=event, players=[person() for _ in range(size)], user=organizer, source=Registration.DESK
        )
        if i in absent:
            registration_checkin(registration=registration, present=False, user=organizer)
    registration_close(tournament=event, user=organizer)

    def pairing(t: Tournament) -> None:
        try:
            draws.pairing_run(tournament=t, user=organizer, seed=seed)
        except Refused:
            pass  # nobody to pair: the same on both

    event.refresh_from_db()
    if drawn:
        pairing(event)
    copy_ = round_trip(event)
    same_after(event, copy_, pairing)


# --- what the export adds, read with the same care as the rest of the file ---------------------------------------


def with_additions(**changes) -> dict:
    """The issue-41 file as exported (its pairing draw recorded in ``pairing_draws``), with ``changes`` applied:
    ``{"tournament.mesas": 0}`` sets a value at that place (dotted names, ``[i]`` for list items)."""
    data = exported(tournament_import(data=issue_41_file()), include_private=True)
    for place, value in changes.items():
        *path, last = re.findall(r"[^.\[\]]+", place)
        node = data
        for step in path:
            node = node[int(step)] if step.isdigit() else node[step]
        node[int(last) if last.isdigit() else last] = value
    return data


@pytest.mark.parametrize(
    "changes,expected",
    [
        ({"tournament.mesas": 0}, "tournament.mesas: o número de mesas deve ser um número inteiro entre 1 e 200"),
        ({"tournament.mesas": "4"}, "tournament.mesas: o número de mesas deve ser um número inteiro entre 1 e 200"),
        (
            {"tournament.competition_format": {"kind": "suico"}},
            "tournament.competition_format.kind: valor 'suico' inválido; use um de: knockout, groups_knockout",
        ),
        (
            {"tournament.competition_format": {"per_group": 10**6}},
            "tournament.competition_format.per_group: per_group deve ser um número inteiro entre 0 e 4096",
        ),
        (
            {"tournament.competition_format": {"best_of_rounds": {"99": 3}}},
            "tournament.competition_format.best_of_rounds: rodada '99' inválida",
        ),
        ({"tournament.registration": {"closed": "não"}}, "tournament.registration.closed: deve ser true ou false"),
        (
            {"tournament.registration": {"opens": "amanhã"}},
            "tournament.registration.opens: data e hora inválidas 'amanhã'",
        ),
        (
            {"tournament.registration": {"opens": "2030-05-02T10:00", "closes": "2030-05-01T10:00"}},
            "tournament.registration.closes: as inscrições fecham antes de abrir",
        ),
        ({"tournament.allow_self_scoring": 1}, "tournament.allow_self_scoring: deve ser true ou false"),
        ({"registrations[0].present": "sim"}, "registrations[0].present: deve ser true ou false"),
        ({"pairing_draws": {"seed": 7}}, "pairing_draws: deve ser uma lista"),
        ({"pairing_draws[0].seed": 2**70}, "pairing_draws[0].seed: número fora do intervalo aceito"),
        ({"pairing_draws[0].duplas[0]": ["p1"]}, "pairing_draws[0].duplas[0]: uma dupla tem exatamente 2 atletas"),
        ({"pairing_draws[0].dupla_keys": ["r1"]}, "pairing_draws[0].dupla_keys: uma chave para cada dupla sorteada"),
        (
            {"pairing_draws[0].registrations[0]": ["p1", "p1"]},
            "pairing_draws[0].registrations[0][1]: o atleta 'p1' já está em pairing_draws[0].registrations[0]",
        ),
        ({"pairing_draws[0].dupla_keys[0]": "r" * 61}, "pairing_draws[0].dupla_keys[0]: chave longa demais"),
        (
            {"pairing_draws[0].registrations[0]": ["p1", "p99"], "pairing_draws[0].duplas[0]": ["p1", "p99"]},
            "pairing_draws[0].registrations[0][1]: atleta 'p99' não existe em players",
        ),
    ],
)
def test_the_additions_are_checked_with_their_place(changes, expected):
    """Bad values are refused with their place, in Portuguese, and nothing is written."""
    data = with_additions(**changes)
    count_before = Tournament.objects.count()
    problems = files.import_errors(data)
    assert any(p.startswith(expected) for p in problems), problems
    assert Tournament.objects.count() == count_before


def test_a_player_registered_twice_through_a_recorded_draw_is_refused():
    """A registration the recorded draw paired is a registration: its players may not be in ``registrations`` too."""
    data = with_additions()
    waiting = data["registrations"][0]["players"][0]
    draw = data["pairing_draws"][0]
    draw["duplas"].append([waiting, "p1"])
    draw["dupla_keys"].append("r99")
    draw["registrations"].append([waiting])
    problems = files.import_errors(data)
    assert any(
        p.startswith("pairing_draws[0].registrations[") and "já está em registrations[0]" in p for p in problems
    ), problems
