"""Computer players. Pure functions of a game state: they import only the engine.

Each game's module offers ``LEVELS``, ``choose_move(state, level, budget, rng)``,
``analyse(state, budget)`` and ``warm_up()``. Which module plays which game, with which
levels and capabilities, is declared in :mod:`games.catalog`; nothing here dispatches
by game.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import ActionValue, ReviewEntry, ranked


def best_value(values: Sequence[ActionValue]) -> ActionValue | None:
    """The action the analysis ranks first (:func:`games.ai.base.ranked`)."""
    return next(iter(ranked(values)), None)


__all__ = ["ActionValue", "ReviewEntry", "best_value"]
