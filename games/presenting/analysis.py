"""The computer's analysis of a position as JSON: what a game's analysis and the analysis
board answer alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.ai.base import ActionValue


def action_json(value: ActionValue) -> dict[str, Any]:
    return {
        "move": value.text,
        "value": value.value,
        "exact": value.exact,
        "distance": value.distance,
        "score": value.score,
    }


def analysis_json(ply: int, state: Any, values: Sequence[ActionValue]) -> dict[str, Any]:
    """``ply``, ``to_move`` (None once over), ``exact`` (every value proved) and each action's
    value, in the rules' order."""
    return {
        "ply": ply,
        "to_move": None if state.is_over() else state.to_move,
        "exact": all(v.exact for v in values),
        "actions": [action_json(v) for v in values],
    }
