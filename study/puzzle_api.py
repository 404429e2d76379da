"""The puzzle routes of the JSON API (mounted on games' API object). See docs/api.md.

An account (its personal token) gets puzzles near its puzzle rating and is rated on its
first try at each; anyone else gets puzzles near 1500 and no rating.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema

from accounts.models import Account
from games.api.plumbing import api, bearer, client_id, guarded, known_token, token_player
from games.api.schemas import ErrorOut, Strict
from games.runner.pools import gate
from games.services.base import ServiceError
from study import puzzle_modes, puzzle_rules, puzzles
from study.models import Puzzle
from study.positions import spec_of

router = Router(tags=["puzzles"])
ERRORS: dict[int, Any] = dict.fromkeys((400, 401, 404, 413, 415, 429, 503), ErrorOut)


class PuzzleOut(Schema):
    id: str
    game: str
    options: dict[str, Any]
    moves: list[str] = Field(description="Actions from the start to the puzzle's position.")
    position: str
    to_move: int
    rating: int
    themes: list[str]


class AttemptIn(Strict):
    moves: list[Annotated[str, Field(max_length=20)]] = Field(
        max_length=puzzle_rules.MAX_ACTIONS,
        description="The player's actions from the puzzle's position, with the site's replies given.",
    )


class RatingChangeOut(Schema):
    rating: int
    change: int
    provisional: bool


class AttemptOut(Schema):
    status: str = Field(description="continue, solved or failed")
    reply: list[str] = Field(description="The site's next actions (its most stubborn defence).")
    refutation: list[str] = Field(description="After a wrong action: why it was wrong, best play on.")
    rating: RatingChangeOut | None = Field(description="An account's puzzle rating after its first try.")


def user_of(request: HttpRequest) -> int | None:
    """The account a personal token acts for, or None (no token, or a seat's token)."""
    token = bearer(request)
    player = token_player(request, token)
    if token and player is None and len(token) <= 64 and not known_token(request, token):
        detail = _("That token is unknown or revoked; send none to try anonymously.")
        raise ServiceError("unknown_token", detail, 401)
    if player is None:
        return None
    return Account.objects.filter(player_id=player).values_list("user_id", flat=True).first()


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    return {
        "id": puzzle.key,
        "game": puzzle.kind,
        "options": puzzle.options,
        "moves": puzzle.moves,
        "position": puzzle.position,
        "to_move": puzzle.to_move,
        "rating": round(puzzle.rating),
        "themes": puzzle.themes,
    }


def _next(request: HttpRequest, game: str, theme: str) -> dict[str, Any]:
    spec_of(game)
    return puzzle_json(puzzles.next_puzzle(game, user_of(request), theme=theme[:30] or None))


@router.get(
    "/puzzles/next",
    response={200: PuzzleOut, **ERRORS},
    summary="A puzzle to solve",
    description="Near your puzzle rating with an account's personal token (one you have not tried), "
    "near 1500 otherwise; of one theme with theme= (400 bad_theme names the themes).",
)
@guarded()
def next_puzzle(request: HttpRequest, game: str = "quarto", theme: str = "") -> dict[str, Any]:
    return _next(request, game, theme)


def _daily(game: str) -> dict[str, Any]:
    spec_of(game)
    return puzzle_json(puzzle_modes.daily(game))


@router.get(
    "/puzzles/daily",
    response={200: PuzzleOut, **ERRORS},
    summary="The puzzle of the day",
    description="The same for everyone on a day (UTC): chosen from the day and the game alone.",
)
@guarded()
def daily_puzzle(request: HttpRequest, game: str = "quarto") -> dict[str, Any]:
    return _daily(game)


@router.post(
    "/puzzles/{puzzle_id}/attempt",
    response={200: AttemptOut, **ERRORS},
    summary="Try a puzzle: your actions so far, the site's replies among them",
    description="Every action that keeps the forced win is right. continue: the reply holds the site's "
    "next actions; solved: the win is on the board; failed: the refutation shows why. An account's "
    "first try (solved or failed) moves its puzzle rating and the puzzle's.",
)
@guarded()
async def attempt(request: HttpRequest, puzzle_id: str, body: AttemptIn) -> dict[str, Any]:
    user_id = await sync_to_async(user_of)(request)
    puzzle = await sync_to_async(puzzles.get)(puzzle_id)
    try:
        args = (puzzle.kind, puzzle.options, puzzle.moves, body.moves)
        future = gate.submit(client_id(request), puzzle_rules.judge_moves, *args)
        verdict: puzzle_rules.Verdict = await asyncio.wrap_future(future)
    except puzzle_rules.BadAttempt as exc:
        raise ServiceError(exc.code, exc.said(_)) from None
    except puzzle_rules.Unsolved:
        words = _("The solver ran out of time: try again in a few seconds.")
        raise ServiceError("busy", words, 503, 5) from None
    rating = await sync_to_async(puzzles.settle)(puzzle, user_id, verdict)
    return {
        "status": verdict.status,
        "reply": list(verdict.reply),
        "refutation": list(verdict.refutation),
        "rating": rating,
    }


api.add_router("/", router)
