"""The leaderboards: per game and speed, the top established players active lately."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games import catalog, clocks
from ratings import glicko2, services


def board_title(kind: str, speed: str) -> str:
    return f"{catalog.get(kind).title}, {speed}"


def checked(kind: str, speed: str) -> None:
    if kind not in catalog.CATALOG or speed not in clocks.SPEEDS:
        raise Http404("No such leaderboard.")


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    boards = [
        {
            "kind": kind,
            "speed": speed,
            "title": board_title(kind, speed),
            "top": services.leaderboard(kind, speed)[:3],
        }
        for kind in sorted(catalog.CATALOG)
        for speed in clocks.SPEEDS
    ]
    context = {"boards": boards, "days": services.ACTIVE_DAYS, "max_change": round(glicko2.MAX_CHANGE)}
    return render(request, "ratings/index.html", context)


@require_safe
def leaderboard(request: HttpRequest, kind: str, speed: str) -> HttpResponse:
    checked(kind, speed)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "title": board_title(kind, speed),
            "rows": services.leaderboard(kind, speed),
            "days": services.ACTIVE_DAYS,
            "size": services.LEADERBOARD_SIZE,
            "max_change": round(glicko2.MAX_CHANGE),
        },
    )
