"""Computer players. Pure functions of a game state: they import only the engine.

Each game's module offers ``LEVELS``, ``choose_move(state, level, budget, rng)``,
``analyse(state, budget)`` and ``warm_up()``; this module dispatches by game kind, and
reviews a finished game with the game's ``analyse`` (:func:`review`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from games.engine import get_rules

from .base import ActionValue, ReviewEntry, review_game

_MODULES = {
    "quarto": "games.ai.quarto",
    "tictactoe": "games.ai.tictactoe",
    "connect": "games.ai.connect",
    "ultimate": "games.ai.ultimate",
}


def player_module(kind: str) -> ModuleType:
    try:
        return importlib.import_module(_MODULES[kind])
    except KeyError:
        raise ValueError(f"no computer player for {kind!r}") from None


def has_player(kind: str) -> bool:
    return kind in _MODULES


def levels(kind: str) -> tuple[str, ...]:
    """The computer's levels for a game, weakest first; empty if it has no computer player."""
    if not has_player(kind):
        return ()
    levels_: tuple[str, ...] = player_module(kind).LEVELS
    return levels_


def default_level(kind: str) -> str:
    names = levels(kind)
    return names[len(names) // 2] if names else ""


def choose_move(kind: str, state: Any, level: str, budget: float, rng: random.Random | None = None) -> Any:
    return player_module(kind).choose_move(state, level, budget, rng)


def analyse(kind: str, state: Any, budget: float) -> list[ActionValue]:
    values: list[ActionValue] = player_module(kind).analyse(state, budget)
    return values


def compute_move(
    kind: str, options: Mapping[str, Any], moves: Sequence[str], level: str, budget: float, seed: int
) -> str:
    """The text of the computer's action after ``moves``. Takes and returns plain values,
    so it can run in another process."""
    state = get_rules(kind).replay(options, moves)
    return str(choose_move(kind, state, level, budget, random.Random(seed)))


def analyse_moves(
    kind: str, options: Mapping[str, Any], moves: Sequence[str], budget: float
) -> list[ActionValue]:
    """Every legal action after ``moves`` with its value; plain arguments, for another process."""
    return analyse(kind, get_rules(kind).replay(options, moves), budget)


def review(
    kind: str, options: Mapping[str, Any], moves: Sequence[str], budget_per_position: float
) -> list[ReviewEntry]:
    """Every action of a game judged by the computer, with the game's ``analyse``: exact
    where it proves the values (tic-tac-toe always, Connect Four where the solver reaches,
    Quarto near the end), estimates elsewhere. Plain arguments, for another process."""
    rules = get_rules(kind)
    analyse_position = player_module(kind).analyse
    return review_game(
        rules.new_state(options), rules.parse_move, moves, analyse_position, budget_per_position
    )


def has_review(kind: str) -> bool:
    """Every game with a computer player has a review (built on the player's analysis)."""
    return has_player(kind)


def best_value(values: Sequence[ActionValue]) -> ActionValue | None:
    """The action the analysis ranks first: a win (soonest), a draw, a loss (latest), then by score."""

    def rank(v: ActionValue) -> tuple[int, float]:
        if v.exact and v.value is not None:
            order = {"win": 2, "draw": 1, "loss": 0}[v.value]
            distance = v.distance or 0
            return order, -distance if v.value == "win" else distance
        return 1, v.score or 0.0

    return max(values, key=rank, default=None)


def warm_up() -> float:
    """Load (or compile) every player's compiled code; returns seconds taken."""
    total = 0.0
    for kind in _MODULES:
        module = player_module(kind)
        if hasattr(module, "warm_up"):
            total += float(module.warm_up())
    return total
