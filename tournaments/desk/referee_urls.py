"""/organizar/<slug>/arbitragem/…: the referee's screens (beside the desk's urls, in ``config/urls.py``)."""

from django.urls import path

from tournaments import converters  # noqa: F401 (registers jogokey, maoid, …)
from tournaments.desk import referee, referee_pins

app_name = "referee"

urlpatterns = [
    path("<slug:slug>/arbitragem/", referee.referee_list, name="list"),
    path("<slug:slug>/arbitragem/pins/<duplakey:dupla>/desbloquear/", referee_pins.pin_unlock_view, name="pin_unlock"),
    path("<slug:slug>/arbitragem/<jogokey:key>/", referee.referee_jogo, name="jogo"),
]
