"""How Quarto's actions are said: a turn is a placement then a gift. Pure (no Django)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.formats.action_words import ActionWords, TurnWords, gettext_noop
from games.formats.action_words import say as _

from . import rules as quarto

# The trait words (rules.TRAITS), for the catalogs; a piece is feminine in French, German
# and Spanish ("la pièce", "die Figur", "la pieza"): the words agree with it.
TRAIT_WORDS = [
    gettext_noop("short"),
    gettext_noop("tall"),
    gettext_noop("light"),
    gettext_noop("dark"),
    gettext_noop("square"),
    gettext_noop("round"),
    gettext_noop("solid"),
    gettext_noop("hollow"),
]


def looks(piece: int) -> str:
    """A piece by its four traits, in the reader's language ("tall dark round hollow")."""
    return " ".join(_(word) for word in quarto.piece_traits(piece))


def said(text: str, placed: int | None) -> str:
    move = quarto.parse_move(text)
    if isinstance(move, quarto.Place):
        assert placed is not None, "a placement places the piece in hand"
        return _("placed the %(piece)s piece on %(cell)s") % {"piece": looks(placed), "cell": text}
    return _("gave the %(piece)s piece (%(number)s)") % {"piece": looks(move.piece), "number": text}


def review(before: quarto.State, text: str) -> str:
    return said(text, before.in_hand)


def last(after: quarto.State, text: str, where: str) -> str:
    move = quarto.parse_move(text)
    return said(text, after.board[move.cell] if isinstance(move, quarto.Place) else None)


def turn(state: quarto.State) -> TurnWords:
    if state.phase == quarto.PLACE:
        return TurnWords(
            _("place the piece you were given"), _("where to place its piece"), _("place a piece")
        )
    return TurnWords(
        _("choose the piece your opponent must place"), _("which piece to give"), _("choose a piece to give")
    )


def terminal(text: str) -> str:
    move = quarto.parse_move(text)
    if isinstance(move, quarto.Give):
        return _("gives you piece %(number)s (%(piece)s)") % {
            "number": move.piece,
            "piece": looks(move.piece),
        }
    return _("places it on %(cell)s") % {"cell": text}


def task(state: quarto.State) -> str:
    return (
        _("to place the piece in hand (a1-d4)") if state.in_hand is not None else _("to give a piece (0-15)")
    )


def named(before: quarto.State, text: str) -> str:
    move = quarto.parse_move(text)
    return _("the %(piece)s piece") % {"piece": looks(move.piece)} if isinstance(move, quarto.Give) else text


def variant(options: Mapping[str, Any]) -> str:
    return _("advanced: 2x2 squares win") if options.get("advanced") else ""


WORDS = ActionWords(
    review=review,
    last=last,
    turn=turn,
    terminal=terminal,
    task=task,
    draw=gettext_noop("Draw: the board is full and no line shares a trait."),
    variant=variant,
    named=named,
)
