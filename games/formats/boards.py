"""What a game's board looks like to a viewer, as plain data for the templates: the
shapes every game's board data shares, and the grid games' cells.

Each game's package has its board function, named in its entry (:class:`games.spec.GameSpec`
``board_data``): it takes the position, the newest action (``None`` before the first) and
whether the viewer may act now, and returns the board's rows of cells, its ``controls``
and the game's own extras. Pure: no Django, no markup, no game named.

A control is what a viewer can click or press to act (a cell, a piece, a column...): a
dict of the board data with ``move`` (the action's text it sends), ``label`` (its
accessible name) and the hint keys. ``controls`` lists the ones that can be played now;
hints and the keyboard work on them, never on a game's own shapes.

A two-part move (take a cube, then say where it goes) is one control per first part:
``part`` (the text the first click chooses) and ``ends``, the second parts it opens, each
an end dict (:func:`end`) naming the control (``at``) whose click completes the move and
the whole action's ``move``. Such a control has no ``move`` of its own; hints go on its
ends, and on it the best of them. :func:`prepare_parts` readies them for the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from games.engine.grid import cell_name, rows_top_first
from games.formats.action_words import say as _

Data = dict[str, Any]
BoardData = Callable[[Any, Hashable | None, bool], Data]


def winning_cells(state: Any) -> set[int]:
    return {cell for line in (state.outcome.lines if state.outcome else ()) for cell in line}


# Every key the templates look up, even when empty: a key missing from a dict costs Django's
# template engine a failed lookup and a dir() of the dict, on every cell of every rendering.
HINTLESS = {"hint": None, "is_best": False}
# ... and the keys of the two-part moves, for the controls of games without them.
PARTLESS = {"part": None, "end": None, "is_chosen": False, "ends_json": ""}


# -- two-part moves --------------------------------------------------------------------


def end(at: Data, move: str, label: str) -> Data:
    """A second part: clicking the control ``at`` (a dict of the board data, named by its
    ``name``) completes the action ``move``; ``label`` is its accessible name then."""
    return {"at": at, "cell": at["name"], "move": move, "label": label, **HINTLESS}


def prepare_parts(controls: Iterable[Data], chosen: str | None = None) -> None:
    """Readies the two-part controls for the partials (after their hints): each one's
    ``ends_json``, what the page's script offers after the first click; and, when
    ``chosen`` is a control's ``part`` (the page asked for without JavaScript, after a
    first click), that control marked ``is_chosen`` and each of its ends set on the
    control it names (``end``), which then completes the move."""
    for control in controls:
        ends = control.get("ends")
        if not ends:
            continue
        control["ends_json"] = json.dumps(
            [
                {
                    "cell": e["cell"],
                    "move": e["move"],
                    "label": e["label"],
                    "hint": e["hint"],
                    "best": e["is_best"],
                }
                for e in ends
            ]
        )
        if chosen is not None and control["part"] == chosen:
            control["is_chosen"] = True
            for e in ends:
                e["at"]["end"] = e


# -- the grid games: cells owned by seats, shown as symbols ---------------------------


def cell_label(name: str, symbol: str, move: str | None) -> str:
    """What a screen reader says of a cell: its name, what holds it, and the move it plays
    when that has another name (a column's landing cell)."""
    if symbol:
        label = _("%(cell)s: %(symbol)s") % {"cell": name, "symbol": symbol}
    else:
        label = _("%(cell)s: empty") % {"cell": name}
    if move is not None and move != name:
        label += _(", plays %(move)s") % {"move": move}
    return label


def grid_cells(
    state: Any, targets: dict[int, str], landing: set[int], last_cell: int | None, symbols: Sequence[str]
) -> dict[int, Data]:
    """Every cell by index: owner, the seat's symbol, the move a click sends, and its label."""
    winning = winning_cells(state)
    cells = {}
    for index, owner in enumerate(state.board):
        name = cell_name(index, state.width)
        symbol = symbols[owner] if owner is not None else ""
        cells[index] = {
            "index": index,
            "name": name,
            "owner": owner,
            "symbol": symbol,
            "move": targets.get(index),
            "is_winning": index in winning,
            "is_new": index == last_cell,
            "is_landing": index in landing,
            "label": cell_label(name, symbol, targets.get(index)),
            "tab_skip": False,
            **HINTLESS,
            **PARTLESS,
        }
    return cells


def grid_data(state: Any, cells: dict[int, Data], symbols: Sequence[str]) -> Data:
    rows = [[cells[i] for i in row] for row in rows_top_first(state.width, state.height)]
    return {
        "rows": rows,
        "controls": [cell for row in rows for cell in row if cell["move"]],
        "width": state.width,
        "files": [cell_name(f, state.width)[0] for f in range(state.width)],
        "symbols": tuple(symbols[: state.num_players]),
    }


def cell_targets(state: Any) -> dict[int, str]:
    """Cell index -> the move text a click on it sends, for games whose moves name a cell."""
    return {m.cell: str(m) for m in state.legal_moves()}


def marked_cell(state: Any, last: Hashable | None) -> int | None:
    """The newest mark's cell, for games whose moves name a cell."""
    return int(last.cell) if last is not None else None  # type: ignore[attr-defined]
