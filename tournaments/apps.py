from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from .atletas.services import players_gone
        from .models import Player

        # a deleted player's atleta walks the Nível again without them (tournaments/atletas/services.py)
        post_delete.connect(players_gone, sender=Player, dispatch_uid="atletas-players-gone")
