"""How each game's actions are said: in the status line, the review and the terminal.

One :class:`ActionWords` per game, declared in its catalog entry. Pure (no Django):
the sentences around these phrases (who, "you", symbols) are :mod:`games.presenting.words`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import quarto


@dataclass(frozen=True)
class TurnWords:
    """What the player to move is to do, said three ways."""

    yours: str  # "Your turn: <yours>."
    thinking: str  # "The computer is thinking about <thinking>…"
    others: str  # "Player 2 to <others>."


def played(state: Any, text: str) -> str:
    return f"played {text}"


def played_at(state: Any, text: str, where: str) -> str:
    return f"played {where}"


def no_turn_words(state: Any) -> TurnWords | None:
    return None


def plays(text: str) -> str:
    return f"plays {text}"


def to_move(state: Any) -> str:
    return "to move"


def no_variant(options: Mapping[str, Any]) -> str:
    return ""


def as_written(state: Any, text: str) -> str:
    return text


@dataclass(frozen=True)
class ActionWords:
    """A game's phrases. The defaults suit games whose action is one mark on a cell.

    ``review(before, text)``: an action in words, from the position it was played in.
    ``last(after, text, where)``: the newest action for the status line (``where`` is
    the cell it landed on). ``turn(state)``: the task of the player to move, or None
    to say "you play X" with the seat's symbol. ``terminal(text)`` / ``task(state)``:
    the terminal player's words. ``draw``: the sentence for a drawn game. ``variant(options)``:
    a rule variant in force, said beside the game's title ("" for none). ``named(before,
    text)``: an action as the page shows it, for a hint or the review's best action
    ("b2"; a Quarto piece by its looks, as its tray shows no numbers).
    """

    review: Callable[[Any, str], str] = played
    last: Callable[[Any, str, str], str] = played_at
    turn: Callable[[Any], TurnWords | None] = no_turn_words
    terminal: Callable[[str], str] = plays
    task: Callable[[Any], str] = to_move
    draw: str = "Draw."
    variant: Callable[[Mapping[str, Any]], str] = no_variant
    named: Callable[[Any, str], str] = as_written


# -- Quarto: a turn is a placement then a gift ------------------------------------------


def _quarto_said(text: str, placed: int | None) -> str:
    move = quarto.parse_move(text)
    if isinstance(move, quarto.Place):
        assert placed is not None, "a placement places the piece in hand"
        return f"placed the {quarto.piece_name(placed)} piece on {text}"
    return f"gave the {quarto.piece_name(move.piece)} piece ({text})"


def quarto_review(before: quarto.State, text: str) -> str:
    return _quarto_said(text, before.in_hand)


def quarto_last(after: quarto.State, text: str, where: str) -> str:
    move = quarto.parse_move(text)
    return _quarto_said(text, after.board[move.cell] if isinstance(move, quarto.Place) else None)


def quarto_turn(state: quarto.State) -> TurnWords:
    if state.phase == quarto.PLACE:
        return TurnWords("place the piece you were given", "where to place its piece", "place a piece")
    return TurnWords(
        "choose the piece your opponent must place", "which piece to give", "choose a piece to give"
    )


def quarto_terminal(text: str) -> str:
    move = quarto.parse_move(text)
    if isinstance(move, quarto.Give):
        return f"gives you piece {move.piece} ({quarto.piece_name(move.piece)})"
    return f"places it on {text}"


def quarto_task(state: quarto.State) -> str:
    return "to place the piece in hand (a1-d4)" if state.in_hand is not None else "to give a piece (0-15)"


def quarto_named(before: quarto.State, text: str) -> str:
    move = quarto.parse_move(text)
    return f"the {quarto.piece_name(move.piece)} piece" if isinstance(move, quarto.Give) else text


def quarto_variant(options: Mapping[str, Any]) -> str:
    return "advanced: 2x2 squares win" if options.get("advanced") else ""


QUARTO = ActionWords(
    review=quarto_review,
    last=quarto_last,
    turn=quarto_turn,
    terminal=quarto_terminal,
    task=quarto_task,
    draw="Draw: the board is full and no line shares a trait.",
    variant=quarto_variant,
    named=quarto_named,
)
