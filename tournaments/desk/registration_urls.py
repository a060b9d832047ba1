"""/organizar/<slug>/inscricoes/…: the registration list, CSV upload and export, check-in."""

from django.urls import path

from . import registrations as views

urlpatterns = [
    path("<slug:slug>/inscricoes/", views.registration_list_view, name="registrations"),
    path("<slug:slug>/inscricoes/nova/", views.registration_add, name="registration_add"),
    path("<slug:slug>/inscricoes/<int:pk>/editar/", views.registration_edit, name="registration_edit"),
    path("<slug:slug>/inscricoes/<int:pk>/retirar/", views.registration_withdraw, name="registration_withdraw"),
    path("<slug:slug>/inscricoes/<int:pk>/presenca/", views.registration_checkin, name="registration_checkin"),
    path("<slug:slug>/inscricoes/selecionadas/", views.registrations_selected, name="registrations_selected"),
    path("<slug:slug>/inscricoes/retirar/", views.registrations_withdraw, name="registrations_withdraw"),
    path("<slug:slug>/inscricoes/presenca/todos/", views.registrations_checkin_all, name="registrations_checkin_all"),
    path("<slug:slug>/inscricoes/encerrar/", views.registrations_close, name="registrations_close"),
    path("<slug:slug>/inscricoes/planilha/", views.registrations_upload, name="registrations_upload"),
    path("<slug:slug>/inscricoes/inscricoes.csv", views.registrations_export, name="registrations_export"),
    path("<slug:slug>/inscricoes/inscricoes.xlsx", views.registrations_export_xlsx, name="registrations_export_xlsx"),
]
