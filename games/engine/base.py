"""The protocol every game's rules follow, and the error and outcome values they share.

A game module exposes ``RULES`` (a :class:`GameRules`), an immutable ``State`` and a
``parse_move(text)`` function. States are values: ``state.play(move)`` returns a new
state or raises :class:`IllegalMove`; it never changes ``state``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class MoveError(ValueError):
    """A refused action. ``code`` is stable and machine-readable; the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class BadNotation(MoveError):
    """The text of an action cannot be read at all."""

    def __init__(self, text: str, expected: str) -> None:
        super().__init__("bad_notation", f"Cannot read {text!r}: expected {expected}.")


class IllegalMove(MoveError):
    """The action is readable but the rules refuse it in this position."""


class OptionError(ValueError):
    """A new-game option is unknown or out of range."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.code = "bad_option"
        self.option = option
        self.message = message


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the winning seat (``None`` for a draw); ``lines`` holds the cell
    indices of every winning line; ``shared`` names what the line has in common
    (Quarto's traits), when the game has such a notion.
    """

    winner: int | None
    lines: tuple[tuple[int, ...], ...] = ()
    shared: tuple[str, ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None


class Move(Protocol):
    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


class State(Protocol):
    """What the web layer, the AI runner and the tests rely on for every game."""

    @property
    def to_move(self) -> int: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def num_players(self) -> int: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> State: ...

    def is_over(self) -> bool: ...


@dataclass(frozen=True)
class GameRules:
    """A game's entry points, as the rest of the site sees them."""

    kind: str
    title: str
    initial_state: Callable[..., Any]
    parse_move: Callable[[str], Any]
    clean_options: Callable[[Mapping[str, Any]], dict[str, Any]]
    default_options: Mapping[str, Any] = field(default_factory=dict)

    def new_state(self, options: Mapping[str, Any] | None = None) -> Any:
        return self.initial_state(**self.clean_options(options or {}))

    def replay(self, options: Mapping[str, Any], moves: Sequence[str]) -> Any:
        """The state after the given action texts, each checked by the rules."""
        state = self.new_state(options)
        for text in moves:
            state = state.play(self.parse_move(text))
        return state


def check_playing(state: State) -> None:
    if state.is_over():
        raise IllegalMove("game_over", "The game is over: no more moves.")


def check_turn(state: State, player: int | None) -> None:
    if player is not None and player != state.to_move:
        raise IllegalMove(
            "not_your_turn", f"It is player {state.to_move + 1}'s turn, not player {player + 1}'s."
        )


def reject_unknown(options: Mapping[str, Any], known: Sequence[str]) -> None:
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise OptionError(unknown[0], f"Unknown option {unknown[0]!r}; known: {', '.join(known)}.")


def int_option(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise OptionError(name, f"{name} must be a whole number from {low} to {high}.")
    try:
        number = int(value)
    except ValueError:
        raise OptionError(name, f"{name} must be a whole number from {low} to {high}.") from None
    if not low <= number <= high:
        raise OptionError(name, f"{name} must be from {low} to {high}, not {number}.")
    return number


def bool_option(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("1", "true", "on", "yes", "0", "false", "off", "no", ""):
        return value.lower() in ("1", "true", "on", "yes")
    raise OptionError(name, f"{name} must be true or false.")
