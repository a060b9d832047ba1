"""The live connections' addresses (config/asgi.py mounts them under the origin and session checks)."""

from django.urls import path

from .consumers import SalaConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/mesas/<int:table_id>/", TableConsumer.as_asgi()),
    path("ws/salas/<slug:slug>/", SalaConsumer.as_asgi()),
]
