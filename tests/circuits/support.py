"""Circuits for the tests: etapas made from the knockout file (4 duplas, 8 players who are the same atletas in
every etapa), and a circuit file over them."""

import copy

from tests.support.files import knockout_file

# knockout_file(finished=True): d1 (p1, p2) champion, d2 (p3, p4) second, d3 (p5, p6) third (d4 lost the
# third-place jogo by walkover), d4 (p7, p8) fourth


def etapa_file(slug: str, *, date: str, finished: bool = True, order: tuple[str, ...] = ("d1", "d4", "d2", "d3")):
    """An etapa: the knockout file under another slug and date; ``order`` seats the duplas in the bracket
    (the first of each pair wins: the default gives d1 1st, d2 2nd, d3 3rd, d4 4th)."""
    data = copy.deepcopy(knockout_file(finished=finished, slug=slug))
    data["tournament"]["date"] = date
    data["tournament"]["name"] = f"Etapa {slug}"
    data["stages"][0]["draw"]["order"] = list(order)
    a, b, c, d = order
    jogos = [
        {"stage": "mata", "duplas": [a, b], "partidas": [[12, 3], [12, 5], [12, 0]]},
        {"stage": "mata", "duplas": [c, d], "partidas": [[12, 10], [8, 12], [12, 6], [5, 12], [12, 11]]},
    ]
    if finished:
        jogos += [
            {"stage": "mata", "duplas": [a, c], "partidas": [[12, 9], [12, 7]]},
            {"stage": "mata", "duplas": [b, d], "walkover": b},
        ]
    data["jogos"] = jogos
    return data


def circuit_file(slug="liga-teste", etapas=("etapa-1", "etapa-2"), **circuit):
    return {
        "format": "truco-circuito",
        "version": 1,
        "circuit": {"name": "Liga de Teste", "slug": slug, **circuit},
        "etapas": [{"tournament": e} if isinstance(e, str) else e for e in etapas],
    }
