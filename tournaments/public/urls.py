"""The public audience's addresses, mounted at the site's root: the events under /torneios/ (pages, sheets, the
súmula, the sign-up form: namespace ``tournaments``), the help under /ajuda/ (namespace ``help``), the Nível
ranking (/ranking/), the atletas (/atletas/<key>/) and the circuits (/circuitos/: their season rankings)."""

from django.urls import include, path
from django.views.generic import RedirectView

from tournaments import converters  # noqa: F401 (registers atletakey)
from tournaments.public import atletas, circuits, event_urls, help_urls
from tournaments.web import read_only

urlpatterns = [
    path("", read_only(RedirectView.as_view(pattern_name="tournaments:list", permanent=False))),
    path("torneios/", include(event_urls)),
    path("ajuda/", include(help_urls)),
    path("ranking/", atletas.ranking, name="ranking"),
    path("atletas/<atletakey:key>/", atletas.atleta, name="atleta"),
    path("circuitos/", circuits.circuit_list, name="circuits"),
    path("circuitos/<slug:slug>/", circuits.circuit_ranking, name="circuit"),
    path("circuitos/<slug:slug>/ranking.json", circuits.circuit_ranking_json, name="circuit_json"),
    path("circuitos/<slug:slug>/ranking.csv", circuits.circuit_ranking_csv, name="circuit_csv"),
    path("circuitos/<slug:slug>/ranking.pdf", circuits.circuit_ranking_pdf, name="circuit_pdf"),
]
