"""python manage.py staff_add SLUG USERNAME ROLE (docs: docs/contrato.md, "People, roles and the organizer's desk")."""

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments.models import Tournament
from tournaments.staff.services import ROLES, role_grant, role_label

from ._accounts import account_get_or_create


class Command(BaseCommand):
    help = (
        "Dá a USERNAME o papel ROLE (organizer ou referee) no torneio SLUG. Cria a conta se não existir, com a "
        "senha da variável de ambiente ZAP_PASSWORD (sem ela, uma senha gerada é mostrada uma única vez). "
        "A senha de uma conta que já existe não muda."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="endereço (slug) do torneio")
        parser.add_argument("username", help="nome de usuário")
        parser.add_argument("role", help="organizer (comissão organizadora) ou referee (árbitro)")

    def handle(self, *args: Any, slug: str, username: str, role: str, **options: Any) -> None:
        if role not in ROLES:
            raise CommandError(
                f"papel {role!r} desconhecido: use organizer (comissão organizadora) ou referee (árbitro)"
            )
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"torneio {slug!r} não encontrado")
        username = username.strip()
        try:
            with transaction.atomic():
                account = account_get_or_create(username=username)
                user, created, generated = account.user, account.created, account.generated_password
                role_grant(tournament=tournament, user=user, role=role)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        what = "conta criada" if created else "conta existente"
        self.stdout.write(f"{username}: {role_label(role)} de {tournament.slug} ({what})")
        if not user.is_active:
            self.stderr.write(f"atenção: a conta {username} está desativada; ela só entra depois de reativada")
        if generated:
            self.stdout.write(f"senha gerada para {username} (anote: não será mostrada de novo): {generated}")
