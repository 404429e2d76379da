"""Quarto (Gigamic): place the piece you were given, then choose the one your opponent places."""

from __future__ import annotations

from games.spec import Capabilities, GameSpec, Player

from . import action_words, board, json_fields, position, rules, text_look

GAME = GameSpec(
    kind="quarto",
    rules=rules.RULES,
    board_data=board.board_data,
    player=Player("games.kinds.quarto.player", ("beginner", "casual", "club", "expert", "perfect")),
    capabilities=Capabilities.all("from about ten empty cells to the end"),
    json_fields=json_fields.FIELDS,
    text_look=text_look.LOOK,
    words=action_words.WORDS,
    where_played=board.where_played,
    stylesheets=tuple(f"kinds/quarto/{name}.css" for name in ("board", "piece", "tray")),
    notation=position.NOTATION,
)
