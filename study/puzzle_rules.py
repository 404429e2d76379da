"""Puzzles made by the solver: which positions are puzzles, their answers, the site's
replies, and how an attempt is judged. Pure: the rules and the computer's analysis only.

A puzzle is a position where the side to act has a forced win the solver proves, and
some action that loses it:

- "win in n" (n = 1, 2, 3): the fastest forced win places its winning piece on that
  side's n-th turn from here (a turn is place then give; the first may be a give alone);
- "safe give": a give where one or two pieces keep the win and every other piece loses.

Every action that keeps the forced win is right (the answer may hold several); each reply
of the opponent is the solver's most stubborn (the loss that lasts longest, the first of
the rules' order among equals).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import catalog
from games.ai.base import LOSS, WIN, ActionValue, rank
from games.engine import MoveError
from games.engine.refusals import Phrase, Refusal, gettext_noop

SOLVE_BUDGET = 5.0  # seconds: positions of puzzles are solved exactly well within it
MAX_EMPTY = 10  # positions with more empty cells are not searched for puzzles
MAX_TURNS = 3
SAFE_GIVE_MOST = 2
MAX_ACTIONS = 40  # an attempt's actions: far beyond any puzzle's line

WIN_IN = ("win_in_1", "win_in_2", "win_in_3")
SAFE_GIVE = "safe_give"
ADVANCED = "advanced"
START_RATINGS = {"win_in_1": 1000.0, "win_in_2": 1400.0, "win_in_3": 1750.0}
SAFE_GIVE_EXTRA = 200.0


class Unsolved(Exception):
    """The solver did not prove a value within its budget."""


@dataclass(frozen=True)
class Found:
    """A position that is a puzzle: its themes and its answer (every winning action)."""

    themes: tuple[str, ...]
    answer: tuple[str, ...]
    turns: int

    @property
    def start_rating(self) -> float:
        rating = START_RATINGS[WIN_IN[self.turns - 1]]
        return rating + (SAFE_GIVE_EXTRA if SAFE_GIVE in self.themes else 0.0)


def solve(kind: str, state: Any) -> list[ActionValue]:
    """Every legal action with its exact value; :class:`Unsolved` when not all are proved."""
    values = catalog.analyse(kind, state, SOLVE_BUDGET)
    if not all(v.exact for v in values):
        raise Unsolved(f"not proved within {SOLVE_BUDGET} s")
    return values


def turns_to_win(state: Any, distance: int) -> int:
    """The side's turns until its winning placement, ``distance`` plies away: placing now,
    the win is 1 + 4 (n - 1) plies away; giving now, 4 n."""
    placing = getattr(state, "in_hand", None) is not None
    return (distance + 3) // 4 if placing else distance // 4


def find(kind: str, state: Any, values: Sequence[ActionValue] | None = None) -> Found | None:
    """The puzzle this position is, or None."""
    if state.is_over() or len(state.empty_cells) > MAX_EMPTY:
        return None
    values = list(values) if values is not None else solve(kind, state)
    wins = [v for v in values if v.value == WIN]
    if not wins or len(wins) == len(values):
        return None  # nothing to find, or nothing to get wrong
    fastest = min(v.distance or 0 for v in wins)
    turns = turns_to_win(state, fastest)
    if not 1 <= turns <= MAX_TURNS:
        return None
    themes = [WIN_IN[turns - 1]]
    giving = getattr(state, "in_hand", "none") is None
    if giving:
        if len(wins) > SAFE_GIVE_MOST or any(v.value != LOSS for v in values if v.value != WIN):
            return None
        themes.append(SAFE_GIVE)
    if getattr(state, "advanced", False):
        themes.append(ADVANCED)
    return Found(tuple(themes), tuple(v.text for v in wins), turns)


def stubborn(kind: str, state: Any) -> str:
    """The defender's most stubborn action: the best by the solver's rank (a loss that
    lasts longest), the first in the rules' order among equals."""
    values = solve(kind, state)
    best = values[0]
    for value in values[1:]:
        if rank(value) > rank(best):
            best = value
    return best.text


@dataclass(frozen=True)
class Verdict:
    status: str  # "continue", "solved" or "failed"
    reply: tuple[str, ...] = ()
    refutation: tuple[str, ...] = ()
    first_wrong: str | None = None


def reason(exc: MoveError) -> Phrase:
    """The rules' refusal inside an attempt's, kept as its template and words so that the
    site says it in the reader's language (a piece's traits, a board's name too)."""
    return Phrase(exc.template, **exc.words)


class BadAttempt(Refusal, ValueError):
    """An attempt that cannot be judged: ``code`` for programs, ``message`` for people (in
    English); :meth:`said` says it in another language from its template and words. Pure: the
    site passes its ``gettext``."""

    def __init__(self, code: str, message: str, **words: Any) -> None:
        # Both arguments, so that it crosses a process pool (its template and words with __dict__).
        super().__init__(code, self.keep(message, words))
        self.code = code


def judge(kind: str, state: Any, moves: Sequence[str]) -> Verdict:
    """An attempt from the puzzle's position: the solver's side plays ``moves`` with the
    site's replies among them, as the site gave them."""
    rules = catalog.get(kind).rules
    if len(moves) > MAX_ACTIONS:
        raise BadAttempt(
            "too_many_moves", gettext_noop("An attempt is at most %(count)d actions."), count=MAX_ACTIONS
        )
    solver_side = state.to_move
    for index, text in enumerate(moves):
        if state.is_over():
            words = gettext_noop("Action %(number)d: the puzzle's game is over already.")
            raise BadAttempt("game_over", words, number=index + 1)
        try:
            move = rules.parse_move(text)
            after = state.play(move)
        except MoveError as exc:
            words = gettext_noop("Action %(number)d (%(text)s): %(reason)s")
            raise BadAttempt(
                exc.code, words, number=index + 1, text=str(text)[:20], reason=reason(exc)
            ) from None
        if state.to_move != solver_side:
            expected = stubborn(kind, state)
            if str(move) != expected:
                words = gettext_noop("Action %(number)d should be the site's reply %(reply)s.")
                raise BadAttempt("not_the_reply", words, number=index + 1, reply=expected)
        else:
            value = next(v for v in solve(kind, state) if v.text == str(move))
            if value.value != WIN:
                return Verdict(
                    "failed", refutation=tuple(_refute(kind, after, solver_side)), first_wrong=str(move)
                )
        state = after
    if state.is_over():
        return Verdict("solved")
    reply: list[str] = []
    while not state.is_over() and state.to_move != solver_side:
        action = stubborn(kind, state)
        reply.append(action)
        state = state.play(rules.parse_move(action))
    # a forced win kept: the defender's reply never ends the game
    return Verdict("continue", reply=tuple(reply))


def _refute(kind: str, state: Any, solver_side: int) -> list[str]:
    """After a wrong action: best play by both sides until the opponent's turn is over
    (or the game), which shows why the action was wrong."""
    rules = catalog.get(kind).rules
    line: list[str] = []
    seen_opponent = False
    while not state.is_over() and len(line) < 6:
        if state.to_move == solver_side and seen_opponent:
            break
        seen_opponent = seen_opponent or state.to_move != solver_side
        values = solve(kind, state)
        best = max(values, key=rank)
        line.append(best.text)
        state = state.play(rules.parse_move(best.text))
    return line


def judge_moves(kind: str, options: dict[str, Any], start: Sequence[str], moves: Sequence[str]) -> Verdict:
    """:func:`judge` on plain values (the puzzle's actions from the start, the attempt's
    actions), for the analysis pool's processes."""
    state = catalog.get(kind).rules.replay(options, start)
    return judge(kind, state, moves)
