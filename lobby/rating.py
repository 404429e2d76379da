"""A player's rating as the lobby uses it (pairing, rating ranges): the account's Rating for
the game and the clock's speed, 1500 before its first rated game; None for anonymous."""

from __future__ import annotations

from typing import Any

from games import clocks as clock_rules
from ratings import services as ratings

NEW = 1500.0


def rating_of(user: Any, kind: str, control: clock_rules.TimeControl) -> float | None:
    if user is None:
        return None
    row = next((r for r in ratings.ratings_of(user) if r.kind == kind and r.speed == control.speed), None)
    return float(row.rating) if row is not None else NEW
