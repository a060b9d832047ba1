"""Counters raced by threads: run in a process of its own on a database every connection shares (the
``shared_db_url`` fixture), ``python -m tests.support.races SCENARIO``, which prints what happened as JSON.

The threads are released together by a barrier, so each thread's check of a counter meets the others' before
any of them has counted; a counter that is read and then grown outside a lock lets more through than its limit.

- ``creations``: ``THREADS`` creations of an event by one account at once (``ZAP_EVENT_CREATORS=anyone``, the limit
  ``ZAP_EVENTS_PER_ACCOUNT`` from the environment), ``ROUNDS`` times with a new account;
- ``pin-address``: wrong PINs from one address on many duplas at once (no dupla near its own lock);
- ``pin-tournament``: wrong PINs from as many addresses on one event's duplas at once.

The PIN scenarios lower the limits (``sumula.pins``) so that a few threads are enough to cross them.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from collections.abc import Callable

THREADS = 8
ROUNDS = 3
PIN_THREADS = 24
ADDRESS_TRIES = 4  # sumula.pins.ADDRESS_TRIES while racing
TOURNAMENT_BASE = 2  # sumula.pins.TOURNAMENT_BASE while racing: the ceiling is 2 + 1 per dupla
DUPLAS = 6


def together(count: int, work: Callable[[int], str]) -> list[str]:
    """``work(i)`` in ``count`` threads released at once; what each returned, or its exception's name."""
    from django.db import connection

    barrier = threading.Barrier(count)
    results: list[str] = [""] * count

    def one(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as exc:  # reported, so the test shows it
            results[i] = f"{type(exc).__name__}: {exc}"
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def creations() -> dict:
    import datetime as dt

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.exceptions import PermissionDenied

    from tournaments.models import Tournament
    from tournaments.setup.services import tournament_create

    rounds = []
    for n in range(ROUNDS):
        user = get_user_model().objects.create_user(f"corrida-{n}", password="senha-da-corrida-1")

        def create(i: int, user=user) -> str:
            try:
                tournament_create(user=user, starter="blank", name=f"Copa {i}", date=dt.date(2026, 11, 28))
            except PermissionDenied:
                return "refused"
            return "created"

        results = together(THREADS, create)
        rounds.append({"results": Counter(results), "stored": Tournament.objects.filter(created_by=user).count()})
    return {"limit": settings.ZAP_EVENTS_PER_ACCOUNT, "rounds": rounds}


def _pin_event():
    """An event of ``DUPLAS`` duplas with PINs: (its duplas, a wrong PIN for each)."""
    from tournaments.models import Dupla
    from tournaments.services import tournament_import
    from tournaments.staff.pins import pins_reset
    from tournaments.synthetic import synthetic_tournament

    tournament = tournament_import(data=synthetic_tournament(duplas=DUPLAS))
    pins = pins_reset(tournament=tournament)
    duplas = list(Dupla.objects.filter(tournament=tournament).select_related("tournament").order_by("id"))
    return duplas, [f"{(int(pins[d.key]) + 1) % 10**6:06d}" for d in duplas]


def _guess(dupla, pin: str, address: str) -> str:
    from tournaments.refusals import Refused
    from tournaments.sumula.pins import pin_verify
    from tournaments.web import refusal_status

    try:
        pin_verify(dupla=dupla, pin=pin, address=address)
    except Refused as refused:
        return str(refusal_status(refused))
    return "200"


def pin_address() -> dict:
    from tournaments.models import PinFailure
    from tournaments.sumula import pins

    pins.ADDRESS_TRIES = ADDRESS_TRIES
    duplas, wrong = _pin_event()
    address = "203.0.113.7"
    results = together(PIN_THREADS, lambda i: _guess(duplas[i % DUPLAS], wrong[i % DUPLAS], address))
    return {
        "limit": ADDRESS_TRIES,
        "results": Counter(results),
        "checked": PinFailure.objects.filter(address=address).count(),
    }


def pin_tournament() -> dict:
    from tournaments.models import PinFailure
    from tournaments.sumula import pins

    pins.TOURNAMENT_BASE = TOURNAMENT_BASE
    duplas, wrong = _pin_event()
    tournament_id = duplas[0].tournament_id
    results = together(PIN_THREADS, lambda i: _guess(duplas[i % DUPLAS], wrong[i % DUPLAS], f"10.7.{i}.1"))
    return {
        "limit": pins.tournament_pin_ceiling(tournament_id),
        "results": Counter(results),
        "checked": PinFailure.objects.filter(dupla__tournament_id=tournament_id).count(),
    }


SCENARIOS = {"creations": creations, "pin-address": pin_address, "pin-tournament": pin_tournament}


def race(database_url: str, scenario: str, **env: str) -> dict:
    """Run ``scenario`` in a child process on ``database_url`` (``env``: more environment); what it printed."""
    import subprocess

    from .processes import BASE_DIR, process_env

    run = subprocess.run(
        [sys.executable, "-m", "tests.support.races", scenario],
        cwd=BASE_DIR,
        env=process_env(database_url, **env),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(SCENARIOS[sys.argv[1]]()))
