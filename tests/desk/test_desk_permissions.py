"""The permission walk (issue 6 §1): every URL under /organizar/, POSTed by someone without the right role,
changes nothing. Anonymous → to /entrar/; no role → 404; a referee → 403 on organizer pages; the organizer
of another tournament → 404. And a POST without a CSRF token is refused even for the organizer."""

import json

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse

from tests.support.files import base_file
from tournaments.desk import organizer_urls as desk_urls
from tournaments.models import Dupla, Jogo, Mesa, OnlineTable, Player, Registration, StaffRole, Tournament
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

# Everything a careless view could change from a form, sent with every POST of the walk.
PAYLOAD = {
    "name": "Invadido",
    "reason": "invasão",
    "motivo": "invasão",
    "present": "1",
    "confirm": "1",
    "confirmar": "1",
    "username": "intruso",
    "email": "intruso@example.com",
    "role": "organizer",
    "kind": "knockout",
    "mesas": "9",
    "seed": "1",
    "method": "random",
    "max_duplas": "2",
    "date": "2030-01-01",
    "start_time": "10:00",
    "preset": "aabb",
    "nome": "Invasor",
    "nascimento": "01/01/1990",
    "player_a": "1",
    "player_b": "2",
    "dupla": "1",
    "referee": "1",
    "starter": "blank",
    "disqualified_reason": "invasão",
    "number": "1",
    "count": "9",
}


def _desk_patterns():
    """(name, pattern) of every URL of the desk, nested includes too."""
    out = []

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix)
            elif isinstance(p, URLPattern):
                out.append(p)

    walk(desk_urls.urlpatterns)
    return out


def _urls_for(tournament: Tournament) -> list[str]:
    ids = {
        "pk": Registration.objects.filter(tournament=tournament).values_list("pk", flat=True).first()
        or Dupla.objects.filter(tournament=tournament).values_list("pk", flat=True).first()
        or 1,
        "dupla": Dupla.objects.filter(tournament=tournament).values_list("pk", flat=True).first() or 1,
        "jogo": Jogo.objects.filter(tournament=tournament).values_list("pk", flat=True).first() or 1,
        "player": Player.objects.filter(tournament=tournament).values_list("pk", flat=True).first() or 1,
    }
    urls = []
    for pattern in _desk_patterns():
        converters = pattern.pattern.converters
        if "slug" not in converters or str(pattern.pattern).startswith("circuitos/"):
            continue  # dashboard, new, upload, the circuit desk (tests/circuits/test_desk.py): not one tournament's
        kwargs = {"slug": tournament.slug}
        for name, conv in converters.items():
            if name != "slug":
                kwargs[name] = ids.get(name, ids["pk"]) if conv.regex == "[0-9]+" else "x"
        urls.append(reverse(f"desk:{pattern.name}", kwargs=kwargs))
    return urls


def _fingerprint() -> str:
    """Every row of the tournaments app and of the users, as text."""
    rows = {}
    for model in apps.get_app_config("tournaments").get_models():
        rows[model.__name__] = list(model.objects.order_by("pk").values())
    rows["users"] = list(User.objects.order_by("pk").values("username", "email", "password", "is_active"))
    return json.dumps(rows, default=str, sort_keys=True)


@pytest.fixture
def world():
    victim = tournament_import(data=base_file(name="Copa Alvo"))
    data = base_file(name="Outra Copa")
    other = tournament_import(data=data)
    owner = User.objects.create_user("dono", password="x-senha-forte-1")
    StaffRole.objects.create(tournament=victim, user=owner, role="organizer")
    referee = User.objects.create_user("arbitro", password="x-senha-forte-1")
    StaffRole.objects.create(tournament=victim, user=referee, role="referee")
    stranger = User.objects.create_user("estranho", password="x-senha-forte-1")
    rival = User.objects.create_user("rival", password="x-senha-forte-1")
    StaffRole.objects.create(tournament=other, user=rival, role="organizer")
    Mesa.objects.create(tournament=victim, number=1, referee=referee)
    Registration.objects.create(
        tournament=victim,
        order=99,
        player1=Player.objects.create(tournament=victim, key="px", name="Espera", birth_date="1990-01-01"),
        source="desk",
    )
    return {"victim": victim, "owner": owner, "referee": referee, "stranger": stranger, "rival": rival}


def test_the_walk_covers_the_desk(world):
    urls = _urls_for(world["victim"])
    assert len(urls) >= 8, urls


@pytest.mark.parametrize("who", ["anonymous", "stranger", "rival", "referee"])
def test_nobody_without_the_role_changes_anything(world, who):
    client = Client()
    if who != "anonymous":
        client.force_login(world[who])
    before = _fingerprint()
    for url in _urls_for(world["victim"]):
        response = client.post(url, PAYLOAD)
        if who == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith("/entrar/?next="), url
        elif who in ("stranger", "rival"):
            assert response.status_code == 404, (url, response.status_code)
        else:  # a referee: organizer pages 403; referee pages (read-only for now) 405
            assert response.status_code in (403, 405), (url, response.status_code)
    assert _fingerprint() == before


def test_a_post_without_csrf_token_is_refused_even_for_the_organizer(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["owner"])
    before = _fingerprint()
    for url in _urls_for(world["victim"]):
        response = client.post(url, PAYLOAD)
        assert response.status_code in (403, 405), (url, response.status_code)
    assert _fingerprint() == before


# --- the contract's line for referees (INTERCHANGE, "Súmula API"): the referee's screens under arbitragem/ and the
# blank súmulas; every other desk page of the event answers 403 ------------------------------------------------

REFEREE_PAGES = {
    "referee:list",
    "referee:jogo",
    "referee:pin_unlock",
    "printing:sumulas",
    # the event's online tables: the referee watches them and suspends one for a technical problem (§9.7)
    "referee_online:tables",
    "referee_online:suspend",
    "referee_online:resume",
}
# the desk's addresses that are no one tournament's page (the list, a new event, the circuits' and atletas' desk)
NOT_AN_EVENT = {"desk:home", "desk:new", "desk:upload", "desk:circuits"}


def _every_desk_url(tournament: Tournament) -> list[tuple[str, str]]:
    """(name, url) of every named page under /organizar/ (the desk, the referee's screens, the desk's sheets), the
    event's arguments filled in with its real rows."""
    from tournaments.desk import urls as all_desk_urls

    jogo = Jogo.objects.filter(tournament=tournament).order_by("id").first()
    dupla = Dupla.objects.filter(tournament=tournament).order_by("id").first()
    values = {
        "pk": Registration.objects.filter(tournament=tournament).values_list("pk", flat=True).first(),
        "dupla": dupla.pk,
        "jogo": jogo.pk,
        "key": jogo.key,
        "table_id": OnlineTable.objects.get_or_create(jogo=jogo, kind=OnlineTable.TORNEIO)[0].pk,
    }
    out = []

    def walk(patterns, namespace=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif p.name:
                name = f"{namespace}:{p.name}"
                params = set(p.pattern.converters)
                if "slug" not in params or str(p.pattern).startswith("circuitos/"):
                    assert name in NOT_AN_EVENT or name.startswith("desk:circuit") or "atleta" in name, name
                    continue
                kwargs = {"slug": tournament.slug}
                for param in params - {"slug"}:
                    kwargs[param] = dupla.key if name == "referee:pin_unlock" else values[param]
                out.append((name, reverse(name, kwargs=kwargs)))

    walk(all_desk_urls.urlpatterns)
    return out


def test_a_referee_gets_403_on_every_desk_page_but_the_referee_screens_and_the_blank_sumulas(world):
    victim = world["victim"]
    referee = Client()
    referee.force_login(world["referee"])
    urls = _every_desk_url(victim)
    assert {"desk:overview", "desk:schedule", "printing:desk", "desk:registrations"} <= {n for n, _u in urls}
    assert REFEREE_PAGES <= {n for n, _u in urls}
    before = _fingerprint()
    for name, url in urls:
        if name in REFEREE_PAGES:
            assert referee.get(url).status_code not in (403, 404), name
        else:
            assert (name, referee.get(url).status_code, referee.post(url, PAYLOAD).status_code) == (name, 403, 403)
    assert _fingerprint() == before
    for name in ("referee:list", "referee:jogo", "printing:sumulas"):
        url = dict(urls)[name]
        assert referee.get(url).status_code == 200, name
    # the organizer opens every one of them (the walk reaches real pages, not 404s)
    organizer = Client()
    organizer.force_login(world["owner"])
    for name, url in urls:
        assert organizer.get(url).status_code not in (403, 404), name
