"""Pure game rules: no Django, no database, no AI. Each game is one module.

Each module exposes ``RULES``; the games the site offers are registered once, in
:mod:`games.catalog`, which every other layer asks (the rules know nothing of each other).
"""

from __future__ import annotations

from .base import BadNotation, GameRules, IllegalMove, MoveError, OptionError, OptionSpec, Outcome, State

__all__ = [
    "BadNotation",
    "GameRules",
    "IllegalMove",
    "MoveError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "State",
]
