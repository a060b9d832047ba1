"""/organizar/<slug>/arbitragem/…: the referee's screens (included by ``tournaments.desk.urls``)."""

from django.urls import path

from . import referee

urlpatterns = [
    path("<slug:slug>/arbitragem/", referee.referee_list, name="referee"),
    path("<slug:slug>/arbitragem/<str:key>/", referee.referee_jogo, name="referee_jogo"),
]
