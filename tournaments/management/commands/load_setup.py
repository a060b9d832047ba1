"""Prepare the load test (``make load``): two 1,024-dupla events and a referee's session; prints them as JSON.

- a played event (every result entered): what spectators read on event day's public pages;
- an event whose group jogos are all still to play: the tables where the referees enter mãos.

Refuses a database whose name does not mention "load" or "bench" (it adds tournaments and an account).
"""

import json

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.urls import reverse

from tournaments.models import Jogo
from tournaments.roles import role_grant
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament


class Command(BaseCommand):
    help = "Prepara o teste de carga (make load): dois torneios de N duplas e a sessão de um árbitro, em JSON."

    def add_arguments(self, parser):
        parser.add_argument("--duplas", type=int, default=1024)

    def handle(self, *args, duplas: int, **options):
        name = str(connection.settings_dict.get("NAME") or "")
        if "load" not in name and "bench" not in name:
            raise CommandError(f"o banco {name!r} não parece descartável (o nome não contém 'load' nem 'bench')")
        data = synthetic_tournament(duplas=duplas, seed=1, maos_every=10)
        played = tournament_import(data=json.loads(json.dumps(data)))
        data["tournament"]["name"] += " (mesas)"
        data["tournament"]["slug"] = f"carga-mesas-{duplas}"
        data["jogos"] = []  # the group jogos are made by the import, all to play
        live = tournament_import(data=data)
        user = get_user_model().objects.create_user(username=f"arbitro-carga-{live.pk}")
        role_grant(tournament=live, user=user, role="referee")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        jogos = list(Jogo.objects.filter(tournament=live, status=Jogo.SCHEDULED).order_by("id")
                     .values_list("key", flat=True))
        some_jogo = Jogo.objects.filter(tournament=played).order_by("id").values_list("key", flat=True).first()

        def pages(slug: str) -> list[str]:
            return [reverse("tournaments:list")] + [reverse(f"tournaments:{n}", kwargs={"slug": slug})
                                                    for n in ("detail", "standings", "bracket", "jogos")]

        self.stdout.write(json.dumps({
            "played": played.slug, "live": live.slug, "session": session.session_key, "jogos": jogos,
            "pages": pages(played.slug) + [f"/torneios/{played.slug}/jogos/{some_jogo}/"],
            "live_pages": pages(live.slug),
            "standings": reverse("tournaments:standings", kwargs={"slug": played.slug}),
            "static": staticfiles_storage.url("css/zap.css"),
        }))
