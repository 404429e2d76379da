"""Shortcuts for web tests: games with a known seat order and a played-out record."""

from __future__ import annotations

from games.models import Game
from games.services import moves as services


def human_first_vs_ai(player_id: str = "s-human", level: str = "casual", **options: object) -> Game:
    return services.create_game(
        "quarto", options, opponent="ai", level=level, seat="first", player_id=player_id
    ).game


def two_humans() -> Game:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="s-one").game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-two")
    return game


ONE = services.Actor(player_id="s-one")
TWO = services.Actor(player_id="s-two")

# A short game: seat index 1 (the second player) wins with four round pieces on rank 1.
SECOND_WINS = ["8", "a1", "0", "a4", "9", "b1", "1", "b4", "10", "c1", "2", "c4", "11", "d1"]
