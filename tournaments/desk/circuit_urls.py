"""/organizar/circuitos/…: the circuit desk, and the atletas' (join and split) at /organizar/circuitos/atletas/. Every view goes through ``permissions.circuit_desk_view`` (the list
and the new circuit: ``login_required`` and ``circuit_creation_refusal``)."""

from django.urls import path

from .. import converters  # noqa: F401  (registers the path converters)
from . import atletas, circuit_archive, circuits

urlpatterns = [
    path("circuitos/", circuits.circuits_home, name="circuits"),
    # joining and splitting atletas (before <slug>/: "atletas" is no circuit's slug)
    path("circuitos/atletas/", atletas.atletas, name="atletas"),
    path("circuitos/atletas/juntar/", atletas.atletas_join_view, name="atletas_join"),
    path("circuitos/atletas/diferentes/", atletas.atletas_distinct_view, name="atletas_distinct"),
    path("circuitos/atletas/<atletakey:key>/", atletas.atleta, name="atleta"),
    path("circuitos/atletas/<atletakey:key>/nome/", atletas.atleta_name_view, name="atleta_name"),
    path("circuitos/<slug:slug>/", circuits.circuit_desk, name="circuit"),
    path("circuitos/<slug:slug>/etapas/", circuits.etapa_attach, name="circuit_etapa_attach"),
    path("circuitos/<slug:slug>/etapas/<int:etapa_id>/", circuits.etapa_set, name="circuit_etapa_set"),
    path("circuitos/<slug:slug>/etapas/<int:etapa_id>/retirar/", circuits.etapa_detach, name="circuit_etapa_detach"),
    path("circuitos/<slug:slug>/exclusoes/", circuits.atleta_exclude, name="circuit_exclude"),
    path(
        "circuitos/<slug:slug>/exclusoes/<atletakey:key>/desfazer/",
        circuits.atleta_include,
        name="circuit_include",
    ),
    path("circuitos/<slug:slug>/sorteio/", circuits.tie_draw, name="circuit_tie_draw"),
    path("circuitos/<slug:slug>/temporada/", circuit_archive.season, name="circuit_season"),
    path("circuitos/<slug:slug>/temporada/encerrar/", circuit_archive.close, name="circuit_close"),
]
