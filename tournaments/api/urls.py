"""/api/v1/: the súmula API (docs/contrato.md)."""

from django.urls import path

from tournaments import converters  # noqa: F401 (registers jogokey, maoid, …)
from tournaments.api import openapi
from tournaments.api import sumula as api

app_name = "api"

urlpatterns = [
    path("torneios/<slug:slug>/jogos/", api.jogos_list, name="jogos"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/", api.jogo_detail, name="jogo"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/maos/", api.mao_add, name="maos"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/maos/<maoid:mao>/", api.mao_undo, name="mao"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/resultado/", api.result_set, name="resultado"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/confirmacao/", api.confirmation, name="confirmacao"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/homologacao/", api.homologation, name="homologacao"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/correcao/", api.correction, name="correcao"),
    path("torneios/<slug:slug>/jogos/<jogokey:key>/penalidade/", api.penalty, name="penalidade"),
    path("schema/", openapi.schema, name="schema"),
]
