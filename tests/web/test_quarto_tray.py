"""The Quarto tray at the end of a game: no blank panel of sixteen empty slots."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.services.moves import play_move

from .helpers import ONE, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

# A drawn game: all sixteen pieces placed, no line.
FULL_BOARD_DRAW = [
    *("13", "d4", "14", "b2", "6", "c2", "0", "c3", "10", "a4", "12", "d2", "9", "c4", "1", "d1"),
    *("4", "c1", "15", "a1", "8", "a3", "2", "b1", "3", "a2", "7", "b3", "11", "d3", "5", "b4"),
]


def test_a_full_board_says_so_instead_of_showing_empty_slots(client: Client) -> None:
    game = two_humans()
    for ply, text in enumerate(FULL_BOARD_DRAW):
        game = play_move(game.pk, ONE if game.state.to_move == 0 else TWO, text, ply)
    game = Game.objects.get(pk=game.pk)
    assert game.state.outcome is not None and game.state.outcome.winner is None
    html = client.get(game.get_absolute_url()).content.decode()
    assert "All pieces are on the board." in html
    assert "tray__slot" not in html and "Remaining pieces" not in html
