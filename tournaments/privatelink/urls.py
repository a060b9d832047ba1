"""/d/<token>/: a dupla's private page (its jogos and standings, its súmulas to confirm), by its secret link."""

from django.urls import path

from . import views

app_name = "privatelink"

urlpatterns = [
    path("<slug:token>/", views.dupla_page_view, name="dupla"),
    path("<slug:token>/jogos/<str:key>/resposta/", views.dupla_answer_view, name="answer"),
]
