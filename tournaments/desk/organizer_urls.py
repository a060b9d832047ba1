"""/organizar/…: the organizer's desk. One url module per area; every view goes through ``permissions.desk_view``."""

from django.urls import path
from django.views.generic import RedirectView

from tournaments import converters  # noqa: F401 (registers atletakey)

from . import appeals, circuit_urls, draw_urls, home, registration_urls, setup, staff_urls

app_name = "desk"

urlpatterns = [
    path("", home.dashboard, name="home"),
    path("novo/", setup.tournament_new, name="new"),
    path("importar/", setup.tournament_upload, name="upload"),
    # the atletas' desk moved under the circuits' (INTERCHANGE: /organizar/circuitos/…): old links still land
    path("atletas/", RedirectView.as_view(pattern_name="desk:atletas", query_string=True, permanent=True)),
    path("atletas/<atletakey:key>/", RedirectView.as_view(pattern_name="desk:atleta", permanent=True)),
    *circuit_urls.urlpatterns,  # before <slug>/: a tournament's desk never shadows the circuits
    path("<slug:slug>/", home.overview, name="overview"),
    path("<slug:slug>/editar/", setup.tournament_edit, name="edit"),
    path("<slug:slug>/formato/", setup.format_edit, name="format"),
    path("<slug:slug>/publicar/", setup.tournament_publish, name="publish"),
    path("<slug:slug>/duplicar/", setup.tournament_duplicate, name="duplicate"),
    path("<slug:slug>/arquivo.json", setup.tournament_file, name="file"),
    path("<slug:slug>/historico/", home.audit_list, name="audit"),
    path("<slug:slug>/recursos/", appeals.appeals_view, name="appeals"),
    *registration_urls.urlpatterns,
    *draw_urls.urlpatterns,
    *staff_urls.urlpatterns,
]
