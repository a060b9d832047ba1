"""Synthetic tournaments (tournaments/synthetic.py): valid files, round trips, pages whose queries do not grow."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.caching import pages_clear
from tournaments.interchange.writer import tournament_export
from tournaments.selectors import tournament_state_cache_clear
from tournaments.synthetic import synthetic_tournament

PAGES = ("tournaments:standings", "tournaments:bracket", "tournaments:jogos")


def _comparable(export: dict) -> dict:
    """An export without what may differ between two imports of the same file (the slug)."""
    data = json.loads(json.dumps(export))
    data["tournament"].pop("slug", None)
    return data


# --- the generator alone (no database) -----------------------------------------------


def test_same_seed_same_file_other_seed_other_file():
    first = synthetic_tournament(duplas=24, seed=5, maos_every=4)
    assert synthetic_tournament(duplas=24, seed=5, maos_every=4) == first
    assert synthetic_tournament(duplas=24, seed=5) != synthetic_tournament(duplas=24, seed=6)


@pytest.mark.parametrize(
    "duplas, groups, knockout_jogos",
    [
        (16, 4, 8),  # 8 qualifiers: 4 + 2 + 1 jogos and the third-place jogo
        (40, 10, 20),  # 20 qualifiers in a bracket of 32: 12 byes, 19 jogos and the third-place jogo
        (10, 3, 6),  # groups of 4, 3 and 3
    ],
)
def test_shape(duplas, groups, knockout_jogos):
    data = synthetic_tournament(duplas=duplas, maos_every=3)
    stage_groups = data["stages"][0]["groups"]
    assert len(stage_groups) == groups
    assert sorted(d for g in stage_groups for d in g["duplas"]) == sorted(d["key"] for d in data["duplas"])
    assert len(data["players"]) == 2 * duplas
    group_jogos = [j for j in data["jogos"] if j["stage"] == "grupos"]
    assert len(group_jogos) == sum(len(g["duplas"]) * (len(g["duplas"]) - 1) // 2 for g in stage_groups)
    assert len([j for j in data["jogos"] if j["stage"] == "mata"]) == knockout_jogos
    assert all("partidas" in j or "walkover" in j for j in data["jogos"])
    assert any(isinstance(p, dict) and "maos" in p for j in data["jogos"] for p in j.get("partidas", []))
    assert "sorteios" not in data["stages"][0]  # no tie at a qualifying place


def test_refuses_impossible_shapes():
    with pytest.raises(ValueError):
        synthetic_tournament(duplas=1)
    with pytest.raises(ValueError):
        synthetic_tournament(duplas=8, group_size=4, per_group=5)


# --- with the importer, the export and the pages ----------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("duplas", [16, 40])
def test_imports_and_round_trips(load_file, duplas):
    data = synthetic_tournament(duplas=duplas, seed=duplas, maos_every=5)
    tournament = load_file(data)
    first = tournament_export(tournament=tournament)
    assert len(first["jogos"]) == len(data["jogos"])
    assert [c["medal"] for c in first["classification"][:4]] == ["gold", "silver", "bronze", None]
    again = load_file(first)
    assert again.slug != tournament.slug
    assert _comparable(tournament_export(tournament=again)) == _comparable(first)


def _page_queries(client, tournament) -> dict[str, int]:
    counts = {}
    for name in PAGES:
        url = reverse(name, kwargs={"slug": tournament.slug})
        tournament_state_cache_clear()  # count what a page costs when its views are not cached yet
        pages_clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        counts[name] = len(queries.captured_queries)
    return counts


@pytest.mark.django_db
def test_page_queries_do_not_grow_with_the_tournament(client, load_file):
    small = load_file(synthetic_tournament(duplas=16, maos_every=5))
    large = load_file(synthetic_tournament(duplas=40, maos_every=5))
    _page_queries(client, small)  # warm-up: nothing cached by the first request may be counted
    small_counts, large_counts = _page_queries(client, small), _page_queries(client, large)
    assert small_counts == large_counts
    assert max(large_counts.values()) <= 11  # the live pages (jogos, chave) also read the jogos' versions
