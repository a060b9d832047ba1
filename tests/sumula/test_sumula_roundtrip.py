"""A súmula written through the API survives export → import → export (docs/contrato.md: round trip).

Whatever sequence of API calls a referee and the duplas make (mãos, undos,
results, confirmations with right and wrong PINs, contests, homologations with
and without a reason, corrections, penalties), the tournament's export is a
file the importer accepts, and importing it rebuilds the same jogos (mãos with
their ids, status, via, via_reason, history, confirmations) and the same
computed standings. Plus explicit cases, and the import's refusals of a
status that does not fit the result.
"""

import copy
import itertools

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from tests.support.sumula import PIN, answer, api, cup_file, current_via, jogo_between, play, post, sign
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, Tournament
from tournaments.selectors import tournament_state_cache_clear
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

COMPARED = ("duplas", "stages", "jogos", "standings", "bracket", "bracket_third_place", "classification")
SUMULA_COMPARED = (
    "key",
    "duplas",
    "best_of",
    "status",
    "via",
    "via_reason",
    "vias",
    "partidas",
    "score",
    "winner",
    "walkover",
    "penalty",
    "confirmations",
    "current",
)


def export(tournament) -> dict:
    return tournament_export(tournament=Tournament.objects.get(pk=tournament.pk), include_private=False)


def roundtrip(tournament) -> tuple[dict, dict, Tournament]:
    """Export, import the file under a new slug, export the copy."""
    first = export(tournament)
    data = copy.deepcopy(first)
    del data["tournament"]["slug"]
    try:
        twin = tournament_import(data=data)
    except RuleViolation as exc:  # pragma: no cover - the failure message is the point
        raise AssertionError("the importer refused the export:\n" + "\n".join(map(str, exc.errors)))
    assert twin.pk != tournament.pk and twin.slug != tournament.slug
    return first, export(twin), twin


def assert_same(first: dict, second: dict, tournament, twin) -> None:
    for section in COMPARED:
        assert first[section] == second[section], section
    # the API reads the copy's súmulas as it read the original's, earlier vias included
    reader = Client()
    for j in first["jogos"]:
        a = reader.get(api(tournament.slug, j["key"])).json()
        b = reader.get(api(twin.slug, j["key"])).json()
        assert {k: a[k] for k in SUMULA_COMPARED} == {k: b[k] for k in SUMULA_COMPARED}, j["key"]
        for via in range(1, a["via"]):
            a_old = reader.get(api(tournament.slug, j["key"]) + f"?via={via}").json()
            b_old = reader.get(api(twin.slug, j["key"]) + f"?via={via}").json()
            fields = ("via", "status", "partidas", "score", "winner", "walkover", "penalty", "confirmations")
            assert {k: a_old[k] for k in fields} == {k: b_old[k] for k in fields}, (j["key"], via)


def jogo_row(data: dict, key: str) -> dict:
    return next(j for j in data["jogos"] if j["key"] == key)


def table(data: dict) -> dict[str, dict]:
    return {r["dupla"]: r for r in data["standings"]["grupos"]["A"]}


# --- explicit round trips --------------------------------------------------------------------------------


def test_corrected_sumula_with_history_and_an_awaiting_via_2(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 1, 0], "v1")
    answer(ref, cup.slug, j1, "d1")
    answer(ref, cup.slug, j1, "d4")
    sign(ref, cup.slug, j1)
    r = post(
        ref,
        api(cup.slug, j1, "correcao"),
        {
            "reason": "a 3ª partida foi da d4",
            "partidas": [{"maos": [{"id": "n1", "to": 0, "points": 12}]}, [3, 12], [10, 12]],
        },
    )
    assert r.status_code == 200, r.content
    first, second, twin = roundtrip(cup)
    row = jogo_row(first, j1)
    assert (
        row["status"] == "awaiting_confirmation" and row["via"] == 2 and row["via_reason"] == "a 3ª partida foi da d4"
    )
    [old] = row["history"]
    assert old["via"] == 1 and old["status"] == "homologated" and old["by"] in ("arbitro", "referee") and old["at"]
    assert old["confirmations"] == {"d1": "confirmed", "d4": "confirmed"}
    assert [m["id"] for m in old["partidas"][0]["maos"]] == [f"v1-p0-{k}" for k in range(4)]
    assert row["partidas"][0] == {"maos": [{"id": "n1", "to": 0, "points": 12}]}
    # via 1 (d1 2 x 1) still counts in both
    for data in (first, second):
        assert (table(data)["d1"]["points"], table(data)["d4"]["points"]) == (2, 1)
    assert_same(first, second, cup, twin)
    # the copy goes on like the original: once its duplas have PINs, confirming via 2 makes it count
    from tournaments.models import Dupla
    from tournaments.staff.pins import pin_hash_make

    assert Jogo.objects.get(tournament=twin, key=j1).counted_via == 1
    for dupla in Dupla.objects.filter(tournament=twin):
        dupla.pin_hash = pin_hash_make(PIN[dupla.key])
        dupla.save(update_fields=["pin_hash"])
    c = Client()
    assert answer(c, twin.slug, j1, "d1").status_code == 200
    assert answer(c, twin.slug, j1, "d4").json()["status"] == "confirmed"
    assert (table(export(twin))["d1"]["points"], table(export(twin))["d4"]["points"]) == (1, 2)
    assert (table(export(cup))["d1"]["points"], table(export(cup))["d4"]["points"]) == (2, 1)


def test_contested_jogo(cup, ref, j1):
    play(ref, cup.slug, j1, [1, 1], "c")
    answer(ref, cup.slug, j1, "d1", accept=False, reason="a d4 jogou com 4 cartas")
    answer(ref, cup.slug, j1, "d4")
    first, second, twin = roundtrip(cup)
    row = jogo_row(first, j1)
    assert row["status"] == "contested" and row["confirmations"] == {"d1": "contested", "d4": "confirmed"}
    assert table(first)["d4"]["jogos"] == 0
    assert_same(first, second, cup, twin)


def test_jogo_homologated_by_the_referees_decision(cup, ref, j1):
    other = jogo_between(cup, "d2", "d3")
    play(ref, cup.slug, j1, [0, 0], "h")
    answer(ref, cup.slug, j1, "d4", accept=False, reason="não concordamos")
    assert sign(ref, cup.slug, j1, reason="súmula conferida").status_code == 200
    post(ref, api(cup.slug, other, "resultado"), {"walkover": "d3"})
    assert sign(ref, cup.slug, other, reason="a d3 não veio").status_code == 200
    first, second, twin = roundtrip(cup)
    row = jogo_row(first, j1)
    assert row["status"] == "homologated" and row["confirmations"] == {"d1": None, "d4": "contested"}
    assert jogo_row(first, other)["status"] == "homologated" and jogo_row(first, other)["walkover"] == "d3"
    assert "confirmations" not in jogo_row(first, other)
    assert table(first)["d1"]["points"] == 3 and table(first)["d2"]["points"] == 3
    assert_same(first, second, cup, twin)


def test_in_progress_jogo_with_penalties_and_ties(cup, ref, j1):
    post(ref, api(cup.slug, j1, "penalidade"), {"id": "pp", "scope": "partida", "lost_by": "d4", "reason": "celular"})
    for k, body in enumerate(
        [
            {"to": None},
            {"to": 1, "points": 3, "how": "ran"},
            {"to": 0, "points": 1, "how": "penalty", "reason": "falou na mesa"},
        ]
    ):
        assert post(ref, api(cup.slug, j1, "maos"), {"id": f"m{k}"} | body).status_code == 201
    first, second, twin = roundtrip(cup)
    row = jogo_row(first, j1)
    assert row["status"] == "in_progress"
    assert row["partidas"][0] == {"penalty": {"lost_by": "d4", "reason": "celular"}}
    assert [m["id"] for m in row["partidas"][1]["maos"]] == ["m0", "m1", "m2"]
    assert_same(first, second, cup, twin)


def test_correction_of_an_unconfirmed_result_and_a_second_correction(cup, ref, j1):
    post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d1"})
    answer(ref, cup.slug, j1, "d4", accept=False, reason="chegamos no horário")
    post(ref, api(cup.slug, j1, "correcao"), {"reason": "WO anulado", "partidas": [[12, 5], [7, 12], [12, 11]]})
    answer(ref, cup.slug, j1, "d1")
    post(ref, api(cup.slug, j1, "correcao"), {"reason": "3ª partida 13 x 11", "partidas": [[12, 5], [7, 12], [13, 11]]})
    first, second, twin = roundtrip(cup)
    row = jogo_row(first, j1)
    assert row["via"] == 3 and [h["status"] for h in row["history"]] == ["contested", "awaiting_confirmation"]
    assert row["history"][0]["walkover"] == "d1"
    assert table(first)["d1"]["jogos"] == 0  # no via was ever confirmed
    assert_same(first, second, cup, twin)


def _group_played_and_confirmed(cup, ref, order):
    """Every group jogo won 2 x 0 by the dupla earlier in ``order``, confirmed by both duplas."""
    from tests.support.sumula import jogo_duplas

    for i, first in enumerate(order):
        for second in order[i + 1 :]:
            key = jogo_between(cup, first, second)
            won = jogo_duplas(cup, key).index(first)
            post(
                ref,
                api(cup.slug, key, "resultado"),
                {"partidas": [[12, 5], [12, 5]] if won == 0 else [[5, 12], [5, 12]]},
            )
            for dupla in jogo_duplas(cup, key):
                assert answer(ref, cup.slug, key, dupla).status_code == 200


def test_the_final_created_by_confirmed_group_results_round_trips(cup, ref):
    _group_played_and_confirmed(cup, ref, ["d1", "d2", "d3", "d4"])
    final = Jogo.objects.get(tournament=cup, stage__key="final")
    first, second, twin = roundtrip(cup)
    assert first["stages"][1]["draw"]["method"] == "fixed"
    assert jogo_row(first, final.key)["status"] == "scheduled"
    assert_same(first, second, cup, twin)
    play(ref, cup.slug, final.key, [0, 1, 1], "f")
    answer(ref, cup.slug, final.key, "d1")
    answer(ref, cup.slug, final.key, "d2")
    first, second, twin = roundtrip(cup)
    assert first["bracket"]["final"]["rounds"][0][0]["winner"] == "d2"
    assert [c["dupla"] for c in first["classification"][:2]] == ["d2", "d1"]
    assert_same(first, second, cup, twin)


def test_the_exported_bracket_shows_the_live_score_of_a_knockout_jogo_in_play(cup, ref):
    _group_played_and_confirmed(cup, ref, ["d1", "d2", "d3", "d4"])
    final = Jogo.objects.get(tournament=cup, stage__key="final")
    play(ref, cup.slug, final.key, [0, 1], "f")
    assert ref.get(api(cup.slug, final.key)).json()["score"] == [1, 1]
    first, second, _twin = roundtrip(cup)
    assert second["bracket"]["final"]["rounds"][0][0]["score"] == [1, 1]  # the copy, computed afresh
    assert first["bracket"]["final"]["rounds"][0][0]["score"] == [1, 1]  # the original, from the live súmula


def test_a_group_correction_that_changes_the_qualifiers_after_the_draw(cup, ref):
    from tests.support.sumula import jogo_duplas

    _group_played_and_confirmed(cup, ref, ["d1", "d2", "d3", "d4"])
    assert Jogo.objects.filter(tournament=cup, stage__key="final").count() == 1
    # d3 beat d2 and d4 beat d2, after all: d3 is second, d2 third
    for loser_was, winner in (("d2", "d3"), ("d2", "d4")):
        key = jogo_between(cup, loser_was, winner)
        won = jogo_duplas(cup, key).index(winner)
        r = post(
            ref,
            api(cup.slug, key, "correcao"),
            {"reason": "súmula trocada", "partidas": [[12, 5], [12, 5]] if won == 0 else [[5, 12], [5, 12]]},
        )
        if r.status_code == 409:  # the second correction would change the qualifiers: refused, nothing written
            assert "classificadas" in r.json()["errors"][0]
            assert "via" not in jogo_row(export(cup), key)
            break
        assert r.status_code == 200
        for dupla in jogo_duplas(cup, key):
            assert answer(ref, cup.slug, key, dupla).status_code == 200
    else:
        pytest.fail("a correction that changes the qualifiers after the draw was accepted")
    data = export(cup)
    qualified = {r["dupla"] for r in data["standings"]["grupos"]["A"] if r["qualified"]}
    finals = {frozenset(j["duplas"]) for j in data["jogos"] if j["stage"] == "final"}
    assert finals == {frozenset(qualified)}  # the bracket follows what counts …
    first, second, twin = roundtrip(cup)  # … and the file imports again
    assert_same(first, second, cup, twin)


# --- statuses read from a file ---------------------------------------------------------------------------


def _file_with(jogo: dict) -> dict:
    data = cup_file("copa-arquivo")
    data["jogos"] = [{"stage": "grupos", "group": "A", "duplas": ["d1", "d2"]} | jogo]
    return data


def test_an_imported_awaiting_result_does_not_count_and_a_confirmed_one_does():
    waiting = tournament_import(data=_file_with({"partidas": [[12, 3], [12, 4]], "status": "awaiting_confirmation"}))
    data = export(waiting)
    assert jogo_row(data, data["jogos"][0]["key"])["status"] == "awaiting_confirmation"
    assert table(data)["d1"]["jogos"] == 0 and table(data)["d1"]["points"] == 0
    confirmed = tournament_import(data=_file_with({"partidas": [[12, 3], [12, 4]], "status": "confirmed"}))
    data = export(confirmed)
    assert data["jogos"][0]["status"] == "confirmed"
    assert data["jogos"][0]["confirmations"] == {"d1": "confirmed", "d2": "confirmed"}
    assert table(data)["d1"]["points"] == 3
    official = tournament_import(data=_file_with({"partidas": [[12, 3], [12, 4]]}))
    assert export(official)["jogos"][0]["status"] == "homologated"
    assert table(export(official))["d1"]["points"] == 3


def test_an_imported_awaiting_result_can_be_confirmed_through_the_api(load_file):
    tournament = load_file(_file_with({"partidas": [[12, 3], [12, 4]], "status": "awaiting_confirmation", "key": "jx"}))
    from tests.support.sumula import PIN as pins
    from tournaments.models import Dupla
    from tournaments.staff.pins import pin_hash_make

    for dupla in Dupla.objects.filter(tournament=tournament):
        dupla.pin_hash = pin_hash_make(pins[dupla.key])
        dupla.save(update_fields=["pin_hash"])
    c = Client()
    assert answer(c, tournament.slug, "jx", "d1").status_code == 200
    assert answer(c, tournament.slug, "jx", "d2").json()["status"] == "confirmed"
    assert table(export(tournament))["d1"]["points"] == 3


@pytest.mark.parametrize(
    "jogo, place, words",
    [
        ({"status": "confirmed"}, "jogos[0].status", "decidido"),
        ({"status": "homologated", "partidas": [[12, 3]]}, "jogos[0].status", "decidido"),
        ({"status": "in_progress"}, "jogos[0].status", "in_progress"),
        ({"status": "scheduled", "partidas": [[12, 3], [12, 4]]}, "jogos[0].status", "scheduled"),
        ({"status": "in_progress", "partidas": [[12, 3], [12, 4]]}, "jogos[0].status", "in_progress"),
        ({"status": "done", "partidas": [[12, 3], [12, 4]]}, "jogos[0].status", "desconhecida"),
        (
            {"status": "confirmed", "partidas": [[12, 3], [12, 4]], "confirmations": {"d1": "confirmed", "d2": None}},
            "jogos[0].confirmations",
            "awaiting_confirmation",
        ),
        (
            {"status": "awaiting_confirmation", "partidas": [[12, 3], [12, 4]], "confirmations": {"d3": "confirmed"}},
            "jogos[0].confirmations.d3",
            "não joga",
        ),
        ({"status": "contested", "partidas": [[12, 3], [12, 4]]}, "jogos[0].confirmations", "contestou"),
        (
            {"status": "contested", "partidas": [[12, 3], [12, 4]], "confirmations": {"d1": "confirmed"}},
            "jogos[0].confirmations",
            "awaiting_confirmation",
        ),
        ({"status": "awaiting_confirmation", "partidas": [[12, 3], [12, 4]], "via": 2}, "jogos[0].via", "via"),
        (
            {
                "status": "awaiting_confirmation",
                "partidas": [[12, 3], [12, 4]],
                "history": [{"via": 2, "partidas": [[3, 12], [4, 12]]}],
            },
            "jogos[0].history[0].via",
            "ordem",
        ),
        (
            {
                "status": "awaiting_confirmation",
                "partidas": [[12, 3], [12, 4]],
                "history": [{"via": 1, "partidas": [[12, 12]]}],
            },
            "jogos[0].history[0].partidas[0]",
            "12 x 12",
        ),
    ],
)
def test_import_refuses_a_status_that_does_not_fit(jogo, place, words):
    with pytest.raises(RuleViolation) as exc:
        tournament_import(data=_file_with(jogo))
    messages = [str(e) for e in exc.value.errors]
    assert any(m.startswith(place) and words in m for m in messages), messages
    assert not Tournament.objects.filter(name="Copa da Súmula").exists()


# --- any sequence of API calls ---------------------------------------------------------------------------

JOGOS = [("d1", "d4"), ("d2", "d3")]
RESULTS = [
    {"partidas": [[12, 5], [12, 7]]},
    {"partidas": [[5, 12], [12, 3], [11, 13]]},
    {"partidas": [[22, 10], [12, 11]]},
    {"partidas": [{"penalty": {"lost_by": 0, "reason": "celular"}}, [12, 0], [14, 11]]},
    {"walkover": 0},
    {"walkover": "both"},
    {"penalty": {"lost_by": 1, "reason": "ofensa"}},
    {
        "partidas": [
            {"maos": [{"to": 0, "points": 12}]},
            {"maos": [{"to": 1, "points": 9}, {"to": 1, "points": 3}]},
            {"maos": [{"to": 0, "points": 12}]},
        ]
    },
    {"partidas": [[12, 12]]},  # impossible: refused
    {"partidas": [[12, 3]]},  # not decided: a correction refuses it; resultado takes it (in progress)
]

jogo_index = st.integers(min_value=0, max_value=len(JOGOS) - 1)
side = st.integers(min_value=0, max_value=1)
mostly = st.sampled_from([True, True, True, True, False])
result_index = st.integers(min_value=0, max_value=len(RESULTS) - 1)
mao_op = st.tuples(
    st.just("mao"),
    jogo_index,
    st.sampled_from([0, 1, 0, 1, None]),
    st.sampled_from([3, 3, 6, 9, 12, 12, 1, None]),
    st.sampled_from(["played"] * 6 + ["ran", "refused", "penalty"]),
    st.integers(min_value=0, max_value=5),
)
partida_op = st.tuples(st.just("partida"), jogo_index, side)
undo_op = st.tuples(st.just("undo"), jogo_index, mostly)
result_op = st.tuples(st.just("resultado"), jogo_index, result_index)
# (dupla side, accept, right PIN, with a reason)
answer_op = st.tuples(st.just("answer"), jogo_index, side, mostly, mostly, mostly)
homologate_op = st.tuples(st.just("homologate"), jogo_index, st.booleans())
correct_op = st.tuples(st.just("correct"), jogo_index, result_index, mostly)
penalty_op = st.tuples(st.just("penalty"), jogo_index, st.sampled_from(["partida", "jogo"]), side)
# one_of picks a branch uniformly: repeating one weighs it
ops = st.one_of(
    mao_op,
    mao_op,
    partida_op,
    partida_op,
    partida_op,
    undo_op,
    result_op,
    result_op,
    answer_op,
    answer_op,
    answer_op,
    answer_op,
    homologate_op,
    correct_op,
    correct_op,
    correct_op,
    penalty_op,
)

ALLOWED = {200, 201, 403, 404, 409, 422, 429}


class _Rollback(Exception):
    pass


def _named(result: dict, duplas: tuple[str, str]) -> dict:
    """A RESULTS item with its sides (0/1) named by the jogo's dupla keys."""

    def name(v):
        return duplas[v] if isinstance(v, int) else v

    out = copy.deepcopy(result)
    if "walkover" in out:
        out["walkover"] = name(out["walkover"])
    if "penalty" in out:
        out["penalty"]["lost_by"] = name(out["penalty"]["lost_by"])
    for p in out.get("partidas", []):
        if isinstance(p, dict) and "penalty" in p:
            p["penalty"]["lost_by"] = name(p["penalty"]["lost_by"])
    return out


def _apply(op, cup, ref, anon, keys, sent: list[tuple[str, dict]], counter) -> int:
    kind, j = op[0], op[1]
    key = keys[j]
    duplas = tuple(
        Jogo.objects.filter(pk=Jogo.objects.get(tournament=cup, key=key).pk)
        .values_list("dupla_a__key", "dupla_b__key")
        .get()
    )
    if kind == "mao":
        _k, _j, to, points, how, repeat = op
        earlier = [body for k, body in sent if k == key]
        if repeat and earlier and repeat <= len(earlier):
            body = earlier[-repeat]  # a queued retry
        else:
            body = {"id": f"m{next(counter)}", "to": to}
            if points is not None:
                body["points"] = points
            if how != "played":
                body["how"] = how
            if how == "penalty":
                body["reason"] = "falou durante a mão"
            sent.append((key, body))
        return post(ref, api(cup.slug, key, "maos"), body).status_code
    if kind == "partida":  # four mãos of 3 to one dupla: ends a partida from most scores
        status = 0
        for _n in range(4):
            body = {"id": f"m{next(counter)}", "to": op[2], "points": 3}
            sent.append((key, body))
            status = post(ref, api(cup.slug, key, "maos"), body).status_code
            if status not in (200, 201):
                break
        return status
    if kind == "undo":
        s = ref.get(api(cup.slug, key)).json()
        ids = [m["id"] for p in s["partidas"] for m in p["maos"]]
        if not ids:
            return ref.delete(api(cup.slug, key, "maos") + "nenhuma/").status_code
        target = ids[-1] if op[2] else ids[0]
        return ref.delete(api(cup.slug, key, "maos") + f"{target}/").status_code
    if kind == "resultado":
        return post(ref, api(cup.slug, key, "resultado"), _named(RESULTS[op[2]], duplas)).status_code
    if kind == "answer":
        _k, _j, who, accept, pin, with_reason = op
        dupla = duplas[who]
        body = {
            "dupla": dupla,
            "pin": PIN[dupla] if pin else "000000",
            "via": current_via(cup.slug, key),
            "accept": accept,
        }
        if with_reason:
            body["reason"] = "o placar está errado"
        return post(anon, api(cup.slug, key, "confirmacao"), body).status_code
    if kind == "homologate":
        return sign(ref, cup.slug, key, **({"reason": "decisão do árbitro"} if op[2] else {})).status_code
    if kind == "correct":
        body = _named(RESULTS[op[2]], duplas)
        if op[3]:
            body["reason"] = f"correção {next(counter)}"
        return post(ref, api(cup.slug, key, "correcao"), body).status_code
    if kind == "penalty":
        return post(
            ref,
            api(cup.slug, key, "penalidade"),
            {"id": f"p{next(counter)}", "scope": op[2], "lost_by": duplas[op[3]], "reason": "penalidade"},
        ).status_code
    raise AssertionError(op)


# a script of súmula calls per example (tests/sumula/test_kept_records.py drives the same scripts)
SCRIPTS = settings(
    max_examples=int(__import__("os").environ.get("SUMULA_EXAMPLES", 25)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
scripts = st.lists(ops, min_size=12, max_size=40)


@SCRIPTS
@given(script=scripts)
def test_any_sequence_of_api_calls_round_trips(cup, referee, script):
    keys = [jogo_between(cup, a, b) for a, b in JOGOS]
    try:
        with transaction.atomic():
            tournament_state_cache_clear()  # the previous example's states were rolled back
            ref, anon = Client(), Client()
            ref.force_login(referee)
            counter = itertools.count(1)
            sent: list[tuple[str, dict]] = []
            for op in script:
                status = _apply(op, cup, ref, anon, keys, sent, counter)
                assert status in ALLOWED, (op, status)
            first, second, twin = roundtrip(cup)
            assert_same(first, second, cup, twin)
            # the statuses the export writes are the súmulas' own
            for key in keys:
                row = jogo_row(first, key)
                assert row["status"] == Jogo.objects.get(tournament=cup, key=key).status
                event(f"status {row['status']}")
                event(f"via {row.get('via', 1)}")
                for old in row.get("history", []):
                    event(f"history status {old['status']}")
            raise _Rollback
    except _Rollback:
        pass
    finally:
        tournament_state_cache_clear()
