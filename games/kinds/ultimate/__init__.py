"""Ultimate Tic-Tac-Toe: nine boards of tic-tac-toe; where you play says where your opponent plays."""

from __future__ import annotations

from games.spec import Capabilities, GameSpec, Player

from . import board, json_fields, rules, text_look

GAME = GameSpec(
    kind="ultimate",
    rules=rules.RULES,
    board_data=board.board_data,
    player=Player("games.kinds.ultimate.player", ("beginner", "casual", "club", "expert", "master")),
    capabilities=Capabilities.all("only for won or lost positions the search proves near the end"),
    symbols=board.SYMBOLS,
    json_fields=json_fields.FIELDS,
    text_look=text_look.LOOK,
    stylesheets=("kinds/ultimate/ultimate.css",),
    where_played=board.where_played,
)
