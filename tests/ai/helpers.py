"""Helpers shared by the computer-player tests of several games."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any


def play_out(
    player: ModuleType, state: Any, levels: Sequence[str], rng: random.Random, budget: float = 1.0
) -> Any:
    """The final state after ``state`` is played to the end, seat ``i`` at ``levels[i]``."""
    while not state.is_over():
        state = state.play(player.choose_move(state, levels[state.to_move], budget=budget, rng=rng))
    return state


def match_scores(
    player: ModuleType,
    start: Any,
    strong: str,
    weak: str,
    games: int,
    rng: random.Random,
    budget: float = 1.0,
) -> list[int]:
    """Two-player games from ``start``, ``strong`` moving first in the even ones: for each,
    1 when ``strong`` won, 0 for a draw, -1 when ``weak`` won."""
    scores = []
    for game in range(games):
        seats = (strong, weak) if game % 2 == 0 else (weak, strong)
        winner = play_out(player, start, seats, rng, budget).outcome.winner
        scores.append(0 if winner is None else 1 if winner == game % 2 else -1)
    return scores
