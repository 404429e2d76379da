"""Position notations: a game's position as one line of text, and back.

Each game that has one exposes a :class:`Notation`: ``parse(text, options)`` reads a
position into the game's ``State``, ``format(state)`` writes it, and
``setup_moves(state)`` gives actions from the start that reach it. Parsing replays those
actions through the rules, so a position the notation accepts is one the rules can reach,
and its side to act must be the one the rules say.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import GameRules, MoveError
from .refusals import Phrase

MAX_LENGTH = 200


class PositionError(MoveError):
    """A position's text that cannot be read (``bad_notation``) or that no game reaches
    (``unreachable``, ``wrong_side``)."""


@dataclass(frozen=True)
class Notation:
    """A game's position notation: what it reads, writes, and how a game reaches it."""

    read: Callable[[str], Any]
    """The text's fields, checked for form only; raises :class:`PositionError`."""
    setup: Callable[[Any, Mapping[str, Any]], Sequence[str]]
    """Actions from the start reaching the read fields; raises :class:`PositionError`."""
    side: Callable[[Any], int]
    """The side to act the read fields name (a seat, from 0)."""
    format: Callable[[Any], str]
    """A state's text."""
    setup_moves: Callable[[Any], list[str]]
    """Actions from the start reaching a state."""
    syntax: str
    """The notation in a few words, for error messages."""

    def parse(self, rules: GameRules[Any, Any], text: str, options: Mapping[str, Any] | None = None) -> Any:
        """The state ``text`` names, reached through the rules with ``options``."""
        return replay(rules, options or {}, self.moves(rules, text, options))

    def moves(
        self, rules: GameRules[Any, Any], text: str, options: Mapping[str, Any] | None = None
    ) -> list[str]:
        """Actions from the start that reach the position ``text`` names (checked)."""
        if not isinstance(text, str):
            raise PositionError("bad_notation", "A position is text: %(syntax)s.", syntax=Phrase(self.syntax))
        if len(text) > MAX_LENGTH:
            raise PositionError("bad_notation", "A position is at most %(most)s characters.", most=MAX_LENGTH)
        fields = self.read(text)
        moves = list(self.setup(fields, options or {}))
        state = replay(rules, options or {}, moves)
        side = self.side(fields)
        if state.to_move != side:
            raise PositionError(
                "wrong_side",
                "In this position player %(turn)s acts, not player %(side)s.",
                turn=state.to_move + 1,
                side=side + 1,
            )
        return moves


def replay(rules: GameRules[Any, Any], options: Mapping[str, Any], moves: Sequence[str]) -> Any:
    """The state after ``moves``; a rule's refusal is told as an unreachable position."""
    state = rules.new_state(options)
    for text in moves:
        try:
            state = state.play(rules.parse_move(text))
        except MoveError as exc:
            raise PositionError(
                "unreachable", "No game reaches this position: %(reason)s", reason=exc
            ) from None
    return state


def read_form(form: re.Pattern[str], text: str, syntax: str) -> re.Match[str]:
    """The text matched by the notation's form, or ``bad_notation`` naming the form."""
    match = form.match(text.strip())
    if not match:
        raise PositionError(
            "bad_notation",
            "Cannot read %(text)s: expected %(expected)s.",
            text=repr(text.strip()[:60]),
            expected=Phrase(syntax),
        )
    return match


def read_ranks(
    ranks: Sequence[str], rows: Sequence[Sequence[int]], cell: Callable[[str], int | None]
) -> tuple[int | None, ...]:
    """A board from its ranks' texts, top first, one character a cell ("." empty)."""
    board: list[int | None] = [None] * sum(len(row) for row in rows)
    for rank_text, row in zip(ranks, rows, strict=True):
        for char, index in zip(rank_text, row, strict=True):
            board[index] = None if char == "." else cell(char)
    return tuple(board)


def write_ranks(
    board: Sequence[int | None], rows: Sequence[Sequence[int]], cell: Callable[[int], str]
) -> str:
    """The ranks of a board, top first, separated by ``/``."""
    return "/".join("".join("." if (v := board[i]) is None else cell(v) for i in row) for row in rows)
