"""Arena rules: who meets whom in a pairing wave, and what a game scores.

As lichess's arenas: a win scores 2, a draw 1, a loss 0. After two wins in a row a player
is on fire: each further win scores double until a game is not won. A player who
berserked (halved their own clock before the first move) scores one more point on a win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["win", "draw", "loss"]

WIN, DRAW, LOSS = 2, 1, 0
FIRE_AFTER = 2  # wins in a row before wins count double
BERSERK_BONUS = 1
# How far down the list of free players a partner is looked for: nearest first.
WINDOW = 8


@dataclass(frozen=True)
class Scored:
    points: int
    streak: int  # wins in a row after this game


def on_fire(streak: int) -> bool:
    return streak >= FIRE_AFTER


def score(streak: int, outcome: Outcome, berserk: bool = False) -> Scored:
    """The points a game brings to a player whose streak was ``streak`` before it."""
    if outcome == "win":
        points = WIN * (2 if on_fire(streak) else 1) + (BERSERK_BONUS if berserk else 0)
        return Scored(points, streak + 1)
    return Scored(DRAW if outcome == "draw" else LOSS, 0)


@dataclass(frozen=True)
class Free:
    """A player free to be paired: its score, its rating and its last opponent (if any)."""

    id: int
    score: int
    rating: float
    last_opponent: int | None = None


def distance(a: Free, b: Free) -> tuple[int, float]:
    return abs(a.score - b.score), abs(a.rating - b.rating)


def wave(free: Sequence[Free], allow_rematch: bool = False) -> list[tuple[int, int]]:
    """One pairing wave: pairs of ids, each player in at most one pair.

    The free players are ranked by score then rating; from the top, each takes the nearest
    (score, then rating) of the next ``WINDOW`` unpaired players that is not its last
    opponent. ``allow_rematch`` lifts that rule (two players alone in an arena). A player
    left without a partner waits for the next wave."""
    ranked = sorted(free, key=lambda p: (-p.score, -p.rating, p.id))
    taken: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for i, player in enumerate(ranked):
        if player.id in taken:
            continue
        candidates = [
            other
            for other in ranked[i + 1 :]
            if other.id not in taken
            and other.id != player.id
            and (allow_rematch or (other.id != player.last_opponent and player.id != other.last_opponent))
        ][:WINDOW]
        if not candidates:
            continue
        partner = min(candidates, key=lambda other: distance(player, other))
        taken.update((player.id, partner.id))
        pairs.append((player.id, partner.id))
    return pairs
