"""/organizar/…: the organizer's desk. One url module per area; every view goes through ``permissions.desk_view``."""

from django.urls import path

from tournaments import converters  # noqa: F401 (registers atletakey)

from . import appeals, atletas, circuit_urls, draw_urls, home, registration_urls, setup, staff_urls

app_name = "desk"

urlpatterns = [
    path("", home.dashboard, name="home"),
    path("novo/", setup.tournament_new, name="new"),
    path("importar/", setup.tournament_upload, name="upload"),
    path("atletas/", atletas.atletas, name="atletas"),
    path("atletas/juntar/", atletas.atletas_join_view, name="atletas_join"),
    path("atletas/diferentes/", atletas.atletas_distinct_view, name="atletas_distinct"),
    path("atletas/<atletakey:key>/", atletas.atleta, name="atleta"),
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
