"""Tic-tac-toe: three in a row on a 3x3 board."""

from __future__ import annotations

from games.formats.boards import marked_cell
from games.spec import Capabilities, GameSpec, Player

from . import board, position, rules

GAME = GameSpec(
    kind="tictactoe",
    rules=rules.RULES,
    board_data=board.board_data,
    player=Player("games.kinds.tictactoe.player", ("beginner", "casual", "club", "perfect")),
    capabilities=Capabilities.all("always (the whole game is solved)"),
    symbols=board.SYMBOLS,
    stylesheets=("kinds/tictactoe/tictactoe.css",),
    where_played=marked_cell,
    notation=position.NOTATION,
)
