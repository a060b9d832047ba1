"""Whatever a tournament file holds, the importer answers with a result or a list of placed problems."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from tournaments.models import Tournament
from tournaments.services import tournament_import
from tests.conftest import DEMO_DIR

BASE = json.loads((DEMO_DIR / "fenacef-2023.json").read_text(encoding="utf-8"))
for section in ("standings", "bracket", "bracket_third_place", "classification", "waiting_list", "ranking"):
    BASE.pop(section, None)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "d1", "d2", "A", "grupos", "mata", "both", "played", "ran", "penalty", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["key", "to", "points", "maos", "order"]), inner, max_size=3),
    max_leaves=6,
)


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:6]):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(BASE) if p]


def replaced(data, path, value):
    data = copy.deepcopy(data)
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


@pytest.mark.django_db
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(ALL_PATHS), value=json_values)
def test_any_single_change_imports_or_is_reported(path, value):
    data = replaced(BASE, path, value)
    before = Tournament.objects.count()
    try:
        tournament_import(data=data)
    except RuleViolation as exc:
        assert exc.errors, "a refusal must say why"
        assert all(e.message for e in exc.errors)
        assert Tournament.objects.count() == before  # nothing half-written
