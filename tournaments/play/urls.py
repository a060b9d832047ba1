"""Online play's addresses, mounted at /jogar/ (INTERCHANGE.md "Online play", URLs; namespace ``play``)."""

from django.urls import include, path

from . import logs, views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("agora/", views.quick, name="quick"),
    path("perfil/", views.profile_save, name="profile"),
    path("conduta/", include("tournaments.play.conduct_urls")),
    path("mesas/nova/", views.table_new, name="table_new"),
    path("mesas/<int:table_id>/", views.table, name="table"),
    path("mesas/<int:table_id>/partidas/<int:n>/registro.json", logs.registro, name="registro"),
    path("mesas/<int:table_id>/<slug:acao>/", views.table_action, name="table_action"),
    path("<slug:slug>/", views.sala, name="sala"),
    path("<slug:slug>/chat/", views.sala_chat, name="sala_chat"),
]
