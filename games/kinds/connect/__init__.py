"""Connect-N: n in a row on a board of any size, with gravity (Connect Four) or without."""

from __future__ import annotations

from games.spec import Capabilities, GameSpec, Player

from . import board, json_fields, rules

GAME = GameSpec(
    kind="connect",
    rules=rules.RULES,
    board_data=board.board_data,
    player=Player("games.kinds.connect.player", ("beginner", "casual", "club", "expert", "master")),
    capabilities=Capabilities.all(
        "where the solver reaches the end in its budget (Connect Four openings from the book)"
    ),
    symbols=board.SYMBOLS,
    json_fields=json_fields.FIELDS,
    stylesheets=("kinds/connect/connect.css",),
    where_played=board.where_played,
)
