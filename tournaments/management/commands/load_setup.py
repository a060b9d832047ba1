"""Prepare the load test (``make load``): two 1,024-dupla events and a referee's session; prints them as JSON.

- a played event (every result entered): what spectators read on event day's public pages;
- an event whose group jogos are all still to play: the tables where the referees enter mãos.

With ``--engine`` (the engine benchmark, load/engine_bench), one event instead: every group jogo played but, in
``--measured`` groups spread over the classificação's pages, two jogos to play (one is measured), and in
``--writers`` other groups, two jogos to play for the referees entering mãos; no knockout jogo yet (the day
of the event, groups in play). PINs are made for the duplas of the measured jogos only.

Refuses a database whose name does not mention "load" or "bench" (it adds tournaments and an account).
"""

import json
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.urls import reverse

from tournaments.models import Dupla, Jogo
from tournaments.presenters.standings import GROUPS_PER_PAGE, _group_anchor
from tournaments.roles import role_grant
from tournaments.services import tournament_import
from tournaments.staff.pins import pin_reset
from tournaments.synthetic import GROUP_STAGE, synthetic_tournament


class Command(BaseCommand):
    help = "Prepara o teste de carga (make load): dois torneios de N duplas e a sessão de um árbitro, em JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--duplas", type=int, default=1024)
        parser.add_argument(
            "--engine",
            action="store_true",
            help="um torneio só, na fase de grupos, para o load/engine_bench (veja --measured e --writers)",
        )
        parser.add_argument("--measured", type=int, default=5, help="com --engine: grupos com um jogo medido")
        parser.add_argument("--writers", type=int, default=50, help="com --engine: grupos para os árbitros das mãos")

    def handle(self, *args: Any, duplas: int, engine: bool, measured: int, writers: int, **options: Any) -> None:
        name = str(connection.settings_dict.get("NAME") or "")
        if "load" not in name and "bench" not in name:
            raise CommandError(f"o banco {name!r} não parece descartável (o nome não contém 'load' nem 'bench')")
        if engine:
            self.stdout.write(json.dumps(_engine_setup(duplas=duplas, measured=measured, writers=writers)))
            return
        data = synthetic_tournament(duplas=duplas, seed=1, maos_every=10)
        played = tournament_import(data=json.loads(json.dumps(data)))
        data["tournament"]["name"] += " (mesas)"
        data["tournament"]["slug"] = f"carga-mesas-{duplas}"
        data["jogos"] = []  # the group jogos are made by the import, all to play
        live = tournament_import(data=data)
        session = _referee_session(tournament=live)
        jogos = list(
            Jogo.objects.filter(tournament=live, status=Jogo.SCHEDULED).order_by("id").values_list("key", flat=True)
        )
        some_jogo = Jogo.objects.filter(tournament=played).order_by("id").values_list("key", flat=True).first()

        def pages(slug: str) -> list[str]:
            return [reverse("tournaments:list")] + [
                reverse(f"tournaments:{n}", kwargs={"slug": slug}) for n in ("detail", "standings", "bracket", "jogos")
            ]

        self.stdout.write(
            json.dumps(
                {
                    "played": played.slug,
                    "live": live.slug,
                    "session": session,
                    "jogos": jogos,
                    "pages": pages(played.slug) + [f"/torneios/{played.slug}/jogos/{some_jogo}/"],
                    "live_pages": pages(live.slug),
                    "standings": reverse("tournaments:standings", kwargs={"slug": played.slug}),
                    "static": staticfiles_storage.url("css/zap.css"),
                }
            )
        )


def _referee_session(*, tournament) -> str:
    """A referee of ``tournament`` signed in: the session key a client sends as its ``sessionid`` cookie."""
    user = get_user_model().objects.create_user(username=f"arbitro-carga-{tournament.pk}")
    role_grant(tournament=tournament, user=user, role="referee")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def _engine_setup(*, duplas: int, measured: int, writers: int) -> dict:
    """The engine benchmark's event (module docstring): its slug, a referee's session, the measured jogos (group,
    page of the classificação, the group's anchor there, the duplas' PINs) and the writers' jogos."""
    data = synthetic_tournament(duplas=duplas, seed=1, maos_every=10)
    data["tournament"]["name"] = f"Motor de resultados, {duplas} duplas"
    data["tournament"]["slug"] = f"motor-{duplas}"
    groups = [g["key"] for g in data["stages"][0]["groups"]]
    if measured + writers > len(groups):
        raise CommandError(
            f"{duplas} duplas fazem {len(groups)} grupos: poucos para {measured} medidos e {writers} árbitros"
        )
    measured_at = sorted({i * len(groups) // max(measured, 1) for i in range(measured)})
    others = [i for i in range(len(groups)) if i not in measured_at]
    step = max(1, len(others) // max(writers, 1))
    writers_at = others[::step][:writers]
    open_groups = {groups[i] for i in measured_at + writers_at}
    jogos, left = [], {}
    for row in data["jogos"]:
        if row["stage"] != GROUP_STAGE:
            continue  # the knockout is drawn when the groups end
        group = row["group"]
        if group in open_groups and left.get(group, 0) < 2:
            left[group] = left.get(group, 0) + 1  # left to play: the import makes it, scheduled
            continue
        jogos.append(row)
    data["jogos"] = jogos
    tournament = tournament_import(data=data)
    scheduled: dict[str, list[Jogo]] = {}
    for jogo in (
        Jogo.objects.filter(tournament=tournament, status=Jogo.SCHEDULED, group__isnull=False)
        .select_related("group", "stage", "dupla_a", "dupla_b")
        .order_by("id")
    ):
        scheduled.setdefault(jogo.group.key, []).append(jogo)
    out_measured = []
    for i in measured_at:
        jogo = scheduled[groups[i]][0]
        pins = {}
        for dupla in (jogo.dupla_a, jogo.dupla_b):
            pins[dupla.key] = pin_reset(tournament=tournament, dupla=Dupla.objects.get(pk=dupla.pk))
        out_measured.append(
            {
                "group": groups[i],
                "jogo": jogo.key,
                "page": i // GROUPS_PER_PAGE + 1,
                "anchor": _group_anchor(jogo.stage.key, groups[i]),
                "pins": pins,
            }
        )
    return {
        "slug": tournament.slug,
        "duplas": duplas,
        "groups": len(groups),
        "session": _referee_session(tournament=tournament),
        "standings": reverse("tournaments:standings", kwargs={"slug": tournament.slug}),
        "measured": out_measured,
        "writers": [[j.key for j in scheduled[groups[i]]] for i in writers_at],
    }
