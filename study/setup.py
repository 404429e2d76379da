"""Setting up a Quarto position on the analysis board by clicks, without JavaScript:
every click is a link whose address carries the whole set-up (``edit``: the position
being set up, in the game's notation, blanks as ``_``; ``pen``: the piece the next click
puts down, ``-`` to clear a cell). A piece exists once: putting it somewhere takes it
from where it was. "Analyse" opens the analysis board at the set-up, which the rules
check there (a 400 that says why for a position no game reaches)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from games import catalog
from games.engine.numbers import whole_number
from games.engine.positions import PositionError, write_ranks
from games.kinds.quarto import board as quarto_board
from games.kinds.quarto import position as quarto_position
from games.kinds.quarto import rules as quarto
from games.presenting.presenters import piece_html
from games.services.base import ServiceError

KIND = "quarto"
EMPTY = quarto_position.Fields(board=(None,) * quarto.CELLS, in_hand=None, side=0)


@dataclass(frozen=True)
class Setup:
    fields: quarto_position.Fields
    pen: int | None  # None: the pen clears cells

    @property
    def notation(self) -> str:
        f = self.fields
        ranks = write_ranks(f.board, quarto_position.ROWS, "{:x}".format)
        hand = "-" if f.in_hand is None else f"{f.in_hand:x}"
        return f"{ranks} {hand} {f.side + 1}"


def can_edit(kind: str) -> bool:
    return kind == KIND


def read(edit: str, pen: str | None) -> Setup:
    """The set-up an address carries; a 400 that says why for one it cannot read."""
    try:
        fields = quarto_position.read(edit.replace("_", " ").strip()) if edit.strip() else EMPTY
    except PositionError as exc:
        raise ServiceError(exc.code, exc.said(_)) from None
    if pen in (None, "", "-"):
        return Setup(fields, None if pen == "-" else 0)
    piece = whole_number(pen, 2)
    if piece is None or piece not in quarto.PIECES:
        raise ServiceError(
            "bad_piece", _("There is no piece %(pen)s: pieces are 0 to 15.") % {"pen": pen[:10]}
        )
    return Setup(fields, piece)


def _without(fields: quarto_position.Fields, piece: int | None) -> quarto_position.Fields:
    """``fields`` with ``piece`` taken from the board and the hand."""
    if piece is None:
        return fields
    board = tuple(None if p == piece else p for p in fields.board)
    return replace(fields, board=board, in_hand=None if fields.in_hand == piece else fields.in_hand)


def put(setup: Setup, cell: int) -> Setup:
    fields = _without(setup.fields, setup.pen)
    board = (*fields.board[:cell], setup.pen, *fields.board[cell + 1 :])
    return replace(setup, fields=replace(fields, board=board))


def to_hand(setup: Setup) -> Setup:
    fields = _without(setup.fields, setup.pen)
    return replace(setup, fields=replace(fields, in_hand=setup.pen))


def _href(url: str, setup: Setup, options: dict[str, Any]) -> str:
    pen = "-" if setup.pen is None else str(setup.pen)
    return f"{url}?{urlencode({**options, 'edit': setup.notation.replace(' ', '_'), 'pen': pen})}"


def context(setup: Setup, options: dict[str, Any]) -> dict[str, Any]:
    """What the set-up template shows: each cell, piece and choice as a link."""
    spec = catalog.get(KIND)
    url = reverse("study:analysis", args=[KIND])
    option_pairs = {k: "1" if v is True else "0" if v is False else str(v) for k, v in options.items()}

    def shown(piece: int) -> Any:
        return piece_html(spec.template, quarto_board.piece_shape(piece))

    fields = setup.fields
    rows = []
    for row in quarto_position.ROWS:
        cells = []
        for index in row:
            held = fields.board[index]
            name = quarto.CELL_NAMES[index]
            cells.append(
                {
                    "name": name,
                    "html": shown(held) if held is not None else "",
                    "href": _href(url, put(setup, index), option_pairs),
                    "label": _("%(cell)s: %(piece)s") % {"cell": name, "piece": _piece_words(held)},
                }
            )
        rows.append(cells)
    pens = [
        {
            "number": p,
            "html": shown(p),
            "label": quarto.piece_name(p),
            "href": _href(url, replace(setup, pen=p), option_pairs),
            "current": setup.pen == p,
            "placed": p in fields.board or p == fields.in_hand,
        }
        for p in quarto.PIECES
    ]
    position = setup.notation.replace(" ", "_")
    return {
        "setup_rows": rows,
        "pens": pens,
        "eraser": {"href": _href(url, replace(setup, pen=None), option_pairs), "current": setup.pen is None},
        "pen_label": _piece_words(setup.pen) if setup.pen is not None else _("clear a cell"),
        "hand_html": shown(fields.in_hand) if fields.in_hand is not None else "",
        "hand_label": _piece_words(fields.in_hand),
        "to_hand_href": _href(url, to_hand(setup), option_pairs) if setup.pen is not None else None,
        "empty_hand_href": _href(url, replace(setup, fields=replace(fields, in_hand=None)), option_pairs),
        "sides": [
            {
                "number": side + 1,
                "href": _href(url, replace(setup, fields=replace(fields, side=side)), option_pairs),
                "current": fields.side == side,
            }
            for side in (0, 1)
        ],
        "clear_href": _href(url, replace(setup, fields=EMPTY), option_pairs),
        "setup_notation": setup.notation,
        "analyse_href": f"{url}?{urlencode({**option_pairs, 'position': position})}",
        "setup_problem": problem(setup, options),
    }


def _piece_words(piece: int | None) -> str:
    return (
        _("empty")
        if piece is None
        else _("piece %(number)s (%(name)s)")
        % {
            "number": piece,
            "name": quarto.piece_name(piece),
        }
    )


def problem(setup: Setup, options: dict[str, Any]) -> str | None:
    """Why the rules refuse the set-up so far, or None (the analysis board checks it again)."""
    try:
        quarto_position.NOTATION.moves(quarto.RULES, setup.notation, options)
    except PositionError as exc:
        return exc.said(_)
    return None
