"""/torneios/<slug>/inscricao/: the public sign-up form (mounted by ``tournaments.urls``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("<slug:slug>/inscricao/", views.signup, name="signup"),
    path("<slug:slug>/inscricao/confirmada/<str:token>/", views.signup_done, name="signup_done"),
]
