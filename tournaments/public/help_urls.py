"""/ajuda/…: the index (docs/README.md), one page per docs/*.md, and the screenshots in docs/img/."""

from django.urls import path

from tournaments.public import help as views

app_name = "help"

urlpatterns = [
    path("", views.index, name="index"),
    path("img/<str:name>", views.image, name="image"),
    path("<str:slug>/", views.page, name="page"),
]
