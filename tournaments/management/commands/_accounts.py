"""The operator's commands that make accounts (staff_add, organizer_add): one way to create one."""

import os
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError


@dataclass(frozen=True)
class Account:
    user: User
    created: bool
    generated_password: str | None  # shown once by the command, never stored in clear


def account_get_or_create(*, username: str, email: str = "") -> Account:
    """The account ``username``, created if absent with the password in ``ZAP_PASSWORD`` (or a generated one);
    an existing account keeps its password. Call it inside the command's transaction."""
    user = User.objects.select_for_update().filter(username=username).first()
    if user is not None:
        return Account(user=user, created=False, generated_password=None)
    user = User(username=username, email=email)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as exc:
        problems = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
        raise CommandError(f"nome de usuário {username!r} inválido ({problems})") from None
    generated = None
    password = os.environ.get("ZAP_PASSWORD") or ""
    if not password:
        password = generated = secrets.token_urlsafe(12)
    user.set_password(password)
    user.save()
    return Account(user=user, created=True, generated_password=generated)
