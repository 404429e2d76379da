from django.urls import path

from lobby.live import LobbyConsumer, WaitConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/lobby/wait/", WaitConsumer.as_asgi()),
]
