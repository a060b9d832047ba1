"""Helpers shared by the registration tests (no tests here)."""

from datetime import date

from django.contrib.auth import get_user_model

from tournaments.models import StaffRole, Tournament

HEADER = "nome;nascimento;email;telefone;parceiro;parceiro_nascimento;parceiro_email;parceiro_telefone"


def tournament_make(
    *,
    slug: str = "aabb-2024",
    max_duplas: int | None = 16,
    min_age: int | None = 18,
    public_signup: bool = True,
    **extra,
) -> Tournament:
    return Tournament.objects.create(
        name="Olimpíada AABB 2024",
        slug=slug,
        date=date(2024, 6, 15),
        min_age=min_age,
        max_duplas=max_duplas,
        preset="aabb",
        public_signup=public_signup,
        **extra,
    )


def user_make(username: str, *, tournament: Tournament | None = None, role: str | None = None):
    user = get_user_model().objects.create_user(username=username)  # no password: tests use force_login
    if tournament is not None and role:
        StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


def csv_bytes(lines: list[str], *, encoding: str = "utf-8", sep: str = ";", header: str = HEADER) -> bytes:
    text = "\r\n".join([header.replace(";", sep), *lines]) + "\r\n"
    return text.encode(encoding)


def people(n: int, *, start: int = 0) -> list[str]:
    """``n`` individual rows of adults with distinct names."""
    return [
        f"Atleta {i + 1};{1 + i % 28:02d}/03/1990;a{i + 1}@exemplo.com.br;(11) 98888-{i + 1:04d}"
        for i in range(start, start + n)
    ]


ADULT = date(1990, 1, 1)


def desk_url(name: str, t: Tournament, *args) -> str:
    """The desk's URL ``desk:<name>`` of tournament ``t``."""
    from django.urls import reverse

    return reverse(f"desk:{name}", args=[t.slug, *args])


def registrations_add(t: Tournament, *names: str):
    """One registration of adults named ``names`` (one, or a pair), through the service."""
    from tournaments.registrations import services
    from tournaments.registrations.checks import PersonIn

    return services.registration_add(tournament=t, players=[PersonIn(n, ADULT) for n in names])
