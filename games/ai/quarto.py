"""Quarto players.

``choose_move(state, level, budget, rng)`` returns one action for the side to move.
"""

from __future__ import annotations

import random

from games.engine.quarto import CELLS, LINES_THROUGH, SQUARES_THROUGH, Action, Give, Place, State, is_quarto

LEVELS = ("beginner", "casual")


def winning_cells(state: State, piece: int) -> list[int]:
    """Empty cells where placing ``piece`` wins at once."""
    board = state.board
    wins = []
    for cell in range(CELLS):
        if board[cell] is not None:
            continue
        lines = LINES_THROUGH[cell] + (SQUARES_THROUGH[cell] if state.advanced else ())
        for line in lines:
            others = [p for p in (board[i] for i in line if i != cell) if p is not None]
            if len(others) == len(line) - 1 and is_quarto(piece, *others):
                wins.append(cell)
                break
    return wins


def safe_pieces(state: State) -> list[int]:
    """Pieces the opponent cannot win with at once."""
    return [p for p in state.available if not winning_cells(state, p)]


def _beginner(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_moves())


def _casual(state: State, rng: random.Random) -> Action:
    if state.in_hand is not None:
        wins = winning_cells(state, state.in_hand)
        if wins:
            return Place(rng.choice(wins))
        # Prefer a cell after which some piece is still safe to give.
        safe_cells = [c for c in state.empty_cells if safe_pieces(state.play(Place(c)))]
        return Place(rng.choice(safe_cells or list(state.empty_cells)))
    safe = safe_pieces(state)
    return Give(rng.choice(safe or list(state.available)))


def choose_move(state: State, level: str, budget: float = 1.0, rng: random.Random | None = None) -> Action:
    rng = rng or random.Random()
    if level == "beginner":
        return _beginner(state, rng)
    if level == "casual":
        return _casual(state, rng)
    raise ValueError(f"unknown Quarto level {level!r}")
