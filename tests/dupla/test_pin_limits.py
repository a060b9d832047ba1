"""PIN guessing limited per address, per tournament and per dupla over a day; the referee's screen judged apart;
the referee (or an organizer) unlocks a dupla, audited (issue 21, item 4)."""

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.support.sumula import PIN, api, cup_setup, post, staff_user
from tournaments.models import AuditEntry, Dupla, PinFailure, StaffRole
from tournaments.refusals import Refused
from tournaments.sumula import pins
from tournaments.sumula.pins import pin_unlock, pin_verify
from tournaments.web import refusal_status

pytestmark = pytest.mark.django_db


class Clock:
    """``timezone.now`` as the PIN checks see it, moved by hand."""

    def __init__(self, monkeypatch):
        self.now = timezone.now()
        monkeypatch.setattr("tournaments.sumula.pins.timezone.now", lambda: self.now)

    def advance(self, **delta):
        self.now += dt.timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def _dupla(tournament, key):
    return Dupla.objects.get(tournament=tournament, key=key)


def _check(dupla, pin, address="10.0.0.1", **source):
    """The status a check answers: 200 (passed), 403 (wrong) or 429 (refused before checking)."""
    try:
        pin_verify(dupla=dupla, pin=pin, address=address, **source)
    except Refused as refused:
        return refusal_status(refused), refused.messages[0]
    return 200, ""


def _wrong(key):
    return f"{(int(PIN[key]) + 1) % 10**6:06d}"


@pytest.fixture
def other(load_file):
    return cup_setup(load_file, slug="outra-copa")


# --- per address --------------------------------------------------------------------------------------------


def test_one_address_guessing_across_duplas_and_tournaments_is_refused(cup, other, clock):
    duplas = [_dupla(t, k) for t in (cup, other) for k in ("d1", "d2", "d3", "d4")]
    # 20 wrong PINs from one address, spread so that no dupla gets near its own lock (at most 3 each)
    for n in range(pins.ADDRESS_TRIES - 1):
        assert _check(duplas[n % len(duplas)], "000000", "203.0.113.9")[0] == 403, n
        clock.advance(seconds=20)
    status, message = _check(duplas[3], "000000", "203.0.113.9")
    assert status == 429 and "endereço" in message and "minuto" in message and "árbitro da mesa" in message
    # refused before checking: not even the right PIN, on any dupla of any tournament, and nothing recorded
    failures = PinFailure.objects.count()
    for dupla in duplas:
        assert _check(dupla, PIN[dupla.key], "203.0.113.9")[0] == 429
    assert PinFailure.objects.count() == failures
    # another address is not concerned
    assert _check(duplas[0], PIN["d1"], "198.51.100.7")[0] == 200
    # the address is refused for ADDRESS_LOCK, then checked again
    clock.advance(seconds=pins.ADDRESS_LOCK.total_seconds() - 30)
    assert _check(duplas[1], PIN["d2"], "203.0.113.9")[0] == 429
    clock.advance(seconds=40)
    assert _check(duplas[1], PIN["d2"], "203.0.113.9")[0] == 200


def test_the_failure_records_its_source(cup, j1):
    assert (
        post(
            Client(REMOTE_ADDR="192.0.2.44"),
            api(cup.slug, j1, "confirmacao"),
            {"dupla": "d1", "pin": "000000", "via": 1, "accept": True},
        ).status_code
        == 403
    )
    failure = PinFailure.objects.get()
    assert (failure.address, failure.staff, failure.user, failure.cleared_at) == ("192.0.2.44", False, None, None)


def test_the_api_refuses_one_address_across_duplas(cup, j1, users):
    _decide(cup, j1, users)
    c = Client(REMOTE_ADDR="203.0.113.50")
    statuses = [
        post(
            c, api(cup.slug, j1, "confirmacao"), {"dupla": f"d{n % 4 + 1}", "pin": "000000", "via": 1, "accept": True}
        ).status_code
        for n in range(21)
    ]
    assert statuses == [403] * 19 + [429, 429]  # 5 tries per dupla at most: no dupla lock, the address's
    r = post(c, api(cup.slug, j1, "confirmacao"), {"dupla": "d1", "pin": PIN["d1"], "via": 1, "accept": True})
    assert r.status_code == 429 and "endereço" in r.json()["errors"][0]
    r = post(
        Client(REMOTE_ADDR="198.51.100.8"),
        api(cup.slug, j1, "confirmacao"),
        {"dupla": "d1", "pin": PIN["d1"], "via": 1, "accept": True},
    )
    assert r.status_code == 200


# --- per tournament -----------------------------------------------------------------------------------------


def test_a_tournament_wide_ceiling_throttles_public_checks_from_many_addresses(cup, other, clock, monkeypatch, users):
    monkeypatch.setattr(pins, "TOURNAMENT_BASE", 10)
    ceiling = pins.tournament_pin_ceiling(cup.pk)
    assert ceiling == 14  # 10 + 1 per dupla
    duplas = [_dupla(cup, k) for k in ("d1", "d2", "d3", "d4")]
    for n in range(ceiling - 1):  # a new address each time, at most 4 per dupla: no address or dupla lock
        assert _check(duplas[n % 4], "000000", f"10.20.0.{n}")[0] == 403, n
    assert _check(duplas[1], "000000", "10.20.0.99")[0] == 429  # the ceiling-th wrong PIN
    status, message = _check(duplas[0], PIN["d1"], "10.20.1.1")
    assert status == 429 and "torneio" in message
    # another tournament is not throttled
    assert _check(_dupla(other, "d1"), PIN["d1"], "10.20.1.2")[0] == 200
    # the referee's screen is not throttled
    assert _check(duplas[0], PIN["d1"], "10.20.1.3", staff=True, user=users["ref"])[0] == 200
    # when the oldest failures leave the window, public checks go on
    clock.advance(minutes=10, seconds=5)
    assert _check(duplas[0], PIN["d1"], "10.20.1.4")[0] == 200


def test_the_ceiling_grows_with_the_duplas(cup):
    assert pins.tournament_pin_ceiling(cup.pk) == pins.TOURNAMENT_BASE + 4 * pins.TOURNAMENT_PER_DUPLA


# --- per dupla: growing locks, the daily budget ---------------------------------------------------------------


def test_a_wrong_guess_every_two_minutes_ends_locked_until_the_referee_unlocks(cup, clock, users):
    d1 = _dupla(cup, "d1")
    statuses = []
    for n in range(pins.DAY_TRIES + 2):
        statuses.append(_check(d1, f"{n:06d}", f"10.30.0.{n}")[0])
        clock.advance(minutes=2, seconds=1)  # never 6 within 10 minutes
    assert statuses == [403] * (pins.DAY_TRIES - 1) + [429] * 3
    status, message = _check(d1, PIN["d1"], "10.30.1.1")
    assert status == 429 and "procure o árbitro da mesa" in message
    clock.advance(hours=3)
    assert _check(d1, PIN["d1"], "10.30.1.2")[0] == 429  # no timer: the referee unlocks it
    pin_unlock(tournament=cup, dupla=d1, by=users["ref"])
    assert _check(d1, PIN["d1"], "10.30.1.3")[0] == 200


def test_each_lock_of_a_day_is_longer_than_the_last(cup, clock):
    d1 = _dupla(cup, "d1")

    def burst():
        for n in range(pins.TRIES):
            status = _check(d1, "000000", f"10.40.0.{n}")[0]
        return status

    assert burst() == 429
    clock.advance(minutes=10, seconds=5)
    assert _check(d1, PIN["d1"], "10.40.1.1")[0] == 200  # the first lock: 10 minutes
    assert burst() == 429
    clock.advance(minutes=10, seconds=5)
    status, message = _check(d1, PIN["d1"], "10.40.1.2")
    assert status == 429 and "10 minuto" in message  # the second lock: 20 minutes
    clock.advance(minutes=10)
    assert _check(d1, PIN["d1"], "10.40.1.3")[0] == 200
    assert burst() == 429
    clock.advance(minutes=39)
    assert _check(d1, PIN["d1"], "10.40.1.4")[0] == 429  # the third: 40 minutes
    clock.advance(minutes=1, seconds=10)
    assert _check(d1, PIN["d1"], "10.40.1.5")[0] == 200


# --- the referee's screen -------------------------------------------------------------------------------------


@pytest.fixture
def users(cup, other):
    return {
        "ref": staff_user(cup, "arbitro", StaffRole.REFEREE),
        "org": staff_user(cup, "organizadora", StaffRole.ORGANIZER),
        "other_ref": staff_user(other, "arbitro-da-outra", StaffRole.REFEREE),
        "nobody": staff_user(None, "ninguem"),
    }


def test_strangers_do_not_lock_the_dupla_out_on_the_referees_screen(cup, users):
    d1 = _dupla(cup, "d1")
    for n in range(pins.TRIES):
        _check(d1, "000000", f"10.50.0.{n}")
    assert _check(d1, PIN["d1"], "10.50.1.1")[0] == 429  # public: locked
    assert _check(d1, PIN["d1"], "10.50.1.1", staff=True, user=users["ref"])[0] == 200


def test_the_referees_screen_is_still_limited(cup, users):
    d1, d2 = _dupla(cup, "d1"), _dupla(cup, "d2")
    statuses = [_check(d1, "000000", "10.60.0.1", staff=True, user=users["ref"])[0] for _ in range(pins.TRIES)]
    assert statuses == [403] * (pins.TRIES - 1) + [429]
    assert _check(d1, PIN["d1"], "10.60.0.1", staff=True, user=users["ref"])[0] == 429
    assert PinFailure.objects.filter(staff=True, user=users["ref"]).count() == pins.TRIES
    # one staff account cannot try PINs across duplas either
    others = [_dupla(cup, k) for k in ("d2", "d3", "d4")]
    n = pins.TRIES
    while n < pins.ADDRESS_TRIES - 1:
        assert _check(others[n % 3], "000000", "10.60.0.1", staff=True, user=users["ref"])[0] == 403
        n += 1
    assert _check(others[2], "000000", "10.60.0.1", staff=True, user=users["ref"])[0] == 429
    status, message = _check(d2, PIN["d2"], "10.60.0.1", staff=True, user=users["ref"])
    assert status == 429 and "sessão" in message
    assert _check(d2, PIN["d2"], "10.60.0.1", staff=True, user=users["org"])[0] == 200  # another account


def _screen(cup, j1):
    return reverse("referee:jogo", kwargs={"slug": cup.slug, "key": j1})


def _decide(cup, j1, users):
    c = Client()
    c.force_login(users["ref"])
    assert post(c, api(cup.slug, j1, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    return c


def test_on_the_referees_phone_api_failures_do_not_lock_and_the_button_unlocks(cup, j1, users):
    c = _decide(cup, j1, users)
    for n in range(pins.TRIES):
        post(
            Client(REMOTE_ADDR=f"10.70.0.{n}"),
            api(cup.slug, j1, "confirmacao"),
            {"dupla": "d1", "pin": "000000", "via": 1, "accept": True},
        )
    html = c.get(_screen(cup, j1)).content.decode()
    unlock = reverse("referee:pin_unlock", kwargs={"slug": cup.slug, "dupla": "d1"})
    assert f'action="{unlock}"' in html and "Desbloquear o PIN da dupla" in html
    assert reverse("referee:pin_unlock", kwargs={"slug": cup.slug, "dupla": "d4"}) not in html  # d4: not locked
    r = c.post(unlock, {"jogo": j1})
    assert r.status_code == 302 and r["Location"] == _screen(cup, j1) + "#confirmacao"
    assert not PinFailure.objects.filter(cleared_at__isnull=True).exists()
    assert PinFailure.objects.count() == pins.TRIES  # the history stays
    entry = AuditEntry.objects.get(tournament=cup, action="pin_unlock")
    assert entry.user == users["ref"] and entry.after == {"dupla": "d1", "failures_cleared": pins.TRIES}
    assert "Desbloquear o PIN" not in c.get(_screen(cup, j1)).content.decode()
    r = post(
        Client(REMOTE_ADDR="10.70.1.1"),
        api(cup.slug, j1, "confirmacao"),
        {"dupla": "d1", "pin": PIN["d1"], "via": 1, "accept": True},
    )
    assert r.status_code == 200


def test_unlock_needs_the_referee_or_an_organizer_of_this_tournament(cup, other, j1, users):
    d1 = _dupla(cup, "d1")
    for n in range(pins.TRIES):
        _check(d1, "000000", f"10.80.0.{n}")
    url = reverse("referee:pin_unlock", kwargs={"slug": cup.slug, "dupla": "d1"})
    anonymous = Client().post(url, {"jogo": j1})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/entrar/")
    for who in ("nobody", "other_ref"):
        c = Client()
        c.force_login(users[who])
        assert c.post(url, {"jogo": j1}).status_code == 404, who
    c = Client()
    c.force_login(users["other_ref"])  # its own tournament's url, another tournament's dupla: no such dupla
    assert c.post(reverse("referee:pin_unlock", kwargs={"slug": other.slug, "dupla": "nao-existe"})).status_code == 404
    assert Client().get(url).status_code == 405
    assert not PinFailure.objects.filter(cleared_at__isnull=False).exists()
    assert not AuditEntry.objects.filter(action="pin_unlock").exists()
    with pytest.raises(PermissionDenied):
        pin_unlock(tournament=cup, dupla=d1, by=users["other_ref"])
    with pytest.raises(PermissionDenied):
        pin_unlock(tournament=cup, dupla=d1, by=AnonymousUser())
    with pytest.raises(ValueError):
        pin_unlock(tournament=other, dupla=d1, by=users["other_ref"])
    assert not PinFailure.objects.filter(cleared_at__isnull=False).exists()
    c = Client()
    c.force_login(users["org"])
    r = c.post(url, {"volta": "desk"})
    assert r.status_code == 302 and r["Location"] == reverse("desk:pins", kwargs={"slug": cup.slug})
    assert _check(d1, PIN["d1"], "10.80.1.1")[0] == 200


def test_the_desk_pins_page_lists_locked_duplas_with_the_unlock_button(cup, users):
    d2 = _dupla(cup, "d2")
    for n in range(pins.TRIES):
        _check(d2, "000000", f"10.90.0.{n}")
    c = Client()
    c.force_login(users["org"])
    html = c.get(reverse("desk:pins", kwargs={"slug": cup.slug})).content.decode()
    section = html.split('id="pins-bloqueados"')[1]
    assert reverse("referee:pin_unlock", kwargs={"slug": cup.slug, "dupla": "d2"}) in section
    assert 'name="volta" value="desk"' in section
    assert reverse("referee:pin_unlock", kwargs={"slug": cup.slug, "dupla": "d1"}) not in section


# --- the common case: no wrong PIN near ---------------------------------------------------------------------


def _failure_reads(dupla, pin, **source) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        _check(dupla, pin, **source)
    return sum(1 for q in queries.captured_queries if "pinfailure" in q["sql"].lower() and "SELECT" in q["sql"])


def test_a_right_pin_with_no_wrong_pin_near_reads_the_failures_once(cup, other, clock):
    d1 = _dupla(cup, "d1")
    assert _failure_reads(d1, PIN["d1"]) == 1
    # a wrong PIN of another tournament's dupla from another address: still nothing near this check
    assert _check(_dupla(other, "d2"), _wrong("d2"), address="10.9.9.9")[0] == 403
    assert _failure_reads(d1, PIN["d1"]) == 1
    # anything near (the dupla's own, a day ago at most): every lock is read again, as before
    assert _check(d1, _wrong("d1"), address="10.0.0.2")[0] == 403
    clock.advance(hours=23)
    assert _failure_reads(d1, PIN["d1"]) > 1
    clock.advance(hours=2)
    assert _failure_reads(d1, PIN["d1"]) == 1


# --- guesses sent at once (issue 41, item 5): each counter is counted under its lock ---------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scenario", ["pin-address", "pin-tournament"])
def test_guesses_at_once_are_checked_no_more_than_the_limit(shared_db_url, scenario):
    """Wrong PINs sent together from one address across duplas, or from many addresses to one event: no more are
    checked (and recorded) than the address's or the event's limit; the rest are refused as locked (429) unchecked.
    (Per dupla, the dupla's row lock already held: each dupla gets fewer guesses here than its own lock.)"""
    from tests.support.races import PIN_THREADS, race

    out = race(shared_db_url, scenario)
    limit = out["limit"]
    assert out["checked"] == limit, out
    assert out["results"] == {"403": limit - 1, "429": PIN_THREADS - limit + 1}, out  # the limit-th: 429
