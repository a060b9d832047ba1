"""python manage.py play_robots: robots play whole partidas at a casual table (INTERCHANGE.md, "Commands").

``[--partidas N] [--level aleatorio|basico] [--preset online|fenacef|aabb] [--seed S]``: four robots of the level
sit at a new table with the preset's rules and play N partidas (default 1) through the same services, clock and
log as people (``tournaments.online.services``: the table's row, its events, ``registro.json``). The clock is
the command's: each tick comes one robot's thinking time after the last, so the logged times read like a game
that started now. One line per partida: ``<table id> <partida n>``; its log is then at
``/jogar/mesas/<id>/partidas/<n>/registro.json``. ``--seed`` replays the same deals and choices.
"""

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from scoring.rules import settings_build
from tournaments.models import OnlineTable
from tournaments.online import services
from tournaments.refusals import Refused
from truco.robots import LEVELS

PRESETS = ("online", "fenacef", "aabb")
PARTIDAS_MAX = 1000
TICKS_MAX = 20_000  # a partida that needs more than this many ticks is a bug, not a long game


def _partidas(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise CommandError(f"--partidas: esperado um número inteiro, recebido {value!r}") from None
    if not 1 <= n <= PARTIDAS_MAX:
        raise CommandError(f"--partidas: de 1 a {PARTIDAS_MAX} (recebido {n})")
    return n


class Command(BaseCommand):
    help = (
        "Quatro robôs jogam N partidas numa mesa livre, pelo mesmo motor e registro das pessoas; "
        "imprime '<mesa> <partida>' por partida."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--partidas", default="1", help="quantas partidas (padrão 1)")
        parser.add_argument("--level", default="basico", help="nível dos robôs: aleatorio ou basico (padrão basico)")
        parser.add_argument("--preset", default="online", help="regras: online, fenacef ou aabb (padrão online)")
        parser.add_argument("--seed", default=None, help="semente (número inteiro): repete as mesmas partidas")

    def handle(self, *args: Any, **options: Any) -> None:
        count = _partidas(str(options["partidas"]))
        level = options["level"]
        if level not in LEVELS:
            raise CommandError(f"--level: esperado aleatorio ou basico (recebido {level!r})")
        preset = options["preset"]
        if preset not in PRESETS:
            raise CommandError(f"--preset: esperado online, fenacef ou aabb (recebido {preset!r})")
        rules, errors = settings_build(preset=preset, overrides=None)
        if rules is None:  # pragma: no cover - the three presets exist
            raise CommandError("; ".join(str(e.message) for e in errors))
        seed = options["seed"]
        if seed is not None:
            try:
                seed = int(seed)
            except ValueError:
                raise CommandError(f"--seed: esperado um número inteiro, recebido {seed!r}") from None
        if seed is None:
            self._play(count=count, level=level, preset=preset)
        else:
            with services.draws_seeded(seed):
                self._play(count=count, level=level, preset=preset)

    def _play(self, *, count: int, level: str, preset: str) -> None:
        think = timedelta(milliseconds=max(settings.ZAP_ROBOT_DELAY_MS, 1))
        try:
            table = services.robot_table_create(level=level, preset=preset)
            now = timezone.now()
            for _partida in range(count):
                services.table_start(table=table, by=None, now=now)
                for _tick in range(TICKS_MAX):
                    now += think
                    services.table_tick(now=now, table_ids=[table.pk])
                    table.refresh_from_db(fields=["status", "partida_n", "deadline"])
                    if table.status != OnlineTable.PLAYING:
                        break
                else:  # pragma: no cover - the robots always end a partida
                    raise CommandError(f"mesa {table.pk}: a partida {table.partida_n} não terminou")
                self.stdout.write(f"{table.pk} {table.partida_n}")
                now += think
        except Refused as refused:
            raise CommandError("; ".join(refused.messages)) from None
