from django.urls import path

from tournaments import converters  # noqa: F401 (registers jogokey, maoid, …)
from tournaments.public import agenda as agenda
from tournaments.public import share_urls as share_urls
from tournaments.public import sheet_urls as printing_urls
from tournaments.public import signup_urls as signup_urls
from tournaments.public import sumula as sumula_public
from tournaments.public import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<slug:slug>/", views.tournament_detail, name="detail"),
    path("<slug:slug>/classificacao/", views.tournament_standings, name="standings"),
    path("<slug:slug>/chave/", views.tournament_bracket, name="bracket"),
    path("<slug:slug>/jogos/", views.tournament_jogos, name="jogos"),
    path("<slug:slug>/duplas/", views.tournament_duplas, name="duplas"),
    path("<slug:slug>/duplas/<duplakey:key>/", views.tournament_dupla, name="dupla"),
    path("<slug:slug>/tv/", views.tournament_tv, name="tv"),
    path("<slug:slug>/jogos/<jogokey:key>/", sumula_public.sumula_page, name="sumula"),
    *printing_urls.urlpatterns,
    *share_urls.urlpatterns,
    path("<slug:slug>/exportar.json", views.tournament_export_json, name="export"),
    path("<slug:slug>/agenda.ics", agenda.tournament_agenda, name="agenda"),
    *signup_urls.urlpatterns,
]
