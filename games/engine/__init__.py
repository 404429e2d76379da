"""Pure game rules: no Django, no database, no AI. Each game is one module."""

from __future__ import annotations

from . import connect, quarto, tictactoe, ultimate
from .base import BadNotation, GameRules, IllegalMove, MoveError, OptionError, Outcome

GAMES: dict[str, GameRules] = {
    rules.kind: rules for rules in (quarto.RULES, tictactoe.RULES, connect.RULES, ultimate.RULES)
}


def get_rules(kind: str) -> GameRules:
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
    "Outcome",
    "get_rules",
]
