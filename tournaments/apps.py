from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from config.dbconn import connections_policy_install

        from .atletas.services import nivel_after_write, players_gone
        from .circuits.services import etapa_places_after_write
        from .models import Player
        from .online.tournament import tables_after_write
        from .writes import write_followers_add

        # what follows every write of a tournament once it commits: the atletas' Nível, the etapa's places
        write_followers_add(nivel_after_write)
        write_followers_add(etapa_places_after_write)
        write_followers_add(tables_after_write)  # an online event's jogos get their tables (online/tournament.py)

        # database connections kept for their thread's life, checked after they sat idle (config/dbconn.py)
        connections_policy_install()

        # a deleted player's atleta walks the Nível again without them (tournaments/atletas/services.py)
        post_delete.connect(players_gone, sender=Player, dispatch_uid="atletas-players-gone")
