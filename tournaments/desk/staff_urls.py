"""/organizar/<slug>/equipe/ and /organizar/<slug>/pins/: roles, invitations, dupla PINs and cards."""

from django.urls import path

from .placeholder import soon

urlpatterns = [
    path("<slug:slug>/equipe/", soon, name="staff"),
    path("<slug:slug>/pins/", soon, name="pins"),
]
