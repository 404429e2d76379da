"""The protocol every game's rules follow, and the error and outcome values they share.

A game module exposes ``RULES`` (a :class:`GameRules`), an immutable ``State`` and a
``parse_move(text)`` function. States are values: ``state.play(move)`` returns a new
state or raises :class:`IllegalMove`; it never changes ``state``.

Both are generic over the game's move type: ``tictactoe.RULES`` is a
``GameRules[tictactoe.State, tictactoe.Mark]``, so code that knows its game gets typed
states and moves back (``RULES.replay(...)`` is a ``tictactoe.State``); code that does
not holds a ``GameRules[Any, Any]`` from the catalog (``catalog.get(kind).rules``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar

from .refusals import Phrase, Refusal


class MoveError(Refusal, ValueError):
    """A refused action. ``code`` is stable and machine-readable; the message is for people:
    a %-template and its ``words`` (:class:`~games.engine.refusals.Refusal`)."""

    def __init__(self, code: str, message: str, /, **words: Any) -> None:
        super().__init__(self.keep(message, words))
        self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class BadNotation(MoveError):
    """The text of an action cannot be read at all; ``expected`` is a template of the
    notation, filled with ``words``."""

    def __init__(self, text: str, expected: str, /, **words: Any) -> None:
        super().__init__(
            "bad_notation",
            "Cannot read %(text)s: expected %(expected)s.",
            text=repr(text),
            expected=Phrase(expected, **words),
        )


class IllegalMove(MoveError):
    """The action is readable but the rules refuse it in this position."""


class OptionError(Refusal, ValueError):
    """A new-game option is unknown or out of range."""

    def __init__(self, option: str, message: str, /, **words: Any) -> None:
        super().__init__(self.keep(message, words))
        self.code = "bad_option"
        self.option = option


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


M = TypeVar("M", bound=Hashable)
"""A game's move type: a small hashable value whose ``str`` is its canonical text."""


class State(Protocol[M]):
    """What the web layer, the AI runner and the tests rely on for every game's state."""

    @property
    def board(self) -> tuple[int | None, ...]:
        """One entry per cell, index = rank * width + file (what a cell holds: a seat, a piece)."""
        ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def to_move(self) -> int: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def num_players(self) -> int: ...

    def legal_moves(self) -> Sequence[M]: ...

    def play(self, move: M) -> Self: ...

    def is_over(self) -> bool: ...


S = TypeVar("S", bound=State[Any])


@dataclass(frozen=True)
class OptionSpec:
    """One new-game option, declared once: ``clean_options`` checks it and the new-game
    form is built from it. ``type`` is "int" (from ``min`` to ``max``) or "bool"."""

    name: str
    label: str
    type: str
    default: int | bool
    min: int | None = None
    max: int | None = None

    def clean(self, options: Mapping[str, Any]) -> int | bool:
        if self.type == "bool":
            return bool_option(options, self.name, bool(self.default))
        assert self.min is not None and self.max is not None
        return int_option(options, self.name, int(self.default), self.min, self.max)


def clean_by_specs(options: Mapping[str, Any], specs: Sequence[OptionSpec]) -> dict[str, Any]:
    """Every declared option checked (unknown names refused), in declaration order."""
    reject_unknown(options, [spec.name for spec in specs])
    return {spec.name: spec.clean(options) for spec in specs}


@dataclass(frozen=True)
class GameRules(Generic[S, M]):
    """A game's entry points, as the rest of the site sees them."""

    kind: str
    title: str
    initial_state: Callable[..., S]
    parse_move: Callable[[str], M]
    clean_options: Callable[[Mapping[str, Any]], dict[str, Any]]
    default_options: Mapping[str, Any] = field(default_factory=dict)
    options: tuple[OptionSpec, ...] = ()
    # A position from its ASCII board (``str(state)``, top rank first) and the keywords
    # ``ascii_keywords(state)`` gives for what the board leaves out (the side to move, a
    # piece in hand, the rules in force): what table tests and the analysis start from.
    from_ascii: Callable[..., S] | None = None
    ascii_keywords: Callable[[S], dict[str, Any]] = field(default=lambda state: {})

    def new_state(self, options: Mapping[str, Any] | None = None) -> S:
        return self.initial_state(**self.clean_options(options or {}))

    def replay(self, options: Mapping[str, Any], moves: Sequence[str]) -> S:
        """The state after the given action texts, each checked by the rules."""
        state = self.new_state(options)
        for text in moves:
            state = state.play(self.parse_move(text))
        return state


def check_playing(state: State[Any]) -> None:
    if state.is_over():
        raise IllegalMove("game_over", "The game is over: no more moves.")


def check_turn(state: State[Any], player: int | None) -> None:
    if player is not None and player != state.to_move:
        raise IllegalMove(
            "not_your_turn",
            "It is player %(turn)s's turn, not player %(player)s's.",
            turn=state.to_move + 1,
            player=player + 1,
        )


def reject_unknown(options: Mapping[str, Any], known: Sequence[str]) -> None:
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise OptionError(
            unknown[0],
            "Unknown option %(option)s; known: %(known)s.",
            option=repr(unknown[0]),
            known=", ".join(known),
        )


def no_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``clean_options`` for a game without options: any option is refused."""
    reject_unknown(options, ())
    return {}


def int_option(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise OptionError(
            name, "%(name)s must be a whole number from %(low)s to %(high)s.", name=name, low=low, high=high
        )
    try:
        number = int(value)
    except ValueError:
        raise OptionError(
            name, "%(name)s must be a whole number from %(low)s to %(high)s.", name=name, low=low, high=high
        ) from None
    if not low <= number <= high:
        raise OptionError(
            name,
            "%(name)s must be from %(low)s to %(high)s, not %(number)s.",
            name=name,
            low=low,
            high=high,
            number=number,
        )
    return number


def bool_option(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("1", "true", "on", "yes", "0", "false", "off", "no", ""):
        return value.lower() in ("1", "true", "on", "yes")
    raise OptionError(name, "%(name)s must be true or false.", name=name)
