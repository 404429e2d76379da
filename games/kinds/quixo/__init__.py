"""Quixo (Gigamic): take a cube from the edge, push it back in; five in a line wins."""

from __future__ import annotations

from games.spec import Capabilities, GameSpec, Player

from . import action_words, board, rules

GAME = GameSpec(
    kind="quixo",
    rules=rules.RULES,
    board_data=board.board_data,
    player=Player("games.kinds.quixo.player", ("beginner", "casual", "club", "strong")),
    capabilities=Capabilities.all("only for wins and losses the search proves a few pushes ahead"),
    symbols=board.SYMBOLS,
    words=action_words.WORDS,
    stylesheets=("kinds/quixo/quixo.css",),
    where_played=board.where_played,
)
