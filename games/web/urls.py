from django.urls import path

from games.web import chat, health, history, replay, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("games/new", views.new_game, name="new"),
    path("games/history", history.history, name="history"),
    path("games/<int:pk>/", views.detail, name="detail"),
    path("games/<int:pk>/partials", views.partials, name="partials"),
    path("games/<int:pk>/move", views.move, name="move"),
    path("games/<int:pk>/record", views.record, name="record"),
    path("games/<int:pk>/again", views.again, name="again"),
    path("games/<int:pk>/resign", views.game_action, {"action": "resign"}, name="resign"),
    path("games/<int:pk>/draw", views.game_action, {"action": "draw"}, name="draw"),
    path("games/<int:pk>/takeback", views.game_action, {"action": "takeback"}, name="takeback"),
    path("games/<int:pk>/rematch", views.game_action, {"action": "rematch"}, name="rematch"),
    path("games/<int:pk>/claim", views.game_action, {"action": "claim"}, name="claim"),
    path("games/<int:pk>/hint", views.hint, name="hint"),
    path("games/<int:pk>/review", replay.review, name="review"),
    path("games/<int:pk>/review/table", replay.review_table, name="review_table"),
    path("games/<int:pk>/chat", chat.say, name="chat"),
    path("games/<int:pk>/name", chat.rename, name="name"),
    path("games/<int:pk>/replay", replay.replay, name="replay"),
    path("join/<str:code>", views.join, name="join"),
]
