"""The probe's world: the demo events, two events of its own, a circuit and six accounts, one per kind of visitor.

``world_build`` runs on whatever database Django is connected to (``make probe``'s throwaway SQLite file, or a
test's database) and returns a ``World``: the slugs, the accounts, and real values for every URL argument
(jogo and dupla keys, registration and jogo ids, a private-link token, a mão id, the circuit, its etapa and an
atleta), so every URL pattern of the site can be filled in. The organizer's circuit (the main event its etapa) opens
the circuit desk and the atletas' desk to the probe. The súmulas of the main event are put in every status through the API itself (the contract),
so the probe does not depend on the services' signatures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

PIN = "246810"
PASSWORD = "sonda-senha-1"
# the accounts, in the order the report lists them
ACCOUNTS = ("anonymous", "stranger", "referee", "other_organizer", "organizer", "superuser")
EVENT, SIGNUP_EVENT, CIRCUIT = "sonda-copa", "sonda-inscricoes", "sonda-circuito"


@dataclass
class World:
    event: str  # the event in progress: jogos in every status
    signup_event: str  # registrations open, nothing drawn
    other_event: str  # organized by other_organizer only
    circuit: str = ""  # the organizer's circuit, the main event its etapa
    etapa_ids: list = field(default_factory=list)
    atletas: list = field(default_factory=list)  # atleta keys of the main event's players
    users: dict = field(default_factory=dict)  # account name -> User (anonymous: None)
    jogos: dict = field(default_factory=dict)  # status -> jogo key of the main event
    duplas: list = field(default_factory=list)  # dupla keys of the main event
    dupla_ids: list = field(default_factory=list)
    jogo_ids: list = field(default_factory=list)
    jogo_duplas: dict = field(default_factory=dict)  # jogo key -> its two dupla keys
    registration_ids: list = field(default_factory=list)  # of the signup event
    token: str = ""  # a private link of a dupla of the main event
    token_jogo: str = ""  # a jogo of that dupla
    mao: str = ""  # the id of the last mão of the jogo in progress
    doc_slugs: list = field(default_factory=list)
    doc_images: list = field(default_factory=list)
    forms_seen: dict = field(default_factory=dict)  # the forms harvested from the pages (probe.matrix.harvest)
    number_fields: dict = field(default_factory=dict)  # action path -> its forms' number inputs (the same harvest)

    def client(self, account: str, *, csrf: bool = False) -> Client:
        """A test client signed in as ``account`` (anonymous: not signed in); ``csrf`` enforces CSRF checks."""
        client = Client(enforce_csrf_checks=csrf, raise_request_exception=False)
        user = self.users.get(account)
        if user is not None:
            client.force_login(user)
        return client


def _players(prefix: str, n: int) -> list[dict]:
    first = ("Ana", "Bruno", "Carla", "Davi", "Elisa", "Fábio", "Gabi", "Hugo", "Iara", "João", "Kátia", "Luís")
    return [{"key": f"{prefix}{i}", "name": f"{first[(i - 1) % len(first)]} Sonda {i}"} for i in range(1, n + 1)]


def event_file() -> dict:
    """Six duplas in one group (best of 3), then a knockout between the top four: nothing played."""
    players = _players("p", 12)
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa da Sonda", "slug": EVENT, "date": "2026-11-28", "preset": "fenacef"},
        "players": players,
        "duplas": [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 7)],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "A", "duplas": [f"d{i}" for i in range(1, 7)]}],
                "qualify": {"per_group": 4, "best_others": 0},
            },
            {"key": "final", "kind": "knockout", "best_of": 3, "entrants": "previous", "draw": {"method": "seeded"}},
        ],
        "jogos": [],
    }


def signup_file() -> dict:
    """Registrations open (public sign-up), eight registered, nothing drawn."""
    players = _players("q", 8)
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Torneio da Sonda (inscrições)",
            "slug": SIGNUP_EVENT,
            "date": "2027-03-20",
            "preset": "aabb",
            "public_signup": True,
        },
        "players": players,
        "registrations": [{"players": [p["key"]]} for p in players],
    }


def _import(data: dict):
    from tournaments.models import Tournament
    from tournaments.services import tournament_import

    existing = Tournament.objects.filter(slug=data["tournament"]["slug"]).first()
    return existing or tournament_import(data=data)


def _signup_import():
    """The signup event, with its public form open."""
    from tournaments.models import Tournament

    tournament = _import(signup_file())
    Tournament.objects.filter(pk=tournament.pk).update(public_signup=True, registration_closed=False)
    return tournament


def _api(client: Client, path: str, body: dict | None = None):
    if body is None:
        return client.get(path)
    return client.post(path, data=json.dumps(body), content_type="application/json")


def _play(world: World, organizer: Client) -> None:
    """Put the main event's group jogos in every status, through the API (as a phone would)."""
    from tournaments.models import Jogo

    base = f"/api/v1/torneios/{world.event}/jogos/"
    keys = list(Jogo.objects.filter(tournament__slug=world.event).order_by("id").values_list("key", flat=True))
    world.jogo_ids = list(Jogo.objects.filter(tournament__slug=world.event).order_by("id").values_list("id", flat=True))
    world.jogos["scheduled"] = keys[-1]

    def duplas_of(key):
        return _api(organizer, f"{base}{key}/").json()["duplas"]

    def via_of(key):
        return _api(organizer, f"{base}{key}/").json().get("via", 1)

    def confirm(key, dupla, accept=True):
        body = {"dupla": dupla, "pin": PIN, "via": via_of(key), "accept": accept}
        if not accept:
            body["reason"] = "A sonda contesta o placar."
        _api(Client(), f"{base}{key}/confirmacao/", body)

    plan = dict(
        zip(
            ("in_progress", "awaiting_confirmation", "confirmed", "contested", "homologated", "corrected"),
            keys,
            strict=False,
        )
    )
    if "in_progress" in plan:
        key = plan["in_progress"]
        for n in range(3):
            _api(organizer, f"{base}{key}/maos/", {"id": f"sonda-{n}", "to": n % 2, "points": 3, "how": "played"})
        world.mao = "sonda-2"
    for status in ("awaiting_confirmation", "confirmed", "contested", "homologated", "corrected"):
        if status not in plan:
            continue
        key = plan[status]
        _api(organizer, f"{base}{key}/resultado/", {"partidas": [[12, 5], [12, 9]]})
        a, b = duplas_of(key)
        if status in ("confirmed", "homologated"):
            confirm(key, a)
            confirm(key, b)
        if status == "contested":
            confirm(key, a)
            confirm(key, b, accept=False)
        if status == "homologated":
            _api(organizer, f"{base}{key}/homologacao/", {"via": via_of(key)})
        if status == "corrected":
            _api(
                organizer,
                f"{base}{key}/correcao/",
                {"reason": "Placar anotado trocado.", "via": via_of(key), "partidas": [[5, 12], [9, 12]]},
            )
    world.jogos.update(plan)


def _circuit(event, organizer):
    """The organizer's circuit with the main event as its etapa (made once)."""
    from tournaments.circuits.services import circuit_create, circuit_etapa_attach
    from tournaments.models import Circuit

    circuit = Circuit.objects.filter(slug=CIRCUIT).first()
    if circuit is None:
        circuit = circuit_create(user=organizer, name="Circuito da Sonda", slug=CIRCUIT)
        circuit_etapa_attach(circuit=circuit, user=organizer, tournament=event)
    return circuit


def world_build() -> World:
    """Create (or find) the events and accounts; idempotent on one database."""
    from django.core.management import call_command

    from tournaments.models import Dupla, Player, Registration, Tournament
    from tournaments.roles import role_grant
    from tournaments.staff.pins import pin_hash_make

    if not Tournament.objects.filter(slug="aabb-2024").exists():
        call_command("load_demo", verbosity=0)
    event = _import(event_file())
    signup = _signup_import()
    other = Tournament.objects.get(slug="aabb-2024")

    User = get_user_model()
    users: dict = {"anonymous": None}
    for name in ACCOUNTS[1:]:
        user = User.objects.filter(username=f"sonda-{name}").first()
        if user is None:
            make = User.objects.create_superuser if name == "superuser" else User.objects.create_user
            user = make(username=f"sonda-{name}", email=f"sonda-{name}@example.com", password=PASSWORD)
        users[name] = user
    for tournament in (event, signup):
        role_grant(tournament=tournament, user=users["organizer"], role="organizer")
        role_grant(tournament=tournament, user=users["referee"], role="referee")
    role_grant(tournament=other, user=users["other_organizer"], role="organizer")

    duplas = Dupla.objects.filter(tournament=event).order_by("id")
    for dupla in duplas:
        dupla.pin_hash = pin_hash_make(PIN)
        dupla.save(update_fields=["pin_hash"])
    circuit = _circuit(event, users["organizer"])
    world = World(event=event.slug, signup_event=signup.slug, other_event=other.slug, users=users)
    world.circuit = circuit.slug
    world.etapa_ids = list(circuit.etapas.order_by("id").values_list("id", flat=True))
    world.atletas = list(
        Player.objects.filter(tournament=event, atleta__isnull=False)
        .order_by("id")
        .values_list("atleta__key", flat=True)
    )
    world.duplas = [d.key for d in duplas]
    world.dupla_ids = [d.id for d in duplas]
    world.registration_ids = list(
        Registration.objects.filter(tournament__slug=world.signup_event).order_by("id").values_list("id", flat=True)
    )
    organizer = world.client("organizer")
    _play(world, organizer)
    first = duplas.first()
    world.token = first.token
    from django.db.models import Q

    from tournaments.models import Jogo

    jogo = Jogo.objects.filter(Q(dupla_a=first) | Q(dupla_b=first), tournament=event).order_by("id").first()
    world.token_jogo = jogo.key if jogo else world.jogos["scheduled"]
    world.jogo_duplas = {
        j.key: [j.dupla_a.key, j.dupla_b.key]
        for j in Jogo.objects.filter(tournament=event).select_related("dupla_a", "dupla_b")
    }
    docs = Path(settings.BASE_DIR) / "docs"
    world.doc_slugs = sorted(p.stem for p in docs.glob("*.md") if p.stem.lower() != "readme")[:3]
    world.doc_images = sorted(p.name for p in (docs / "img").glob("*.png"))[:1]
    return world
