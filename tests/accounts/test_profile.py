"""The profile page /@/<username> and its JSON twin GET /api/v1/users/{username}."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services as accounts
from games.models import Game
from games.services import actions
from games.services import moves as games

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def alice() -> Any:
    user = User.objects.create_user("Alice", password="a-long-pass-phrase")
    account = accounts.account_of(user)
    assert account is not None
    return account


def game_of(account: Any, kind: str = "quarto", opponent: str = "ai") -> Game:
    return games.create_game(kind, {}, opponent=opponent, seat="first", player_id=account.player_id).game


def test_the_profile_shows_records_recent_games_and_those_being_played(
    client: Client, alice: Any, no_ai_reply: None
) -> None:
    me = games.Actor(player_id=alice.player_id)
    lost = game_of(alice)
    actions.resign(lost.pk, me, None)
    lost_too = game_of(alice, "tictactoe")
    actions.resign(lost_too.pk, me, None)
    playing = game_of(alice)
    page = client.get("/@/alice")
    html = page.content.decode()
    assert page.status_code == 200
    assert "<h1>Alice" in html
    assert "Member since" in html
    assert '<th scope="row">Quarto</th><td>1</td><td>0</td><td>0</td><td>1</td>' in html
    assert f'href="/games/{lost.pk}/replay"' in html
    assert f'href="/games/{lost_too.pk}/replay"' in html
    assert f'href="/games/{playing.pk}/"' in html


def test_a_seat_taken_while_logged_in_is_named_after_the_account(alice: Any) -> None:
    game = game_of(alice)
    assert game.seat_list[0].user == alice.user
    assert game.seat_list[0].called == "Alice"


def test_an_unknown_or_closed_account_has_no_profile(client: Client, alice: Any) -> None:
    assert client.get("/@/nobody-here").status_code == 404
    accounts.close_account(alice)
    assert client.get("/@/alice").status_code == 404
    assert client.get("/api/v1/users/alice").json()["error"] == "not_found"


def test_the_public_profile_as_json(client: Client, alice: Any, no_ai_reply: None) -> None:
    actions.resign(game_of(alice).pk, games.Actor(player_id=alice.player_id), None)
    playing = game_of(alice)
    data = client.get("/api/v1/users/ALICE").json()
    assert data["username"] == "Alice"
    assert data["bot"] is False
    assert data["records"] == [{"game": "quarto", "won": 0, "drawn": 0, "lost": 1, "games": 1}]
    assert data["playing"] == [playing.pk]
    assert "created" in data
