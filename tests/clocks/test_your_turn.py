"""The "your turn" list: games with a running clock waiting for this player's move."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services as accounts
from games.models import Game
from games.services import actions
from games.services import moves as services
from games.services.moves import Actor, play_move
from games.services.your_turn import games_to_play

pytestmark = pytest.mark.django_db

ME, THEM = Actor(player_id="p-x"), Actor(player_id="p-o")


def people(clock: dict[str, Any] | None, first: str = "p-x", second: str = "p-o") -> Game:
    game = services.create_game(
        "tictactoe", {}, opponent="human", seat="first", player_id=first, clock=clock
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id=second)
    return Game.objects.get(pk=game.pk)


def move(game: Game, actor: Actor, text: str) -> None:
    game.refresh_from_db()
    play_move(game.pk, actor, text, game.ply)


def ids(player_id: str) -> list[int]:
    return [row.game.pk for row in games_to_play(player_id)]


def test_the_list_follows_the_turn_with_the_time_left(fake_clock: Any) -> None:
    game = people({"days": 3})
    rows = games_to_play("p-x")
    assert [(r.game.pk, r.title, r.control, r.first_move) for r in rows] == [
        (game.pk, "Tic-tac-toe", "3 days", True)
    ]
    assert rows[0].left == "3d 0h" and rows[0].url == f"/games/{game.pk}/"
    assert ids("p-o") == []
    fake_clock.advance(3600)
    move(game, ME, "b2")
    assert ids("p-x") == []
    fake_clock.advance(22 * 3600)
    (row,) = games_to_play("p-o")
    assert (row.game.pk, row.left, row.first_move) == (game.pk, "2d 2h", True)
    move(game, THEM, "a1")
    fake_clock.advance(27 * 3600)
    (row,) = games_to_play("p-x")
    assert (row.left, row.first_move) == ("1d 21h", False)


def test_only_games_in_play_with_a_running_clock_are_listed(fake_clock: Any) -> None:
    untimed = people(None)
    waiting = services.create_game(
        "tictactoe", {}, opponent="human", seat="first", player_id="p-x", clock={"days": 1}
    ).game
    over = people({"days": 1})
    actions.resign(over.pk, THEM, None)
    realtime = people({"initial": 180, "increment": 2})
    assert untimed.pk and waiting.pk
    assert ids("p-x") == [realtime.pk], "a real-time game in play is listed; none of the others"


def test_soonest_deadline_first_and_bounded(fake_clock: Any) -> None:
    slow = people({"days": 7})
    fast = people({"days": 1})
    mid = people({"days": 3})
    assert ids("p-x") == [fast.pk, mid.pk, slow.pk]
    assert [r.game.pk for r in games_to_play("p-x", limit=2)] == [fast.pk, mid.pk]
    assert games_to_play(None) == [] and games_to_play("") == []


def test_the_home_page_lists_this_browsers_turns(client: Client, fake_clock: Any) -> None:
    game = people({"days": 2}, first="browser-1")
    html = client.get("/").content.decode()
    assert "Your turn" not in html, "a browser with no games has no list"
    session = client.session
    session["player_id"] = "browser-1"
    session.save()
    html = client.get("/").content.decode()
    assert "Your turn" in html
    assert f'<a href="/games/{game.pk}/">Tic-tac-toe #{game.pk}</a> (2 days)' in html
    assert "2d 0h</time> left to make your first move" in html


def test_the_profile_lists_the_accounts_turns_to_the_account_only(client: Client, fake_clock: Any) -> None:
    user = get_user_model().objects.create_user("alice", password="a-long-pass-phrase")
    account = accounts.account_of(user)
    assert account is not None
    game = people({"days": 5}, first=account.player_id)
    link = f'<a href="/games/{game.pk}/">Tic-tac-toe #{game.pk}</a> (5 days)'
    assert link not in client.get("/@/alice").content.decode(), "not to a visitor"
    client.force_login(user)
    page = client.get("/@/alice").content.decode()
    assert "Your turn" in page and link in page
    assert link in client.get("/").content.decode(), "the account's browser, on the home page"
