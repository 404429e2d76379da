"""Values shared by every game's AI: how an action is judged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass(frozen=True)
class ActionValue:
    """One legal action and what it is worth to the player making it.

    When ``exact`` is true, ``value`` is ``"win"``, ``"draw"`` or ``"loss"`` with perfect
    play from both sides, and ``distance`` counts the actions (plies) until the game
    ends. Otherwise ``score`` is an estimate in [-1, 1] (1 = sure win for the mover)
    and ``value`` may be ``None``.
    """

    move: Any
    value: str | None
    exact: bool
    distance: int | None = None
    score: float | None = None

    @property
    def text(self) -> str:
        return str(self.move)
