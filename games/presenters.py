"""What a viewer sees of a game: the template context and the rendered partials.

The same partials serve the full page, the HTMX response and the WebSocket push;
they depend only on the game and on which seats the viewer holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

from . import records, serializers
from .engine import quarto
from .engine.grid import rows_top_first
from .models import Game, Seat
from .services import Actor, seats_held

PARTIALS = ("board", "pieces", "status")
CYLINDER_SIDES = 16  # faces drawn around a round piece; piece.css spaces them 360/16 degrees apart


def piece_info(piece: int) -> dict[str, Any]:
    traits = quarto.piece_traits(piece)
    return {
        "number": piece,
        "name": " ".join(traits),
        "classes": " ".join(f"piece--{t}" for t in traits),
        "round": piece & quarto.SHAPE_BIT != 0,
        "hollow": piece & quarto.FILL_BIT != 0,
        "sides": range(CYLINDER_SIDES) if piece & quarto.SHAPE_BIT else (),
    }


def _seat_word(game: Game, seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    if seat_index in mine and len(mine) == 1:
        return "you"
    seat = seats[seat_index]
    if seat.is_ai:
        return "the computer"
    return seat.name or f"player {seat_index + 1}"


def _last_place(game: Game) -> int | None:
    """The cell of the newest action when it was a placement (it gets the landing animation)."""
    if not game.move_texts:
        return None
    move = quarto.parse_move(game.move_texts[-1])
    return move.cell if isinstance(move, quarto.Place) else None


def quarto_context(game: Game, state: quarto.State, my_turn: bool) -> dict[str, Any]:
    winning = {cell for line in (state.outcome.lines if state.outcome else ()) for cell in line}
    new_cell = _last_place(game)
    can_place = my_turn and state.phase == quarto.PLACE
    available = set(state.available)
    rows = []
    for row in rows_top_first(quarto.SIZE, quarto.SIZE):
        cells = []
        for index in row:
            piece = state.board[index]
            name = quarto.CELL_NAMES[index]
            cells.append(
                {
                    "index": index,
                    "name": name,
                    "piece": piece_info(piece) if piece is not None else None,
                    "playable": can_place and piece is None,
                    "is_winning": index in winning,
                    "is_new": index == new_cell,
                    "label": f"{name}: {quarto.piece_name(piece)}" if piece is not None else f"{name}: empty",
                }
            )
        rows.append(cells)
    return {
        "rows": rows,
        "in_hand": piece_info(state.in_hand) if state.in_hand is not None else None,
        # All 16 slots, so a piece keeps its place in the tray as others leave it.
        "tray": [piece_info(p) if p in available else {"number": p, "used": True} for p in quarto.PIECES],
        "available_count": len(available),
        "can_place": can_place,
        "can_give": my_turn and state.phase == quarto.GIVE,
        "phase": state.phase,
    }


BOARD_CONTEXT: dict[str, Callable[[Game, Any, bool], dict[str, Any]]] = {"quarto": quarto_context}


def status_text(game: Game, state: Any, mine: list[int], seats: list[Seat]) -> str:
    outcome = state.outcome
    if outcome is not None:
        if outcome.winner is None:
            return "Draw: the board is full and no line shares a trait." if game.kind == "quarto" else "Draw."
        who = _seat_word(game, outcome.winner, mine, seats)
        verb = "win" if who == "you" else "wins"
        text = f"{who[0].upper()}{who[1:]} {verb}!"
        if outcome.shared:
            text += f" The line shares: {', '.join(outcome.shared)}."
        return text
    if game.status == Game.Status.WAITING:
        return "Waiting for a friend to join: share the invite link."
    who = _seat_word(game, state.to_move, mine, seats)
    if game.kind == "quarto":
        if who == "you":
            if state.phase == quarto.PLACE:
                return "Your turn: place the piece you were given."
            return "Your turn: choose the piece your opponent must place."
        action = "place a piece" if state.phase == quarto.PLACE else "choose a piece to give"
        return f"{who[0].upper()}{who[1:]} to {action}."
    return "Your turn." if who == "you" else f"{who[0].upper()}{who[1:]} to move."


def game_context(game: Game, actor: Actor, error: str | None = None) -> dict[str, Any]:
    state = game.state
    seats = game.seat_list()
    mine = seats_held(game, actor)
    playing = game.status == Game.Status.PLAYING and not state.is_over()
    my_turn = playing and state.to_move in mine
    ai_thinking = playing and seats[state.to_move].is_ai
    context: dict[str, Any] = {
        "game": game,
        "state": state,
        "seats": seats,
        "my_seats": mine,
        "is_player": bool(mine),
        "my_turn": my_turn,
        "ai_thinking": ai_thinking,
        "status_text": status_text(game, state, mine, seats),
        "error": error,
        "won_toss": mine == [0] and game.ply <= 1,
        "board_template": f"games/{game.kind}/_board.html",
        "pieces_template": f"games/{game.kind}/_pieces.html",
    }
    context.update(BOARD_CONTEXT[game.kind](game, state, my_turn))
    return context


def render_partials(game: Game, actor: Actor, error: str | None = None) -> str:
    """Board, pieces and status as out-of-band swaps, for HTMX responses and pushes."""
    context = game_context(game, actor, error)
    context["oob"] = True
    return "".join(render_to_string(f"games/_{name}.html", context) for name in PARTIALS)


# -- JSON and records: the API, the JSON WebSocket and the download links -------------


def status_word(game: Game) -> str:
    if game.status == Game.Status.WAITING:
        return "waiting"
    return "finished" if game.is_finished else "playing"


def game_json(game: Game) -> dict[str, Any]:
    """The position as the API and the JSON WebSocket send it."""
    data = {
        "id": game.pk,
        **serializers.serialize(
            game.kind, game.options, game.state, game.move_texts, status=status_word(game)
        ),
    }
    data["seats"] = [
        {"seat": s.index, "kind": s.kind, "label": s.label, "open": s.is_open} for s in game.seat_list()
    ]
    if game.ai_level:
        data["level"] = game.ai_level
    return data


def game_record(game: Game) -> records.Record:
    state = game.state
    return records.Record(
        kind=game.kind,
        options=game.options,
        moves=tuple(game.move_texts),
        players=tuple(s.label for s in game.seat_list()),
        date=game.created.date().isoformat(),
        result=records.result_text(state.outcome, state.num_players),
    )


def record_download(game: Game, format: str) -> HttpResponse:
    """The game's record as a file to save: ``format`` is "text" or "json"."""
    record = game_record(game)
    name = f"{game.kind}-{game.pk}"
    if format == "json":
        response: HttpResponse = JsonResponse(records.to_json(record), json_dumps_params={"indent": 1})
        name += ".json"
    elif format == "text":
        response = HttpResponse(records.format_text(record), content_type="text/plain; charset=utf-8")
        name += ".txt"
    else:
        raise ValueError(f"no record format {format!r}")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
