"""python manage.py nivel_rebuild: every atleta's Nível computed again from the results (DOMAIN §7.2).

The site keeps it up to date after every write; this links any player still without an atleta and recomputes
every atleta (after a restore, a change in the database shell, the first deploy of atletas)."""

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.atletas.services import nivel_rebuild
from tournaments.models import Atleta


class Command(BaseCommand):
    help = "Recalcula o Nível de todos os atletas a partir dos resultados dos torneios publicados."

    def handle(self, *args: Any, **options: Any) -> None:
        changed = nivel_rebuild()
        self.stdout.write(f"{Atleta.objects.count()} atletas; {changed} com o Nível alterado")
