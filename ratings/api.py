"""The ratings routes of the JSON API (mounted on games' API object). See docs/api.md."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema

from games import catalog, clocks
from games.api.plumbing import api, guarded
from games.api.schemas import ErrorOut
from games.services.moves import ServiceError
from ratings import glicko2, services
from ratings.models import Rating

router = Router(tags=["ratings"])
ERRORS: dict[int, Any] = dict.fromkeys((404, 429, 503), ErrorOut)


class RatingOut(Schema):
    game: str
    speed: str
    rating: int
    rd: int
    games: int
    provisional: bool


class LeaderOut(Schema):
    rank: int
    username: str
    rating: int
    rd: int
    games: int


class LeaderboardOut(Schema):
    game: str
    speed: str
    players: list[LeaderOut]


def rating_json(row: Rating) -> dict[str, Any]:
    return {
        "game": row.kind,
        "speed": row.speed,
        "rating": glicko2.points(row.rating),
        "rd": round(row.rd),
        "games": row.games,
        "provisional": row.provisional,
    }


@router.get(
    "/leaderboards/{game}/{speed}",
    response={200: LeaderboardOut, **ERRORS},
    summary="The top established ratings of one game and speed",
)
@guarded()
def leaderboard(request: HttpRequest, game: str, speed: str) -> dict[str, Any]:
    """Players with a rated game in the last 30 days and a deviation of at most 110, best first."""
    if game not in catalog.CATALOG:
        raise ServiceError("unknown_game", _("There is no game %(kind)s.") % {"kind": repr(game)}, 404)
    if speed not in clocks.SPEEDS:
        words = _("speed must be one of %(speeds)s.") % {"speeds": ", ".join(clocks.SPEEDS)}
        raise ServiceError("unknown_speed", words, 404)
    rows = services.leaderboard(game, speed)
    players = [
        {
            "rank": rank,
            "username": row.user.get_username(),
            "rating": glicko2.points(row.rating),
            "rd": round(row.rd),
            "games": row.games,
        }
        for rank, row in enumerate(rows, start=1)
    ]
    return {"game": game, "speed": speed, "players": players}


api.add_router("/", router)
