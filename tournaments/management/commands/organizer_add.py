"""python manage.py organizer_add USERNAME [--email E]: the first organizer of a new site (README, "First account")."""

import os
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email
from django.db import transaction


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
        User = get_user_model()
        username, email = username.strip(), email.strip()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"e-mail {email!r} inválido") from None
        generated = None
        with transaction.atomic():
            user = User.objects.select_for_update().filter(**{User.USERNAME_FIELD: username}).first()
            created = user is None
            if user is None:
                user = User(**{User.USERNAME_FIELD: username}, email=email)
                try:
                    user.full_clean(exclude=["password"])
                except ValidationError as exc:
                    problems = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
                    raise CommandError(f"nome de usuário {username!r} inválido ({problems})") from None
                password = os.environ.get("ZAP_PASSWORD") or ""
                if not password:
                    password = generated = secrets.token_urlsafe(12)
                user.set_password(password)
            elif email and not user.email:
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
