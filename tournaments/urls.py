from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new", views.create, name="create"),
    path("tournaments/<int:pk>/", views.detail, name="detail"),
    path("tournaments/<int:pk>/join", views.join, name="join"),
    path("tournaments/<int:pk>/withdraw", views.withdraw, name="withdraw"),
    path("tournaments/<int:pk>/berserk", views.go_berserk, name="berserk"),
    path("tournaments/<int:pk>/play", views.follow, name="follow"),
]
