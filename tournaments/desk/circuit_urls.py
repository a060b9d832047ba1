"""/organizar/circuitos/…: the circuit desk. Every view goes through ``permissions.circuit_desk_view`` (the list
and the new circuit: ``login_required`` and ``circuit_creation_refusal``)."""

from django.urls import path

from .. import converters  # noqa: F401  (registers the path converters)
from . import circuits

urlpatterns = [
    path("circuitos/", circuits.circuits_home, name="circuits"),
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
]
