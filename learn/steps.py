"""The guided first game of Quarto: five short steps on the real board, each a position
and a task. A step's check plays the learner's action through Quarto's rules and says,
in a word, what was wrong; ``None`` means the action was right.

Quarto's own lesson, so it reads Quarto's rules (traits, lines, winning cells).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games import catalog
from games.engine import MoveError
from games.kinds.quarto import rules as quarto
from games.kinds.quarto.action_words import looks

KIND = "quarto"
DIAGONAL = (0, 5, 10, 15)  # a1, b2, c3, d4

Check = Callable[[quarto.State, quarto.Action], str | None]


# One whole sentence per trait: a trait word agrees with the pieces it tells of (in French
# "toutes basses", in German "alle niedrig"), so it is never put into a sentence alone.
STILL_OPEN = {
    "short": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all short, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "tall": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all tall, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "light": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all light, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "dark": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all dark, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "square": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all square, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "round": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all round, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "solid": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all solid, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
    "hollow": gettext_noop(
        "The line through %(cell)s is still open: its three pieces are all hollow, and a fourth "
        "one like them would win. Fill its empty cell."
    ),
}
FIND_THE_LINE = {
    "short": gettext_noop(
        "No four pieces share a trait there. Find the line of three short pieces: yours is short too."
    ),
    "tall": gettext_noop(
        "No four pieces share a trait there. Find the line of three tall pieces: yours is tall too."
    ),
    "light": gettext_noop(
        "No four pieces share a trait there. Find the line of three light pieces: yours is light too."
    ),
    "dark": gettext_noop(
        "No four pieces share a trait there. Find the line of three dark pieces: yours is dark too."
    ),
    "square": gettext_noop(
        "No four pieces share a trait there. Find the line of three square pieces: yours is square too."
    ),
    "round": gettext_noop(
        "No four pieces share a trait there. Find the line of three round pieces: yours is round too."
    ),
    "solid": gettext_noop(
        "No four pieces share a trait there. Find the line of three solid pieces: yours is solid too."
    ),
    "hollow": gettext_noop(
        "No four pieces share a trait there. Find the line of three hollow pieces: yours is hollow too."
    ),
}
NO_FOUR = gettext_noop(
    "No four pieces share a trait there. Find a line of three pieces sharing a trait with yours."
)


@dataclass(frozen=True)
class Step:
    key: str
    title: Promise
    lead: Promise  # what the step teaches
    task: Promise  # what to do now
    right: Promise  # said once it is done
    position: str  # Quarto's notation (games/kinds/quarto/position.py)
    check: Check


def _give_short(state: quarto.State, move: quarto.Action) -> str | None:
    if not isinstance(move, quarto.Give):
        return gettext("First give a piece: choose one in the tray of remaining pieces.")
    if move.piece & quarto.HEIGHT_BIT:  # tall
        return gettext("Piece %(number)s is tall (%(name)s). Give a short one: compare the heights.") % {
            "number": move.piece,
            "name": looks(move.piece),
        }
    return None


def _place_on_diagonal(state: quarto.State, move: quarto.Action) -> str | None:
    if not isinstance(move, quarto.Place):
        return gettext("Place the piece in your hand on a cell of the board.")
    if move.cell not in DIAGONAL:
        return gettext("%(cell)s is not on the diagonal: choose a1, b2, c3 or d4.") % {
            "cell": quarto.CELL_NAMES[move.cell]
        }
    return None


def open_lines(state: quarto.State) -> list[tuple[tuple[int, ...], tuple[str, ...], int]]:
    """Lines of three pieces sharing a trait with one cell empty: (line, traits, empty cell)."""
    found = []
    for line in quarto.winning_lines(state.advanced):
        held = tuple(state.board[cell] for cell in line if state.board[cell] is not None)
        empty = [cell for cell in line if state.board[cell] is None]
        if len(empty) == 1 and (traits := quarto.shared_traits(held)):  # type: ignore[arg-type]
            found.append((line, traits, empty[0]))
    return found


def _close_the_line(state: quarto.State, move: quarto.Action) -> str | None:
    if not isinstance(move, quarto.Place):
        return gettext("Place the piece in your hand on a cell of the board.")
    lines = open_lines(state)
    if any(move.cell == empty for _line, _traits, empty in lines):
        return None
    _line, traits, empty = lines[0]
    return gettext(STILL_OPEN[traits[0]]) % {"cell": quarto.CELL_NAMES[empty]}


def _give_safe(state: quarto.State, move: quarto.Action) -> str | None:
    if not isinstance(move, quarto.Give):
        return gettext("Give a piece: choose one in the tray of remaining pieces.")
    wins = quarto.winning_cells(state, move.piece)
    if not wins:
        return None
    return gettext(
        "With piece %(number)s (%(name)s) your opponent wins at once on %(cell)s. Give one that "
        "fits no open line."
    ) % {"number": move.piece, "name": looks(move.piece), "cell": quarto.CELL_NAMES[wins[0]]}


def _win(state: quarto.State, move: quarto.Action) -> str | None:
    if not isinstance(move, quarto.Place):
        return gettext("Place the piece in your hand on a cell of the board.")
    after = state.play(move)
    if after.outcome is not None and after.outcome.winner is not None:
        return None
    assert state.in_hand is not None
    traits = set(quarto.piece_traits(state.in_hand))
    fitting = [t for _line, shared, _empty in open_lines(state) for t in shared if t in traits]
    return gettext(FIND_THE_LINE[fitting[0]] if fitting else NO_FOUR)


STEPS = (
    Step(
        "give",
        _("Give a piece"),
        _(
            "Each piece is tall or short, light or dark, square or round, solid or hollow. "
            "You never choose the piece you play: your opponent gives it to you, and you give them theirs. "
            "The first turn is a give."
        ),
        _("Give your opponent a short piece."),
        _("Right: your opponent now holds that piece and must place it."),
        "..../..../..../.... - 1",
        _give_short,
    ),
    Step(
        "place",
        _("Place it"),
        _(
            "Your opponent gave you the piece shown under “Piece to place”. Put it on any empty cell. "
            "Four in a line win: a rank, a file or one of the two diagonals, ten lines in all."
        ),
        _("Place your piece on the diagonal from a1 to d4."),
        _("Right: that cell is on a diagonal, one of the ten lines."),
        "..../.3../..c./.... 5 2",
        _place_on_diagonal,
    ),
    Step(
        "line",
        _("Spot a line"),
        _(
            "Four pieces sharing one trait make a Quarto, whatever their other traits. Three pieces of "
            "a line that share a trait are a danger: whoever places a fourth like them wins."
        ),
        _("Find three pieces of a line sharing a trait; close the line with your piece, which lacks it."),
        _("Right: the line is full and shares no trait, so nobody can win there any more."),
        "9.../..../46d./.... 3 2",
        _close_the_line,
    ),
    Step(
        "safe",
        _("Never give the winning piece"),
        _(
            "Before you give a piece, look at every open line: a piece that completes one lets your "
            "opponent win at once."
        ),
        _("Give your opponent a piece that cannot win."),
        _("Right: whatever cell your opponent chooses, that piece completes no line."),
        "9..1/..../46d./.... - 2",
        _give_safe,
    ),
    Step(
        "win",
        _("Win"),
        _("When the piece you are given completes a line, place it there: four pieces sharing a trait win."),
        _("Place your piece where it makes four in a line sharing a trait."),
        _("Quarto! You won: the four pieces of that line share a trait."),
        "7.../5.b./6.a./..8. 9 2",
        _win,
    ),
)


def judge(step: Step, state: quarto.State, text: str) -> tuple[quarto.State | None, str | None]:
    """The state after the learner's action and nothing to say, or no state and the word
    for what was wrong: the rules' own refusal first, then the step's task."""
    rules = catalog.get(KIND).rules
    try:
        move = rules.parse_move(text)
        after = state.play(move)
    except MoveError as exc:
        return None, exc.said(gettext)
    word = step.check(state, move)
    return (None, word) if word else (after, None)
