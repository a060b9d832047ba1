"""/organizar/<slug>/sorteios/…, mesas and programação: pairing and competition draws, tables, schedule."""

from django.urls import path

from .placeholder import soon

urlpatterns = [
    path("<slug:slug>/duplas/", soon, name="duplas"),
    path("<slug:slug>/sorteios/duplas/", soon, name="pairing"),
    path("<slug:slug>/sorteios/competicao/", soon, name="competition"),
    path("<slug:slug>/mesas/", soon, name="mesas"),
    path("<slug:slug>/programacao/", soon, name="schedule"),
]
