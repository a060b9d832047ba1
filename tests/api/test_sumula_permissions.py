"""Who may write to a súmula through the API (docs/contrato.md "Súmula API", docs/regras.md §8), CSRF, PIN lockout.

Staff writes (mãos, undo, resultado, homologação, correção, penalidade):
anonymous → 403, a role on another tournament only (or none) → 404, this
tournament's referee or organizer → allowed; a PIN in the body authorizes
nothing there. Confirmations: only the jogo's dupla with its right PIN. A
refused write writes nothing.
"""

import datetime as dt
import json

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from tests.support.sumula import PIN, answer, api, cup_setup, db_snapshot, post, staff_user
from tournaments.models import PinFailure, StaffRole

pytestmark = pytest.mark.django_db

CSRF = "k" * 32  # a CSRF secret the test client keeps as the cookie; the header carries the same value


@pytest.fixture
def other_cup(load_file):
    return cup_setup(load_file, slug="outra-copa")


@pytest.fixture
def users(cup, other_cup):
    from django.contrib.auth import get_user_model

    superuser = get_user_model().objects.create_superuser(username="raiz", password="senha-do-teste-1")
    return {
        "ref": staff_user(cup, "arbitro", StaffRole.REFEREE),
        "org": staff_user(cup, "organizadora", StaffRole.ORGANIZER),
        "other_ref": staff_user(other_cup, "arbitro-da-outra", StaffRole.REFEREE),
        "other_org": staff_user(other_cup, "organizador-da-outra", StaffRole.ORGANIZER),
        "nobody": staff_user(None, "ninguem"),
        "super": superuser,
    }


@pytest.fixture
def setup_client(users):
    """The tournament's referee, preparing each jogo (not the actor under test)."""
    c = Client()
    c.force_login(users["ref"])
    return c


# --- the staff writes ------------------------------------------------------------------------------------


def _nothing(c, slug, key):
    pass


def _one_mao(c, slug, key):
    assert post(c, api(slug, key, "maos"), {"id": "setup-1", "to": 0, "points": 1}).status_code == 201


def _decided(c, slug, key):
    assert post(c, api(slug, key, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200


# action: (prepare, method, path under the jogo, body, status when allowed)
WRITES = {
    "maos": (_nothing, "post", "maos", {"id": "m-1", "to": 0, "points": 3}, 201),
    "desfazer": (_one_mao, "delete", "maos/setup-1", {}, 200),
    "resultado": (_nothing, "post", "resultado", {"partidas": [[12, 3], [12, 4]]}, 200),
    "homologacao": (_decided, "post", "homologacao", {"via": 1, "reason": "as duplas saíram sem confirmar"}, 200),
    "correcao": (_decided, "post", "correcao", {"reason": "placar trocado", "partidas": [[3, 12], [4, 12]]}, 200),
    "penalidade": (
        _nothing,
        "post",
        "penalidade",
        {"id": "pen-1", "scope": "jogo", "lost_by": "d4", "reason": "abandonou a mesa"},
        200,
    ),
}

# actor: (user, extra body, status; None = allowed)
ACTORS = {
    "anonimo": (None, {}, 403),
    "dupla_do_jogo_com_pin": (None, {"dupla": "d1", "pin": PIN["d1"]}, 403),
    "outra_dupla_com_pin": (None, {"dupla": "d2", "pin": PIN["d2"]}, 403),
    "sem_papel": ("nobody", {}, 404),
    "arbitro_de_outro_torneio": ("other_ref", {}, 404),
    "organizador_de_outro_torneio": ("other_org", {}, 404),
    "arbitro_de_outro_com_pin": ("other_ref", {"dupla": "d1", "pin": PIN["d1"]}, 404),
    "arbitro": ("ref", {}, None),
    "organizador": ("org", {}, None),
    "superusuario": ("super", {}, None),
}


def _call(c, method, slug, key, path, body, **extra):
    url = api(slug, key, path)
    return getattr(c, method)(url, data=json.dumps(body), content_type="application/json", **extra)


@pytest.mark.parametrize("actor", list(ACTORS))
@pytest.mark.parametrize("write", list(WRITES))
def test_staff_write_permissions(cup, j1, users, setup_client, write, actor):
    prepare, method, path, body, allowed = WRITES[write]
    username, extra, status = ACTORS[actor]
    prepare(setup_client, cup.slug, j1)
    c = Client()
    if username is not None:
        c.force_login(users[username])
    before = db_snapshot()
    r = _call(c, method, cup.slug, j1, path, body | extra)
    if status is None:
        assert r.status_code == allowed, (r.status_code, r.content)
        assert r.json()["key"] == j1
        assert db_snapshot() != before
    else:
        assert r.status_code == status, (r.status_code, r.content)
        assert r.json()["errors"] and all(isinstance(e, str) for e in r.json()["errors"])
        assert db_snapshot() == before


@pytest.mark.parametrize("write", list(WRITES))
def test_staff_writes_need_the_csrf_header(cup, j1, users, setup_client, write):
    prepare, method, path, body, allowed = WRITES[write]
    prepare(setup_client, cup.slug, j1)
    c = Client(enforce_csrf_checks=True)
    c.force_login(users["ref"])
    c.cookies["csrftoken"] = CSRF
    before = db_snapshot()
    r = _call(c, method, cup.slug, j1, path, body)
    assert r.status_code == 403 and "CSRF" in " ".join(r.json()["errors"])
    r = _call(c, method, cup.slug, j1, path, body, HTTP_X_CSRFTOKEN="x" * 32)  # a wrong token
    assert r.status_code == 403
    assert db_snapshot() == before
    r = _call(c, method, cup.slug, j1, path, body, HTTP_X_CSRFTOKEN=CSRF)
    assert r.status_code == allowed, r.content
    assert db_snapshot() != before


def test_confirmation_by_pin_needs_no_csrf_token(cup, j1, setup_client):
    _decided(setup_client, cup.slug, j1)
    c = Client(enforce_csrf_checks=True)
    r = answer(c, cup.slug, j1, "d1")
    assert r.status_code == 200 and r.json()["confirmations"]["d1"] == "confirmed"
    r = answer(c, cup.slug, j1, "d4", accept=False, reason="o placar da 2ª está errado")
    assert r.status_code == 200 and r.json()["status"] == "contested"


# --- confirmations: the jogo's dupla, with its PIN -------------------------------------------------------

# actor: (user, body, status; None = allowed)
CONFIRMERS = {
    "dupla_do_jogo_pin_certo": (None, {"dupla": "d1", "pin": PIN["d1"]}, None),
    "outra_dupla_do_jogo_pin_certo": (None, {"dupla": "d4", "pin": PIN["d4"]}, None),
    "dupla_do_jogo_pin_errado": (None, {"dupla": "d1", "pin": "123456"}, 403),
    "dupla_do_jogo_pin_da_outra": (None, {"dupla": "d1", "pin": PIN["d4"]}, 403),
    "dupla_do_jogo_sem_pin": (None, {"dupla": "d1"}, 403),
    "dupla_do_jogo_pin_numero": (None, {"dupla": "d1", "pin": int(PIN["d1"])}, 403),
    "dupla_fora_do_jogo_pin_certo": (None, {"dupla": "d2", "pin": PIN["d2"]}, 403),
    "dupla_fora_com_pin_de_quem_joga": (None, {"dupla": "d2", "pin": PIN["d1"]}, 403),
    "arbitro_sem_pin": ("ref", {"dupla": "d1"}, 403),
    "organizador_sem_pin": ("org", {"dupla": "d1"}, 403),
    "superusuario_sem_pin": ("super", {"dupla": "d1"}, 403),
    "dupla_do_jogo_pin_curto": (None, {"dupla": "d1", "pin": PIN["d1"][:5]}, 403),
}


@pytest.mark.parametrize("actor", list(CONFIRMERS))
def test_confirmation_permissions(cup, j1, users, setup_client, actor):
    username, body, status = CONFIRMERS[actor]
    _decided(setup_client, cup.slug, j1)
    c = Client()
    if username is not None:
        c.force_login(users[username])
    before = db_snapshot()
    r = post(c, api(cup.slug, j1, "confirmacao"), {"accept": True, "via": 1} | body)
    if status is None:
        assert r.status_code == 200, r.content
        assert r.json()["confirmations"][body["dupla"]] == "confirmed"
    else:
        assert r.status_code == status, (r.status_code, r.content)
        assert r.json()["errors"]
        assert db_snapshot() == before
        assert set(r.json()) == {"errors"}


def test_the_pin_of_a_namesake_dupla_of_another_tournament_does_not_open_this_jogo(cup, other_cup, j1, setup_client):
    from tournaments.models import Dupla
    from tournaments.staff.pins import pin_hash_make

    Dupla.objects.filter(tournament=other_cup, key="d1").update(pin_hash=pin_hash_make("555555"))
    _decided(setup_client, cup.slug, j1)
    before = db_snapshot()
    r = post(Client(), api(cup.slug, j1, "confirmacao"), {"dupla": "d1", "pin": "555555", "via": 1, "accept": True})
    assert r.status_code == 403 and db_snapshot() == before
    r = post(
        Client(),
        api(cup.slug, "nao-existe", "confirmacao"),
        {"dupla": "d1", "pin": PIN["d1"], "via": 1, "accept": True},
    )
    assert r.status_code == 404 and db_snapshot() == before


# --- PIN lockout -----------------------------------------------------------------------------------------


def _try(pin, addr, cup, j1, dupla="d1"):
    return post(
        Client(REMOTE_ADDR=addr),
        api(cup.slug, j1, "confirmacao"),
        {"dupla": dupla, "pin": pin, "via": 1, "accept": True},
    )


def _age_failures(minutes: float):
    for failure in PinFailure.objects.all():
        failure.at -= dt.timedelta(minutes=minutes)
        failure.save(update_fields=["at"])


def test_sixth_wrong_pin_locks_the_dupla_for_ten_minutes_from_any_address(cup, j1, setup_client):
    _decided(setup_client, cup.slug, j1)
    for k in range(5):
        r = _try(f"00000{k}", f"10.0.0.{k + 1}", cup, j1)
        assert r.status_code == 403, (k, r.content)
    r = _try("000009", "10.0.1.1", cup, j1)
    assert r.status_code == 429 and r.json()["errors"]
    before = db_snapshot()
    for addr in ("10.0.0.1", "192.168.7.7", "127.0.0.1"):
        r = _try(PIN["d1"], addr, cup, j1)  # the right PIN, while locked
        assert r.status_code == 429, r.content
        assert "minuto" in r.json()["errors"][0]
    assert db_snapshot() == before
    # the lock is the dupla's: the other dupla of the jogo still confirms
    assert _try(PIN["d4"], "10.0.0.1", cup, j1, dupla="d4").status_code == 200
    # nine minutes later, still locked; tries during the lock are not counted as new failures
    failures = PinFailure.objects.count()
    _age_failures(9)
    assert _try(PIN["d1"], "10.0.0.2", cup, j1).status_code == 429
    assert PinFailure.objects.count() == failures
    # ten minutes after the sixth wrong PIN, the right one works again
    _age_failures(1.05)
    r = _try(PIN["d1"], "10.0.0.3", cup, j1)
    assert r.status_code == 200 and r.json()["status"] == "confirmed"


def test_a_wrong_pin_says_how_many_tries_are_left_before_the_lock(cup, j1, setup_client):
    _decided(setup_client, cup.slug, j1)
    r = _try("000001", "10.3.0.1", cup, j1)
    assert r.status_code == 403
    assert r.json()["errors"] == ["PIN incorreto para a dupla d1. Mais 5 tentativas antes do bloqueio de 10 minutos."]
    for k in range(2, 6):
        r = _try(f"00000{k}", "10.3.0.1", cup, j1)
    assert r.status_code == 403
    assert r.json()["errors"] == ["PIN incorreto para a dupla d1. Mais 1 tentativa antes do bloqueio de 10 minutos."]
    r = _try("000006", "10.3.0.1", cup, j1)  # the sixth: the lockout, worded as before
    assert r.status_code == 429
    assert r.json()["errors"] == [
        "PIN bloqueado por excesso de tentativas erradas: tente de novo em 10 minutos ou procure o árbitro da mesa"
    ]


def test_tries_left_follow_the_day_limit_and_the_growing_lock(cup):
    from django.utils import timezone

    from tournaments.models import Dupla
    from tournaments.sumula.pins import LOCK, pin_tries_left

    dupla = Dupla.objects.get(tournament=cup, key="d1")
    now = timezone.now()
    assert pin_tries_left(dupla=dupla, referee_screen=False).tries == 6
    # six wrong PINs an hour ago (a first lock, over): five more now; the next lock twice as long
    for k in range(6):
        PinFailure.objects.create(dupla=dupla, at=now - dt.timedelta(minutes=60, seconds=k), address="10.4.0.1")
    left = pin_tries_left(dupla=dupla, referee_screen=False)
    assert (left.tries, left.lock) == (6, 2 * LOCK)
    assert pin_tries_left(dupla=dupla, referee_screen=True).tries == 6  # strangers' guesses do not count there
    # 18 in the day: the day's limit (20) comes first and holds until the referee unlocks
    for k in range(12):
        PinFailure.objects.create(dupla=dupla, at=now - dt.timedelta(hours=3, minutes=k * 11), address="10.4.0.1")
    left = pin_tries_left(dupla=dupla, referee_screen=False)
    assert (left.tries, left.lock) == (2, None)


def test_wrong_pins_spread_over_more_than_ten_minutes_do_not_lock(cup, j1, setup_client):
    _decided(setup_client, cup.slug, j1)
    for _k in range(5):
        assert _try("999999", "10.1.0.1", cup, j1).status_code == 403
    _age_failures(11)
    assert _try("999998", "10.1.0.2", cup, j1).status_code == 403  # only one wrong PIN in the last 10 minutes
    assert _try(PIN["d1"], "10.1.0.3", cup, j1).status_code == 200


def test_lockout_with_a_patched_clock(cup, j1, setup_client, monkeypatch):
    from django.utils import timezone

    _decided(setup_client, cup.slug, j1)
    for _k in range(6):
        _try("111112", "10.2.0.1", cup, j1)
    assert _try(PIN["d1"], "10.2.0.2", cup, j1).status_code == 429
    real_now = timezone.now()
    monkeypatch.setattr("tournaments.sumula.pins.timezone.now", lambda: real_now + dt.timedelta(minutes=10, seconds=5))
    assert _try(PIN["d1"], "10.2.0.3", cup, j1).status_code == 200


# --- the referee's screens under /organizar/<slug>/arbitragem/ (when they exist) -------------------------


def _desk_url(slug: str, key: str) -> str:
    url = f"/organizar/{slug}/arbitragem/{key}/"
    try:
        resolve(url)
    except Resolver404:
        pytest.skip("the referee's screens (/organizar/<slug>/arbitragem/<key>/) are not built yet")
    return url


# op: (prepare, form fields) — the forms of the referee's screen (no JS), each one a staff write
DESK_WRITES = {
    "mao": (_nothing, {"op": "mao", "to": "0", "points": "3"}),
    "desfazer": (_one_mao, {"op": "desfazer", "mao": "setup-1"}),
    "resultado": (_nothing, {"op": "resultado", "p1_a": "12", "p1_b": "3", "p2_a": "12", "p2_b": "4"}),
    "wo": (_nothing, {"op": "wo", "absent": "d4", "reason": "não compareceu"}),
    "penalidade": (_nothing, {"op": "penalidade", "scope": "jogo", "lost_by": "d4", "reason": "abandonou"}),
    "homologacao": (_decided, {"op": "homologacao", "via": "1", "reason": "as duplas saíram sem confirmar"}),
    "correcao": (
        _decided,
        {"op": "correcao", "reason": "placar trocado", "p1_a": "3", "p1_b": "12", "p2_a": "4", "p2_b": "12"},
    ),
}


@pytest.mark.parametrize("write", list(DESK_WRITES))
def test_referee_screen_posts_need_the_role_and_a_csrf_token(cup, j1, users, setup_client, write):
    url = _desk_url(cup.slug, j1)
    prepare, fields = DESK_WRITES[write]
    prepare(setup_client, cup.slug, j1)
    before = db_snapshot()
    anonymous = Client().post(url, fields)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/entrar/")
    for username in ("nobody", "other_ref", "other_org"):
        c = Client()
        c.force_login(users[username])
        assert c.post(url, fields).status_code == 404, username
    for pin_body in ({"dupla": "d1", "pin": PIN["d1"]}, {"dupla": "d2", "pin": PIN["d2"]}):
        assert Client().post(url, fields | pin_body).status_code == 302  # to the login page: a PIN is no account
    c = Client(enforce_csrf_checks=True)
    c.force_login(users["ref"])
    c.cookies["csrftoken"] = CSRF
    assert c.post(url, fields).status_code == 403
    assert c.post(url, fields, HTTP_X_CSRFTOKEN="x" * 32).status_code == 403
    assert db_snapshot() == before
    r = c.post(url, fields, HTTP_X_CSRFTOKEN=CSRF)
    assert r.status_code == 302 and r["Location"].startswith(url)
    assert db_snapshot() != before


def test_referee_screen_write_by_the_organizer(cup, j1, users):
    url = _desk_url(cup.slug, j1)
    c = Client()
    c.force_login(users["org"])
    before = db_snapshot()
    assert c.post(url, DESK_WRITES["mao"][1]).status_code == 302
    assert db_snapshot() != before
    assert Client().get(api(cup.slug, j1)).json()["current"] == [3, 0]


def test_wrong_pins_on_the_referees_phone_count_for_the_api_but_strangers_do_not_lock_the_phone(
    cup, j1, users, setup_client
):
    url = _desk_url(cup.slug, j1)
    _decided(setup_client, cup.slug, j1)
    c = Client()
    c.force_login(users["ref"])
    answer_form = {"op": "confirmacao", "dupla": "d1", "via": "1", "accept": "1"}
    before = db_snapshot()
    assert c.post(url, answer_form | {"pin": "000000"}).status_code == 302  # refused: a message on the screen
    assert db_snapshot() == before and PinFailure.objects.count() == 1
    assert PinFailure.objects.get().staff is True
    for k in range(4):
        assert _try("000001", f"10.3.0.{k}", cup, j1).status_code == 403
    assert c.post(url, answer_form | {"pin": "000002"}).status_code == 302  # the sixth wrong PIN
    assert _try(PIN["d1"], "10.3.1.1", cup, j1).status_code == 429  # the public checks count every failure
    # on the referee's phone only its own two failures count: the right PIN still confirms there
    assert c.post(url, answer_form | {"pin": PIN["d1"]}).status_code == 302
    assert Client().get(api(cup.slug, j1)).json()["confirmations"] == {"d1": "confirmed", "d4": None}
    assert (
        c.post(url, {"op": "confirmacao", "dupla": "d4", "via": "1", "accept": "1", "pin": PIN["d4"]}).status_code
        == 302
    )
    assert Client().get(api(cup.slug, j1)).json()["confirmations"] == {"d1": "confirmed", "d4": "confirmed"}
