"""Random Quarto positions for the analysis board's checks and bench/analysis_latency.py."""

from __future__ import annotations

import random

from games.kinds.quarto.rules import State, initial_state


def random_position(rng: random.Random, empties: int) -> State:
    """Random legal play until ``empties`` cells are empty with a piece in hand, the game on."""
    while True:
        state = initial_state()
        while not state.is_over() and not (len(state.empty_cells) == empties and state.in_hand is not None):
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over():
            return state
