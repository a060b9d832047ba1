"""The súmula API (docs/contrato.md, "Súmula API"), end to end through the Django test client.

Reads, mãos (idempotent by their client-made id), the rules of docs/regras.md §3
(422 naming partida and mão), undo, the whole result at once, confirmations,
contests, homologation, corrections (new vias), the knockout jogo that
appears once the group results that decide it are confirmed, and the error
shape. Every refused write is checked to have written nothing.
"""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.support.sumula import PIN, answer, api, db_snapshot, jogo_between, jogo_duplas, play, post, sign, staff_user
from tournaments.interchange.writer import tournament_export
from tournaments.models import Jogo, Mao, Partida, SumulaEvent, Tournament

pytestmark = pytest.mark.django_db

LIST_FIELDS = {"key", "stage", "group", "round", "mesa", "duplas", "status", "score", "current"}
SUMULA_FIELDS = {"key", "duplas", "best_of", "status", "via", "partidas", "score", "winner", "confirmations", "version"}


def standings(tournament) -> dict[str, dict]:
    """The group table of the export, by dupla (the tournament row refetched: its versions moved)."""
    fresh = Tournament.objects.get(pk=tournament.pk)
    rows = tournament_export(tournament=fresh)["standings"]["grupos"]["A"]
    return {r["dupla"]: r for r in rows}


def errors_of(response) -> list[str]:
    assert response["Content-Type"].startswith("application/json"), response.content
    data = response.json()
    assert set(data) == {"errors"}, data
    assert isinstance(data["errors"], list) and data["errors"], data
    assert all(isinstance(e, str) and e for e in data["errors"])
    return data["errors"]


def refused(client_call, status: int) -> list[str]:
    """Run a write that must be refused with ``status``; check the error shape and that nothing was written."""
    before = db_snapshot()
    response = client_call()
    assert response.status_code == status, (response.status_code, response.content)
    messages = errors_of(response)
    assert db_snapshot() == before
    return messages


def mao(client, slug, key, id_, to, points=None, how=None, **extra):
    body = {"id": id_, "to": to}
    if points is not None:
        body["points"] = points
    if how is not None:
        body["how"] = how
    return post(client, api(slug, key, "maos"), body | extra)


# --- reads -----------------------------------------------------------------------------------------------


def test_list_has_every_jogo_with_the_contract_fields(cup, ref, j1):
    data = ref.get(api(cup.slug)).json()
    jogos = {j["key"]: j for j in data["jogos"]}
    assert set(jogos) == set(Jogo.objects.filter(tournament=cup).values_list("key", flat=True))
    assert len(jogos) == 6  # a group of four: six jogos; the final does not exist yet
    for j in jogos.values():
        assert LIST_FIELDS <= set(j), j
        assert j["stage"] == "grupos" and j["group"] == "A"
        assert isinstance(j["round"], int) and isinstance(j["mesa"], int)
        assert len(j["duplas"]) == 2 and set(j["duplas"]) <= set(PIN)
        assert j["status"] == "scheduled" and j["score"] == [0, 0] and j["current"] is None

    mao(ref, cup.slug, j1, "a", 0, 3)
    mao(ref, cup.slug, j1, "b", 1, 1)
    row = {j["key"]: j for j in ref.get(api(cup.slug)).json()["jogos"]}[j1]
    assert row["status"] == "in_progress" and row["current"] == [3, 1] and row["score"] == [0, 0]

    mao(ref, cup.slug, j1, "c", 0, 9)  # 12 x 1: partida 1 to d1; partida 2 not started
    row = {j["key"]: j for j in ref.get(api(cup.slug)).json()["jogos"]}[j1]
    assert row["score"] == [1, 0] and row["current"] is None and row["status"] == "in_progress"


def test_sumula_read_and_its_version_grows_with_every_write(cup, ref, j1):
    first = ref.get(api(cup.slug, j1))
    assert first.status_code == 200
    s = first.json()
    assert SUMULA_FIELDS <= set(s)
    assert s["key"] == j1 and s["duplas"] == ["d1", "d4"] and s["best_of"] == 3
    assert s["status"] == "scheduled" and s["via"] == 1 and s["partidas"] == [] and s["score"] == [0, 0]
    assert s["winner"] is None and s["confirmations"] == {"d1": None, "d4": None}
    versions = [s["version"]]
    for k, (to, points) in enumerate([(0, 3), (1, 6), (0, 1)]):
        r = mao(ref, cup.slug, j1, f"m{k}", to, points)
        assert r.status_code == 201
        versions.append(r.json()["version"])
        assert ref.get(api(cup.slug, j1)).json()["version"] == versions[-1]
    assert versions == sorted(set(versions)), versions  # strictly growing
    s = ref.get(api(cup.slug, j1)).json()
    [partida] = s["partidas"]
    assert [m["id"] for m in partida["maos"]] == ["m0", "m1", "m2"]
    assert [m["score"] for m in partida["maos"]] == [[3, 0], [3, 6], [4, 6]]
    assert partida["score"] == [4, 6] and partida["winner"] is None
    # a retry changes nothing, so the version stays
    again = mao(ref, cup.slug, j1, "m2", 0, 1)
    assert again.status_code == 200 and again.json()["version"] == versions[-1]


def test_unknown_tournament_jogo_or_via_answer_404_json(cup, ref, j1):
    for url in (api("nao-existe"), api("nao-existe", j1), api(cup.slug, "zz99")):
        r = ref.get(url)
        assert r.status_code == 404 and errors_of(r), url
    r = ref.get(api(cup.slug, j1) + "?via=2")
    assert r.status_code == 404 and errors_of(r)
    # not a via: letters, a superscript or another script's digit (digits to str.isdigit, not to int), too long
    for via in ("abc", "%C2%B2", "%D9%A3", "1" * 10, "0"):
        r = ref.get(api(cup.slug, j1) + "?via=" + via)
        assert r.status_code == 400 and errors_of(r) == ["via deve ser um número inteiro ≥ 1"], via
    refused(lambda: mao(ref, cup.slug, "zz99", "x", 0, 1), 404)


# --- mãos ------------------------------------------------------------------------------------------------


def test_mao_201_then_same_id_200_with_nothing_added(cup, ref, j1):
    r = mao(ref, cup.slug, j1, "uuid-1", 0, 3)
    assert r.status_code == 201
    assert r.json()["partidas"][0]["maos"][0]["id"] == "uuid-1"
    before = db_snapshot()
    for body in ({"to": 0, "points": 3}, {"to": 1, "points": 12}):  # same id, even with other content
        again = post(ref, api(cup.slug, j1, "maos"), {"id": "uuid-1"} | body)
        assert again.status_code == 200
        assert again.json()["partidas"] == r.json()["partidas"]
    assert db_snapshot() == before
    assert Mao.objects.filter(partida__jogo__key=j1).count() == 1


def test_a_mao_costs_ten_queries_and_writes_only_what_changed(cup, ref, j1):
    """The referee's phone sends every mão: its cost is the event's busiest request, counted here so that a
    regression fails. Session, user, the tournament with the referee's role, the savepoint, the jogo's lock
    (with its duplas, stage and group), its partidas with their mãos, the log (whose insert is the idempotency
    check), the mão, the jogo's new version, the savepoint's release. (A mão after another one that committed reads
    no partidas: the process keeps the jogo's record, tests/sumula/test_kept_records.py; here nothing commits.)"""
    assert mao(ref, cup.slug, j1, "q0", 0, 1).status_code == 201  # the first mão also begins the partida
    with CaptureQueriesContext(connection) as queries:
        r = mao(ref, cup.slug, j1, "q1", 1, 1)
    assert r.status_code == 201 and r.json()["current"] == [1, 1]
    sqls = [q["sql"] for q in queries.captured_queries]
    assert len(sqls) == 10, "\n".join(sqls)
    roles = [q for q in sqls if "tournaments_staffrole" in q]
    assert len(roles) == 1 and '"tournaments_tournament"' in roles[0], "the role is read with the tournament"
    updates = [q for q in sqls if q.startswith("UPDATE")]
    assert len(updates) == 1 and updates[0].startswith('UPDATE "tournaments_jogo" SET "version" = '), updates
    assert sum(q.startswith("INSERT") for q in sqls) == 2  # the log and the mão
    # the retry of that mão: the locked súmula has it, so nothing is written and the súmula as locked answers
    before = db_snapshot()
    with CaptureQueriesContext(connection) as queries:
        again = mao(ref, cup.slug, j1, "q1", 1, 1)
    assert again.status_code == 200 and again.json() == r.json()
    assert len(queries) == 7, "\n".join(q["sql"] for q in queries.captured_queries)
    assert db_snapshot() == before


def test_the_plain_queries_make_what_the_orm_makes(cup, client, ref, j1):
    """The lock, the record and the tournament with the role are plain SQL (``tournaments.plainsql``): their
    instances hold what the ORM's would, JSON, datetimes and booleans included (a signed súmula has them all)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments.permissions import role_of, tournament_with_role
    from tournaments.sumula.records import jogo_lock, jogo_record_load

    play(ref, cup.slug, j1, [0, 0], "t")
    answer(client, cup.slug, j1, "d1")
    answer(client, cup.slug, j1, "d4")
    assert sign(ref, cup.slug, j1).json()["status"] == "homologated"

    def columns(instance):
        return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}

    referee = get_user_model().objects.get(username="arbitro")
    tournament = tournament_with_role(user=referee, slug=cup.slug)
    assert columns(tournament) == columns(Tournament.objects.get(pk=cup.pk))
    from tournaments.selectors import tournament_by_slug  # every public page's first query

    assert columns(tournament_by_slug(slug=cup.slug)) == columns(Tournament.objects.get(pk=cup.pk))
    assert tournament_by_slug(slug=cup.slug + "-nenhum") is None
    assert referee._zap_roles == {cup.pk: "referee"}  # role_of asks no more
    with transaction.atomic():
        jogo = jogo_lock(tournament=tournament, key=j1)
    orm = Jogo.objects.select_related("dupla_a", "dupla_b", "stage", "group").get(tournament=cup, key=j1)
    assert columns(jogo) == columns(orm) and jogo.signed_at is not None and jogo.confirmations
    for name in ("dupla_a", "dupla_b", "stage", "group"):
        assert columns(getattr(jogo, name)) == columns(getattr(orm, name))
    _entry, partidas, maos = jogo_record_load(jogo=jogo)
    assert [columns(p) for p in partidas] == [columns(p) for p in Partida.objects.filter(jogo=orm).order_by("number")]
    assert [columns(m) for p in partidas for m in maos.get(p.pk, [])] == [
        columns(m) for m in Mao.objects.filter(partida__jogo=orm).order_by("partida__number", "order")
    ]
    assert tournament_with_role(user=None, slug="nao-existe") is None
    user = staff_user(None, "outro")
    assert tournament_with_role(user=user, slug=cup.slug).pk == cup.pk and role_of(user=user, tournament=cup) is None


def test_partida_ending_at_12_starts_the_next(cup, ref, j1):
    for k, points in enumerate([3, 3, 3]):
        mao(ref, cup.slug, j1, f"a{k}", 0, points)
    r = mao(ref, cup.slug, j1, "a3", 0, 6)  # 15 x 0: a 6 from 9 ends the partida
    assert r.status_code == 201
    s = r.json()
    assert s["partidas"][0]["score"] == [15, 0] and s["partidas"][0]["winner"] == "d1"
    assert s["partidas"][0]["finished"] is True
    assert s["score"] == [1, 0] and s["status"] == "in_progress"
    r = mao(ref, cup.slug, j1, "b0", 1, 1)
    s = r.json()
    assert r.status_code == 201 and len(s["partidas"]) == 2
    assert s["partidas"][1]["maos"] == [{"id": "b0", "to": 1, "points": 1, "how": "played", "score": [0, 1]}]
    assert s["current"] == [0, 1]
    assert Partida.objects.filter(jogo__key=j1).count() == 2


def test_jogo_ends_when_decided_then_further_maos_409_but_known_ids_200(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 1], "x")  # 1 x 1 after two partidas
    s = ref.get(api(cup.slug, j1)).json()
    assert s["score"] == [1, 1] and s["status"] == "in_progress" and s["winner"] is None
    r = play(ref, cup.slug, j1, [1], "y")  # d4 wins the third partida: 2 x 1 in a best of 3
    s = r.json()
    assert s["status"] == "awaiting_confirmation" and s["winner"] == "d4" and s["score"] == [1, 2]
    assert s["current"] is None
    messages = refused(lambda: mao(ref, cup.slug, j1, "late", 0, 1), 409)
    assert any("terminou" in m for m in messages), messages
    # a queued retry of a mão already recorded still answers 200, with the súmula as it stands
    before = db_snapshot()
    retry = mao(ref, cup.slug, j1, "x-p0-0", 0, 3)
    assert retry.status_code == 200 and retry.json()["status"] == "awaiting_confirmation"
    assert db_snapshot() == before


def test_a_mao_without_id_or_with_a_bad_body_is_refused(cup, ref, j1):
    refused(lambda: post(ref, api(cup.slug, j1, "maos"), {"to": 0, "points": 1}), 422)
    refused(lambda: post(ref, api(cup.slug, j1, "maos"), {"id": "", "to": 0, "points": 1}), 422)
    refused(lambda: post(ref, api(cup.slug, j1, "maos"), {"id": "x" * 65, "to": 0, "points": 1}), 422)
    refused(lambda: post(ref, api(cup.slug, j1, "maos"), {"id": "q", "points": 1}), 422)
    refused(lambda: ref.post(api(cup.slug, j1, "maos"), data="{não é json", content_type="application/json"), 400)
    refused(lambda: post(ref, api(cup.slug, j1, "maos"), [1, 2]), 400)


@pytest.mark.parametrize(
    "setup, bad, where, words",
    [
        # 99 points: no mão is worth that
        ([], {"to": 0, "points": 99}, "partida 1, mão 1", "99"),
        # d1 on 11 (9 + 1 + 1): nobody runs from a mão de onze
        (
            [(0, 9, None), (0, 1, None), (0, 1, None)],
            {"to": 1, "points": 1, "how": "ran"},
            "partida 1, mão 4",
            "mão de onze",
        ),
        # truco (3) at 11 x 11: the mão de ferro is worth 1 (FENACEF)
        (
            [(1, 9, None), (1, 1, None), (0, 9, None), (0, 1, None), (1, 1, None), (0, 1, "refused")],
            {"to": 0, "points": 3},
            "partida 1, mão 7",
            "mão de ferro",
        ),
        # an accepted mão de onze is worth 3, not 6
        ([(1, 9, None), (1, 1, None), (1, 1, None)], {"to": 0, "points": 6}, "partida 1, mão 4", "mão de onze"),
        # a tie with points
        ([], {"to": None, "points": 3}, "partida 1, mão 1", "empatadas"),
        # a penalty needs a reason
        ([], {"to": 0, "points": 1, "how": "penalty"}, "partida 1, mão 1", "motivo"),
    ],
)
def test_rule_breaks_are_422_in_portuguese_naming_partida_and_mao(cup, ref, j1, setup, bad, where, words):
    for k, (to, points, how) in enumerate(setup):
        r = mao(ref, cup.slug, j1, f"s{k}", to, points, how)
        assert r.status_code == 201, r.content
    messages = refused(lambda: post(ref, api(cup.slug, j1, "maos"), {"id": "bad"} | bad), 422)
    assert any(m.startswith(where + ":") and words in m for m in messages), messages
    # the refused id was not recorded: it can be sent again, corrected
    assert not SumulaEvent.objects.filter(client_id="bad").exists()


def test_rule_break_in_the_second_partida_names_partida_2(cup, ref, j1):
    play(ref, cup.slug, j1, [0], "p")
    for k, (to, points, how) in enumerate(
        [(1, 9, None), (1, 1, None), (0, 9, None), (0, 1, None), (1, 1, None), (0, 1, "refused")]
    ):
        assert mao(ref, cup.slug, j1, f"f{k}", to, points, how).status_code == 201
    s = ref.get(api(cup.slug, j1)).json()
    assert s["current"] == [11, 11]
    messages = refused(lambda: mao(ref, cup.slug, j1, "truco", 1, 3), 422)
    assert any(m.startswith("partida 2, mão 7: ") for m in messages), messages
    # the mão de ferro at its value ends the partida
    r = mao(ref, cup.slug, j1, "ferro", 1, 1)
    assert r.status_code == 201 and r.json()["partidas"][1]["score"] == [11, 12]


# --- undo ------------------------------------------------------------------------------------------------


def test_undo_the_last_mao_only(cup, ref, j1):
    for k in range(3):
        mao(ref, cup.slug, j1, f"u{k}", k % 2, 1)
    refused(lambda: ref.delete(api(cup.slug, j1, "maos") + "u1/"), 409)
    refused(lambda: ref.delete(api(cup.slug, j1, "maos") + "u0/"), 409)
    refused(lambda: ref.delete(api(cup.slug, j1, "maos") + "nunca/"), 404)
    version = ref.get(api(cup.slug, j1)).json()["version"]
    r = ref.delete(api(cup.slug, j1, "maos") + "u2/")
    assert r.status_code == 200
    s = r.json()
    assert [m["id"] for m in s["partidas"][0]["maos"]] == ["u0", "u1"] and s["current"] == [1, 1]
    assert s["version"] > version
    # a retried undo of the same mão answers 200 and removes nothing more
    before = db_snapshot()
    assert ref.delete(api(cup.slug, j1, "maos") + "u2/").status_code == 200
    assert db_snapshot() == before
    # a late retry of the undone mão's POST does not bring it back
    again = mao(ref, cup.slug, j1, "u2", 0, 1)
    assert again.status_code == 200 and again.json()["current"] == [1, 1]
    assert db_snapshot() == before
    # now u1 is the last one
    assert ref.delete(api(cup.slug, j1, "maos") + "u1/").status_code == 200
    assert Mao.objects.filter(partida__jogo__key=j1).count() == 1


def test_undo_reopens_a_decided_jogo_and_drops_an_emptied_partida(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "w")
    assert ref.get(api(cup.slug, j1)).json()["status"] == "awaiting_confirmation"
    r = ref.delete(api(cup.slug, j1, "maos") + "w-p1-3/")
    assert r.status_code == 200 and r.json()["status"] == "in_progress" and r.json()["current"] == [9, 0]
    for k in (2, 1, 0):
        assert ref.delete(api(cup.slug, j1, "maos") + f"w-p1-{k}/").status_code == 200
    s = ref.get(api(cup.slug, j1)).json()
    assert len(s["partidas"]) == 1 and s["score"] == [1, 0]
    assert Partida.objects.filter(jogo__key=j1).count() == 1


def test_undo_after_a_confirmation_is_409(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "c")
    assert answer(ref, cup.slug, j1, "d4").status_code == 200
    messages = refused(lambda: ref.delete(api(cup.slug, j1, "maos") + "c-p1-3/"), 409)
    assert any("correção" in m for m in messages)


# --- the whole result at once ----------------------------------------------------------------------------


def test_resultado_as_partida_scores(cup, ref, j1):
    r = post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 7], [9, 12], [13, 11]]})
    assert r.status_code == 200, r.content
    s = r.json()
    assert s["status"] == "awaiting_confirmation" and s["winner"] == "d1" and s["score"] == [2, 1]
    assert [p["score"] for p in s["partidas"]] == [[12, 7], [9, 12], [13, 11]]
    assert Mao.objects.filter(partida__jogo__key=j1).count() == 0


def test_resultado_walkover_and_perda_do_jogo(cup, ref, j1):
    other = jogo_between(cup, "d2", "d3")
    r = post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d4"})
    assert r.status_code == 200 and r.json()["walkover"] == "d4" and r.json()["winner"] == "d1"
    assert r.json()["status"] == "awaiting_confirmation"
    r = post(ref, api(cup.slug, other, "resultado"), {"penalty": {"lost_by": "d2", "reason": "ofendeu o árbitro"}})
    assert r.status_code == 200 and r.json()["winner"] == "d3"
    assert r.json()["penalty"] == {"lost_by": "d2", "reason": "ofendeu o árbitro"}


def test_a_walkover_needs_no_answer_of_the_absent_dupla_and_keeps_its_reason(cup, ref, j1):
    """Issue 41 item 16: only the present dupla confirms a WO; with both absent it counts at once. The reason
    is kept (``walkover_reason``) in the súmula, the export and the earlier via after a correction."""
    r = post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d4", "walkover_reason": "não veio às 14h"})
    assert r.status_code == 200 and r.json()["walkover_reason"] == "não veio às 14h"
    assert answer(ref, cup.slug, j1, "d1").json()["status"] == "confirmed"
    assert standings(cup)["d1"]["points"] == 3  # it counts: no PIN of d4 was needed
    late = answer(ref, cup.slug, j1, "d4")  # the absent dupla agreeing later changes nothing
    assert late.status_code == 200 and late.json()["confirmations"] == {"d1": "confirmed", "d4": None}
    assert sign(ref, cup.slug, j1).json()["status"] == "homologated"  # signed with no decision to write
    both = jogo_between(cup, "d2", "d3")
    r = post(ref, api(cup.slug, both, "resultado"), {"walkover": "both", "walkover_reason": "ninguém veio"})
    assert r.json()["status"] == "confirmed" and standings(cup)["d2"]["jogos"] == 1
    exported = {j["key"]: j for j in tournament_export(tournament=Tournament.objects.get(pk=cup.pk))["jogos"]}
    assert exported[j1]["walkover_reason"] == "não veio às 14h" and exported[both]["walkover_reason"] == "ninguém veio"
    # a WO written without a reason (an older client) is still taken, as an older file is
    third = jogo_between(cup, "d1", "d3")
    r = post(ref, api(cup.slug, third, "resultado"), {"walkover": "d3"})
    assert r.status_code == 200 and "walkover_reason" not in r.json()


def test_resultado_refused_once_a_mao_exists_and_when_impossible(cup, ref, j1):
    messages = refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 12], [12, 0]]}), 422)
    assert any("12 x 12" in m for m in messages), messages
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[24, 3], [12, 0]]}), 422)
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 0], [12, 0], [12, 0]]}), 422)
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d9"}), 422)
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {}), 422)
    mao(ref, cup.slug, j1, "first", 0, 1)
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 0], [12, 0]]}), 409)
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d1"}), 409)


def test_resultado_after_a_decided_result_needs_a_correction(cup, ref, j1):
    assert post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 0], [12, 0]]}).status_code == 200
    assert answer(ref, cup.slug, j1, "d1").status_code == 200
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[0, 12], [0, 12]]}), 409)


# --- penalties (the API's extension) ---------------------------------------------------------------------


def test_penalidade_partida_and_jogo(cup, ref, j1):
    mao(ref, cup.slug, j1, "m0", 0, 3)
    r = post(
        ref,
        api(cup.slug, j1, "penalidade"),
        {"id": "pen-1", "scope": "partida", "lost_by": "d1", "reason": "trucou com 4 cartas"},
    )
    assert r.status_code == 200, r.content
    s = r.json()
    assert s["partidas"][0]["penalty"] == {"lost_by": "d1", "reason": "trucou com 4 cartas"}
    assert s["partidas"][0]["score"] == [0, 12] and s["score"] == [0, 1]
    before = db_snapshot()
    assert (
        post(
            ref,
            api(cup.slug, j1, "penalidade"),
            {"id": "pen-1", "scope": "partida", "lost_by": "d1", "reason": "trucou com 4 cartas"},
        ).status_code
        == 200
    )
    assert db_snapshot() == before
    refused(
        lambda: post(ref, api(cup.slug, j1, "penalidade"), {"id": "pen-2", "scope": "partida", "lost_by": "d1"}), 422
    )
    refused(
        lambda: post(
            ref, api(cup.slug, j1, "penalidade"), {"id": "pen-2", "scope": "set", "lost_by": "d1", "reason": "x"}
        ),
        422,
    )
    refused(
        lambda: post(
            ref, api(cup.slug, j1, "penalidade"), {"id": "pen-2", "scope": "jogo", "lost_by": "d2", "reason": "x"}
        ),
        422,
    )
    r = post(
        ref,
        api(cup.slug, j1, "penalidade"),
        {"id": "pen-2", "scope": "jogo", "lost_by": "d4", "reason": "abandonou a mesa"},
    )
    assert r.status_code == 200
    s = r.json()
    assert s["winner"] == "d1" and s["status"] == "awaiting_confirmation" and s["score"] == [2, 0]
    assert s["penalty"] == {"lost_by": "d4", "reason": "abandonou a mesa"}
    refused(
        lambda: post(
            ref, api(cup.slug, j1, "penalidade"), {"id": "pen-3", "scope": "partida", "lost_by": "d1", "reason": "x"}
        ),
        409,
    )


# --- confirmations, contests, homologation ---------------------------------------------------------------


def test_confirmation_only_once_the_result_is_complete(cup, client, ref, j1):
    refused(lambda: answer(client, cup.slug, j1, "d1"), 409)
    play(ref, cup.slug, j1, [0], "h")
    refused(lambda: answer(client, cup.slug, j1, "d1"), 409)
    play(ref, cup.slug, j1, [0], "i")
    r = answer(client, cup.slug, j1, "d1")
    assert r.status_code == 200 and r.json()["confirmations"] == {"d1": "confirmed", "d4": None}
    assert r.json()["status"] == "awaiting_confirmation"


def test_contest_needs_a_reason(cup, client, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "k")
    messages = refused(lambda: answer(client, cup.slug, j1, "d4", accept=False), 422)
    assert any("motivo" in m for m in messages)
    refused(lambda: answer(client, cup.slug, j1, "d4", accept=False, reason="   "), 422)
    refused(lambda: post(client, api(cup.slug, j1, "confirmacao"), {"dupla": "d4", "pin": PIN["d4"], "via": 1}), 422)
    refused(
        lambda: post(
            client, api(cup.slug, j1, "confirmacao"), {"dupla": "d9", "pin": "123456", "via": 1, "accept": True}
        ),
        422,
    )
    r = answer(client, cup.slug, j1, "d4", accept=False, reason="a última mão foi nossa")
    assert r.status_code == 200
    assert r.json()["status"] == "contested" and r.json()["confirmations"] == {"d1": None, "d4": "contested"}


def test_status_from_scheduled_to_homologated(cup, client, ref, j1):
    def status():
        return ref.get(api(cup.slug, j1)).json()["status"]

    assert status() == "scheduled"
    mao(ref, cup.slug, j1, "s0", 0, 1)
    assert status() == "in_progress"
    play(ref, cup.slug, j1, [0, 0], "t")
    assert status() == "awaiting_confirmation"
    refused(lambda: sign(ref, cup.slug, j1), 422)  # a confirmation is missing
    assert answer(client, cup.slug, j1, "d1").json()["status"] == "awaiting_confirmation"
    before = db_snapshot()
    assert answer(client, cup.slug, j1, "d1").status_code == 200  # the same answer again: nothing new
    assert db_snapshot() == before
    assert answer(client, cup.slug, j1, "d4").json()["status"] == "confirmed"
    refused(lambda: answer(client, cup.slug, j1, "d4", accept=False, reason="mudei de ideia"), 409)
    r = sign(ref, cup.slug, j1)
    assert r.status_code == 200 and r.json()["status"] == "homologated"
    assert r.json()["signed"]["at"] and r.json()["signed"]["reason"] is None
    # signed: nothing more is entered; a retried signature is harmless
    refused(lambda: mao(ref, cup.slug, j1, "late", 0, 1), 409)
    refused(lambda: ref.delete(api(cup.slug, j1, "maos") + "t-p1-3/"), 409)
    refused(lambda: post(ref, api(cup.slug, j1, "resultado"), {"partidas": [[12, 0], [12, 0]]}), 409)
    refused(lambda: answer(client, cup.slug, j1, "d1", accept=False, reason="tarde demais"), 409)
    assert sign(ref, cup.slug, j1).status_code == 200


def test_homologation_before_the_end_is_409(cup, ref, j1):
    refused(lambda: sign(ref, cup.slug, j1, reason="x"), 409)
    mao(ref, cup.slug, j1, "a", 0, 1)
    refused(lambda: sign(ref, cup.slug, j1, reason="x"), 409)


def test_homologation_of_a_contested_sumula_needs_the_referees_decision(cup, client, ref, j1):
    play(ref, cup.slug, j1, [1, 1], "v")
    assert answer(client, cup.slug, j1, "d1").status_code == 200
    assert answer(client, cup.slug, j1, "d4", accept=False, reason="a 2ª partida foi 12 x 11").status_code == 200
    assert ref.get(api(cup.slug, j1)).json()["status"] == "contested"
    messages = refused(lambda: sign(ref, cup.slug, j1), 422)
    assert any("contestada" in m for m in messages), messages
    refused(lambda: sign(ref, cup.slug, j1, reason="  "), 422)
    r = sign(ref, cup.slug, j1, reason="súmula conferida com as duplas")
    assert r.status_code == 200 and r.json()["status"] == "homologated"
    assert r.json()["signed"]["reason"] == "súmula conferida com as duplas"
    assert standings(cup)["d4"]["points"] == 3


def test_only_counted_results_reach_the_standings(cup, client, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "z")
    assert standings(cup)["d1"]["jogos"] == 0  # awaiting confirmation: provisional
    answer(client, cup.slug, j1, "d1")
    answer(client, cup.slug, j1, "d4", accept=False, reason="não")
    assert standings(cup)["d1"]["jogos"] == 0  # contested
    sign(ref, cup.slug, j1, reason="decidido")
    row = standings(cup)["d1"]
    assert (row["jogos"], row["won"], row["points"], row["partidas_won"]) == (1, 1, 3, 2)
    assert row["points_for"] == 24 and row["points_against"] == 0


# --- corrections -----------------------------------------------------------------------------------------


def test_correction_makes_a_new_via_and_the_old_one_counts_until_the_new_is_confirmed(cup, client, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "v1")
    refused(lambda: post(ref, api(cup.slug, "nada", "correcao"), {"reason": "x"}), 404)
    answer(client, cup.slug, j1, "d1")
    answer(client, cup.slug, j1, "d4")
    old = ref.get(api(cup.slug, j1)).json()
    assert old["status"] == "confirmed"
    table = standings(cup)
    assert (table["d1"]["points"], table["d4"]["points"]) == (3, 0)

    refused(lambda: post(ref, api(cup.slug, j1, "correcao"), {"partidas": [[0, 12], [0, 12]]}), 422)  # no reason
    refused(lambda: post(ref, api(cup.slug, j1, "correcao"), {"reason": "x", "partidas": [[12, 12]]}), 422)
    r = post(
        ref,
        api(cup.slug, j1, "correcao"),
        {"reason": "placar anotado trocado", "partidas": [[5, 12], [12, 10], [0, 12]]},
    )
    assert r.status_code == 200, r.content
    s = r.json()
    assert s["via"] == 2 and s["via_reason"] == "placar anotado trocado"
    assert s["status"] == "awaiting_confirmation" and s["winner"] == "d4" and s["score"] == [1, 2]
    assert s["confirmations"] == {"d1": None, "d4": None}
    assert s["version"] > old["version"]

    earlier = ref.get(api(cup.slug, j1) + "?via=1")
    assert earlier.status_code == 200
    e = earlier.json()
    assert e["via"] == 1 and e["status"] == "confirmed" and e["winner"] == "d1"
    assert e["confirmations"] == {"d1": "confirmed", "d4": "confirmed"}
    assert [[m["id"] for m in p["maos"]] for p in e["partidas"]] == [
        [m["id"] for m in p["maos"]] for p in old["partidas"]
    ]
    assert ref.get(api(cup.slug, j1) + "?via=2").json()["winner"] == "d4"

    # a queued retry of a via-1 mão still answers 200 and adds nothing to via 2
    before = db_snapshot()
    retry = mao(ref, cup.slug, j1, "v1-p0-0", 0, 3)
    assert retry.status_code == 200 and retry.json()["via"] == 2 and retry.json()["score"] == [1, 2]
    assert db_snapshot() == before

    # until via 2 is confirmed, the standings keep counting via 1
    table = standings(cup)
    assert (table["d1"]["points"], table["d4"]["points"]) == (3, 0)
    assert table["d1"]["points_for"] == 24
    answer(client, cup.slug, j1, "d1")
    assert standings(cup)["d1"]["points"] == 3
    r = answer(client, cup.slug, j1, "d4")
    assert r.json()["status"] == "confirmed"
    table = standings(cup)
    assert (table["d1"]["points"], table["d4"]["points"]) == (1, 2)
    assert (table["d1"]["points_for"], table["d1"]["points_against"]) == (17, 34)

    # the export carries the history
    fresh = Tournament.objects.get(pk=cup.pk)
    row = next(j for j in tournament_export(tournament=fresh)["jogos"] if j["key"] == j1)
    assert row["via"] == 2 and row["via_reason"] == "placar anotado trocado"
    assert [h["via"] for h in row["history"]] == [1] and row["history"][0]["status"] == "confirmed"


def test_correction_only_of_a_decided_sumula_and_twice_gives_via_3(cup, ref, j1):
    refused(lambda: post(ref, api(cup.slug, j1, "correcao"), {"reason": "x", "partidas": [[12, 0], [12, 0]]}), 409)
    mao(ref, cup.slug, j1, "a", 0, 1)
    refused(lambda: post(ref, api(cup.slug, j1, "correcao"), {"reason": "x", "partidas": [[12, 0], [12, 0]]}), 409)
    assert ref.delete(api(cup.slug, j1, "maos") + "a/").status_code == 200
    post(ref, api(cup.slug, j1, "resultado"), {"walkover": "d4"})
    r = post(
        ref,
        api(cup.slug, j1, "correcao"),
        {"id": "fix-1", "reason": "d4 chegou a tempo", "partidas": [[12, 3], [12, 4]]},
    )
    assert r.status_code == 200 and r.json()["via"] == 2
    before = db_snapshot()
    again = post(
        ref,
        api(cup.slug, j1, "correcao"),
        {"id": "fix-1", "reason": "d4 chegou a tempo", "partidas": [[12, 3], [12, 4]]},
    )
    assert again.status_code == 200 and again.json()["via"] == 2
    assert db_snapshot() == before
    r = post(ref, api(cup.slug, j1, "correcao"), {"reason": "segunda partida 12 x 5", "partidas": [[12, 3], [12, 5]]})
    assert r.json()["via"] == 3
    assert ref.get(api(cup.slug, j1) + "?via=1").json()["walkover"] == "d4"
    assert [p["score"] for p in ref.get(api(cup.slug, j1) + "?via=2").json()["partidas"]] == [[12, 3], [12, 4]]


# --- the knockout jogo appears once the group results that decide it are confirmed -----------------------

GROUP_ORDER = ["d1", "d2", "d3", "d4"]  # each beats every dupla after it, 2 x 0


def _finals():
    return list(Jogo.objects.filter(stage__key="final"))


def test_final_is_created_only_once_the_deciding_results_are_confirmed(cup, client, ref):
    keys = []
    for i, first in enumerate(GROUP_ORDER):
        for second in GROUP_ORDER[i + 1 :]:
            key = jogo_between(cup, first, second)
            winner = jogo_duplas(cup, key).index(first)
            r = post(
                ref,
                api(cup.slug, key, "resultado"),
                {"partidas": [[12, 5], [12, 5]] if winner == 0 else [[5, 12], [5, 12]]},
            )
            assert r.status_code == 200 and r.json()["winner"] == first
            keys.append(key)
    # every group jogo decided, none confirmed: provisional, no final
    assert _finals() == []
    assert {j["key"] for j in ref.get(api(cup.slug)).json()["jogos"]} == set(keys)
    for key in keys[:-1]:
        for dupla in jogo_duplas(cup, key):
            assert answer(client, cup.slug, key, dupla).status_code == 200
        assert _finals() == []
    # the last one: one confirmation is not enough, the second makes it count
    a, b = jogo_duplas(cup, keys[-1])
    answer(client, cup.slug, keys[-1], a)
    assert _finals() == []
    answer(client, cup.slug, keys[-1], b)
    [final] = _finals()
    assert final.key and {final.dupla_a.key, final.dupla_b.key} == {"d1", "d2"}
    listed = {j["key"]: j for j in ref.get(api(cup.slug)).json()["jogos"]}
    assert listed[final.key]["stage"] == "final" and listed[final.key]["status"] == "scheduled"
    s = ref.get(api(cup.slug, final.key)).json()
    assert s["best_of"] == 3 and set(s["duplas"]) == {"d1", "d2"}
    # the final is played through the same API
    r = play(ref, cup.slug, final.key, [0, 0], "final")
    assert r.json()["status"] == "awaiting_confirmation"


def test_final_also_appears_after_a_referee_decision(cup, client, ref):
    keys = []
    for i, first in enumerate(GROUP_ORDER):
        for second in GROUP_ORDER[i + 1 :]:
            key = jogo_between(cup, first, second)
            winner = jogo_duplas(cup, key).index(first)
            post(
                ref,
                api(cup.slug, key, "resultado"),
                {"partidas": [[12, 5], [12, 5]] if winner == 0 else [[5, 12], [5, 12]]},
            )
            keys.append(key)
    for key in keys[:-1]:
        assert sign(ref, cup.slug, key, reason="as duplas saíram sem assinar").status_code == 200
    assert _finals() == []
    a, _b = jogo_duplas(cup, keys[-1])
    answer(client, cup.slug, keys[-1], a, accept=False, reason="contestamos")
    assert _finals() == []
    sign(ref, cup.slug, keys[-1], reason="mantido")
    assert len(_finals()) == 1


# --- errors ----------------------------------------------------------------------------------------------


def test_errors_are_always_a_json_list(cup, client, ref, j1):
    cases = [
        (lambda: client.get(api("nada")), 404),
        (lambda: client.get(api(cup.slug, "nada")), 404),
        (lambda: ref.post(api(cup.slug, j1, "maos"), data="[", content_type="application/json"), 400),
        (lambda: mao(ref, cup.slug, j1, "x", 0, 2), 422),
        (lambda: ref.delete(api(cup.slug, j1, "maos") + "x/"), 404),
        (lambda: answer(client, cup.slug, j1, "d1", pin="000000"), 403),
        (lambda: answer(client, cup.slug, j1, "d1"), 409),
        (lambda: sign(ref, cup.slug, j1, reason=3), 422),
    ]
    for call, status in cases:
        r = call()
        assert r.status_code == status, (status, r.content)
        assert errors_of(r)
        json.dumps(r.json())


def test_a_wrong_method_is_a_json_error_too(cup, ref, j1):
    for call in (
        lambda: ref.get(api(cup.slug, j1, "maos")),
        lambda: ref.put(api(cup.slug, j1, "resultado")),
        lambda: ref.post(api(cup.slug, j1)),
        lambda: ref.get(api(cup.slug, j1, "maos") + "x/"),
        lambda: ref.delete(api(cup.slug)),
    ):
        before = db_snapshot()
        r = call()
        assert r.status_code == 405 and r["Allow"]
        assert errors_of(r)
        assert db_snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        {"id": "t", "to": True, "points": 1},
        {"id": "t", "to": 2, "points": 1},
        {"id": "t", "to": "0", "points": 1},
        {"id": "t", "to": 0, "points": "3"},
        {"id": "t", "to": 0, "points": 3.0},
        {"id": "t", "to": 0, "points": 3, "how": "trucou"},
        {"id": "t", "to": 0, "points": 3, "reason": 7},
        {"id": 7, "to": 0, "points": 3},
        {"id": "t", "to": 0, "points": -3},
    ],
)
def test_malformed_mao_values_are_refused(cup, ref, j1, body):
    refused(lambda: post(ref, api(cup.slug, j1, "maos"), body), 422)


# --- knockout corrections --------------------------------------------------------------------------------


def _knockout(load_file):
    """Four seeded duplas, semi-finals then the final (best of 3), PINs as in ``PIN``."""
    from tests.support.sumula import cup_file
    from tournaments.models import Dupla
    from tournaments.staff.pins import pin_hash_make

    data = cup_file("copa-mata")
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": ["d1", "d2", "d3", "d4"],
            "draw": {"method": "seeded"},
        }
    ]
    data["duplas"] = [d | {"seed": n} for n, d in enumerate(data["duplas"], start=1)]
    tournament = load_file(data)
    for dupla in Dupla.objects.filter(tournament=tournament):
        dupla.pin_hash = pin_hash_make(PIN[dupla.key])
        dupla.save(update_fields=["pin_hash"])
    return tournament


def _semis_confirmed(client, tournament):
    semis = list(Jogo.objects.filter(tournament=tournament, round=1).select_related("dupla_a", "dupla_b"))
    assert len(semis) == 2
    for jogo in semis:  # the first dupla of each semi-final wins
        post(client, api(tournament.slug, jogo.key, "resultado"), {"partidas": [[12, 3], [12, 3]]})
        for dupla in (jogo.dupla_a.key, jogo.dupla_b.key):
            assert answer(client, tournament.slug, jogo.key, dupla).status_code == 200
    return semis


def test_a_knockout_correction_moves_the_new_winner_into_a_final_not_yet_started(load_file, client):
    tournament = _knockout(load_file)
    client.force_login(staff_user(tournament, "arbitro"))
    semi, other = _semis_confirmed(client, tournament)
    final = Jogo.objects.get(tournament=tournament, round=2)
    assert {final.dupla_a.key, final.dupla_b.key} == {semi.dupla_a.key, other.dupla_a.key}
    r = post(
        client,
        api(tournament.slug, semi.key, "correcao"),
        {"reason": "placar invertido", "partidas": [[3, 12], [3, 12]]},
    )
    assert r.status_code == 200 and r.json()["winner"] == semi.dupla_b.key
    final.refresh_from_db()
    assert semi.dupla_a.key in {final.dupla_a.key, final.dupla_b.key}  # the old via counts until confirmed
    for dupla in (semi.dupla_a.key, semi.dupla_b.key):
        answer(client, tournament.slug, semi.key, dupla)
    final = Jogo.objects.get(tournament=tournament, round=2)
    assert {final.dupla_a.key, final.dupla_b.key} == {semi.dupla_b.key, other.dupla_a.key}
    listed = {j["key"]: j for j in client.get(api(tournament.slug)).json()["jogos"]}
    assert set(listed[final.key]["duplas"]) == {semi.dupla_b.key, other.dupla_a.key}


def test_a_knockout_correction_that_changes_a_winner_already_playing_the_final_is_409(load_file, client):
    tournament = _knockout(load_file)
    client.force_login(staff_user(tournament, "arbitro"))
    semi, _other = _semis_confirmed(client, tournament)
    final = Jogo.objects.get(tournament=tournament, round=2)
    assert mao(client, tournament.slug, final.key, "f1", 0, 1).status_code == 201
    messages = refused(
        lambda: post(
            client,
            api(tournament.slug, semi.key, "correcao"),
            {"reason": "placar invertido", "partidas": [[3, 12], [3, 12]]},
        ),
        409,
    )
    final_named = f"{final.dupla_a.display_name} x {final.dupla_b.display_name}"  # the final by its duplas
    assert any(final_named in m for m in messages), messages
    # a correction that keeps the winner is fine
    r = post(
        client,
        api(tournament.slug, semi.key, "correcao"),
        {"reason": "2ª partida 12 x 5", "partidas": [[12, 3], [12, 5]]},
    )
    assert r.status_code == 200 and r.json()["via"] == 2
