"""The JSON API (v1) for bots and scripts: create, join, watch and play games, ask the
computer's analysis, download and import records. See docs/api.md.

Authentication is a per-seat bearer token returned when a seat is taken; there are no
cookies, hence no CSRF. Every change goes through :mod:`games.services.moves`; errors come as
``{"error": code, "detail": sentence}`` with the service's HTTP status. The framework
plumbing (the API object, errors, authentication, guards) is :mod:`games.api.plumbing`.
"""

from __future__ import annotations

from typing import Any, Literal

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Status

from games import catalog
from games.api.plumbing import (
    actor,
    api,
    bad_request,
    bearer,
    checked_actor,
    client_id,
    count_created,
    guarded,
    known_token,
    not_found,
    seat_token,
    token_player,
)
from games.api.schemas import (
    AnalysisOut,
    ChatIn,
    ChatOut,
    CreatedOut,
    ErrorOut,
    ImportedOut,
    JoinedOut,
    JoinIn,
    MoveIn,
    NewGameIn,
    StateOut,
)
from games.formats import records
from games.models import Game
from games.presenting import clockdata, downloads
from games.presenting.analysis import analysis_json
from games.runner import turns as ai_runner
from games.services import abandonment, actions, chat, clocks, policy
from games.services import moves as services

__all__ = ["api", "bad_request", "not_found"]


# -- endpoints ------------------------------------------------------------------


def personal_player(request: HttpRequest) -> str | None:
    """The player id of a personal token sent to take a seat; None without a token (or with
    a seat's token): an unknown or revoked token is refused, not taken for anonymous play."""
    token = bearer(request)
    player = token_player(request, token)
    if token and player is None and not known_token(request, token):
        raise services.ServiceError(
            "unknown_token", _("That token is unknown or revoked; send none to play anonymously."), 401
        )
    return player


def load_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise services.ServiceError("not_found", _("There is no game %(id)s.") % {"id": game_id}, 404)
    return game


def answer_state(game: Game) -> dict[str, Any]:
    """The game's JSON state, its clock's times as of now (the server's time, in ``now``)."""
    return clockdata.as_of(downloads.game_json(game), game, clocks.now())


def state_of(game_id: int) -> dict[str, Any]:
    """The state, with presence: when each seat's last page closed (the JSON socket's
    state leaves it out: its renderings are cached per position)."""
    game = load_game(game_id)
    data = answer_state(game)
    for seat, row in zip(game.seat_list, data["seats"], strict=True):
        row["left_at"] = seat.left_at.isoformat() if seat.left_at else None
    return data


ERRORS: dict[int, Any] = dict.fromkeys((400, 401, 403, 404, 409, 413, 415, 429, 503), ErrorOut)


@api.post("/games", response={201: CreatedOut, **ERRORS}, summary="Create a game and take a seat")
@guarded()
def create_game(request: HttpRequest, body: NewGameIn) -> Status[dict[str, Any]]:
    # A personal token creates the game as its account; otherwise the seat gets a token.
    player = personal_player(request)
    if body.rated and player is None:
        raise services.ServiceError("rated_needs_account", _("Rated games need an account's personal token."))
    if body.rated and body.opponent != "ai":
        raise services.ServiceError(
            "rated_in_lobby", _("Rated games between people are made through the lobby's seeks.")
        )
    created = services.create_game(
        body.game,
        body.options,
        opponent=body.opponent,
        level=body.level,
        seat=body.seat,
        player_id=player,
        with_token=player is None,
        allow_hints=body.allow_hints,
        allow_takebacks=body.allow_takebacks,
        clock=body.clock,
        rated=body.rated,
    )
    game = created.game
    invite = invite_url = None
    if body.opponent == "human":
        invite = game.invite_code
        invite_url = request.build_absolute_uri(reverse("games:join", args=[game.invite_code]))
    return Status(
        201,
        {
            "id": game.pk,
            "seat": created.seat,
            "token": created.token,
            "invite": invite,
            "invite_url": invite_url,
            "state": state_of(game.pk),
        },
    )


@api.get("/games/{int:game_id}", response={200: StateOut, **ERRORS}, summary="The current position")
@guarded()
def get_game(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return state_of(game_id)


@api.post("/games/{int:game_id}/join", response={200: JoinedOut, **ERRORS}, summary="Take the open seat")
@guarded()
def join_game(request: HttpRequest, game_id: int, body: JoinIn | None = None) -> dict[str, Any]:
    player = personal_player(request)
    invite = body.invite if body else None
    seat, token = services.join_game(game_id, invite=invite, player_id=player, with_token=player is None)
    return {"id": game_id, "seat": seat, "token": token, "state": state_of(game_id)}


@api.post(
    "/games/{int:game_id}/moves",
    response={200: StateOut, **ERRORS},
    auth=seat_token,
    summary="Play an action for your seat",
)
@guarded()
def play_move(request: HttpRequest, game_id: int, body: MoveIn) -> dict[str, Any]:
    game = services.play_move(game_id, actor(request), body.move, body.ply, body.revision)
    if game.ai_due_at is not None:
        return state_of(game_id)  # the computer's reply may be in already (AI_RUNNER inline, no delay)
    # A person is to move: the game as the move left it (position and seats loaded) is the
    # answer; read again, it would cost four more queries and a second replay of every move.
    return answer_state(game)


PLY_NOTE = (
    " Pass ?ply=n, the ply you saw, and a repeated request applies once (409 stale); "
    "without it the request applies to the game as it is."
)


@api.post(
    "/games/{int:game_id}/resign",
    response={200: StateOut, **ERRORS},
    auth=seat_token,
    summary="Resign: the opponent wins",
    description="With three or four seats (connect-N) the others share the win." + PLY_NOTE,
)
@guarded()
def resign(request: HttpRequest, game_id: int, ply: int | None = None) -> dict[str, Any]:
    actions.resign(game_id, actor(request), ply)
    return state_of(game_id)


Answer = Literal["yes", "no"]
OFFERS = {
    "draw": (
        "Offer or accept a draw (yes), decline it (no)",
        "The computer declines at once (409 declined). An offer lapses when the offerer moves again.",
    ),
    "takeback": (
        "Take back your last turn (yes), or decline the request (no)",
        "Against the computer it applies at once on your turn; against people the others accept "
        "(yes) or decline (no). 403 not_allowed when the game has takebacks off.",
    ),
    "rematch": (
        "Offer or accept a rematch after the game (yes), decline it (no)",
        "Once every person said yes (the computer at once), the state's rematch names the new "
        "game: same settings, seats rotated (swapped for two), your token holds your new seat. "
        "A yes counts as a game created: 429 rate_limited beyond RATE_LIMIT_CREATE.",
    ),
}


def _answer_endpoint(kind: str) -> None:
    summary, description = OFFERS[kind]
    act = actions.ACTIONS[kind]

    @api.post(
        f"/games/{{int:game_id}}/{kind}/{{answer}}",
        response={200: StateOut, **ERRORS},
        auth=seat_token,
        summary=summary,
        description=description + PLY_NOTE,
        operation_id=f"games_api_endpoints_{kind}",
    )
    @guarded()
    def answer(request: HttpRequest, game_id: int, answer: Answer, ply: int | None = None) -> dict[str, Any]:
        if kind == "rematch" and answer == "yes":
            count_created(request)
        act(game_id, actor(request), answer == "yes", ply)
        return state_of(game_id)


for _kind in OFFERS:
    _answer_endpoint(_kind)


@api.post(
    "/games/{int:game_id}/claim/{outcome}",
    response={200: StateOut, **ERRORS},
    auth=seat_token,
    summary="Claim the win (win) or a draw (draw): the opponent has gone",
    description=(
        "Once an opponent has had no page of the game open for ABANDON_AFTER seconds (60 by "
        "default) and has not moved since, the others may end the game: the gone seats lose "
        "(win) or it is drawn (draw); the reason is abandoned. 409 not_abandoned before then. "
        "The state's presence says who is connected and since when a seat has gone." + PLY_NOTE
    ),
)
@guarded()
def claim(
    request: HttpRequest, game_id: int, outcome: Literal["win", "draw"], ply: int | None = None
) -> dict[str, Any]:
    abandonment.claim(game_id, actor(request), outcome, ply)
    return state_of(game_id)


@api.get(
    "/games/{int:game_id}/analysis",
    response={200: AnalysisOut, 403: ErrorOut, **ERRORS, 501: ErrorOut, 503: ErrorOut},
    summary="Every legal action with its value as the computer sees it",
    description="During a game only the seat to move may ask, with its token, in a game with hints "
    "allowed and not rated (403 hints_off, rated, not_your_seat or not_your_turn otherwise); after the "
    "game anyone may.",
    openapi_extra={"security": [{"SeatToken": []}, {}]},
)
@guarded()
async def analysis(request: HttpRequest, game_id: int, ply: int | None = None) -> dict[str, Any]:
    # Async, with the search in the AI executor: a long analysis never holds the one
    # thread that serves every synchronous view of this process. A personal token's
    # account is read from the database: in a thread too.
    who = await sync_to_async(checked_actor)(request)
    game, moves = await sync_to_async(_analysed_position)(game_id, ply, who)
    state = catalog.get(game.kind).rules.replay(game.options, moves)
    values = []
    if not state.is_over():
        policy.check_analysable(game)
        values = await ai_runner.analyse(
            game.kind, game.options, moves, settings.AI_BUDGET, client=client_id(request)
        )
    return analysis_json(len(moves), state, values)


def _analysed_position(game_id: int, ply: int | None, actor: services.Actor) -> tuple[Game, list[str]]:
    game = load_game(game_id)
    policy.check_analysis(game, actor)
    moves = game.move_texts
    if ply is None:
        ply = len(moves)
    if not 0 <= ply <= len(moves):
        raise services.ServiceError(
            "bad_ply", _("ply must be from 0 to %(last)s.") % {"last": len(moves)}, 400
        )
    return game, moves[:ply]


@api.get(
    "/games/{int:game_id}/record",
    response=ERRORS,
    summary="The game record, as text or JSON",
    openapi_extra={
        "responses": {
            200: {
                "description": "The record",
                "content": {"text/plain": {"schema": {"type": "string"}}, "application/json": {}},
            }
        }
    },
)
@guarded()
def record(request: HttpRequest, game_id: int, format: str = "text") -> HttpResponse:
    try:
        return downloads.record_download(load_game(game_id), format)
    except ValueError:
        raise services.ServiceError("bad_format", _("format must be text or json."), 400) from None


@api.post(
    "/records",
    response={201: ImportedOut, **ERRORS},
    summary="Import a record (text or JSON) as a new game",
    description="The body is JSON: a record object, or a text record as a JSON string.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"oneOf": [{"type": "object"}, {"type": "string"}]}}},
        }
    },
)
@guarded("API_MAX_RECORD")
def import_record(request: HttpRequest) -> Status[dict[str, Any]]:
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise services.ServiceError("bad_record", _("The record is not UTF-8 text.")) from None
    try:
        if not text.lstrip().startswith("{"):  # a text record sent as a JSON string
            text = records.loads_json(text, "record", "send a record object or text.") if text.strip() else ""
            if not isinstance(text, str):
                raise records.RecordError("record", "send a record object or text.")
        rec, _state = records.load(text)
    except records.RecordError as exc:
        raise services.ServiceError("bad_record", exc.said(_)) from None
    created = services.import_record(rec)
    game = created.game
    return Status(
        201,
        {
            "id": game.pk,
            "token": created.token,
            "url": request.build_absolute_uri(game.get_absolute_url()),
            "state": state_of(game.pk),
        },
    )


def _chat_lines(game_id: int) -> dict[str, Any]:
    lines = chat.visible_lines(load_game(game_id))
    return {
        "lines": [
            {"id": line.pk, "seat": line.seat, "name": line.name, "text": line.text, "created": line.created}
            for line in lines
        ]
    }


@api.get(
    "/games/{int:game_id}/chat",
    response={200: ChatOut, **ERRORS},
    summary="The game's chat: its newest lines",
    description="Anyone may read a game's chat; only its players write in it.",
)
@guarded()
def get_chat(request: HttpRequest, game_id: int) -> dict[str, Any]:
    return _chat_lines(game_id)


@api.post(
    "/games/{int:game_id}/chat",
    response={201: ChatOut, **ERRORS},
    auth=seat_token,
    summary="Say a line in the game's chat",
    description="With a seat's token. Refused: 400 empty or too_long (over 300 characters), "
    "403 not_your_seat or muted (a moderator muted the player), 429 rate_limited.",
)
@guarded()
def post_chat(request: HttpRequest, game_id: int, body: ChatIn) -> Status[dict[str, Any]]:
    chat.say(game_id, actor(request), body.text)
    return Status(201, _chat_lines(game_id))
