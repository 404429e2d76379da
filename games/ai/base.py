"""Values shared by every game's AI: how an action is judged, and how a game is reviewed."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
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


# --- review ---------------------------------------------------------------------------------

_CLASS_RANK = {LOSS: 0, DRAW: 1, WIN: 2}


@dataclass(frozen=True)
class ReviewEntry:
    """The judgement of one action of a game.

    ``value_before`` is the value of the position for the mover (the best action's
    value), ``value_after`` the value of the action played, both "win"/"draw"/"loss" or
    ``None`` when not proved; distances are in plies from the position before the
    action; ``score_before`` and ``score_after`` are the estimates in [-1, 1] behind
    them (for the values not proved). ``best`` is the text of a best action.
    ``turning_point`` marks the loser's losing action: the last one that turned a drawn
    or won position into a lost one for the player who lost the game.
    """

    ply: int
    seat: int
    text: str
    verdict: str | None
    value_before: str | None
    distance_before: int | None
    value_after: str | None
    distance_after: int | None
    best: str | None
    turning_point: bool = False
    score_before: float | None = None
    score_after: float | None = None

    @property
    def proved(self) -> bool:
        return self.value_before is not None and self.value_after is not None


def rank(v: ActionValue) -> tuple[int, float]:
    """Sort key, better actions larger: proved wins (soonest first; one of unknown length
    after those), proved draws, actions not proved by their estimate, proved losses
    (latest first). A proved draw ranks above any estimate: an estimate is only a guess,
    the draw is certain."""
    if v.value == WIN:
        return 3, -v.distance if v.distance is not None else -math.inf
    if v.value == DRAW:
        return 2, 0.0
    if v.value == LOSS:
        return 0, v.distance if v.distance is not None else 0.0
    return 1, v.score or 0.0


def ranked(values: Sequence[ActionValue]) -> list[ActionValue]:
    """``values`` best first by :func:`rank`, the rules' order among equals: the analysis's
    list, its best action (the first) and its sentences all read this one order."""
    return sorted(values, key=rank, reverse=True)


def verdict(played: ActionValue, best: ActionValue) -> str | None:
    """ "blunder" (the proved result class drops), "inaccuracy" (a win made slower or a
    loss faster), "best", or ``None`` when the values needed are not proved."""
    if played.value is None or best.value is None:
        return None
    drop = _CLASS_RANK[best.value] - _CLASS_RANK[played.value]
    if drop > 0:
        return "blunder"
    if played.value == WIN and played.distance is not None and best.distance is not None:
        return "inaccuracy" if played.distance > best.distance else "best"
    if played.value == LOSS and played.distance is not None and best.distance is not None:
        return "inaccuracy" if played.distance < best.distance else "best"
    return "best"


def review_game(
    state: Any,
    parse_move: Callable[[str], Any],
    moves: Sequence[str],
    analyse: Callable[[Any, float], list[ActionValue]],
    budget_per_position: float,
) -> list[ReviewEntry]:
    """Judge every action of a game from ``state`` on, with a player's ``analyse``.

    Each action is compared with the best action of its position, using the values
    ``analyse`` finds within ``budget_per_position`` seconds: exact where it proves
    them, else estimates (the verdict is then ``None``: not proved).
    """
    entries: list[ReviewEntry] = []
    for ply, text in enumerate(moves, start=1):
        action = parse_move(text)
        values = analyse(state, budget_per_position)
        by_text = {v.text: v for v in values}
        played = by_text.get(str(action), ActionValue(action, None, False))
        best = max(values, key=rank, default=played)
        if rank(played) >= rank(best):
            best = played
        entries.append(
            ReviewEntry(
                ply=ply,
                seat=state.to_move,
                text=str(action),
                verdict=verdict(played, best),
                value_before=best.value,
                distance_before=best.distance,
                value_after=played.value,
                distance_after=played.distance,
                best=str(best.move),
                score_before=best.score,
                score_after=played.score,
            )
        )
        state = state.play(action)
    winner = state.outcome.winner if state.outcome is not None else None
    return mark_turning_point(entries, winner)


def _lost_it(entry: ReviewEntry) -> bool:
    return entry.value_before in (WIN, DRAW) and entry.value_after == LOSS


def mark_turning_point(entries: list[ReviewEntry], winner: int | None) -> list[ReviewEntry]:
    """Mark the loser's losing action: the last action of a player who did not win that
    turned a drawn or won position into a lost one. The winner's slips before it (which
    the loser did not punish) are blunders, not the turning point; a drawn or
    unfinished game has none."""
    if winner is None:
        return entries
    for index in range(len(entries) - 1, -1, -1):
        entry = entries[index]
        if entry.seat != winner and _lost_it(entry):
            marked = list(entries)
            marked[index] = replace(entry, turning_point=True)
            return marked
    return entries


def first_proved_loss(entries: list[ReviewEntry], winner: int | None) -> ReviewEntry | None:
    """In a won game with no turning point: the loser's first action proved lost that was
    played from a position the computer could not solve, so which earlier action lost
    the game is not known."""
    if winner is None or any(e.turning_point for e in entries):
        return None
    return next(
        (e for e in entries if e.seat != winner and e.value_after == LOSS and e.value_before is None), None
    )
