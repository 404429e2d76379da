"""Two ways through the puzzles besides the next one near a rating:

- the daily puzzle: the same for everyone on a day (UTC), chosen from the day and the
  game alone (a hash of both, over the puzzles in key order), so every process and every
  request agree without storing anything;
- the streak: puzzles one after another, each rated above the last, until the first
  failure ends it. The streak so far lives in the session; the best one is kept in the
  session and, for an account, on its puzzle rating (``PuzzleRating.best_streak``).
"""

from __future__ import annotations

import datetime
import hashlib
import random
from typing import Any

from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from games.services.base import ServiceError
from study.models import Puzzle, PuzzleRating

STREAK_CHOICES = 3  # the next puzzle of a streak is drawn among this many just above the last


def daily(kind: str, day: datetime.date | None = None) -> Puzzle:
    """The day's puzzle of ``kind``: the same for everyone that day."""
    day = day or timezone.now().date()
    keys = list(Puzzle.objects.filter(kind=kind).order_by("key").values_list("key", flat=True))
    if not keys:
        raise ServiceError("no_puzzles", _("There is no puzzle in this game."), 404)
    digest = hashlib.sha256(f"{kind}:{day.isoformat()}".encode()).digest()
    return Puzzle.objects.get(key=keys[int.from_bytes(digest[:8], "big") % len(keys)])


def _streaks(session: Any) -> dict[str, Any]:
    return dict(session.get("puzzle_streak") or {})


def streak_puzzle(session: Any, kind: str, rng: random.Random | None = None) -> Puzzle:
    """The streak's next puzzle (a new streak when none is going on): the first among the
    easiest, then each one rated above the last solved."""
    rng = rng or random.Random()
    state = _streaks(session)
    going = state.get("kind") == kind and state.get("alive")
    if going and state.get("current") and not state.get("solved"):
        found = Puzzle.objects.filter(key=state["current"]).first()
        if found is not None:
            return found  # the puzzle shown: a reload does not skip it
    floor = state.get("rating", 0.0) if going else 0.0
    count = state.get("count", 0) if going else 0
    above = list(Puzzle.objects.filter(kind=kind, rating__gt=floor).order_by("rating")[:STREAK_CHOICES])
    if not above:
        raise ServiceError("no_puzzles", _("There is no harder puzzle left: the streak is complete."), 404)
    puzzle = rng.choice(above)
    session["puzzle_streak"] = {
        **state,
        "kind": kind,
        "alive": True,
        "count": count,
        "current": puzzle.key,
        "solved": False,
        "rating": floor,
    }
    return puzzle


def in_streak(session: Any, key: str) -> dict[str, Any] | None:
    """The streak the puzzle ``key`` is part of (the one now shown), or None."""
    state = _streaks(session)
    if state.get("alive") and state.get("current") == key:
        return state
    return None


def settle_streak(session: Any, key: str, status: str, user_id: int | None) -> dict[str, Any] | None:
    """The streak after a decided try at its current puzzle: one more when solved, over
    at the first failure; the best kept. None when the puzzle is not the streak's."""
    state = in_streak(session, key)
    if state is None or status not in ("solved", "failed") or state.get("solved"):
        return None
    kind = state["kind"]
    if status == "solved":
        puzzle = Puzzle.objects.filter(key=key).first()
        state.update(
            count=state["count"] + 1, solved=True, rating=puzzle.rating if puzzle else state["rating"]
        )
    else:
        state.update(alive=False)
    bests = dict(session.get("puzzle_best_streak") or {})
    bests[kind] = max(bests.get(kind, 0), state["count"])
    session["puzzle_best_streak"] = bests
    session["puzzle_streak"] = state
    if user_id is not None:
        PuzzleRating.objects.get_or_create(user_id=user_id, kind=kind)
        PuzzleRating.objects.filter(user_id=user_id, kind=kind).update(
            best_streak=Greatest(F("best_streak"), state["count"])
        )
    return {**state, "best": best_streak(session, kind, user_id), "over": status == "failed"}


def best_streak(session: Any, kind: str, user_id: int | None) -> int:
    """The best streak of this browser, or of the account when signed in (whichever is longer)."""
    best = int((session.get("puzzle_best_streak") or {}).get(kind, 0))
    if user_id is not None:
        row = PuzzleRating.objects.filter(user_id=user_id, kind=kind).values_list("best_streak", flat=True)
        best = max([best, *row])
    return best
