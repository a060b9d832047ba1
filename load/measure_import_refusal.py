"""Time the refusal of over-limit tournament files (issue 21): parse + plan_read, as the desk upload and the command do.

Run from the checkout: .venv/bin/python load/measure_import_refusal.py (best of 3 per file).
"""

import json
import os
import sys
import time

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")

import django

django.setup()

from scoring.errors import RuleViolation  # noqa: E402
from tests.support.files import base_file  # noqa: E402
from tournaments.interchange.jsonfile import tournament_file_parse  # noqa: E402
from tournaments.interchange.reader import plan_read  # noqa: E402


def player(i, pad):
    return {"key": f"p{i}", "name": f"Atleta {i} " + "x" * pad, "birth_date": "1990-01-01", "email": f"a{i}@ex.com"}


def files():
    data = base_file()
    data["players"] = [player(i, 60) for i in range(100_000)]
    yield "100,000 players", json.dumps(data).encode()
    data = base_file()
    data["jogos"] = [{"stage": "grupos", "group": "B", "duplas": ["d3", "d4"], "partidas": [[12, 0]] * 3}] * 150_000
    yield "150,000 jogos", json.dumps(data).encode()
    data = base_file()
    data["registrations"] = [{"players": [f"p{i}"], "present": True} for i in range(300_000)]
    yield "300,000 registrations", json.dumps(data).encode()


for name, raw in files():
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        try:
            data = tournament_file_parse(raw=raw)
            plan, errors = plan_read(data)
            lines = [str(e) for e in errors]
        except RuleViolation as exc:
            lines = [str(e) for e in exc.errors]
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    print(f"{name}: {len(raw) / 2**20:.1f} MiB refused in {best:.2f} s: {lines[:2]}")
