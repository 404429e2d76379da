"""Computer players. Pure functions of a game state: they import only the engine.

Each game's module offers ``LEVELS``, ``choose_move(state, level, budget, rng)``,
``analyse(state, budget)`` and ``warm_up()``. Which module plays which game, with which
levels and capabilities, is declared in :mod:`games.catalog`; nothing here dispatches
by game.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import ActionValue, ReviewEntry


def best_value(values: Sequence[ActionValue]) -> ActionValue | None:
    """The action the analysis ranks first: a win (soonest), a draw, a loss (latest), then by score."""

    def rank(v: ActionValue) -> tuple[int, float]:
        if v.exact and v.value is not None:
            order = {"win": 2, "draw": 1, "loss": 0}[v.value]
            distance = v.distance or 0
            return order, -distance if v.value == "win" else distance
        return 1, v.score or 0.0

    return max(values, key=rank, default=None)


__all__ = ["ActionValue", "ReviewEntry", "best_value"]
