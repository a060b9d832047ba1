"""Making a tournament, its people and its duplas directly in the database, for the desk's tests."""

from django.contrib.auth.models import User
from django.test import Client

from tournaments.models import Dupla, Player, Registration, StaffRole, Tournament


def make_tournament(slug="copa", *, preset="aabb", fmt=None, closed=True, **fields) -> Tournament:
    return Tournament.objects.create(
        name=f"Copa {slug}", slug=slug, preset=preset, format=fmt or {}, registration_closed=closed, **fields
    )


def make_user(name: str, tournament: Tournament | None = None, role: str | None = "organizer") -> User:
    user = User.objects.create_user(name, password="senha-forte-123")
    if tournament is not None and role:
        StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def add_individuals(t: Tournament, n: int, *, start: int = 1, present=None) -> list[Registration]:
    last = Registration.objects.filter(tournament=t).count()
    regs = []
    for i in range(start, start + n):
        p = Player.objects.create(tournament=t, key=f"p{i}", name=f"Atleta {i:03d}", order=i)
        last += 1
        regs.append(Registration.objects.create(tournament=t, order=last, player1=p, source="desk", present=present))
    return regs


def add_duplas(t: Tournament, n: int, *, seeds: int = 0) -> list[Dupla]:
    players = Player.objects.bulk_create(
        [Player(tournament=t, key=f"q{i}", name=f"Jogador {i:04d}", order=i) for i in range(1, 2 * n + 1)]
    )
    return Dupla.objects.bulk_create(
        [
            Dupla(
                tournament=t,
                key=f"d{i}",
                player1=players[2 * i - 2],
                player2=players[2 * i - 1],
                order=i,
                seed=i if i <= seeds else None,
            )
            for i in range(1, n + 1)
        ]
    )
