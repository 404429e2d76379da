"""A player's name is shown as it was typed, also where it begins a sentence (the
status line, the clocks, the moves' words, the review); the site's own words are
capitalised there."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import account_of
from games.models import Game
from games.presenting import sentences
from games.services import moves as services
from games.services.moves import Actor, play_move

pytestmark = pytest.mark.django_db


def test_the_site_s_words_are_capitalised_and_names_are_not() -> None:
    assert sentences.capital("you") == "You" and sentences.capital("the computer (X)") == "The computer (X)"
    assert sentences.capital("bob853") == "bob853" and sentences.capital("younes") == "younes"
    assert sentences.capital("ann (O)") == "ann (O)"


def test_a_lower_case_username_stays_lower_case_on_the_game_page(client: Client) -> None:
    alice = account_of(User.objects.create_user("alice"))
    bob = account_of(User.objects.create_user("bob853"))
    assert alice and bob
    game = services.create_game(
        "tictactoe", {}, opponent="human", seat="first", player_id=alice.player_id, clock={"initial": 180}
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id=bob.player_id)
    play_move(game.pk, Actor(player_id=alice.player_id), "a1", 0)
    client.force_login(User.objects.get(username="alice"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "bob853 (O) has {} left" in page and "Bob853" not in page, "the clock"
    play_move(game.pk, Actor(player_id=bob.player_id), "b1", 1)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "bob853" in page and "Bob853" not in page
    game = Game.objects.get(pk=game.pk)
    for moves, actor in (("a2", alice), ("b2", bob), ("a3", alice)):
        play_move(game.pk, Actor(player_id=actor.player_id), moves, Game.objects.get(pk=game.pk).ply)
    for url in (
        f"/games/{game.pk}/",
        f"/games/{game.pk}/replay",
        f"/games/{game.pk}/review/table",
        "/games/",
    ):
        answer = client.get(url)
        assert "Bob853" not in answer.content.decode(), url
