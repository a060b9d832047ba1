"""Load the demo tournaments kept in ``demo/`` (built by ``demo/build_demo.py``)."""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scoring.errors import RuleViolation
from tournaments.models import Tournament
from tournaments.services import tournament_import

DEMO_FILES = ("aabb-2024.json", "fenacef-2023.json")


def demo_dir() -> Path:
    return Path(settings.BASE_DIR) / "demo"


def demo_files() -> list[Path]:
    return [demo_dir() / name for name in DEMO_FILES]


class Command(BaseCommand):
    help = ("Carrega os torneios de demonstração (Olimpíada AABB-SP 2024 e XII Jogos FENACEF 2023). "
            "Torneios já carregados são mantidos; use --reset para apagá-los e importá-los de novo.")

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true",
                            help="apaga os torneios de demonstração existentes e importa de novo")

    def handle(self, *args, **options):
        reset = options["reset"]
        for path in demo_files():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except OSError as exc:
                raise CommandError(f"não foi possível ler {path}: {exc.strerror}") from exc
            except json.JSONDecodeError as exc:
                raise CommandError(f"{path.name}: JSON inválido na linha {exc.lineno}: {exc.msg}") from exc
            slug = data["tournament"]["slug"]
            name = data["tournament"]["name"]
            with transaction.atomic():
                existing = Tournament.objects.filter(slug=slug).first()
                if existing is not None and not reset:
                    self.stdout.write(f"“{name}” já está carregado (/torneios/{slug}/); nada a fazer.")
                    continue
                if existing is not None:
                    existing.delete()  # cascades to everything in the tournament
                try:
                    tournament = tournament_import(data=data)
                except RuleViolation as exc:
                    for error in exc.errors:
                        self.stderr.write(f"{path.name}: {error}")
                    raise CommandError(f"{path.name}: {len(exc.errors)} problema(s); nada foi gravado.") from exc
            verb = "reimportado" if existing is not None else "importado"
            self.stdout.write(self.style.SUCCESS(f"“{tournament.name}” {verb} (/torneios/{tournament.slug}/)."))

