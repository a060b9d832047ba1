"""/jogar/conduta/ (namespace ``play:conduct``): the staff's conduct pages and a player's report."""

from django.urls import path

from . import conduct_views

app_name = "conduct"

urlpatterns = [
    path("", conduct_views.reports, name="reports"),
    path("denuncias/<int:report_id>/", conduct_views.report_act, name="report_act"),
    path("jogadores/<int:profile_id>/", conduct_views.player, name="player"),
    path("medidas/<int:sanction_id>/encerrar/", conduct_views.sanction_end, name="sanction_end"),
    path("denunciar/", conduct_views.report_new, name="report"),
]
