from django.urls import path

from tournaments.live import FollowConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:pk>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/<int:pk>/follow/", FollowConsumer.as_asgi()),
]
