"""The circuit ranking by part (tournaments/circuits/parts.py, ranksql.py): the rows kept per atleta, ranked by a
window when a page is read, always equal the whole ranking computed from scratch, after imports, corrections,
disqualifications, exclusions and settings changes; a page of the ranking is a few queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.circuit import Etapa, circuit_ranking, points_table_parse
from tests.circuits.support import circuit_file, etapa_file
from tournaments.circuits.file import circuit_import
from tournaments.circuits.selectors import circuit_page, circuit_standing
from tournaments.circuits.services import CircuitSettings, circuit_exclude, circuit_settings_set
from tournaments.draws.duplas import dupla_disqualify
from tournaments.models import Circuit, CircuitAtleta, Dupla, Player, Tournament

pytestmark = pytest.mark.django_db


def whole(circuit):
    """Every row of the ranking by part (all pages), as comparable tuples."""
    page = circuit_page(circuit=circuit, per_page=1000)
    return [_row(r) for r in page.rows]


def scratch(circuit):
    """The ranking computed from the etapas' places, nothing kept."""
    from django.core.cache import caches

    caches["default"].clear()
    standing = circuit_standing(circuit=Circuit.objects.get(pk=circuit.pk))
    return [_row(r) for r in standing.rows]


def _row(r):
    return (
        r.rank,
        r.key,
        r.points,
        r.etapas,
        r.places,
        r.movement,
        r.qualify,
        r.tied_line,
        r.team,
        tuple(sorted((k, v.place, v.points, v.counted) for k, v in r.results.items())),
    )


@pytest.fixture
def season(load_file, django_capture_on_commit_callbacks):
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    load_file(etapa_file("etapa-3", date="2025-05-10", order=("d4", "d1", "d3", "d2")))
    circuit = circuit_import(
        data=circuit_file(
            etapas=["etapa-1", "etapa-2", {"tournament": "etapa-3", "weight": 2, "final": True}],
            count_best=2,
            qualify={"top": 4, "min_etapas": 2, "alternates": 2},
        )
    )
    return circuit, one


def test_rows_equal_the_whole_ranking(season):
    circuit, _one = season
    assert CircuitAtleta.objects.filter(circuit=circuit).count() == 8
    got = whole(circuit)
    assert got == scratch(circuit)
    assert {r[6] for r in got} == {"qualified", "tied"}
    assert any(r[5] not in (None, 0) for r in got)  # movement since etapa 2


def test_a_disqualification_in_a_finished_etapa_updates_its_atletas_rows(season, django_capture_on_commit_callbacks):
    circuit, one = season
    version = Circuit.objects.get(pk=circuit.pk).version
    dupla = Dupla.objects.get(tournament=one, key="d1")
    with django_capture_on_commit_callbacks(execute=True):
        dupla_disqualify(dupla=dupla, user=None, reason="conduta")
    circuit.refresh_from_db()
    assert circuit.version > version
    got = whole(circuit)
    assert got == scratch(circuit)
    p1 = Player.objects.get(tournament=one, key="p1").atleta.key
    row = next(r for r in got if r[1] == p1)
    assert ("etapa-1", None, 0, True) in row[9] or ("etapa-1", None, 0, False) in row[9]


def test_settings_and_exclusions_rebuild_every_row(season, admin_user):
    circuit, one = season
    circuit_settings_set(
        circuit=circuit,
        user=admin_user,
        settings=CircuitSettings(name="Liga", points={"1": 10, "2": 7, "3-4": 5}, count_best=None, qualify_top=2),
    )
    assert whole(circuit) == scratch(circuit)
    atleta = Player.objects.get(tournament=one, key="p3").atleta
    circuit_exclude(circuit=circuit, user=admin_user, atleta=atleta, reason="desistiu")
    got = whole(circuit)
    assert got == scratch(circuit) and atleta.key not in {r[1] for r in got}


def test_search_keeps_the_whole_rankings_ranks_and_pages(season):
    circuit, one = season
    name = Player.objects.get(tournament=one, key="p7").atleta.name
    everyone = {r[1]: r for r in whole(circuit)}
    page = circuit_page(circuit=circuit, q=name.upper())
    assert [r.key for r in page.rows] == [Player.objects.get(tournament=one, key="p7").atleta.key]
    assert page.rows[0].rank == everyone[page.rows[0].key][0]
    paged = circuit_page(circuit=circuit, per_page=3, page=99)
    assert paged.number == paged.pages == 3 and len(paged.rows) == 2
    assert circuit_page(circuit=circuit, q="100%_x").rows == ()


def test_a_page_is_a_few_queries(season):
    circuit, _one = season
    circuit = Circuit.objects.get(pk=circuit.pk)
    with CaptureQueriesContext(connection) as queries:
        circuit_page(circuit=circuit)
    assert len(queries.captured_queries) <= 8


def test_after_an_etapa_reads_the_whole_ranking_then(season):
    circuit, _one = season
    page = circuit_page(circuit=circuit, after="etapa-1")
    assert page.counted == ("etapa-1",) and [r.points for r in page.rows][:2] == [100, 100]
    assert circuit_page(circuit=circuit, after="nao-e-etapa") is None


# --- the pure rule behind it: an atleta's row alone equals their row in the whole ranking ------------------------

places = st.lists(st.integers(min_value=1, max_value=12), min_size=0, max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    etapas=st.lists(st.tuples(places, st.integers(1, 3), st.booleans()), min_size=1, max_size=5),
    best=st.one_of(st.none(), st.integers(1, 3)),
    subset=st.sets(st.integers(0, 7)),
)
def test_a_part_equals_the_whole(etapas, best, subset):
    table = points_table_parse(None)
    made = [
        Etapa(key=f"e{i}", places={f"a{j}": p for j, p in enumerate(ps)}, weight=w, final=final)
        for i, (ps, w, final) in enumerate(etapas)
    ]
    full = {r.atleta: r for r in circuit_ranking(etapas=made, table=table, count_best=best)}
    keys = {f"a{j}" for j in subset}
    alone = [Etapa(key=e.key, places={a: p for a, p in e.places.items() if a in keys}, weight=e.weight) for e in made]
    for r in circuit_ranking(etapas=alone, table=table, count_best=best):
        f = full[r.atleta]
        assert (r.points, r.etapas, r.places, r.results) == (f.points, f.etapas, f.places, f.results)


def test_the_page_is_kept_per_version_and_follows_a_counted_result(season, client, django_capture_on_commit_callbacks):
    circuit, one = season
    path = f"/circuitos/{circuit.slug}/"
    first = client.get(path)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(path)
    assert again.content == first.content and len(queries.captured_queries) <= 2
    p1 = Player.objects.get(tournament=one, key="p1").atleta.name
    assert "DQ" not in first.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        dupla_disqualify(dupla=Dupla.objects.get(tournament=one, key="d1"), user=None, reason="conduta")
    after = client.get(path).content.decode()
    assert after != first.content.decode() and p1 in after and "DQ" in after


def test_a_result_in_the_last_etapa_keeps_the_ranks_before_it(season, django_capture_on_commit_callbacks):
    """A disqualification in the last finished etapa moves no one's totals before it: the rows keep their rank
    then (no window over every row), and the movement still equals the ranking computed from scratch."""
    circuit, _one = season
    three = Tournament.objects.get(slug="etapa-3")
    with django_capture_on_commit_callbacks(execute=True):
        dupla_disqualify(dupla=Dupla.objects.get(tournament=three, key="d4"), user=None, reason="conduta")
    assert whole(circuit) == scratch(circuit)
    with django_capture_on_commit_callbacks(execute=True):
        dupla_disqualify(dupla=Dupla.objects.get(tournament=three, key="d1"), user=None, reason="conduta")
    assert whole(circuit) == scratch(circuit)
