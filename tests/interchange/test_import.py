"""The tournament file contract (docs/contrato.md): import, errors with places, atomicity, export, round trip."""

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.support.files import base_file, import_errors, nothing_written, players
from tournaments.interchange.writer import tournament_export
from tournaments.models import Draw, Dupla, Jogo
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_import_creates_tournament_with_slug_from_name_and_schedule():
    t = tournament_import(data=base_file())
    assert t.slug == "copa-do-bar"
    assert t.duplas.count() == 4
    # both groups scheduled, the knockout drawn (groups complete) and its first round created
    assert Jogo.objects.filter(tournament=t, group__isnull=False).count() == 2
    knockout = Jogo.objects.filter(tournament=t, group__isnull=True)
    assert knockout.count() == 2
    assert {frozenset((j.dupla_a.key, j.dupla_b.key)) for j in knockout} == {
        frozenset(("d3", "d2")),
        frozenset(("d1", "d4")),
    }


def test_slug_taken_gets_a_new_unique_one():
    first = tournament_import(data=base_file(slug="copa"))
    second = tournament_import(data=base_file(slug="copa"))
    assert first.slug == "copa"
    assert second.slug != "copa" and second.slug.startswith("copa-do-bar")


def test_invalid_final_score_is_placed_and_nothing_written():
    data = base_file()
    data["jogos"][0]["partidas"][1] = [12, 12]
    errors = import_errors(data)
    assert len(errors) == 1
    assert errors[0].startswith("jogos[0].partidas[1]: ")
    assert "12 x 12" in errors[0]
    assert nothing_written()


def test_mao_after_the_end_is_placed_at_the_mao():
    data = base_file()
    data["jogos"][0]["partidas"][0] = {"maos": [{"to": 0, "points": 12}, {"to": 1, "points": 1}]}
    errors = import_errors(data)
    assert errors == [f"jogos[0].partidas[0].maos[1]: {errors[0].split(': ', 1)[1]}"]
    assert "já terminou" in errors[0]


def test_raise_in_mao_de_onze_is_refused_with_the_rule():
    data = base_file()
    maos = [
        {"to": 0, "points": 9},
        {"to": 0, "points": 1},
        {"to": 0, "points": 1},
        {"to": 0, "how": "ran", "points": 3},
    ]
    data["jogos"][0]["partidas"][0] = {"maos": maos}
    errors = import_errors(data)
    assert errors[0].startswith("jogos[0].partidas[0].maos[3]: ")
    assert "mão de onze" in errors[0]


def test_partida_after_the_jogo_is_decided_is_refused():
    data = base_file()
    data["jogos"][0]["partidas"] = [[12, 7], [12, 3], [12, 0]]
    errors = import_errors(data)
    assert errors[0].startswith("jogos[0].partidas[2]: ")
    assert "já terminou 2 x 0" in errors[0]


def test_every_problem_is_reported_not_just_the_first():
    data = base_file()
    data["jogos"][0]["partidas"][0] = [24, 3]
    data["jogos"][1] = {"stage": "grupos", "group": "B", "duplas": ["d3", "d9"]}
    data["players"][0]["birth_date"] = "2010-01-01"
    data["tournament"]["min_age"] = 18
    errors = import_errors(data)
    assert any(e.startswith("players[0].birth_date: ") and "18 anos" in e for e in errors)
    # people errors stop the reading before the jogos: they are the vocabulary of the rest
    data["players"][0]["birth_date"] = "1990-01-01"
    errors = import_errors(data)
    assert any(e.startswith("jogos[0].partidas[0]: ") for e in errors)
    assert any(e.startswith("jogos[1].duplas: ") for e in errors)
    assert nothing_written()


def test_knockout_jogo_not_produced_by_the_bracket_is_refused():
    data = base_file()
    data["jogos"].append({"stage": "mata", "duplas": ["d1", "d2"], "partidas": [[12, 0], [12, 0]]})
    errors = import_errors(data)
    assert errors[0].startswith("jogos[2].duplas: ")
    assert "d1 x d4" in errors[0] or "d4 x d1" in errors[0]  # the hint names the jogos that exist


def test_knockout_before_the_groups_end_is_refused():
    data = base_file()
    data["jogos"].insert(1, {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 0], [12, 0]]})
    errors = import_errors(data)
    assert errors[0].startswith("jogos[1]: ")
    assert "não terminou" in errors[0]


def test_knockout_jogo_in_reverse_order_is_stored_in_bracket_order():
    data = base_file()
    data["jogos"].append({"stage": "mata", "duplas": ["d4", "d1"], "partidas": [[7, 12], [12, 10], [3, 12]]})
    t = tournament_import(data=data)
    export = tournament_export(tournament=t)
    jogo = next(j for j in export["jogos"] if set(j["duplas"]) == {"d1", "d4"})
    assert jogo["duplas"] == ["d1", "d4"]
    assert jogo["partidas"] == [[12, 7], [10, 12], [12, 3]]
    slot = next(s for s in export["bracket"]["mata"]["rounds"][0] if "d4" in s["duplas"])
    assert slot["winner"] == "d1" and slot["score"] == [2, 1]


def test_sorteio_of_duplas_not_tied_is_an_error():
    data = base_file()
    data["stages"][0]["sorteios"] = [{"group": "A", "order": ["d2", "d1"]}]
    errors = import_errors(data)
    assert errors[0].startswith("stages[0].sorteios[0]: ")
    assert "não estão empatadas" in errors[0]


def test_walkover_both_and_penalties():
    data = base_file()
    data["jogos"][1] = {
        "stage": "grupos",
        "group": "B",
        "duplas": ["d3", "d4"],
        "penalty": {"lost_by": "d4", "reason": "atitude antidesportiva"},
    }
    data["jogos"][0]["partidas"] = [{"penalty": {"lost_by": "d2", "reason": "celular na mesa"}}, [12, 3]]
    t = tournament_import(data=data)
    export = tournament_export(tournament=t)
    a = {r["dupla"]: r for r in export["standings"]["grupos"]["A"]}
    assert a["d1"]["points_for"] == 24 and a["d1"]["points_against"] == 3
    b = {r["dupla"]: r for r in export["standings"]["grupos"]["B"]}
    assert b["d3"]["points"] == 3 and b["d3"]["points_for"] == 24 and b["d3"]["partidas_won"] == 2
    # a penalty without a reason is refused
    data["jogos"][1]["penalty"]["reason"] = ""
    assert import_errors(data)[0].startswith("jogos[1].penalty.reason: ")


def test_a_walkover_keeps_its_reason_and_an_older_file_waiting_for_the_absent_dupla_still_reads():
    """Issue 41 item 16: a WO carries ``walkover_reason`` (optional: older files have none) and waits for no
    answer of the absent dupla. A file written before, with the WO awaiting only that answer, still imports:
    confirmed; a reason that is not a text is refused at its place."""
    data = base_file()
    data["jogos"][1] |= {"walkover_reason": "  não compareceu  ", "status": "awaiting_confirmation"}
    data["jogos"][1]["confirmations"] = {"d3": "confirmed", "d4": None}
    t = tournament_import(data=data)
    jogo = Jogo.objects.get(tournament=t, group__key="B")
    assert (jogo.status, jogo.penalty_reason, jogo.counted_via) == ("confirmed", "não compareceu", 1)
    exported = tournament_export(tournament=t)
    row = next(j for j in exported["jogos"] if j["duplas"] == ["d3", "d4"])
    assert (row["walkover"], row["walkover_reason"], row["status"]) == ("d4", "não compareceu", "confirmed")
    assert tournament_export(tournament=tournament_import(data=exported))["jogos"] == exported["jogos"]
    both = base_file()
    both["jogos"][1] = {"stage": "grupos", "group": "B", "duplas": ["d3", "d4"], "walkover": "both"}
    both["jogos"][1]["status"] = "awaiting_confirmation"
    assert Jogo.objects.get(tournament=tournament_import(data=both), group__key="B").status == "confirmed"
    data["jogos"][1]["walkover_reason"] = 7
    assert import_errors(data)[0] == "jogos[1].walkover_reason: o motivo deve ser um texto"


def test_pairing_draw_waiting_list_and_keys():
    data = base_file(max_duplas=3)
    data["players"] = players(9)
    data["duplas"] = []
    data["registrations"] = [{"players": ["p1", "p2"]}] + [{"players": [f"p{i}"]} for i in range(3, 10)]
    data["pairing"] = {"seed": 7}
    data["stages"] = [
        {"key": "mata", "kind": "knockout", "entrants": ["r1", "r2", "r3"], "draw": {"method": "random", "seed": 1}}
    ]
    data["jogos"] = []
    t = tournament_import(data=data)
    duplas = {d.key: d for d in Dupla.objects.filter(tournament=t)}
    assert sorted(duplas) == ["r1", "r2", "r3"]
    assert {duplas["r1"].player1.key, duplas["r1"].player2.key} == {"p1", "p2"}  # pairs stay together
    export = tournament_export(tournament=t)
    # capacity 6 players: p1+p2, then p3..p6 fit; p7, p8, p9 wait, in order of arrival
    assert export["waiting_list"] == ["p7", "p8", "p9"]
    assert [r["players"] for r in export["registrations"]] == [["p7"], ["p8"], ["p9"]]
    assert "pairing" not in export
    assert Draw.objects.filter(tournament=t, kind=Draw.PAIRING, seed=7).exists()


def test_before_the_pairing_draw_the_waiting_list_holds_only_those_beyond_the_limit():
    """docs/contrato.md: registrations within the limit that await the pairing draw are not on the waiting
    list; every registration not in a dupla is still in ``registrations``."""
    data = base_file(max_duplas=2)
    data["players"] = players(6)
    data["duplas"] = []
    data["registrations"] = [{"players": ["p1", "p2"]}, {"players": ["p3"]}, {"players": ["p4"]}]
    data["registrations"] += [{"players": ["p5"]}, {"players": ["p6"]}]
    data["stages"], data["jogos"] = [], []
    t = tournament_import(data=data)
    export = tournament_export(tournament=t)
    # capacity 4 players: p1+p2, p3 and p4 fit and await the draw; p5, p6 are beyond the limit
    assert export["waiting_list"] == ["p5", "p6"]
    assert [r["players"] for r in export["registrations"]] == [["p1", "p2"], ["p3"], ["p4"], ["p5"], ["p6"]]
    assert tournament_export(tournament=tournament_import(data=export | {"slug": "de-novo"}))["waiting_list"] == [
        "p5",
        "p6",
    ]


def test_same_seed_same_pairs():
    data = base_file()
    data["players"] = players(8)
    data["duplas"] = []
    data["registrations"] = [{"players": [f"p{i}"]} for i in range(1, 9)]
    data["pairing"] = {"seed": 99}
    data["stages"], data["jogos"] = [], []
    first = tournament_export(tournament=tournament_import(data=data))["duplas"]
    second = tournament_export(tournament=tournament_import(data=data))["duplas"]
    assert first == second and len(first) == 4


def test_export_has_no_private_data_and_round_trips():
    data = base_file()
    data["players"][0]["email"] = "ana@example.com"
    data["jogos"].append(
        {
            "stage": "mata",
            "duplas": ["d1", "d4"],
            "partidas": [
                {
                    "maos": [
                        {"to": 0, "points": 1},
                        {"to": 1, "points": 3, "how": "ran"},
                        {"to": None},
                        {"to": 0, "points": 1, "how": "penalty", "reason": "trucou com 4 cartas"},
                        {"to": 0, "points": 12},
                    ]
                },
                [12, 0],
            ],
        }
    )
    t = tournament_import(data=data)
    exported = tournament_export(tournament=t)
    text = json.dumps(exported)
    assert "1990-01-01" not in text and "ana@example.com" not in text and "birth_date" not in text
    assert '"pin"' not in text
    assert all(d.token not in text for d in Dupla.objects.filter(tournament=t))
    again = tournament_export(tournament=tournament_import(data=copy.deepcopy(exported)))
    exported["tournament"]["slug"] = again["tournament"]["slug"]
    assert again == exported
    maos = next(j for j in exported["jogos"] if j["duplas"] == ["d1", "d4"])["partidas"][0]["maos"]
    assert maos[2] == {"to": None} and maos[3]["how"] == "penalty"  # mãos stay mãos


def test_third_place_jogo_and_medals():
    data = base_file(preset="aabb")
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": ["d1", "d2", "d3", "d4"],
            "draw": {"method": "fixed", "order": ["d1", "d4", "d2", "d3"]},
        }
    ]
    data["jogos"] = [
        {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 5], [12, 6]]},
        {"stage": "mata", "duplas": ["d2", "d3"], "partidas": [[12, 5], [3, 12], [12, 11]]},
        {"stage": "mata", "duplas": ["d4", "d3"], "partidas": [[12, 5], [12, 9]]},
        {"stage": "mata", "duplas": ["d1", "d2"], "partidas": [[12, 5], [10, 12], [12, 9]]},
    ]
    export = tournament_export(tournament=tournament_import(data=data))
    assert export["bracket_third_place"]["mata"] == {
        "duplas": ["d4", "d3"],
        "best_of": 3,
        "winner": "d4",
        "score": [2, 0],
    }
    medals = [(c["place"], c["dupla"], c["medal"]) for c in export["classification"]]
    assert medals == [(1, "d1", "gold"), (2, "d2", "silver"), (3, "d4", "bronze"), (4, "d3", None)]


def test_third_place_shared():
    data = base_file(preset="aabb", settings={"third_place": "shared"})
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": ["d1", "d2", "d3", "d4"],
            "draw": {"method": "fixed", "order": ["d1", "d4", "d2", "d3"]},
        }
    ]
    data["jogos"] = [
        {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 5], [12, 6]]},
        {"stage": "mata", "duplas": ["d2", "d3"], "partidas": [[12, 5], [12, 11]]},
        {"stage": "mata", "duplas": ["d1", "d2"], "partidas": [[12, 5], [12, 9]]},
    ]
    export = tournament_export(tournament=tournament_import(data=data))
    assert export["bracket_third_place"] == {}
    assert [(c["place"], c["medal"]) for c in export["classification"]] == [
        (1, "gold"),
        (2, "silver"),
        (3, "bronze"),
        (3, "bronze"),
    ]


def test_bad_header_values_are_reported_with_their_place():
    data = base_file(preset="paulista")
    assert import_errors(data) == [
        "tournament.preset: preset 'paulista' desconhecido; use um de: fenacef, aabb, online"
    ]
    data = base_file(settings={"mao_de_onze_tie": "ninguém"})
    assert import_errors(data)[0].startswith("tournament.settings.mao_de_onze_tie: ")
    data = base_file(date="27/04/2024")
    assert import_errors(data)[0].startswith("tournament.date: ")
    assert import_errors({"format": "outro", "version": 1, "tournament": {"name": "x", "preset": "aabb"}})[
        0
    ].startswith("format: ")


# --- the commands ----------------------------------------------------------------------


def test_import_command_prints_the_slug_last(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(base_file()), encoding="utf-8")
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == "copa-do-bar"


def test_import_command_reports_each_problem_on_stderr(tmp_path):
    data = base_file()
    data["jogos"][0]["partidas"][0] = [22, 11]
    data["jogos"][1]["walkover"] = "d7"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("import_tournament", str(path), stderr=err)
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("jogos[0].partidas[0]: ") and "22 x 11" in lines[0]
    assert lines[1].startswith("jogos[1].walkover: ")
    assert exc.value.code == 1
    assert nothing_written()


def test_import_command_bad_json(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"format": "truco-torneio",\n "version": 1,,}', encoding="utf-8")
    with pytest.raises(CommandError, match="JSON inválido na linha 2"):
        call_command("import_tournament", str(path))


def test_export_command_unknown_slug():
    with pytest.raises(CommandError, match="não encontrado"):
        call_command("export_tournament", "nao-existe")


def test_export_command_writes_file(tmp_path):
    tournament_import(data=base_file())
    target = tmp_path / "out.json"
    call_command("export_tournament", "copa-do-bar", "-o", str(target))
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["format"] == "truco-torneio" and data["tournament"]["slug"] == "copa-do-bar"


@pytest.mark.django_db(transaction=True)
def test_real_process_exit_status_and_stdin(tmp_path, settings):
    """The commands as organizers run them: stdin, exit status, stderr lines."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        pytest.skip("the in-memory SQLite test database is not visible to another process")
    env = {**__import__("os").environ, "DATABASE_URL": _database_url(db)}
    bad = base_file()
    bad["jogos"][0]["partidas"][0] = [12, 12]
    proc = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", "-"],
        input=json.dumps(bad),
        text=True,
        capture_output=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.returncode != 0
    assert proc.stderr.splitlines()[0].startswith("jogos[0].partidas[0]: ")
    good = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", "-"],
        input=json.dumps(base_file()),
        text=True,
        capture_output=True,
        cwd=ROOT,
        env=env,
    )
    assert good.returncode == 0, good.stderr
    assert good.stdout.strip().splitlines()[-1] == "copa-do-bar"


def _database_url(db) -> str:
    user = db.get("USER") or "postgres"
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


def test_stage_names_are_kept():
    data = base_file()
    data["stages"][0]["name"] = "Fase classificatória"
    data["stages"][1]["name"] = "Fase eliminatória"
    t = tournament_import(data=data)
    assert [s["name"] for s in tournament_export(tournament=t)["stages"]] == [
        "Fase classificatória",
        "Fase eliminatória",
    ]
    assert t.stages.get(key="mata").name == "Fase eliminatória"


def test_building_a_state_leaves_the_garbage_collector_as_it_was():
    import gc

    from tournaments.selectors import tournament_state_load

    t = tournament_import(data=base_file())
    assert gc.isenabled()
    tournament_state_load(tournament=t)
    assert gc.isenabled()
    gc.disable()
    try:
        tournament_state_load(tournament=t)
        assert not gc.isenabled()
    finally:
        gc.enable()
