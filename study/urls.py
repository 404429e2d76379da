from django.urls import path

from study import pages, puzzle_pages

app_name = "study"

urlpatterns = [
    path("analysis/game/<int:pk>/", pages.from_game, name="from_game"),
    path("analysis/<str:kind>/", pages.analysis, name="analysis"),
    path("puzzles/", puzzle_pages.next_puzzle, name="next"),
    path("puzzles/daily/", puzzle_pages.daily_puzzle, name="daily"),
    path("puzzles/streak/", puzzle_pages.streak, name="streak"),
    path("puzzles/<str:key>/", puzzle_pages.puzzle, name="puzzle"),
]
