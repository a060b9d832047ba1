"""The online table of a tournament jogo, mounted at /torneios/<slug>/jogos/<key>/mesa/ (config/urls.py; INTERCHANGE.md
"Online play", URLs). No namespace: ``jogo_table``, ``jogo_table_seat``, ``jogo_table_answer``."""

from django.urls import path

from tournaments import converters  # noqa: F401 (registers jogokey)

from . import tournament_views

urlpatterns = [
    path("", tournament_views.jogo_table, name="jogo_table"),
    path("sentar/", tournament_views.jogo_table_seat, name="jogo_table_seat"),
    path("resposta/", tournament_views.jogo_table_answer, name="jogo_table_answer"),
]
