from django.urls import path, re_path

from games.live.consumers import GameConsumer
from games.live.origin import Refused

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    re_path(r"", Refused.as_asgi()),  # any other path: a 403, not the router's 500
]
