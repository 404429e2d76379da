"""Pure game rules: no Django, no database, no AI. Each game is one module.

:data:`GAMES` lists the rules by kind for the pure layer (a record names its game);
the site asks :mod:`games.catalog`, which says everything else about each game.
"""

from __future__ import annotations

from typing import Any

from . import connect, quarto, tictactoe, ultimate
from .base import BadNotation, GameRules, IllegalMove, MoveError, OptionError, OptionSpec, Outcome, State

GAMES: dict[str, GameRules[Any, Any]] = {
    rules.kind: rules for rules in (quarto.RULES, tictactoe.RULES, connect.RULES, ultimate.RULES)
}


def get_rules(kind: str) -> GameRules[Any, Any]:
    try:
        return GAMES[kind]
    except KeyError:
        raise OptionError("game", f"Unknown game {kind!r}; known: {', '.join(GAMES)}.") from None


__all__ = [
    "GAMES",
    "BadNotation",
    "GameRules",
    "IllegalMove",
    "MoveError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "State",
    "get_rules",
]
