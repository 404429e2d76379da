"""What a viewer sees of a game: the template context and the rendered partials.

The same partials serve the full page, the HTMX response and the WebSocket push;
they depend only on the game and on which seats the viewer holds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from html import escape
from html.parser import HTMLParser
from typing import Any

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from . import ai, records, serializers
from .ai.base import ActionValue
from .engine import connect, get_rules, quarto, ultimate
from .engine.grid import cell_name, rows_top_first
from .models import Game, Seat
from .services import Actor, seats_held

PARTIALS = ("board", "pieces", "status", "seats")
# Without JavaScript (no pushes), a page whose computer is to move reloads itself this often.
NO_JS_REFRESH_SECONDS = 2
CYLINDER_SIDES = 16  # faces drawn around a round piece; piece.css spaces them 360/16 degrees apart


@cache
def piece_html(piece: int) -> SafeString:
    """A piece's CSS 3D markup. It depends on the piece alone, so each of the 16 is rendered once."""
    traits = quarto.piece_traits(piece)
    markup = {
        "classes": " ".join(f"piece--{t}" for t in traits),
        "round": piece & quarto.SHAPE_BIT != 0,
        "hollow": piece & quarto.FILL_BIT != 0,
        "sides": range(CYLINDER_SIDES) if piece & quarto.SHAPE_BIT else (),
    }
    return mark_safe(render_to_string("games/kinds/quarto.html#piece", {"p": markup}).strip())


def piece_info(piece: int) -> dict[str, Any]:
    return {"number": piece, "name": quarto.piece_name(piece), "html": piece_html(piece)}


def _seat_word(game: Game, seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    if seat_index in mine and len(mine) == 1:
        return "you"
    seat = seats[seat_index]
    if seat.is_ai:
        return "the computer"
    return seat.name or f"player {seat_index + 1}"


def _uses_symbols(game: Game) -> bool:
    return BOARD_CONTEXT[game.kind] is grid_context


def seat_title(game: Game, seat_index: int, seats: list[Seat]) -> str:
    """A seat named so that anyone can tell it from the others: "X (the computer)",
    "Player 2 (O)", "Player 1 (the computer)", "Player 2 (Ann)"."""
    seat = seats[seat_index]
    who = "the computer" if seat.is_ai else seat.name
    if _uses_symbols(game):
        symbol = SYMBOLS[seat_index]
        return f"{symbol} ({who})" if who else f"Player {seat_index + 1} ({symbol})"
    return f"Player {seat_index + 1} ({who})" if who else f"Player {seat_index + 1}"


def seat_name(game: Game, seat_index: int, mine: list[int], seats: list[Seat]) -> str:
    """A seat as this viewer reads it: "you" for their own seat; "the computer" when only
    one seat is the computer's; the opponent's name (or "player 2") for a player facing
    one opponent; else the seat's full :func:`seat_title`."""
    if seat_index in mine and len(mine) == 1:
        return "you"
    if seats[seat_index].is_ai and sum(s.is_ai for s in seats) == 1:
        return "the computer"
    if len(mine) == 1 and len(seats) == 2:
        return _seat_word(game, seat_index, mine, seats)
    return seat_title(game, seat_index, seats)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _with_symbol(game: Game, seat_index: int, who: str, seats: list[Seat]) -> str:
    """``who`` followed by the seat's symbol on grid games, unless it already names it."""
    if not _uses_symbols(game) or who == seat_title(game, seat_index, seats):
        return who
    return f"{who} ({SYMBOLS[seat_index]})"


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


SYMBOLS = ("X", "O", "A", "B")


def _targets(state: Any) -> dict[int, str]:
    """Cell index -> the move text a click on it sends, for every cell the mover may click."""
    if isinstance(state, connect.State):
        if state.gravity:
            # Any cell of a droppable column drops a stone into it.
            return {
                rank * state.width + column: str(state.move_at(rank * state.width + column))
                for column in state.droppable_columns
                for rank in range(state.height)
            }
        return {state.target_of(m): str(m) for m in state.legal_moves()}
    return {m.cell: str(m) for m in state.legal_moves()}


def _last_cell(game: Game, state: Any) -> int | None:
    if isinstance(state, connect.State):
        return state.last_cell
    if isinstance(state, ultimate.State):
        return state.last_move.cell if state.last_move else None
    if game.move_texts:
        move = get_rules(game.kind).parse_move(game.move_texts[-1])
        return int(move.cell)
    return None


def _landing_cells(state: Any) -> set[int]:
    if isinstance(state, connect.State) and state.gravity:
        return set(state.legal_targets)
    return set()


def grid_context(game: Game, state: Any, my_turn: bool) -> dict[str, Any]:
    """Tic-tac-toe, connect-N and Ultimate: cells owned by seats, shown as symbols."""
    targets = _targets(state) if my_turn else {}
    winning = {cell for line in (state.outcome.lines if state.outcome else ()) for cell in line}
    landing = _landing_cells(state)
    last = _last_cell(game, state)
    cells = {}
    for index, owner in enumerate(state.board):
        name = cell_name(index, state.width)
        symbol = SYMBOLS[owner] if owner is not None else ""
        cells[index] = {
            "index": index,
            "name": name,
            "owner": owner,
            "symbol": symbol,
            "move": targets.get(index),
            "is_winning": index in winning,
            "is_new": index == last,
            "is_landing": index in landing,
            "label": f"{name}: {symbol or 'empty'}"
            + (f", plays {targets[index]}" if index in targets and targets[index] != name else ""),
        }
    rows = [[cells[i] for i in row] for row in rows_top_first(state.width, state.height)]
    context: dict[str, Any] = {
        "rows": rows,
        "width": state.width,
        "files": [cell_name(f, state.width)[0] for f in range(state.width)],
        "symbols": SYMBOLS[: state.num_players],
    }
    if isinstance(state, connect.State):
        context["droppable"] = (
            {cell_name(c, state.width)[0] for c in state.droppable_columns} if my_turn else set()
        )
    if isinstance(state, ultimate.State):
        context["small_boards"] = ultimate_boards(state, cells, my_turn)
    return context


def ultimate_boards(
    state: ultimate.State, cells: dict[int, dict[str, Any]], my_turn: bool
) -> list[list[Any]]:
    """The nine small boards as rows of boards (top first), each with its cells top row first."""
    allowed = set(state.allowed_boards)
    won_lines = {b for line in state.winning_boards for b in line}
    rows = []
    for board_row in (2, 1, 0):
        row = []
        for board_col in range(3):
            small = board_row * 3 + board_col
            owner = state.board_owners[small]
            board_cells = ultimate.BOARD_CELLS[small]
            row.append(
                {
                    "index": small,
                    "name": ultimate.BOARD_NAMES[small],
                    "status": state.board_status(small),
                    "owner": owner if owner != ultimate.DRAWN else None,
                    "symbol": SYMBOLS[owner] if owner is not None and owner != ultimate.DRAWN else "",
                    "is_allowed": small in allowed and not state.is_over(),
                    "is_mine_to_play": my_turn and small in allowed,
                    "is_winning": small in won_lines,
                    "rows": [[cells[board_cells[r * 3 + c]] for c in range(3)] for r in (2, 1, 0)],
                }
            )
        rows.append(row)
    return rows


BOARD_CONTEXT: dict[str, Callable[[Game, Any, bool], dict[str, Any]]] = {
    "quarto": quarto_context,
    "tictactoe": grid_context,
    "connect": grid_context,
    "ultimate": grid_context,
}


def last_action_text(game: Game, state: Any, mine: list[int], seats: list[Seat]) -> str:
    """The newest action in words, for the status line (read out by screen readers)."""
    if not game.move_texts:
        return ""
    text = game.move_texts[-1]
    seat = game.last_seat if game.last_seat is not None else state.to_move
    who = seat_name(game, seat, mine, seats)
    if game.kind == "quarto":
        move = quarto.parse_move(text)
        who = _capital(who)
        if isinstance(move, quarto.Place):
            piece = state.board[move.cell]
            return f"{who} placed the {quarto.piece_name(piece)} piece on {text}."
        return f"{who} gave the {quarto.piece_name(move.piece)} piece ({text})."
    cell = _last_cell(game, state)
    where = cell_name(cell, state.width) if cell is not None else text
    return f"{_capital(_with_symbol(game, seat, who, seats))} played {where}."


def outcome_text(game: Game, state: Any, mine: list[int], seats: list[Seat]) -> str:
    """Who won, said from the viewer's side: "You win!", "You lose: the computer wins.",
    or for a spectator "X (the computer) wins!"."""
    outcome = state.outcome
    if outcome.winner is None:
        return "Draw: the board is full and no line shares a trait." if game.kind == "quarto" else "Draw."
    winner = seat_name(game, outcome.winner, mine, seats)
    if winner == "you":
        text = "You win!"
    elif len(mine) == 1:
        text = f"You lose: {_with_symbol(game, outcome.winner, winner, seats)} wins."
    else:
        text = f"{_capital(_with_symbol(game, outcome.winner, winner, seats))} wins!"
    if outcome.shared:
        text += f" The line shares: {', '.join(outcome.shared)}."
    return text


def status_text(game: Game, state: Any, mine: list[int], seats: list[Seat]) -> str:
    """One sentence: the result, or who is to do what (the computer: that it is thinking)."""
    if state.outcome is not None:
        return outcome_text(game, state, mine, seats)
    if game.status == Game.Status.WAITING:
        if mine:
            return "Waiting for a friend to join: share the invite link."
        return "Waiting for players to join."
    who = seat_name(game, state.to_move, mine, seats)
    thinking = seats[state.to_move].is_ai
    if not _uses_symbols(game):
        placing = state.phase == quarto.PLACE
        if who == "you":
            if placing:
                return "Your turn: place the piece you were given."
            return "Your turn: choose the piece your opponent must place."
        if thinking:
            action = "where to place its piece" if placing else "which piece to give"
            return f"{_capital(who)} is thinking about {action}…"
        action = "place a piece" if placing else "choose a piece to give"
        return f"{_capital(who)} to {action}."
    if who == "you":
        return f"Your turn: you play {SYMBOLS[state.to_move]}."
    who = _capital(_with_symbol(game, state.to_move, who, seats))
    return f"{who} is thinking…" if thinking else f"{who} to move."


def hint_info(value: ActionValue) -> dict[str, Any]:
    """How one analysed action is shown: an icon and words, never colour alone."""
    if value.exact and value.value is not None:
        plies = f" in {value.distance} plies" if value.distance else ""
        words = {"win": f"wins{plies}", "draw": "draws", "loss": f"loses{plies}"}[value.value]
        return {
            "kind": value.value,
            "icon": {"win": "✓", "draw": "=", "loss": "✗"}[value.value],
            "words": words,
        }
    score = value.score or 0.0
    return {"kind": "estimate", "icon": "~", "words": f"estimate {score:+.2f}"}


def _attach_hints(context: dict[str, Any], values: list[ActionValue]) -> None:
    by_text = {v.text: v for v in values}
    best = ai.best_value(values)
    for row in context.get("rows", []):
        for cell in row:
            value = by_text.get(cell.get("move") or cell["name"])
            if value is not None and (cell.get("playable") or cell.get("move")):
                cell["hint"] = hint_info(value)
                cell["is_best"] = value is best
                cell["label"] += f", {'best move, ' if value is best else ''}{cell['hint']['words']}"
    for piece in context.get("tray", []):
        value = by_text.get(str(piece["number"]))
        if value is not None and not piece.get("used"):
            piece["hint"] = hint_info(value)
            piece["is_best"] = value is best
            piece["hint_label"] = f", {'best move, ' if value is best else ''}{piece['hint']['words']}"
    if best is not None:
        context["hint_text"] = f"Hint: {best.text} {hint_info(best)['words']}."


def game_context(
    game: Game, actor: Actor, error: str | None = None, hints: list[ActionValue] | None = None
) -> dict[str, Any]:
    state = game.state
    seats = game.seat_list
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
        "no_js_refresh": NO_JS_REFRESH_SECONDS,
        "status_text": status_text(game, state, mine, seats),
        "last_action": last_action_text(game, state, mine, seats),
        "error": error,
        "won_toss": mine == [0] and game.ply <= 1,
        "players": [
            {
                "seat": seat,
                "symbol": SYMBOLS[seat.index],
                "is_me": seat.index in mine,
                "to_move": seat.index == state.to_move,
            }
            for seat in seats
        ],
        "kind_template": f"games/kinds/{game.kind}.html",
        "board_template": f"games/kinds/{game.kind}.html#board",
        "pieces_template": f"games/kinds/{game.kind}.html#pieces",
    }
    # Only a seat holder may pass the invite on: whoever has the link can take the seat.
    if game.status == Game.Status.WAITING and mine:
        context["invite_url"] = reverse("games:join", args=[game.invite_code])
    context.update(BOARD_CONTEXT[game.kind](game, state, my_turn))
    context["can_hint"] = my_turn and game.allow_hints and ai.has_player(game.kind)
    context["has_review"] = ai.has_review(game.kind)
    if hints:
        _attach_hints(context, hints)
    return context


def render_partials(
    game: Game, actor: Actor, error: str | None = None, hints: list[ActionValue] | None = None
) -> str:
    """Board, pieces, status and seats as out-of-band swaps, for HTMX responses and pushes.

    Each is the page's own part (``games/game.html#board``...), put in place by id.
    """
    context = game_context(game, actor, error, hints)
    return "".join(
        format_html(
            '<div id="{}" hx-swap-oob="innerHTML">{}</div>',
            name,
            render_to_string(f"games/game.html#{name}", context),
        )
        for name in PARTIALS
    )


class _ReadOnlyMarkup(HTMLParser):
    """Rewrites rendered partials so that nothing in them can submit or request.

    Forms become ``div``, buttons ``span`` (classes, labels and data attributes kept, so
    the board looks the same), inputs are dropped, and so are every ``hx-*`` attribute
    and the attributes that only controls have.
    """

    RENAMED = {"form": "div", "button": "span"}
    DROPPED_TAGS = {"input", "select", "textarea"}
    CONTROL_ATTRIBUTES = {"action", "method", "type", "name", "value", "disabled", "form"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], close: str = ">") -> None:
        if tag in self.DROPPED_TAGS:
            return
        kept = "".join(
            f" {name}" if value is None else f' {name}="{escape(value)}"'
            for name, value in attrs
            if name not in self.CONTROL_ATTRIBUTES and not name.startswith(("hx-", "data-hx-", "ws-"))
        )
        self.parts.append(f"<{self.RENAMED.get(tag, tag)}{kept}{close}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, " />")

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.DROPPED_TAGS:
            self.parts.append(f"</{self.RENAMED.get(tag, tag)}>")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_entityref(self, name: str) -> None:
        self.parts.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.parts.append(f"&#{name};")


def read_only(html: str) -> SafeString:
    """The same markup with no form, button or input: for showing a board inside another form."""
    parser = _ReadOnlyMarkup()
    parser.feed(html)
    parser.close()
    return mark_safe("".join(parser.parts))


def read_only_board(game: Game) -> SafeString:
    """The board and pieces as a bystander sees them, with nothing to click (the admin's view)."""
    context = game_context(game, Actor())
    return read_only(render_to_string("games/_admin_board.html", context))


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
        {"seat": s.index, "kind": s.kind, "label": s.label, "open": s.is_open} for s in game.seat_list
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
        players=tuple(s.label for s in game.seat_list),
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


# -- post-game review ---------------------------------------------------------------

VERDICTS = {
    "best": ("✓", "best"),
    "inaccuracy": ("?!", "inaccuracy"),
    "blunder": ("??", "blunder"),
    None: ("·", "not proved"),
}


def action_words(kind: str, state: Any, text: str) -> str:
    """An action in words, in the position it was played from."""
    if kind == "quarto":
        move = quarto.parse_move(text)
        if isinstance(move, quarto.Place):
            return f"placed the {quarto.piece_name(state.in_hand)} piece on {text}"
        return f"gave the {quarto.piece_name(move.piece)} piece ({text})"
    return f"played {text}"


def review_rows(game: Game, entries: list[Any], actor: Actor) -> list[dict[str, Any]]:
    rules = get_rules(game.kind)
    state = rules.new_state(game.options)
    mine = seats_held(game, actor)
    rows = []
    for entry in entries:
        icon, word = VERDICTS.get(entry.verdict, VERDICTS[None])
        who = _seat_word(game, entry.seat, mine, game.seat_list)
        rows.append(
            {
                "entry": entry,
                "who": who[0].upper() + who[1:],
                "words": action_words(game.kind, state, entry.text),
                "icon": icon,
                "verdict": word,
                "verdict_class": entry.verdict or "unknown",
                "before": _value_words(entry.value_before, entry.distance_before, entry.score_before),
                "after": _value_words(entry.value_after, entry.distance_after, entry.score_after),
            }
        )
        state = state.play(rules.parse_move(entry.text))
    return rows


def _value_words(value: str | None, distance: int | None, score: float | None = None) -> str:
    if value is None:
        return "not proved" if score is None else f"estimate {score:+.2f}"
    if value == "draw" or distance is None:
        return value
    return f"{value} in {distance}"
