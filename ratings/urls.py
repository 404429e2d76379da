from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.index, name="index"),
    path("ratings/<str:kind>/<str:speed>/", views.leaderboard, name="leaderboard"),
]
