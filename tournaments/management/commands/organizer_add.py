"""python manage.py organizer_add USERNAME [--email E]: the first organizer of a new site (README, "First account")."""

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email
from django.db import transaction

from ._accounts import account_get_or_create


class Command(BaseCommand):
    help = (
        "Cria a conta USERNAME (ou usa a que existe) e permite que ela crie torneios (/organizar/novo/): "
        "a primeira conta de organizador de um site novo. A senha vem da variável de ambiente ZAP_PASSWORD "
        "(sem ela, uma senha gerada é mostrada uma única vez); a senha de uma conta que já existe não muda."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="nome de usuário")
        parser.add_argument("--email", default="", help="e-mail da conta (para recuperar a senha)")

    def handle(self, *args: Any, username: str, email: str, **options: Any) -> None:
        username, email = username.strip(), email.strip()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"e-mail {email!r} inválido") from None
        with transaction.atomic():
            account = account_get_or_create(username=username, email=email)
            user, created, generated = account.user, account.created, account.generated_password
            if not created and email and not user.email:
                user.email = email
            # ZAP_EVENT_CREATORS=staff (the default): the accounts marked staff create events
            user.is_staff = True
            user.save()
        what = "conta criada" if created else "conta existente"
        self.stdout.write(f"{username}: pode criar torneios em /organizar/novo/ ({what})")
        if not user.is_active:
            self.stderr.write(f"atenção: a conta {username} está desativada; ela só entra depois de reativada")
        if generated:
            self.stdout.write(f"senha gerada para {username} (anote: não será mostrada de novo): {generated}")
