"""docs/regras.md §5.1 as changed: after saldo, a still-tied subset restarts at head-to-head; pages and file say so."""

import pytest
from django.urls import reverse

from tests.support.files import players
from tournaments.interchange.writer import tournament_export
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

# Five duplas in a cycle, each jogo won 2 x 1 (every dupla beats the next two): all end on 6 points and
# 6 partidas, and their mini-table is level. The loser's points in each partida are chosen so that saldo
# orders A, B, C and leaves D and E level; D beat E.
CYCLE = [
    ("A", "B"),
    ("A", "C"),
    ("B", "C"),
    ("B", "D"),
    ("C", "D"),
    ("C", "E"),
    ("D", "E"),
    ("D", "A"),
    ("E", "A"),
    ("E", "B"),
]
LOSER_POINTS = [
    (5, 5, 11),
    (0, 10, 5),
    (0, 0, 11),
    (5, 10, 11),
    (0, 10, 5),
    (11, 5, 0),
    (10, 5, 5),
    (0, 5, 11),
    (5, 0, 10),
    (11, 0, 5),
]


def five_level_file() -> dict:
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa do Saldo", "slug": "copa-saldo", "date": "2024-04-27", "preset": "fenacef"},
        "players": players(10),
        "duplas": [
            {"key": k, "players": [f"p{2 * i + 1}", f"p{2 * i + 2}"], "name": f"Dupla {k}"}
            for i, k in enumerate("ABCDE")
        ],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "1", "duplas": list("ABCDE")}],
                "qualify": {"per_group": 4},
            }
        ],
        "jogos": [
            {"stage": "grupos", "group": "1", "duplas": [w, l], "partidas": [[12, x], [y, 12], [12, z]]}
            for (w, l), (x, y, z) in zip(CYCLE, LOSER_POINTS, strict=False)
        ],
    }


def test_export_orders_the_pair_left_level_by_saldo_by_their_jogo():
    t = tournament_import(data=five_level_file())
    rows = tournament_export(tournament=t)["standings"]["grupos"]["1"]
    assert [(r["rank"], r["dupla"], r["saldo"], r["decided_by"], r["tied"]) for r in rows] == [
        (1, "A", 15, "saldo", False),
        (2, "B", 10, "saldo", False),
        (3, "C", 5, "saldo", False),
        (4, "D", -15, "head_to_head", False),
        (5, "E", -15, None, False),
    ]
    assert [r["qualified"] for r in rows] == [True, True, True, True, False]


def test_the_standings_page_spells_out_the_chain_of_criteria(client):
    t = tournament_import(data=five_level_file())
    html = client.get(reverse("tournaments:standings", kwargs={"slug": t.slug})).content.decode()
    assert html.count("decidido por saldo de pontos-partida") == 3
    assert html.count("decidido por confronto direto após saldo") == 1
    table = html[html.index("<table") : html.index("</table>")]
    assert table.index("Dupla D") < table.index("decidido por confronto direto após saldo") < table.index("Dupla E")
    assert "aguarda sorteio</span>" not in html.split("Legenda")[0]  # nobody awaits a draw
