"""Imports of the same file at the same time all succeed, each under its own slug (docs/contrato.md).

The imports run in other processes against a real database that every
connection shares (``shared_db_url``: on PostgreSQL the test database itself,
on SQLite a temporary file, since the in-memory test database is private to this process).
They race on purpose: threads released together by a barrier, and
``manage.py import_tournament`` processes started together; each round is
repeated, since one unlucky interleaving in three is enough to fail.
"""

import json
import subprocess
import sys

import pytest

from tests.support.files import base_file
from tests.support.processes import BASE_DIR, process_env

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
        env=process_env(shared_db_url),
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
                env=process_env(shared_db_url),
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
