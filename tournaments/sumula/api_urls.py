"""/api/v1/: the súmula API (INTERCHANGE.md)."""

from django.urls import path

from . import api

app_name = "api"

urlpatterns = [
    path("torneios/<slug:slug>/jogos/", api.jogos_list, name="jogos"),
    path("torneios/<slug:slug>/jogos/<str:key>/", api.jogo_detail, name="jogo"),
    path("torneios/<slug:slug>/jogos/<str:key>/maos/", api.mao_add, name="maos"),
    path("torneios/<slug:slug>/jogos/<str:key>/maos/<str:mao>/", api.mao_undo, name="mao"),
    path("torneios/<slug:slug>/jogos/<str:key>/resultado/", api.result_set, name="resultado"),
    path("torneios/<slug:slug>/jogos/<str:key>/confirmacao/", api.confirmation, name="confirmacao"),
    path("torneios/<slug:slug>/jogos/<str:key>/homologacao/", api.homologation, name="homologacao"),
    path("torneios/<slug:slug>/jogos/<str:key>/correcao/", api.correction, name="correcao"),
    path("torneios/<slug:slug>/jogos/<str:key>/penalidade/", api.penalty, name="penalidade"),
]
