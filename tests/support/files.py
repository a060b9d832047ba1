"""Tournament files (docs/contrato.md) the tests import: the small contract file, events for the pages, edge cases."""

import copy
from pathlib import Path

import pytest

from scoring.errors import RuleViolation
from tournaments.models import Draw, Dupla, Jogo, Mao, Partida, Player, Registration, Tournament
from tournaments.selectors import tournament_state_get
from tournaments.services import tournament_import

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"


def players(n):
    return [{"key": f"p{i}", "name": f"Atleta {i}", "birth_date": "1990-01-01"} for i in range(1, n + 1)]


def base_file(**tournament):
    """Two groups of 2 … built up by each test; 8 players in 4 duplas."""
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa do Bar", "date": "2024-04-27", "preset": "fenacef", **tournament},
        "players": players(8),
        "duplas": [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 5)],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "A", "duplas": ["d1", "d2"]}, {"key": "B", "duplas": ["d3", "d4"]}],
                "qualify": {"per_group": 2, "best_others": 0},
            },
            {"key": "mata", "kind": "knockout", "best_of": 3, "entrants": "previous", "draw": {"method": "seeded"}},
        ],
        "jogos": [
            {"stage": "grupos", "group": "A", "duplas": ["d1", "d2"], "partidas": [[12, 7], [9, 12], [12, 3]]},
            {"stage": "grupos", "group": "B", "duplas": ["d3", "d4"], "walkover": "d4"},
        ],
    }


def import_errors(data) -> list[str]:
    with pytest.raises(RuleViolation) as exc:
        tournament_import(data=data)
    return [str(e) for e in exc.value.errors]


def nothing_written():
    return all(not m.objects.exists() for m in (Tournament, Player, Registration, Dupla, Jogo, Partida, Mao, Draw))


BIRTH = "1987-03-14"


NAMES = [
    "Ana Souza",
    "Bruno Lima",
    "Carla Dias",
    "Diego Alves",
    "Elisa Rocha",
    "Fábio Nunes",
    "Gabi Torres",
    "Hugo Melo",
    "Iara Costa",
    "João Pires",
    "Karen Sá",
    "Lucas Reis",
    "Marta Cruz",
    "Nuno Prado",
    "Olga Vaz",
    "Paulo Dutra",
]


DUPLA_NAMES = [
    "Os Zapeiros",
    "Manilha Velha",
    "Truco Ladrão",
    "Seis Nele",
    "Dupla Espadilha",
    "Casal Copas",
    "Mão de Ferro",
]


def _people(count: int, *, prefix: str = "") -> tuple[list[dict], list[dict]]:
    players, duplas = [], []
    for i in range(count):
        a, b = f"p{2 * i + 1}", f"p{2 * i + 2}"
        for key, n in ((a, 2 * i), (b, 2 * i + 1)):
            name = NAMES[n % len(NAMES)] + (f" {n // len(NAMES) + 1}" if n >= len(NAMES) else "")
            players.append(
                {
                    "key": key,
                    "name": prefix + name,
                    "birth_date": BIRTH,
                    "email": f"{key}@exemplo.com.br",
                    "phone": "+55 11 98888-7777",
                }
            )
        dupla = {"key": f"d{i + 1}", "players": [a, b]}
        if i < len(DUPLA_NAMES):
            dupla["name"] = DUPLA_NAMES[i]
        duplas.append(dupla)
    return players, duplas


def groups_file(*, sorteio: bool = True, slug: str = "copa-demo") -> dict:
    """FENACEF-like: group A (4 duplas, a WO, a head-to-head), group B (3 duplas, circular tie → sorteio),
    2 per group + the best third → 5 in the knockout, so 3 byes."""
    players, duplas = _people(7)
    g = "grupos"
    jogos = [
        {"stage": g, "group": "A", "duplas": ["d1", "d2"], "partidas": [[12, 5], [12, 8]]},
        {"stage": g, "group": "A", "duplas": ["d3", "d4"], "walkover": "d4"},
        {"stage": g, "group": "A", "duplas": ["d1", "d3"], "partidas": [[12, 7], [9, 12], [12, 3]]},
        {"stage": g, "group": "A", "duplas": ["d2", "d4"], "partidas": [[12, 10], [12, 4]]},
        {"stage": g, "group": "A", "duplas": ["d1", "d4"], "partidas": [[12, 9], [5, 12], [12, 6]]},
        {"stage": g, "group": "A", "duplas": ["d2", "d3"], "partidas": [[12, 9], [7, 12], [12, 10]]},
        {"stage": g, "group": "B", "duplas": ["d5", "d6"], "partidas": [[12, 6], [12, 6]]},
        {"stage": g, "group": "B", "duplas": ["d6", "d7"], "partidas": [[12, 6], [12, 6]]},
        {"stage": g, "group": "B", "duplas": ["d7", "d5"], "partidas": [[12, 6], [12, 6]]},
    ]
    stage = {
        "key": g,
        "kind": "groups",
        "best_of": 3,
        "groups": [{"key": "A", "duplas": ["d1", "d2", "d3", "d4"]}, {"key": "B", "duplas": ["d5", "d6", "d7"]}],
        "qualify": {"per_group": 2, "best_others": 1},
    }
    if sorteio:
        stage["sorteios"] = [{"group": "B", "order": ["d6", "d5", "d7"]}]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Copa Demo de Truco",
            "slug": slug,
            "date": "2024-04-27",
            "start_time": "14:00",
            "venue": "Bar Classe A",
            "category": "Mista, a partir de 18 anos",
            "min_age": 18,
            "max_duplas": 16,
            "preset": "fenacef",
            "regulation": "Regulamento FENACEF 2023, adaptado.",
        },
        "players": players,
        "duplas": duplas,
        "stages": [
            stage,
            {"key": "mata", "kind": "knockout", "best_of": 5, "best_of_rounds": {"3": 3}, "entrants": "previous"},
        ],
        "jogos": jogos,
    }


def _ready(tournament: Tournament) -> list:
    view = tournament_state_get(tournament=tournament).view.stage("mata")
    return [j for j in view.bracket.jogos() if j.ready]


def _discard(tournament: Tournament) -> None:
    """Delete a tournament (jogos and duplas first: their foreign keys are PROTECT)."""
    Jogo.objects.filter(tournament=tournament).delete()
    Dupla.objects.filter(tournament=tournament).delete()
    tournament.delete()


def demo_file(load_file) -> dict:
    """The groups file plus knockout results: one quarter-final won, one in progress (a partida half played)."""
    data = groups_file(slug="rascunho")
    draft = load_file(data)
    ready = _ready(draft)
    _discard(draft)
    data = copy.deepcopy(data)
    data["tournament"]["slug"] = "copa-demo"
    first, second = ready[0], ready[1]
    data["jogos"].append(
        {"stage": "mata", "duplas": list(first.duplas), "partidas": [[12, 4], [3, 12], [12, 9], [12, 11]]}
    )
    data["jogos"].append(
        {
            "stage": "mata",
            "duplas": list(second.duplas),
            "partidas": [
                [12, 7],
                {"maos": [{"to": 0, "points": 3}, {"to": 1, "points": 1}, {"to": 0, "points": 3, "how": "ran"}]},
            ],
        }
    )
    return data


def knockout_file(*, finished: bool = True, slug: str = "aabb-demo") -> dict:
    """AABB-like single elimination of 4 duplas with a third-place jogo; finished when asked."""
    players, duplas = _people(4)
    jogos = [
        {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 3], [12, 5], [12, 0]]},
        {"stage": "mata", "duplas": ["d2", "d3"], "partidas": [[12, 10], [8, 12], [12, 6], [5, 12], [12, 11]]},
    ]
    if finished:
        jogos += [
            {"stage": "mata", "duplas": ["d1", "d2"], "partidas": [[12, 9], [12, 7]]},
            {"stage": "mata", "duplas": ["d4", "d3"], "walkover": "d4"},
        ]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Olimpíada AABB - Truco",
            "slug": slug,
            "date": "2024-05-18",
            "start_time": "09:30",
            "venue": "AABB São Paulo",
            "category": "Livre",
            "preset": "aabb",
            "settings": {"third_place": "match"},
        },
        "players": players,
        "duplas": duplas,
        "stages": [
            {
                "key": "mata",
                "kind": "knockout",
                "best_of": 5,
                "best_of_rounds": {"2": 3},
                "entrants": ["d1", "d2", "d3", "d4"],
                "draw": {"method": "fixed", "order": ["d1", "d4", "d2", "d3"]},
            }
        ],
        "jogos": jogos,
    }


def large_file(*, groups: int = 4, size: int = 4, slug: str = "copa-grande") -> dict:
    """Many duplas, every group jogo played (the better key always wins), the knockout drawn."""
    players, duplas = _people(groups * size)
    stage_groups, jogos = [], []
    for g in range(groups):
        members = [f"d{g * size + i + 1}" for i in range(size)]
        stage_groups.append({"key": chr(ord("A") + g), "duplas": members})
        for i in range(size):
            for j in range(i + 1, size):
                jogos.append(
                    {
                        "stage": "grupos",
                        "group": chr(ord("A") + g),
                        "duplas": [members[i], members[j]],
                        "partidas": [[12, 3 + j], [12, 2 + i]],
                    }
                )
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa Grande", "slug": slug, "date": "2024-06-01", "preset": "online"},
        "players": players,
        "duplas": duplas,
        "stages": [
            {"key": "grupos", "kind": "groups", "groups": stage_groups, "qualify": {"per_group": 2}},
            {"key": "mata", "kind": "knockout", "entrants": "previous"},
        ],
        "jogos": jogos,
    }


def bare_file(name: str, slug: str, *, duplas: int = 0) -> dict:
    players, dupla_rows = _people(duplas)
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": name, "slug": slug, "preset": "aabb"},
        "players": players,
        "duplas": dupla_rows,
        "stages": [],
        "jogos": [],
    }


def edge_files() -> list[dict]:
    """Events in awkward states: every page must still answer 200."""
    out = []
    out.append(bare_file("Sem nada", "sem-nada"))
    out.append(bare_file("Só duplas", "so-duplas", duplas=3))
    groups_only = bare_file("Só grupos", "so-grupos", duplas=3)  # ∞ and — averages, a single finished round robin
    groups_only["stages"] = [
        {
            "key": "g",
            "kind": "groups",
            "groups": [{"key": "U", "duplas": ["d1", "d2", "d3"]}],
            "qualify": {"per_group": 1},
        }
    ]
    groups_only["jogos"] = [
        {"stage": "g", "group": "U", "duplas": ["d1", "d2"], "partidas": [[12, 0], [12, 0]]},
        {"stage": "g", "group": "U", "duplas": ["d3", "d1"], "walkover": "d3"},
        {"stage": "g", "group": "U", "duplas": ["d2", "d3"], "walkover": "both"},
    ]
    out.append(groups_only)
    out.append(groups_file(sorteio=False, slug="aguarda-sorteio"))  # tie on the cut: the bracket is not drawn
    half = groups_file(slug="grupos-pela-metade")
    half["jogos"] = half["jogos"][:4]
    out.append(half)
    out.append(knockout_file(finished=False, slug="mata-em-andamento"))
    odd = knockout_file(finished=False, slug="mata-com-byes")  # 3 duplas, a bye; a perda do jogo; a disqualified one
    odd["duplas"][2]["disqualified"] = True
    odd["stages"][0]["entrants"] = ["d1", "d2", "d3"]
    odd["stages"][0]["draw"] = {"method": "fixed", "order": ["d1", None, "d2", "d3"]}
    odd["jogos"] = [
        {"stage": "mata", "duplas": ["d2", "d3"], "penalty": {"lost_by": "d3", "reason": "atraso"}},
        {
            "stage": "mata",
            "duplas": ["d1", "d2"],
            "partidas": [{"penalty": {"lost_by": "d2", "reason": "celular na mesa"}}, [9, 12]],
        },
    ]
    out.append(odd)
    both = knockout_file(finished=False, slug="wo-duplo")
    both["jogos"] = [
        {"stage": "mata", "duplas": ["d1", "d4"], "walkover": "both"},
        {"stage": "mata", "duplas": ["d2", "d3"], "partidas": [[12, 1], [12, 2], [12, 3]]},
    ]
    out.append(both)
    return out


def big_file(*, live: bool = False, slug: str = "grande") -> dict:
    """160 duplas: 40 groups of 4 (3 pages of groups), 80 in a bracket of 128 (32 sections), ~330 jogos.

    ``live``: no knockout yet and round 3 of the groups half played, one jogo of it in progress.
    """
    from scoring.draws import round_robin
    from tournaments.synthetic import synthetic_tournament

    data = synthetic_tournament(duplas=160)
    data["tournament"]["slug"] = slug
    if live:
        third_round = {
            frozenset(pair) for g in data["stages"][0]["groups"] for pair in round_robin(duplas=tuple(g["duplas"]))[2]
        }
        jogos, seen = [], 0
        for j in data["jogos"]:
            if j["stage"] != "grupos":
                continue
            if frozenset(j["duplas"]) in third_round:
                seen += 1
                if seen % 2 == 0:
                    continue  # still to be played
                if seen == 1:
                    j = {
                        "stage": j["stage"],
                        "group": j["group"],
                        "duplas": j["duplas"],
                        "partidas": [[12, 7], {"maos": [{"to": 0, "points": 3}]}],
                    }
            jogos.append(j)
        data["jogos"] = jogos
    return data
