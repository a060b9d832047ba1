"""Benchmark: the online ranking (DOMAIN §9.5) with 10,000 accounts: a partida ends (its four accounts walk one
step, inside the write that ends it) and the ranking's first page is visited right after, nothing cached; also
a search and a player's page (issue 44; target: the first visit after a finished partida ≤ 50 ms).

Run it through ``make bench-ranking`` (a throwaway SQLite file, then a throwaway PostgreSQL database): it writes
accounts and refuses a database whose name does not mention "bench".
"""

from __future__ import annotations

import logging
import random
import statistics
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.ranking import player_level
from tournaments.models import OnlineProfile, OnlineRating, OnlineTable, PartidaLog, TableSeat
from tournaments.online import ranking, services
from tournaments.online.people import AVATARS

FIRST = ["Ana", "Bruno", "Carla", "Diego", "Elaine", "Fábio", "Gisele", "Hugo", "Iara", "João", "Kátia", "Lucas"]
TARGET_MS = 50.0
BATCH = 2000


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class Command(BaseCommand):
    help = "Mede o ranking online com 10.000 contas (use make bench-ranking: banco descartável)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--accounts", type=int, default=10_000)
        parser.add_argument("--repeat", type=int, default=20)
        parser.add_argument("--any-database", action="store_true", help="aceita um banco sem 'bench' no nome")

    def handle(self, *args: Any, **options: Any) -> None:
        name = str(settings.DATABASES["default"]["NAME"])
        if "bench" not in name and not options["any_database"]:
            raise CommandError(f"o banco {name!r} não parece descartável (o nome não tem 'bench')")
        size, repeat = options["accounts"], options["repeat"]
        if size < 4 or repeat < 1:
            raise CommandError("--accounts: pelo menos 4; --repeat: pelo menos 1")
        out = self.stdout.write
        logging.getLogger("zap.requests").setLevel(logging.WARNING)
        out(f"ranking online: {size} contas, {connection.vendor}")
        rng = random.Random(44)
        started = time.perf_counter()
        profiles = self._accounts(size, rng)
        out(f"  {size} contas com ranking criadas em {time.perf_counter() - started:.1f} s")

        # one real partida (robots), whose log each measured partida reuses under four accounts
        table = services.robot_table_create(level="basico")
        now = timezone.now()
        with services.draws_seeded(44):
            services.table_start(table=table, by=None, now=now)
            for _ in range(20_000):
                now += timedelta(seconds=1)
                services.table_tick(now=now, table_ids=[table.pk])
                table.refresh_from_db(fields=["status"])
                if table.status != OnlineTable.PLAYING:
                    break
        model = PartidaLog.objects.get(table=table, n=1)

        client = Client()
        path = "/jogar/ranking/"
        assert client.get(path).status_code == 200
        counts, firsts, queries = [], [], []
        for k in range(repeat):
            four = rng.sample(profiles, 4)
            seats = [TableSeat(table=table, seat=s, profile=p, present=True) for s, p in enumerate(four)]
            began = time.perf_counter()
            with transaction.atomic():
                log = PartidaLog.objects.create(
                    table=table,
                    n=100 + k,
                    data=model.data,
                    winner=model.winner,
                    ended_by=model.ended_by,
                    finished_at=now + timedelta(minutes=k),
                )
                walked = ranking.partida_count(log=log, seats=seats)
            counts.append(time.perf_counter() - began)
            assert len(walked) == 4
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                response = client.get(path)
                firsts.append(time.perf_counter() - began)
            assert response.status_code == 200, response.status_code
            queries.append(len(captured.captured_queries))
        search = []
        for word in ("ana", "lucas 12", "zzz"):
            began = time.perf_counter()
            assert client.get(path, {"q": word}).status_code == 200
            search.append(time.perf_counter() - began)
        deep = []
        for page in (2, 50, 200):
            began = time.perf_counter()
            assert client.get(path, {"pagina": str(page)}).status_code == 200
            deep.append(time.perf_counter() - began)
        player = []
        for profile in rng.sample(profiles, 5):
            assert profile.user is not None
            began = time.perf_counter()
            assert client.get(f"/jogar/jogadores/{profile.user.get_username()}/").status_code == 200
            player.append(time.perf_counter() - began)

        first_median = statistics.median(firsts)
        out(f"  contar uma partida (4 contas, na escrita que a termina): mediana {_ms(statistics.median(counts))}")
        out(
            f"  primeira visita a {path} depois de uma partida terminada: mediana {_ms(first_median)}, "
            f"pior {_ms(max(firsts))}, {max(queries)} consultas (meta ≤ {TARGET_MS:.0f} ms)"
        )
        out(f"  busca: pior {_ms(max(search))}; páginas 2, 50, 200: pior {_ms(max(deep))}")
        out(f"  página de um jogador: mediana {_ms(statistics.median(player))}")
        verdict = "OK" if first_median <= TARGET_MS / 1000 else "ACIMA DA META"
        out(f"RANKING_FIRST_VISIT_MS={first_median * 1000:.1f} {verdict}")

    def _accounts(self, size: int, rng: random.Random) -> list[OnlineProfile]:
        User = get_user_model()
        now = timezone.now()
        for start in range(0, size, BATCH):
            User.objects.bulk_create(
                [
                    User(username=f"bench{i}", first_name=FIRST[i % len(FIRST)], password="!")
                    for i in range(start, min(size, start + BATCH))
                ]
            )
        users = list(User.objects.filter(username__startswith="bench").order_by("pk"))
        for start in range(0, len(users), BATCH):
            OnlineProfile.objects.bulk_create(
                [
                    OnlineProfile(
                        user=u, display_name=f"{u.first_name} {i}", avatar=AVATARS[i % len(AVATARS)], created_at=now
                    )
                    for i, u in enumerate(users[start : start + BATCH], start=start)
                ]
            )
        profiles = list(OnlineProfile.objects.filter(user__in=users).select_related("user").order_by("pk"))
        ratings = []
        for p in profiles:
            played = rng.randint(1, 200)
            won = rng.randint(0, played)
            score = rng.randint(0, 1000)
            ratings.append(
                OnlineRating(
                    profile=p,
                    score=score,
                    level=player_level(score=score),
                    played=played,
                    won=won,
                    abandoned=rng.randint(0, (played - won) // 10),
                    updated_at=now,
                )
            )
        OnlineRating.objects.bulk_create(ratings, batch_size=BATCH)
        return profiles
