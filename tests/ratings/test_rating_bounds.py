"""What a rated game may do to a rating: nothing before both sides have moved, at most
700 points, and all of it undone when the game is voided; shown with one rounding."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.profiles import profile_of
from games.models import Game
from games.services import actions
from games.services import moves as services
from games.services.moves import Actor
from ratings import glicko2
from ratings import services as ratings
from ratings.models import Rating, RatingChange
from tests.ratings.helpers import new_account, rated_game

from .test_rating_games import accounts_game, play, started

pytestmark = pytest.mark.django_db


def test_a_resignation_before_both_sides_moved_aborts_and_rates_nobody(client: Client) -> None:
    game, _, bob = accounts_game()
    actions.resign(game.pk, bob, 0)
    game.refresh_from_db()
    assert (game.status, game.reason, game.winner) == (Game.Status.ABORTED, Game.Reason.NO_START, None)
    assert game.result is not None and game.result["ended_by"] == "resigned"
    assert not RatingChange.objects.exists() and not Rating.objects.filter(games__gt=0).exists()
    client.force_login(User.objects.get(username="alice"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Aborted: the game was resigned before both sides had moved" in page
    data = client.get(f"/api/v1/games/{game.pk}").json()
    assert (data["status"], data["reason"]) == ("finished", "no_start"), "no_start: aborted, nobody wins"
    assert data["result"] == {"winner": None, "lines": [], "no_start": 0, "ended_by": "resigned"}
    assert profile_of(User.objects.get(username="alice")).records == [], "not counted as played"


def test_an_agreed_draw_after_one_move_aborts_too() -> None:
    game, alice, bob = accounts_game()
    game = play(game, alice, "a1")
    actions.draw(game.pk, bob, True, 1)
    actions.draw(game.pk, alice, True, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.result and game.result["ended_by"] == "agreed"
    assert not RatingChange.objects.exists()


def test_a_casual_resignation_at_the_first_move_stays_a_loss() -> None:
    game, _, bob = accounts_game(rated=False)
    actions.resign(game.pk, bob, 0)
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.WON, 0)


def test_once_both_have_moved_a_resignation_is_rated() -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    assert RatingChange.objects.count() == 2


def test_one_game_moves_a_rating_by_at_most_700_points() -> None:
    player, level = glicko2.Rating(1527, 500), glicko2.Rating(836, 60)
    free = glicko2.rate(player, [glicko2.Result(level, 0)], clamp=False)
    bound = glicko2.rate(player, [glicko2.Result(level, 0)])
    assert free.rating < 1527 - 700, "the case the bound is for"
    assert bound.rating == pytest.approx(1527 - glicko2.MAX_CHANGE)
    assert glicko2.rate(glicko2.Rating(836, 500), [glicko2.Result(glicko2.Rating(1527, 60), 1)]).rating == (
        pytest.approx(836 + 700)
    )


def test_the_leaderboards_say_so(client: Client) -> None:
    assert "at most 700 points" in client.get("/ratings/").content.decode()
    assert "at most 700 points" in client.get("/ratings/tictactoe/blitz/").content.decode()


def rating_of(name: str) -> tuple[float, float, float, int]:
    row = Rating.objects.get(user__username=name)
    return row.rating, row.rd, row.volatility, row.games


def test_a_void_puts_the_opponents_rating_rd_volatility_and_games_back() -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    assert rating_of("bob")[1] < 500 and rating_of("bob")[3] == 1
    assert ratings.void_games_of(User.objects.get(username="alice").pk) == 1
    assert rating_of("bob") == pytest.approx((1500, 500, 0.06, 0))
    assert rating_of("alice") == pytest.approx((1500, 500, 0.06, 0)), "the cheater's gain taken back"


def test_a_void_after_later_games_takes_the_game_out() -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    carol = new_account("carol")
    later = rated_game(carol.player_id)
    services.join_game(later.pk, invite=later.invite_code, player_id=bob.player_id)
    later = Game.objects.get(pk=later.pk)
    actions.resign(started(later).pk, Actor(player_id=carol.player_id), 2)
    rating, rd, _, games = rating_of("bob")
    lost = RatingChange.objects.get(game=game, user__username="bob").delta
    assert games == 2 and lost < 0
    ratings.void_games_of(User.objects.get(username="alice").pk)
    after, rd_after, _, games_after = rating_of("bob")
    assert games_after == 1 and after == pytest.approx(rating - lost)
    assert rd < rd_after <= 500, "the certainty the voided game gave is taken back"


def test_a_change_is_shown_with_one_rounding_everywhere(client: Client) -> None:
    game, _, bob = accounts_game()
    actions.resign(started(game).pk, bob, 2)
    change = RatingChange.objects.get(game=game, user__username="bob")
    change.before, change.after = 1527.4, 474.6  # round(after - before) would be -1053
    change.save()
    assert change.points == -1052 and change.delta_text == "\u22121052"
    client.force_login(User.objects.get(username="bob"))
    assert ratings.seat_view(game)[1]["change"] == -1052
    seats: list[dict[str, Any]] = client.get(f"/api/v1/games/{game.pk}").json()["seats"]
    assert seats[1]["rating"]["change"] == -1052
    profile = client.get("/@/bob").content.decode()
    assert "\u22121052" in profile and "\u22121053" not in profile and "<td>475</td>" in profile
