"""An event's share cards, beside its pages (mounted in ``tournaments.public.event_urls``; the circuit's, the
atleta's and the site's are in ``tournaments.public.urls``)."""

from django.urls import path

from tournaments.public import share

urlpatterns = [
    path("<slug:slug>/cartao.png", share.event_card_png, name="card"),
    path("<slug:slug>/cartao-chave.png", share.bracket_card_png, name="bracket_card"),
    path("<slug:slug>/cartao-podio.png", share.podium_card_png, name="podium_card"),
]
