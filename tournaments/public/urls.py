"""The public audience's addresses, mounted at the site's root: the events under /torneios/ (pages, sheets, the
súmula, the sign-up form: namespace ``tournaments``), the help under /ajuda/ (namespace ``help``), the Nível
ranking (/ranking/), the atletas (/atletas/<key>/), the circuits (/circuitos/: their season rankings), the share
cards (``share``: cartao.png) and the embeds under /embed/ (namespace ``embed``: the only pages another site may
frame)."""

from django.urls import include, path
from django.views.generic import RedirectView

from tournaments import converters  # noqa: F401 (registers atletakey)
from tournaments.public import atletas, circuits, embed_urls, event_urls, help_urls, share, spreadsheets
from tournaments.web import read_only

urlpatterns = [
    path("", read_only(RedirectView.as_view(pattern_name="tournaments:list", permanent=False))),
    path("torneios/", include(event_urls)),
    path("ajuda/", include(help_urls)),
    path("ranking/", atletas.ranking, name="ranking"),
    path("atletas/<atletakey:key>/", atletas.atleta, name="atleta"),
    path("atletas/<atletakey:key>/cartao.png", share.atleta_card_png, name="atleta_card"),
    path("circuitos/", circuits.circuit_list, name="circuits"),
    path("circuitos/<slug:slug>/", circuits.circuit_ranking, name="circuit"),
    path("circuitos/<slug:slug>/ranking.json", circuits.circuit_ranking_json, name="circuit_json"),
    path("circuitos/<slug:slug>/ranking.csv", circuits.circuit_ranking_csv, name="circuit_csv"),
    path("circuitos/<slug:slug>/ranking.pdf", circuits.circuit_ranking_pdf, name="circuit_pdf"),
    path("circuitos/<slug:slug>/ranking.xlsx", spreadsheets.circuit_ranking_xlsx, name="circuit_xlsx"),
    path("circuitos/<slug:slug>/cartao.png", share.circuit_card_png, name="circuit_card"),
    path("cartao.png", share.site_card_png, name="site_card"),
    path("embed/", include(embed_urls)),
]
