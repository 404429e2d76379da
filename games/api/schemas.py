"""Request and response bodies of the JSON API. Requests are strict: exact types, no
unknown fields. Responses list the fields every game has; a game's own fields (Quarto's
``in_hand``, Ultimate's ``allowed_boards`` ...) come on top."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

# Every game's options are true/false or whole numbers: a number in a string is refused.
OptionValue = StrictBool | StrictInt


class Strict(Schema):
    model_config = ConfigDict(extra="forbid", strict=True)


# A game's options in a request: a few names, each true/false or a whole number.
Options = dict[Annotated[str, Field(max_length=20)], OptionValue]


class NewGameIn(Strict):
    game: str = Field(max_length=20, description="quarto, tictactoe, connect or ultimate")
    options: Options = Field(
        default_factory=dict,
        max_length=8,
        description='The game\'s own options, e.g. {"advanced": true} or {"width": 7, "n": 4}.',
    )
    opponent: Literal["ai", "human"] = "ai"
    level: str | None = Field(default=None, max_length=20, description="The computer's level.")
    seat: Literal["first", "second", "random"] = "random"
    allow_hints: bool = True
    allow_takebacks: bool = True
    rated: bool = Field(
        default=False,
        description="Rated, against the computer (people meet for rated games through the lobby's "
        "seeks): needs an account's personal token, a clock and a level whose rating is established "
        "(400 rated_needs_account, rated_in_lobby, rated_needs_clock, level_not_rated). A rated game "
        "has hints off (no analysis until it ends) and no takebacks against the computer.",
    )
    # Checked by the service (games.clocks.parse), so that every refusal is a bad_clock.
    clock: Any = Field(
        default=None,
        description='The time control: {"initial": seconds, "increment": seconds} (a Fischer clock, '
        'initial 15 to 10800, increment 0 to 60), {"days": n} per move (n one of 1, 2, 3, 5, 7, '
        "14), or null for none (the default). Refused with 400 bad_clock.",
        json_schema_extra={
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "initial": {"type": "integer", "minimum": 15, "maximum": 10800},
                        "increment": {"type": "integer", "minimum": 0, "maximum": 60, "default": 0},
                    },
                    "required": ["initial"],
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "properties": {"days": {"enum": [1, 2, 3, 5, 7, 14]}},
                    "required": ["days"],
                    "additionalProperties": False,
                },
                {"type": "null"},
            ],
            "example": {"initial": 180, "increment": 2},
        },
    )


class JoinIn(Strict):
    invite: str | None = Field(
        default=None, max_length=20, description="The game's invite code, from the creator's 'invite'."
    )


class MoveIn(Strict):
    move: str = Field(min_length=1, max_length=16, description="The action's text, e.g. a1 or 7.")
    ply: int = Field(ge=0, description="The ply of the position the action was chosen in.")
    revision: int | None = Field(
        default=None,
        ge=0,
        description="The state's revision when the action was chosen: a move sent for a position "
        "since changed (a takeback and another move bring the same ply back) is refused as stale.",
    )


class ChatIn(Strict):
    text: str = Field(
        min_length=1, max_length=2000, description="The line; at most 300 characters are accepted."
    )


class ChatLineOut(Schema):
    id: int
    seat: int | None = Field(description="The seat that said it (null for a line of the site).")
    name: str = Field(description="The seat's display name when it was said ('' when it had none).")
    text: str = Field(description="As typed: escape it where you show it as HTML.")
    created: datetime


class ChatOut(Schema):
    lines: list[ChatLineOut] = Field(description="The newest lines, oldest first (hidden lines left out).")


class ErrorOut(Schema):
    error: str = Field(description="A stable code, e.g. occupied, stale, not_your_turn.")
    detail: str = Field(description="What went wrong, in a sentence.")


# Plain pydantic models (not ninja Schemas) so a game's own fields pass through.


class ResultOut(BaseModel):
    """Quarto adds ``shared``: the traits the winning line has in common."""

    model_config = ConfigDict(extra="allow")

    winner: int | None
    lines: list[list[str]]


class SeatRatingOut(BaseModel):
    rating: int = Field(description="The account's rating in this game and speed before the game.")
    provisional: bool = Field(description="Deviation above 110: shown with a '?'.")
    change: int | None = Field(description="What the game did to it, once it is rated; null before.")


class SeatOut(BaseModel):
    seat: int
    kind: Literal["human", "ai"]
    label: str
    open: bool
    user: str | None = Field(default=None, description="The account holding the seat; null for anonymous.")
    left_at: datetime | None = Field(
        default=None,
        description="Presence: when the seat's last open page (socket) closed (or, when the server "
        "holding it died, when it last said it held it); null while one is open, or if none ever "
        "was. Gone for ABANDON_AFTER seconds, the others may claim.",
    )
    rating: SeatRatingOut | None = Field(default=None, description="A rated game's account seats only.")


class StateOut(BaseModel):
    """A game's position. The game's own fields come on top: Quarto ``in_hand``,
    ``available``, ``phase``; Ultimate ``allowed_boards``, ``board_owners``,
    ``last_move``; Connect ``droppable``. Games against the computer add ``level``."""

    model_config = ConfigDict(extra="allow")

    id: int
    game: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "finished", "abandoned"] = Field(
        description="abandoned: a player left and nobody claimed the game in time (nobody won)."
    )
    result: ResultOut | None
    to_move: int | None
    num_players: int
    ply: int
    revision: int = Field(
        description="Counts every change of the game (moves, takebacks, offers): send it with a move."
    )
    moves: list[str]
    legal_moves: list[str]
    width: int
    height: int
    board: list[list[dict[str, Any]]] = Field(description="Rows top first; every square with its cell name.")
    seats: list[SeatOut]
    rated: bool = Field(default=False, description="Rated between accounts (Glicko-2, per game and speed).")
    reason: Literal["normal", "resigned", "agreed", "aborted", "abandoned", "timeout", "no_start"] | None = (
        Field(
            default=None,
            description="Why the game ended: the rules (normal), a resignation, an agreed draw, a "
            "moderator (aborted), a player who left (abandoned: claimed, or closed by the server), "
            "a seat's time ran out (timeout: result.timeout names it), or a seat made no first "
            "move in time (no_start: the game is aborted, nobody wins; a rated game resigned, "
            "drawn, claimed or timed out before every seat had moved is aborted so too, "
            "result.ended_by saying how).",
        )
    )
    offers: dict[Literal["draw", "takeback", "rematch"], list[int]] = Field(
        default_factory=dict, description="Pending offers: the seats that said yes, the offerer first."
    )
    takebacks: int = Field(default=0, description="Takebacks applied in this game.")
    allow_takebacks: bool = True
    rematch: int | None = Field(default=None, description="The rematch's game id, once it is made.")
    clock: dict[Literal["initial", "increment", "days", "paused"], int | bool] | None = Field(
        default=None,
        description='The time control: {"initial": s, "increment": s} or {"days": n}, with '
        '"paused": true for an imported record\'s clock (kept and shown, not running); null for none.',
    )
    remaining: list[int] | None = Field(
        default=None,
        description="Each seat's time left in ms, as of clock_at when ticking (else as is: before "
        "a seat's first move its full time, after the game the final times); null without a clock.",
    )
    clock_at: datetime | None = Field(
        default=None,
        description="The server time remaining is given for, while the seat to move is ticking: the "
        "request's moment in API answers, the turn's start in JSON socket frames.",
    )
    ticking: bool = Field(
        default=False,
        description="The seat to_move's time is running down: show remaining[to_move] - (now - clock_at).",
    )
    to_move_since: datetime | None = Field(
        default=None, description="When the seat to move began its turn (server time); null when not running."
    )
    deadline: datetime | None = Field(
        default=None,
        description="When the seat to move runs out (or, before its first move, when the game is "
        "aborted); null when the clock does not run.",
    )
    first_move: bool = Field(
        default=False,
        description="The seat to move has yet to make its first move: its time is not charged, but "
        "the game is aborted (no_start) unless it moves by deadline.",
    )
    now: datetime | None = Field(
        default=None, description="The server's time when the state was sent: count the clocks from it."
    )


class CreatedOut(Schema):
    id: int
    seat: int
    token: str | None = Field(
        description="The seat's secret: send it as 'Authorization: Bearer <token>'. Null when a "
        "personal token made the game: the seat is its account's."
    )
    invite: str | None = Field(
        description="For a human opponent: the code that POST /games/{id}/join needs; give it to them only."
    )
    invite_url: str | None = Field(description="For a human opponent: the page that takes the free seat.")
    state: StateOut


class JoinedOut(Schema):
    id: int
    seat: int
    token: str | None = Field(description="The seat's secret; null when a personal token took the seat.")
    state: StateOut


class ImportedOut(Schema):
    id: int
    token: str = Field(description="Holds every seat of the imported game.")
    url: str
    state: StateOut


class ActionOut(Schema):
    move: str
    value: Literal["win", "draw", "loss"] | None
    exact: bool
    distance: int | None
    score: float | None


class AnalysisOut(Schema):
    ply: int
    to_move: int | None
    exact: bool = Field(description="True when every action's value is exact.")
    actions: list[ActionOut]
