"""Load the demo tournaments kept in ``demo/`` (built by ``demo/build_demo.py``)."""

import json
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import ngettext

from scoring.errors import RuleViolation
from tournaments.models import Tournament
from tournaments.services import tournament_import
from tournaments.writes import PRIVATE, tournament_write

DEMO_FILES = ("aabb-2024.json", "fenacef-2023.json")
DEMO_ORGANIZER, DEMO_REFEREE, DEMO_PASSWORD = "comissao", "arbitro", "truco-demo"
# the names the demo people gave (as an invited person types it: accounts.views.DisplayNameForm), so the desk
# names them as it names real people ("assinada por Rogério Lima"), not by their logins
DEMO_NAMES = {DEMO_ORGANIZER: "Helena Prado", DEMO_REFEREE: "Rogério Lima"}


def demo_dir() -> Path:
    return Path(settings.BASE_DIR) / "demo"


def demo_files() -> list[Path]:
    return [demo_dir() / name for name in DEMO_FILES]


class Command(BaseCommand):
    help = (
        "Carrega os torneios de demonstração (Olimpíada AABB-SP 2024 e XII Jogos FENACEF 2023). "
        "Torneios já carregados são mantidos; use --reset para apagá-los e importá-los de novo."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="apaga os torneios de demonstração existentes e importa de novo"
        )
        parser.add_argument(
            "--accounts",
            action="store_true",
            help=f"cria as contas de demonstração {DEMO_ORGANIZER!r} (comissão) e {DEMO_REFEREE!r} "
            f"(árbitro), com a senha {DEMO_PASSWORD!r}; só em desenvolvimento (DEBUG ou ZAP_DEV)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
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
                    with tournament_write(tournament=None, action="demo.reset", kind=PRIVATE):
                        existing.delete()  # cascades to everything in the tournament (nothing left to recompute)
                try:
                    tournament = tournament_import(data=data)
                except RuleViolation as exc:
                    for error in exc.errors:
                        self.stderr.write(f"{path.name}: {error}")
                    n = len(exc.errors)
                    problems = ngettext("%(n)d problema", "%(n)d problemas", n) % {"n": n}
                    raise CommandError(f"{path.name}: {problems}; nada foi gravado.") from exc
            verb = "reimportado" if existing is not None else "importado"
            self.stdout.write(self.style.SUCCESS(f"“{tournament.name}” {verb} (/torneios/{tournament.slug}/)."))
        if options["accounts"]:
            self._accounts()

    def _accounts(self) -> None:
        """Known passwords: for a developer's machine only, never a server."""
        if not (settings.DEBUG or os.environ.get("ZAP_DEV")):
            raise CommandError("--accounts só em desenvolvimento (DEBUG=1 ou ZAP_DEV=1): as senhas são públicas.")
        from tournaments.permissions import is_organizer_role
        from tournaments.staff.services import role_grant

        User = get_user_model()
        slugs = [json.loads(p.read_text(encoding="utf-8"))["tournament"]["slug"] for p in demo_files()]
        for username, role in ((DEMO_ORGANIZER, "organizer"), (DEMO_REFEREE, "referee")):
            user = User.objects.filter(username=username).first() or User.objects.create_user(username)
            user.set_password(DEMO_PASSWORD)
            if not user.get_full_name().strip():
                user.first_name = DEMO_NAMES[username]
            if is_organizer_role(role=role):
                user.is_staff = True  # the comissão creates events (ZAP_EVENT_CREATORS)
            user.save()
            for tournament in Tournament.objects.filter(slug__in=slugs):
                role_grant(tournament=tournament, user=user, role=role)
        self.stdout.write(
            f"Contas de demonstração: {DEMO_ORGANIZER} (comissão) e {DEMO_REFEREE} (árbitro), "
            f"senha {DEMO_PASSWORD}; entre em /entrar/."
        )
