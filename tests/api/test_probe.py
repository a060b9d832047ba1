"""`make probe` in the suite, quickly (probe/: a sample of each part on a test database).

Every part is a hard assertion: any permission escape, CSRF acceptance, answer of 500 or schemathesis failure fails.
"""

import pytest

from probe.core import Recorder
from probe.world import world_build

pytestmark = pytest.mark.django_db


@pytest.fixture
def probe_world():
    world = world_build()
    recorder = Recorder()
    yield world, recorder
    recorder.close()


def _show(tally) -> str:
    from probe.report import tally_text

    return tally_text(tally)


def test_permission_matrix_and_csrf_set_find_no_escape(probe_world):
    from probe.matrix import csrf_set, permission_matrix

    world, recorder = probe_world
    matrix = permission_matrix(world, recorder, quick=True)
    assert matrix.requests > 1000 and matrix.extra["forms"] > 50  # it did reach the site's forms
    assert matrix.extra["writes by accounts with the role"] > 10  # and its bodies are real: the roles' writes land
    assert matrix.escapes == 0, _show(matrix)
    assert matrix.server_errors == 0, _show(matrix)
    csrf = csrf_set(world, recorder, quick=True)
    assert csrf.requests > 100
    assert csrf.csrf_accepted == 0, _show(csrf)
    assert csrf.server_errors == 0, _show(csrf)


def test_the_matrix_sees_an_escape(probe_world, monkeypatch):
    """The probe's own check: a role rule that lets a stranger through is found (one desk page made public)."""
    from probe import matrix as matrix_module
    from probe.urls import may

    world, recorder = probe_world
    monkeypatch.setattr(
        matrix_module,
        "may",
        lambda account, name, *args: (
            False if account == "stranger" and name == "tournaments:detail" else may(account, name, *args)
        ),
    )
    monkeypatch.setattr(matrix_module, "private", lambda name, *args: name == "tournaments:detail")
    every_url = matrix_module.site_urls
    monkeypatch.setattr(
        matrix_module,
        "site_urls",
        lambda world, quick: [u for u in every_url(world, quick=quick) if u.name == "tournaments:detail"],
    )
    tally = matrix_module.permission_matrix(world, recorder, quick=True)
    assert tally.escapes >= 1 and "stranger GET /torneios/" in tally.escape_samples[0]


def test_input_fuzz_and_schemathesis_find_no_500(probe_world):
    from probe.fuzz import input_fuzz
    from probe.schema import schemathesis_run

    world, recorder = probe_world
    fuzz = input_fuzz(world, recorder, quick=True)
    schema = schemathesis_run(world, recorder, quick=True)
    assert fuzz.requests > 200 and schema.extra["cases"] > 40
    assert fuzz.server_errors == 0, _show(fuzz)
    assert schema.server_errors == 0 and schema.extra["failures"] == 0, _show(schema)


def test_the_fuzz_sends_every_number_beyond_its_column(probe_world, monkeypatch):
    """The probe's own check (issue 41, item 3): the circuit desk's numbers get values beyond a smallint; with the
    bound of "etapas que contam" taken away, PostgreSQL answers 500 and the fuzz reports it (SQLite stores the
    number: there is nothing to find there, hence ``make probe`` runs on both)."""
    from django import forms
    from django.db import connection

    from probe import fuzz as fuzz_module
    from tournaments.desk.circuit_forms import CircuitRulesForm

    world, recorder = probe_world
    every_url = fuzz_module.site_urls
    monkeypatch.setattr(
        fuzz_module,
        "site_urls",
        lambda world, quick: [u for u in every_url(world, quick=quick) if u.name == "desk:circuit"],
    )
    monkeypatch.setitem(CircuitRulesForm.base_fields, "count_best", forms.IntegerField(required=False))
    tally = fuzz_module.input_fuzz(world, recorder, quick=True)
    numbers = world.number_fields[f"/organizar/circuitos/{world.circuit}/"]
    assert {"count_best", "qualify_top", "qualify_min_etapas", "qualify_alternates"} <= numbers
    assert tally.extra["numbers beyond a column"] >= 2 * len(numbers)
    if connection.vendor == "postgresql":
        assert tally.server_errors >= 1 and any("tournaments_circuit" in c for c in tally.causes), _show(tally)
    else:
        assert tally.server_errors == 0, _show(tally)
