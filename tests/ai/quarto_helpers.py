"""Shared helpers for the Quarto AI tests: seeded positions and a plain reference solver."""

from __future__ import annotations

import random
from functools import cache

from games.kinds.quarto.rules import Give, Place, State, initial_state, safe_pieces, winning_cells

WIN_SCORE = 100


def random_position(rng: random.Random, empties: int, phase: str = "place", advanced: bool = False) -> State:
    """A position reached by play that never wins nor gives a winning piece, with
    ``empties`` empty cells, undecided, the side to move in the given phase."""
    while True:
        state = initial_state(advanced=advanced).play(Give(rng.randrange(16)))
        ok = True
        while len(state.empty_cells) > empties:
            assert state.in_hand is not None
            wins = set(winning_cells(state, state.in_hand))
            cells = [c for c in state.empty_cells if c not in wins]
            if not cells:
                ok = False
                break
            state = state.play(Place(rng.choice(cells)))
            safe = safe_pieces(state)
            if not safe or (len(state.empty_cells) == empties and phase == "give"):
                ok = bool(safe)
                break
            state = state.play(Give(rng.choice(safe)))
        if not ok or state.is_over():
            continue
        if phase == "place" and (state.in_hand is None or winning_cells(state, state.in_hand)):
            continue
        if phase == "give" and state.in_hand is not None:
            continue
        return state


@cache
def reference_score(state: State) -> int:
    """Exact score for the side to move by plain minimax over engine states: a win that
    leaves ``e`` empty cells is ``WIN_SCORE + e``, a loss its negation, a draw 0."""
    return max(reference_action_score(state, move) for move in state.legal_moves())


def reference_action_score(state: State, move: Place | Give) -> int:
    child = state.play(move)
    if child.outcome is not None:
        if child.outcome.winner is None:
            return 0
        return WIN_SCORE + len(child.empty_cells)
    value = reference_score(child)
    return value if child.to_move == state.to_move else -value
