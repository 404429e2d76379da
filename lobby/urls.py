from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/seeks", views.create_seek, name="seek"),
    path("lobby/seeks/<int:pk>/accept", views.accept_seek, name="accept"),
    path("lobby/seeks/<int:pk>/cancel", views.cancel_seek, name="cancel"),
    path("lobby/pairing", views.quick_pairing, name="pairing"),
    path("lobby/wait", views.wait, name="wait"),
]
