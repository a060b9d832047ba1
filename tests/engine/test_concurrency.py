"""Imports of the same file at the same time all succeed, each under its own slug (docs/contrato.md).

The imports run in other processes against a real database that every
connection shares: on PostgreSQL the test database itself, on SQLite a
temporary file (the in-memory test database is private to this process).
They race on purpose: threads released together by a barrier, and
``manage.py import_tournament`` processes started together; each round is
repeated, since one unlucky interleaving in three is enough to fail.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.support.files import base_file

BASE_DIR = Path(__file__).resolve().parents[2]

# Runs in a fresh process: THREADS imports of FILE released together, ROUNDS times; prints what happened.
HARNESS = r"""
import json, sys, threading
import django
django.setup()
from django.db import connection
from tournaments.models import Jogo, Tournament
from tournaments.services import tournament_import

path, threads, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = json.loads(open(path, encoding="utf-8").read())
slugs, errors = [], []

def one(barrier):
    try:
        barrier.wait()
        slugs.append(tournament_import(data=json.loads(json.dumps(data))).slug)
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()

for _ in range(rounds):
    barrier = threading.Barrier(threads)
    workers = [threading.Thread(target=one, args=(barrier,)) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()

print(json.dumps({
    "slugs": slugs, "errors": errors,
    "stored": sorted(Tournament.objects.values_list("slug", flat=True)),
    "jogos": {s: Jogo.objects.filter(tournament__slug=s).count() for s in slugs},
}))
"""


def _env(database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "config.settings", "ZAP_DEV": "1"}


@pytest.fixture(scope="module")
def sqlite_file_url(tmp_path_factory):
    """A migrated SQLite file shared by every process of this module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('concorrencia') / 'zap.sqlite3'}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=BASE_DIR,
        env=_env(url),
        check=True,
        timeout=300,
    )
    return url


@pytest.fixture
def shared_db_url(request):
    """A database URL other processes can reach, empty at the start of the test."""
    if connection.vendor == "sqlite":
        url = request.getfixturevalue("sqlite_file_url")
        subprocess.run(
            [sys.executable, "manage.py", "flush", "--noinput", "-v0"],
            cwd=BASE_DIR,
            env=_env(url),
            check=True,
            timeout=120,
        )
        return url
    # the test database (transaction=True: migrated, other connections' commits visible, emptied after the test)
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or 'localhost'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def copa_file(tmp_path):
    path = tmp_path / "copa.json"
    path.write_text(json.dumps(base_file(slug="copa")), encoding="utf-8")
    return path


@pytest.mark.django_db(transaction=True)
def test_threads_importing_the_same_file_at_once_all_succeed_with_distinct_slugs(shared_db_url, copa_file):
    threads, rounds = 4, 6
    run = subprocess.run(
        [sys.executable, "-c", HARNESS, str(copa_file), str(threads), str(rounds)],
        cwd=BASE_DIR,
        env=_env(shared_db_url),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["errors"] == []
    assert len(out["slugs"]) == threads * rounds
    assert len(set(out["slugs"])) == threads * rounds  # each import its own tournament
    assert sorted(out["slugs"]) == out["stored"]  # and nothing else was stored
    # the wanted slug went to one import; the others got one made from the name (docs/contrato.md)
    assert "copa" in out["slugs"]
    assert set(out["slugs"]) - {"copa"} == {"copa-do-bar"} | {f"copa-do-bar-{n}" for n in range(2, threads * rounds)}
    # every import is whole: the same schedule as the first
    assert len(set(out["jogos"].values())) == 1 and out["jogos"]["copa"] > 0


@pytest.mark.django_db(transaction=True)
def test_import_commands_started_together_all_succeed_with_distinct_slugs(shared_db_url, copa_file):
    processes, rounds = 3, 2
    slugs = []
    for _ in range(rounds):
        started = [
            subprocess.Popen(
                [sys.executable, "manage.py", "import_tournament", str(copa_file)],
                cwd=BASE_DIR,
                env=_env(shared_db_url),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(processes)
        ]
        for p in started:
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0, err
            slugs.append(out.strip().splitlines()[-1])
    assert len(slugs) == len(set(slugs)) == processes * rounds
    assert "copa" in slugs and all(s == "copa" or s.startswith("copa-do-bar") for s in slugs)
