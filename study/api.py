"""The study routes of the JSON API (mounted on games' API object): the analysis board's
analysis of any position. See docs/api.md."""

from __future__ import annotations

from typing import Annotated, Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema

from games.api.plumbing import api, client_id, guarded
from games.api.schemas import ActionOut, ErrorOut, OptionValue, Strict
from games.presenting.analysis import analysis_json
from games.runner import turns as ai_runner
from games.services import ratelimit
from games.services.base import ServiceError
from study import explorer, positions

router = Router(tags=["study"])
ERRORS: dict[int, Any] = dict.fromkeys((400, 413, 415, 429, 501, 503), ErrorOut)


class AnalysisIn(Strict):
    game: str = Field(max_length=20, description="quarto, tictactoe, connect or ultimate")
    options: dict[Annotated[str, Field(max_length=20)], OptionValue] = Field(
        default_factory=dict, max_length=8
    )
    moves: list[Annotated[str, Field(max_length=20)]] | None = Field(
        default=None, max_length=positions.MAX_MOVES, description="Actions from the start."
    )
    position: str | None = Field(
        default=None, max_length=200, description="A position in the game's notation."
    )


class ExplorerOut(Schema):
    move: str
    games: int = Field(description="Finished games of the site in which it was played here.")
    won: int = Field(description="Of those, won by the player who played it.")
    drawn: int
    lost: int


class AnalysisBoardOut(Schema):
    game: str
    options: dict[str, Any]
    position: str | None = Field(description="The position in the game's notation (null if it has none).")
    moves: list[ActionOut] = Field(description="Every legal action with its value, as a game's analysis.")
    setup: list[str] = Field(description="Actions from the start that reach the position.")
    ply: int
    to_move: int | None
    exact: bool
    explorer: list[ExplorerOut] = Field(description="How the site's finished games went from here.")


def _limited(request: HttpRequest) -> None:
    """The hints' budget: the analysis board counts against the same limit per address."""
    wait = ratelimit.check("hint", ratelimit.request_address(request), "RATE_LIMIT_HINT")
    if wait:
        words = _("You asked for many analyses: try again in %(seconds)d s.") % {"seconds": wait}
        raise ServiceError("rate_limited", words, 429, wait)


@router.post(
    "/analysis",
    response={200: AnalysisBoardOut, **ERRORS},
    summary="Analyse any position: every legal action with its value",
    description="Send the actions from the start (moves) or a position in the game's notation "
    "(position). Nothing is stored. Counted against the hints' rate limit and run in the analysis "
    "pool (429 rate_limited, analysis_running; 503 busy).",
)
@guarded()
async def analyse(request: HttpRequest, body: AnalysisIn) -> dict[str, Any]:
    where = positions.resolve(body.game, body.options, body.moves, body.position)
    if not where.spec.capabilities.analysis:
        words = _("The computer cannot analyse %(title)s positions yet.") % {"title": where.spec.title}
        raise ServiceError("no_analysis", words, 501)
    await sync_to_async(_limited)(request)
    values = []
    if not where.state.is_over():
        values = await ai_runner.analyse(
            where.kind, where.options, where.moves, settings.AI_BUDGET, client=client_id(request)
        )
    answer = analysis_json(len(where.moves), where.state, values)
    seen = await sync_to_async(explorer.explore)(where.kind, where.options, where.notation)
    return {
        "game": where.kind,
        "options": where.options,
        "position": where.notation,
        "moves": answer.pop("actions"),
        "setup": where.moves,
        **answer,
        "explorer": seen,
    }


api.add_router("/", router)
