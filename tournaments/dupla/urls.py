"""/d/<token>/: a dupla's private page (its jogos and standings, its súmulas to confirm), by its secret link."""

from django.urls import path

from tournaments import converters  # noqa: F401 (registers jogokey, maoid, …)
from tournaments.dupla import agenda, views

app_name = "privatelink"

urlpatterns = [
    path("<linktoken:token>/", views.dupla_page_view, name="dupla"),
    path("<linktoken:token>/agenda.ics", agenda.dupla_agenda_view, name="agenda"),
    path("<linktoken:token>/jogos/<jogokey:key>/", views.dupla_score_view, name="score"),
    path("<linktoken:token>/jogos/<jogokey:key>/resposta/", views.dupla_answer_view, name="answer"),
    path("<linktoken:token>/jogos/<jogokey:key>/recurso/", views.dupla_appeal_view, name="appeal"),
]
