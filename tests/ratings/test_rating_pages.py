"""Where ratings show: the profile (table, history chart and its table), the leaderboards,
the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.services import account_of, ban_account
from games.services import actions
from ratings.models import Rating

from .test_rating_games import accounts_game, started

pytestmark = pytest.mark.django_db


def established(name: str, rating: float, days_ago: float = 1) -> Rating:
    user = User.objects.create_user(name)
    return Rating.objects.create(
        user=user,
        kind="tictactoe",
        speed="blitz",
        rating=rating,
        rd=60,
        games=30,
        last_game=timezone.now() - timedelta(days=days_ago),
    )


def test_the_profile_shows_ratings_a_chart_and_its_table(client: Client) -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    page = client.get("/@/alice").content.decode()
    assert "Ratings" in page and "Tic-tac-toe" in page and "blitz" in page
    assert "?" in page, "provisional after one game"
    assert "/@/alice/rating/tictactoe/blitz.svg" in page and "alt=" in page
    assert f"#{game.pk}" in page and "won" in page and "+" in page
    chart = client.get("/@/alice/rating/tictactoe/blitz.svg")
    assert chart.status_code == 200 and chart["Content-Type"] == "image/svg+xml"
    assert chart.content.startswith(b"<svg") and b"Tic-tac-toe, blitz" in chart.content
    assert client.get("/@/alice/rating/chess/blitz.svg").status_code == 404
    assert client.get("/@/alice/rating/tictactoe/hyper.svg").status_code == 404
    bob_page = client.get("/@/bob").content.decode()
    assert "\u2212" in bob_page, "the loss is shown with a minus sign"


def test_leaderboards_list_established_active_players_in_good_standing(client: Client) -> None:
    established("ann", 1700)
    established("ben", 1800)
    established("old", 2000, days_ago=31)
    Rating.objects.create(
        user=User.objects.create_user("new"),
        kind="tictactoe",
        speed="blitz",
        rating=1900,
        rd=200,
        games=1,
        last_game=timezone.now(),
    )
    banned = established("cheat", 2100)
    account = account_of(banned.user)
    assert account is not None
    ban_account(account)
    page = client.get("/ratings/tictactoe/blitz/").content.decode()
    assert page.index("ben") < page.index("ann")
    for hidden in ("old", "new", "cheat"):
        assert f">{hidden}<" not in page
    assert client.get("/ratings/").status_code == 200
    assert client.get("/ratings/chess/blitz/").status_code == 404
    data = client.get("/api/v1/leaderboards/tictactoe/blitz").json()
    assert [(p["rank"], p["username"], p["rating"]) for p in data["players"]] == [
        (1, "ben", 1800),
        (2, "ann", 1700),
    ]
    assert client.get("/api/v1/leaderboards/chess/blitz").json()["error"] == "unknown_game"
    assert client.get("/api/v1/leaderboards/tictactoe/hyper").status_code == 404


def test_the_user_api_carries_ratings(client: Client) -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    data = client.get("/api/v1/users/alice").json()
    [rating] = data["ratings"]
    assert rating["game"] == "tictactoe" and rating["speed"] == "blitz"
    assert rating["rating"] > 1500 and rating["provisional"] is True and rating["games"] == 1


def test_the_game_shows_each_seats_rating_and_then_the_change(client: Client) -> None:
    game, _, bob = accounts_game()
    client.force_login(User.objects.get(username="bob"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "3+2 · rated" in page and "1500?" in page
    actions.resign(started(game).pk, bob, 2)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "1500? +" in page and "1500? \u2212" in page
    state = client.get(f"/api/v1/games/{game.pk}").json()
    assert state["rated"] is True
    first, second = (seat["rating"] for seat in state["seats"])
    assert first["rating"] == 1500 and first["provisional"] and first["change"] > 0 > second["change"]


def test_a_casual_game_shows_no_rating(client: Client) -> None:
    game, _, _ = accounts_game(rated=False)
    state = client.get(f"/api/v1/games/{game.pk}").json()
    assert state["rated"] is False and [seat["rating"] for seat in state["seats"]] == [None, None]
    assert "3+2 · casual" in client.get(f"/games/{game.pk}/").content.decode()
