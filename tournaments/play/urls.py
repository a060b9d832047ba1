"""Online play's addresses, mounted at /jogar/ (INTERCHANGE.md "Online play", URLs; namespace ``play``)."""

from django.urls import include, path

from . import logs, ranking_views, replay_views, views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("agora/", views.quick, name="quick"),
    path("perfil/", views.profile_save, name="profile"),
    path("conduta/", include("tournaments.play.conduct_urls")),
    path("ranking/", ranking_views.ranking_list, name="ranking"),
    path("jogadores/<str:slug>/", ranking_views.player, name="player"),
    path("jogadores/<str:slug>/atleta/", ranking_views.player_atleta, name="player_atleta"),
    path("mesas/nova/", views.table_new, name="table_new"),
    path("mesas/<int:table_id>/", views.table, name="table"),
    path("mesas/<int:table_id>/partidas/<int:n>/", replay_views.replay, name="replay"),
    path("mesas/<int:table_id>/partidas/<int:n>/registro.json", logs.registro, name="registro"),
    path("mesas/<int:table_id>/<slug:acao>/", views.table_action, name="table_action"),
    path("<slug:slug>/", views.sala, name="sala"),
    path("<slug:slug>/chat/", views.sala_chat, name="sala_chat"),
]
