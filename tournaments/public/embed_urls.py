"""The embeds, mounted at /embed/ (``tournaments.public.urls``): the only pages another site may frame
(``tournaments.public.embed``)."""

from django.urls import path

from tournaments.public import embed

app_name = "embed"

urlpatterns = [
    path("torneios/<slug:slug>/classificacao/", embed.standings_embed, name="standings"),
    path("torneios/<slug:slug>/chave/", embed.bracket_embed, name="bracket"),
    path("torneios/<slug:slug>/proximos/", embed.next_embed, name="next"),
    path("torneios/<slug:slug>/ao-vivo/", embed.live_embed, name="live"),
    path("circuitos/<slug:slug>/ranking/", embed.circuit_embed, name="circuit"),
]
