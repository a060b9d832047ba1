"""/torneios/<slug>/inscricao/: the public sign-up form (mounted by ``tournaments.public.event_urls``)."""

from django.urls import path

from tournaments.public import signup as views

urlpatterns = [
    path("<slug:slug>/inscricao/", views.signup, name="signup"),
    path("<slug:slug>/inscricao/confirmada/<str:token>/", views.signup_done, name="signup_done"),
]
