"""/organizar/<slug>/inscricoes/…: the registration list, CSV upload and export, check-in."""

from django.urls import path

from .placeholder import soon

urlpatterns = [
    path("<slug:slug>/inscricoes/", soon, name="registrations"),
]
