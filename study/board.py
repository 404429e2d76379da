"""What the study pages show of a position: the game's own board and pieces partials
(controls, pieces' markup), each analysed action's value on its control and in a list,
best first. Shared by the analysis board and the puzzles; nothing here touches a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from games.ai.base import ActionValue, ranked
from games.formats import boards
from games.presenting import sentences
from games.presenting.presenters import annotate_controls, hint_info, piece_html
from study.positions import Position


def board_context(where: Position, playable: bool, values: Sequence[ActionValue] = ()) -> dict[str, Any]:
    """The context the game's ``board`` and ``pieces`` partials read, with the values of
    ``values`` on their controls (the best one marked) when given."""
    spec = where.spec
    data = spec.board_after(where.state, where.moves, playable)
    for piece in data.get("shown_pieces", ()):
        piece["html"] = piece_html(spec.template, piece["shape"])
    annotate_controls(
        data.get("controls", []), values, lambda value: {**hint_info(value), "short": short(value)}
    )
    boards.prepare_parts(data.get("controls", ()))
    over = where.state.is_over()
    return {
        **data,
        # what the shared parts of the games whose seats own cells read (games/grid.html)
        "game": {"kind": where.kind},
        "kind_template": spec.template,
        "players": [
            {
                "seat": {"index": seat, "name": ""},
                "symbol": spec.symbol(seat),
                "who": f"Player {seat + 1}",
                "to_move": not over and seat == where.state.to_move,
            }
            for seat in range(where.state.num_players)
        ],
        "state": where.state,
        "board_template": spec.board_template,
        "pieces_template": spec.pieces_template,
    }


def short(value: ActionValue) -> str:
    """The few characters a control shows beside its icon: the plies to the end, or the
    estimate's score."""
    if value.exact and value.value is not None:
        return str(value.distance) if value.distance and value.value != "draw" else ""
    return sentences.signed(value.score or 0.0, 1)


def value_rows(where: Position, values: Sequence[ActionValue]) -> list[dict[str, Any]]:
    """Every analysed action, best first, in words: "place on b2", "wins in 5 plies",
    exact or an estimate, and the address of the position it leads to."""
    rows = []
    for place, value in enumerate(ranked(values)):
        info = hint_info(value)
        rows.append(
            {
                "move": value.text,
                "named": where.spec.words.named(where.state, value.text),
                "words": info["words"],
                "kind": info["kind"],
                "icon": info["icon"],
                "exact": value.exact and value.value is not None,
                "is_best": place == 0,
                "query": query(where.options, [*where.moves, value.text]),
            }
        )
    return rows


def query(options: dict[str, Any], moves: Sequence[str]) -> str:
    """The analysis board's address for a position reached by ``moves``: its actions from
    the start, and the options that differ from nothing (each by its name)."""
    pairs: list[tuple[str, str]] = [(name, option_text(value)) for name, value in options.items()]
    pairs.append(("moves", ",".join(moves)))
    return urlencode(pairs)


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)
