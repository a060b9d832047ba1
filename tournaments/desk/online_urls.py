"""/organizar/<slug>/mesas-online/…: the event's online tables for its referees (``desk.online``)."""

from django.urls import path

from tournaments.desk import online

app_name = "referee_online"

urlpatterns = [
    path("<slug:slug>/mesas-online/", online.online_tables, name="tables"),
    path("<slug:slug>/mesas-online/<int:table_id>/suspender/", online.online_suspend, name="suspend"),
    path("<slug:slug>/mesas-online/<int:table_id>/retomar/", online.online_resume, name="resume"),
]
