"""/d/<token>/: a dupla's private page (its jogos and standings), reached by its secret link or QR code."""

from django.urls import path

from . import views

app_name = "privatelink"

urlpatterns = [
    path("<slug:token>/", views.dupla_page_view, name="dupla"),
]
