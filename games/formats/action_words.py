"""How a game's actions are said: in the status line, the review and the terminal.

One :class:`ActionWords` per game, declared in its package's entry; the defaults suit a
game whose action is one mark on a cell. Pure (no Django): the sentences around these
phrases (who, "you", symbols) are :mod:`games.presenting.sentences`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.refusals import gettext_noop as gettext_noop  # the packages' phrases import it here

# The site's language: the game packages are pure (no Django), so they mark their phrases
# with _() (and gettext_noop() for a table's words, said later through _()), and the site
# installs Django's gettext here (games.presenting.sentences); without it, English.
translate: Callable[[str], str] = str


def say(text: str) -> str:
    """``text`` in the reader's language (imported as ``_``, which the catalogs' extraction reads)."""
    return translate(text)


_ = say


@dataclass(frozen=True)
class TurnWords:
    """What the player to move is to do, said three ways."""

    yours: str  # "Your turn: <yours>."
    thinking: str  # "The computer is thinking about <thinking>…"
    others: str  # "Player 2 to <others>."


def played(state: Any, text: str) -> str:
    return _("played %(action)s") % {"action": text}


def played_at(state: Any, text: str, where: str) -> str:
    return _("played %(action)s") % {"action": where}


def no_turn_words(state: Any) -> TurnWords | None:
    return None


def plays(text: str) -> str:
    return _("plays %(action)s") % {"action": text}


def to_move(state: Any) -> str:
    return _("to move")


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
    draw: str = gettext_noop("Draw.")  # said through _()
    variant: Callable[[Mapping[str, Any]], str] = no_variant
    named: Callable[[Any, str], str] = as_written
