"""The súmula's write path in the benchmark: mão POSTs and the confirmation that changes the standings.

The synthetic tournament is played to the end; its final is emptied (as if
still to play), then recorded mão by mão through the API with a referee's
session, and confirmed by both duplas with their PINs. Each request is timed
whole, in process (the test client runs every middleware, the view, the
service and the database work: the server's time without the network).
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.rules import wins_needed
from tournaments.models import Jogo, Tournament
from tournaments.roles import role_grant
from tournaments.staff.pins import pin_hash_make
from tournaments.writes import tournament_rebuild

PIN = "246810"


@dataclass
class SumulaBench:
    maos: int = 0
    mao_median_ms: float = 0.0
    mao_p95_ms: float = 0.0
    mao_queries: int = 0
    confirm_first_ms: float = 0.0
    confirm_counting_ms: float = 0.0
    statuses: str = ""


def sumula_bench(*, tournament: Tournament) -> SumulaBench:
    out = SumulaBench()
    final = (
        Jogo.objects.filter(tournament=tournament, group__isnull=True, third_place=False)
        .select_related("dupla_a", "dupla_b")
        .order_by("-round")
        .first()
    )
    final.partidas.all().delete()
    final.status, final.counted_via, final.entry_order = Jogo.SCHEDULED, None, None
    final.version += 1  # its record changed: what was kept of it (tournaments/sumula/records.py) no longer holds
    final.save()
    tournament_rebuild(tournament=tournament)
    for dupla in (final.dupla_a, final.dupla_b):
        dupla.pin_hash = pin_hash_make(PIN)
        dupla.save(update_fields=["pin_hash"])
    user = get_user_model().objects.create_user(username=f"bench-{uuid.uuid4().hex[:8]}")
    role_grant(tournament=tournament, user=user, role="referee")
    client = Client()
    client.force_login(user)
    base = f"/api/v1/torneios/{tournament.slug}/jogos/{final.key}/"
    times, queries = [], []
    for _partida in range(wins_needed(final.best_of)):
        for mao in range(12):  # eleven mãos of 1, then the mão de onze (worth 3): 14 x 0
            body = json.dumps({"id": uuid.uuid4().hex, "to": 0, "points": 1 if mao < 11 else 3})
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = client.post(base + "maos/", body, content_type="application/json")
                times.append(time.perf_counter() - start)
            queries.append(len(captured.captured_queries))
            assert response.status_code == 201, response.content
    out.maos = len(times)
    out.mao_median_ms = statistics.median(times) * 1000
    out.mao_p95_ms = sorted(times)[int(len(times) * 0.95) - 1] * 1000
    out.mao_queries = max(queries)
    anonymous = Client()
    statuses = []
    for dupla, attr in ((final.dupla_a, "confirm_first_ms"), (final.dupla_b, "confirm_counting_ms")):
        body = json.dumps({"dupla": dupla.key, "pin": PIN, "via": final.via, "accept": True})
        start = time.perf_counter()
        response = anonymous.post(base + "confirmacao/", body, content_type="application/json")
        setattr(out, attr, (time.perf_counter() - start) * 1000)
        statuses.append(response.json().get("status", str(response.status_code)))
    out.statuses = " → ".join(statuses)
    user.delete()
    return out
