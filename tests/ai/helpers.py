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
