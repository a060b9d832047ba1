"""Shared pieces of the súmula tests: a small event with PINs and staff, and API helpers."""

import json

from django.contrib.auth import get_user_model

from tournaments.models import Dupla, Jogo, StaffRole, Tournament
from tournaments.roles import role_grant
from tournaments.staff.pins import pin_hash_make

PIN = {"d1": "111111", "d2": "222222", "d3": "333333", "d4": "444444"}


def cup_file(slug: str = "copa-sumula", preset: str = "fenacef") -> dict:
    """Four duplas in one group (best of 3), then a final between the top two (best of 3): nothing played."""
    players = [
        {"key": f"p{i}", "name": name}
        for i, name in enumerate(
            [
                "Ana Souza",
                "Bruno Lima",
                "Carla Dias",
                "Davi Reis",
                "Elisa Melo",
                "Fábio Nunes",
                "Gabi Rocha",
                "Hugo Alves",
            ],
            start=1,
        )
    ]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa da Súmula", "slug": slug, "date": "2026-11-28", "preset": preset},
        "players": players,
        "duplas": [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 5)],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "A", "duplas": ["d1", "d2", "d3", "d4"]}],
                "qualify": {"per_group": 2, "best_others": 0},
            },
            {"key": "final", "kind": "knockout", "best_of": 3, "entrants": "previous", "draw": {"method": "seeded"}},
        ],
        "jogos": [],
    }


def cup_setup(load_file, slug: str = "copa-sumula") -> Tournament:
    tournament = load_file(cup_file(slug))
    for dupla in Dupla.objects.filter(tournament=tournament):
        dupla.pin_hash = pin_hash_make(PIN[dupla.key])
        dupla.save(update_fields=["pin_hash"])
    return tournament


def staff_user(tournament: Tournament | None, username: str, role: str = StaffRole.REFEREE):
    user = get_user_model().objects.create_user(username=username, password="senha-do-teste-1")
    if tournament is not None:
        role_grant(tournament=tournament, user=user, role=role)
    return user


def api(slug: str, key: str | None = None, action: str = "") -> str:
    base = f"/api/v1/torneios/{slug}/jogos/"
    if key is None:
        return base
    return base + f"{key}/" + (f"{action}/" if action else "")


def post(client, url: str, body: dict, **extra):
    return client.post(url, data=json.dumps(body), content_type="application/json", **extra)


# a partida won 12 x 0 by one dupla, four mãos of 3
def partida_maos(to: int, prefix: str) -> list[dict]:
    return [{"id": f"{prefix}-{k}", "to": to, "points": 3} for k in range(4)]


# --- helpers of the súmula API / permissions / concurrency / round-trip tests -----------------------------


def jogo_duplas(tournament: Tournament, key: str) -> tuple[str, str]:
    """The two dupla keys of jogo ``key``, in the jogo's order (the order of ``to`` and of every score)."""
    from tournaments.models import Jogo

    jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, key=key)
    return jogo.dupla_a.key, jogo.dupla_b.key


def jogo_between(tournament: Tournament, first: str, second: str) -> str:
    """The key of the group jogo between duplas ``first`` and ``second`` (either order)."""
    from tournaments.models import Jogo

    for jogo in Jogo.objects.select_related("dupla_a", "dupla_b").filter(tournament=tournament):
        if {jogo.dupla_a.key, jogo.dupla_b.key} == {first, second}:
            return jogo.key
    raise LookupError(f"no jogo between {first} and {second}")


def play(client, slug: str, key: str, winners: list[int], prefix: str):
    """Enter one partida of four mãos of 3 (12 x 0) per item of ``winners`` (0 or 1: the side that wins it)."""
    response = None
    for n, side in enumerate(winners):
        for mao in partida_maos(side, f"{prefix}-p{n}"):
            response = post(client, api(slug, key, "maos"), mao)
            assert response.status_code == 201, response.content
    return response


def current_via(slug: str, key: str) -> int:
    """The via jogo ``key`` has now (what a screen showing it would send with a confirmation or a signature)."""
    from tournaments.models import Jogo

    return Jogo.objects.values_list("via", flat=True).get(tournament__slug=slug, key=key)


def answer(client, slug: str, key: str, dupla: str, accept: bool = True, pin: str | None = None, **body):
    """A dupla's confirmation (or contest) by PIN, for the via the jogo has now unless ``via`` is given."""
    body.setdefault("via", current_via(slug, key))
    return post(
        client,
        api(slug, key, "confirmacao"),
        {"dupla": dupla, "pin": PIN[dupla] if pin is None else pin, "accept": accept} | body,
    )


def sign(client, slug: str, key: str, **body):
    """The referee's signature (homologation), for the via the jogo has now unless ``via`` is given."""
    body.setdefault("via", current_via(slug, key))
    return post(client, api(slug, key, "homologacao"), body)


def db_snapshot() -> dict:
    """What a súmula write can change, to check that a refused write wrote nothing."""
    from tournaments.models import Jogo, Mao, Partida, SumulaEvent, SumulaVia, TournamentChange

    return {
        "maos": Mao.objects.count(),
        "partidas": Partida.objects.count(),
        "events": SumulaEvent.objects.count(),
        "vias": SumulaVia.objects.count(),
        "jogos": sorted(Jogo.objects.values_list("key", "status", "version", "via", "walkover", "lost_by")),
        "confirmations": sorted((k, repr(c)) for k, c in Jogo.objects.values_list("key", "confirmations")),
        "live": sorted(Tournament.objects.values_list("slug", "results_version")),
        "changes": TournamentChange.objects.count(),
    }


def result_counted(tournament: Tournament, key: str, partidas=((12, 0), (12, 0))) -> None:
    """A result recorded through the services and confirmed by both duplas: it counts (the engine advances)."""
    from tournaments.sumula.commands import ResultSet
    from tournaments.sumula.services import Actor, sumula_answer, sumula_result_set

    data = ResultSet.from_json({"partidas": [list(p) for p in partidas]})
    sumula_result_set(tournament=tournament, key=key, data=data, actor=Actor(method="command"))
    jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, key=key)
    for dupla in (jogo.dupla_a, jogo.dupla_b):
        actor = Actor(dupla=dupla, method="pin")
        sumula_answer(tournament=tournament, key=key, dupla=dupla, via=jogo.via, accept=True, reason=None, actor=actor)
    tournament.refresh_from_db()
