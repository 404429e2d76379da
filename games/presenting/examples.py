"""Example positions drawn by a game's own board and pieces partials, read-only: what a
rules page shows beside its words (``{% example_board %}``, games/templatetags/examples.py).

A position is given in the game's notation (``position``) and/or as actions
(``moves``, comma-separated: from the start, or from that position), with the game's
options. A bad example is the rules
template's mistake: it raises, and the rules pages' tests render every one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from games import catalog
from games.presenting.presenters import piece_html


def position_moves(
    spec: catalog.GameSpec, options: Mapping[str, Any], moves: str, position: str
) -> list[str]:
    """The actions from the start: those reaching ``position`` if given, then ``moves``."""
    start: list[str] = []
    if position:
        if spec.notation is None:
            raise ValueError(f"{spec.kind} has no position notation: give the example's actions.")
        start = spec.notation.moves(spec.rules, position, options)
    return start + [m.strip() for m in moves.split(",") if m.strip()]


def example_context(
    kind: str,
    options: Mapping[str, Any] | None = None,
    moves: str = "",
    position: str = "",
    playable: bool = False,
) -> dict[str, Any]:
    """The context the game's ``board`` and ``pieces`` partials read for this position;
    with ``playable``, the controls of the side to act are live (a lesson's form)."""
    spec = catalog.get(kind)
    clean = spec.rules.clean_options(options or {})
    texts = position_moves(spec, clean, moves, position)
    state = spec.rules.replay(clean, texts)
    data = spec.board_after(state, texts, playable and not state.is_over())
    for piece in data.get("shown_pieces", ()):
        piece["html"] = piece_html(spec.template, piece["shape"])
    over = state.is_over()
    return {
        **data,
        # what the shared parts of the games whose seats own cells read (games/grid.html)
        "game": {"kind": kind},
        "kind_template": spec.template,
        "players": [
            {
                "seat": {"index": seat, "name": ""},
                "symbol": spec.symbol(seat),
                "who": gettext("Player %(number)s") % {"number": seat + 1},
                "to_move": not over and seat == state.to_move,
            }
            for seat in range(state.num_players)
        ],
        "state": state,
        "board_template": spec.board_template,
        "pieces_template": spec.pieces_template,
    }
