"""/organizar/<slug>/imprimir/…: the desk's sheets (mounted beside the desk in ``config.urls``)."""

from django.urls import path

from tournaments.desk import printing as desk

app_name = "printing"

urlpatterns = [
    path("<slug:slug>/imprimir/", desk.print_page, name="desk"),
    path("<slug:slug>/imprimir/sumulas.pdf", desk.sumulas, name="sumulas"),
    path("<slug:slug>/imprimir/medalhas.pdf", desk.medals, name="medals"),
    path("<slug:slug>/imprimir/certificados.pdf", desk.certificates, name="certificates"),
]
