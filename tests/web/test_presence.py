"""Who is connected, as each viewer reads it: the sentence, and the page rendered with the
same line its socket pushes."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from games.presenting import presence, presenters
from games.presenting.sentences import presence_text
from games.services import chat
from games.services import moves as services
from games.services.players import SESSION_FIELD

from .helpers import ONE, TWO, human_first_vs_ai, two_humans


@pytest.mark.parametrize(
    ("names", "mine", "here", "watching", "said"),
    [
        # Two people: each reads about the other only.
        (["", ""], [0], {0, 1}, 0, "Your opponent is connected."),
        (["", ""], [1], {1}, 2, "Your opponent is not connected. 2 watching."),
        (["Ann", "Bob"], [0], {0}, 0, "Bob (Player 2) is not connected."),
        # A spectator reads about every player.
        (["", "Bob"], [], {1}, 1, "Player 1 is not connected. Bob (Player 2) is connected. 1 watching."),
        # Three or four players: each other player by seat.
        (["", "", "Cy"], [1], {0, 2}, 0, "Player 1 is connected. Cy (Player 3) is connected."),
        (
            ["", "", "", ""],
            [0],
            {3},
            0,
            "Player 2 is not connected. Player 3 is not connected. Player 4 is connected.",
        ),
        # The computer and open seats have nobody to be connected; one person on every seat
        # (hot-seat) reads the watchers only.
        ([None, ""], [1], {1}, 0, ""),
        ([None, ""], [], {1}, 3, "Player 2 is connected. 3 watching."),
        (["", None], [0], {0}, 0, ""),
        (["", ""], [0, 1], {0, 1}, 1, "1 watching."),
        (["", "", None], [0], {1}, 0, "Player 2 is connected."),
    ],
)
def test_presence_from_each_side(
    names: list[str | None], mine: list[int], here: set[int], watching: int, said: str
) -> None:
    assert presence_text(names, mine, here, watching) == said


def paragraph(html: str) -> str:
    found = re.search(r'<p id="presence"[^>]*>.*?</p>', html)
    assert found, html
    return found.group(0)


def browser_of(client: Client, player_id: str) -> Client:
    session = client.session
    session[SESSION_FIELD] = player_id
    session.save()
    return client


@pytest.mark.django_db
def test_the_page_is_rendered_with_the_line_its_socket_pushes(client: Client) -> None:
    game = two_humans()
    chat.set_name(game.pk, TWO, "Bob")
    presence.arrive(game.pk, ["seat-1"])  # Bob's page is open
    presence.arrive(game.pk, ["watch"])
    game = Game.objects.get(pk=game.pk)
    page = browser_of(client, "s-one").get(game.get_absolute_url()).content.decode()
    assert presence.presence_of(game, ONE) == "Bob (Player 2) is connected. 1 watching."
    pushed = presenters.presence_html(presence.presence_of(game, ONE))
    assert paragraph(page) == paragraph(pushed).replace(' hx-swap-oob="true"', "")
    assert "Bob (Player 2) is connected. 1 watching." in paragraph(page)


@pytest.mark.django_db
def test_a_spectator_page_and_a_game_against_the_computer() -> None:
    game = two_humans()
    presence.arrive(game.pk, ["seat-0"])
    assert presence.presence_of(game, services.Actor()) == "Player 1 is connected. Player 2 is not connected."
    assert presence.presence_of(game, TWO) == "Your opponent is connected."
    solo = human_first_vs_ai()
    presence.arrive(solo.pk, ["seat-0"])
    assert presence.presence_of(solo, services.Actor(player_id="s-human")) == ""
    assert presence.presence_of(solo, services.Actor()) == "Player 1 is connected."
