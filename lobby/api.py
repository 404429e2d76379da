"""The lobby's routes of the JSON API (mounted on games' API object): seeks and quick
pairing. See docs/api.md, "The lobby"."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from typing import Any, Literal

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from games import clocks as clock_rules
from games.api.plumbing import api, bearer, guarded, known_token
from games.api.schemas import ErrorOut, Options
from games.services import ratelimit
from games.services.moves import ServiceError
from lobby import pool, services
from lobby.models import Seek
from lobby.seekers import Who, of_token

router = Router(tags=["lobby"])
ERRORS: dict[int, Any] = dict.fromkeys((400, 401, 403, 404, 409, 413, 415, 429, 503), ErrorOut)


class SeekIn(Schema):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=20, description="quarto, tictactoe, connect or ultimate")
    options: Options | None = Field(
        default=None, max_length=8, description="The game's own options, as for a new game."
    )
    clock: Any = Field(
        default=None,
        description='{"initial": seconds, "increment": seconds}, {"days": n} or null (unlimited).',
    )
    rated: bool = Field(default=False, description="Rated games need an account's token and a clock.")
    seat: Literal["first", "second", "random"] = "random"
    rating_min: int | None = Field(default=None, ge=0, le=4000)
    rating_max: int | None = Field(default=None, ge=0, le=4000)


class SeekMadeOut(Schema):
    id: int
    token: str = Field(
        description="The seek's secret: send it to follow or cancel the seek; it holds your seat."
    )


class SeekOut(Schema):
    id: int
    game: str
    options: dict[str, Any]
    clock: dict[str, Any]
    time_control: str = Field(description='"3+2", "3 days", "unlimited".')
    rated: bool
    seat: str = Field(description="The seeker's seat: first, second or random.")
    user: str | None = Field(description="The seeker's account, or null for anonymous.")
    rating: str | None = Field(description='The seeker\'s rating for this game and speed ("1512", "1500?").')
    bot: bool
    created: datetime
    lapses: datetime | None = Field(
        default=None, description="When a correspondence seek lapses if nobody accepts it; null for others."
    )


class SeekStatusOut(Schema):
    status: Literal["open", "taken", "cancelled"]
    game: int | None
    seat: int | None = Field(default=None, description="Your seat once taken (the seeker only).")
    token: str | None = Field(default=None, description="Your seat's token once taken (the seeker only).")


class AcceptedOut(Schema):
    game: int
    seat: int
    token: str | None = Field(description="Your seat's token.")


class PairingIn(Schema):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=20)
    clock: Any = Field(description='{"initial": seconds, "increment": seconds} or {"days": n}.')


class PairedOut(Schema):
    game: int
    seat: int


def who(request: HttpRequest) -> Who:
    """The asker: a personal token's account, else an anonymous client (its bearer a seek's
    secret or a seat's token, or none). Any other bearer (a revoked personal token) is a 401,
    never taken for anonymous play."""
    token = bearer(request)
    found = of_token(token, ratelimit.request_address(request))
    if (
        token
        and not found.is_account
        and not services.known_secret(token)
        and not known_token(request, token)
    ):
        words = _("That token is unknown or revoked; send none to play anonymously.")
        raise ServiceError("unknown_token", words, 401)
    return found


def seek_json(seek: Seek, ratings: dict[int, str]) -> dict[str, Any]:
    return {
        "id": seek.pk,
        "game": seek.kind,
        "options": seek.options,
        "clock": seek.clock,
        "time_control": clock_rules.parse(seek.clock).label,
        "rated": seek.rated,
        "seat": seek.seat,
        "user": seek.user.get_username() if seek.user else None,
        "rating": ratings.get(seek.pk),
        "bot": seek.bot,
        "created": seek.created,
        "lapses": services.lapses_at(seek),
    }


@router.post("/seeks", response={201: SeekMadeOut, **ERRORS}, summary="Offer a game in the lobby")
@guarded()
def create_seek(request: HttpRequest, body: SeekIn) -> Status[dict[str, Any]]:
    """With a personal token the account is the seeker. A real-time seek stays open while
    you ask for it (GET /seeks/{id}) at least every SEEK_ALIVE (10) seconds."""
    made = services.create_seek(
        who(request),
        body.game,
        body.options,
        clock=body.clock,
        rated=body.rated,
        seat=body.seat,
        rating_range=(body.rating_min, body.rating_max),
    )
    return Status(201, {"id": made.seek.pk, "token": made.token})


@router.get("/seeks", response={200: list[SeekOut], **ERRORS}, summary="The open seeks")
@guarded()
def list_seeks(request: HttpRequest, game: str | None = None) -> list[dict[str, Any]]:
    seeks = services.open_seeks(game)
    ratings = services.ratings_shown(seeks)
    return [seek_json(seek, ratings) for seek in seeks]


@router.get("/seeks/{seek_id}", response={200: SeekStatusOut, **ERRORS}, summary="A seek's status")
@guarded()
def get_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    """Asked by the seeker (its token), this keeps the seek open, and once taken answers the seat."""
    seek = services.get_seek(seek_id)
    asker = who(request)
    answer: dict[str, Any] = {"status": seek.status, "game": seek.game_id}
    if services.is_seeker(seek, asker):
        services.keep_alive(seek)
        if seek.status == Seek.Status.TAKEN:
            by_secret = bool(asker.token) and not asker.player_id
            answer["seat"] = services.seeker_seat(seek, by_secret=by_secret)
            answer["token"] = asker.token if by_secret and answer["seat"] is not None else None
    return answer


@router.post("/seeks/{seek_id}/accept", response={200: AcceptedOut, **ERRORS}, summary="Accept a seek")
@guarded()
def accept_seek(request: HttpRequest, seek_id: int) -> dict[str, Any]:
    taken = services.accept_seek(seek_id, who(request))
    return {"game": taken.game.pk, "seat": taken.seat, "token": taken.token}


@router.delete("/seeks/{seek_id}", response={204: None, **ERRORS}, summary="Cancel your seek")
@guarded()
def cancel_seek(request: HttpRequest, seek_id: int) -> Status[None]:
    services.cancel_seek(seek_id, who(request))
    return Status(204, None)


# While waiting, the answer looks for its game this often (a read), and joins again (a
# locked write that keeps the place and retries with the widened range) this often.
LOOK_EVERY = 0.2
JOIN_EVERY = 2.0


@router.post("/pairing", response={200: PairedOut, 204: None, **ERRORS}, summary="Quick pairing")
@guarded()
async def pairing(request: HttpRequest, body: PairingIn) -> Any:
    """Wait in the pool of this game and clock (a personal token is needed: the seat is the
    account's). Answers the game once paired, or 204 after PAIRING_WAIT seconds: ask again."""
    player = await sync_to_async(who)(request)
    start = time.monotonic()
    deadline = start + settings.PAIRING_WAIT
    waiting: pool.Waiting | None = await sync_to_async(pool.join)(player, body.game, body.clock)
    joined = start
    while waiting is None or waiting.game is None:
        now = time.monotonic()
        if now >= deadline:
            return HttpResponse(status=204)
        await asyncio.sleep(min(LOOK_EVERY, deadline - now))
        if time.monotonic() - joined >= JOIN_EVERY:
            waiting = await sync_to_async(pool.join)(player, body.game, body.clock)
            joined = time.monotonic()
        else:
            waiting = await sync_to_async(pool.unseen_game)(player)
    seat = await sync_to_async(seat_of)(waiting)
    return Status(200, {"game": waiting.game.pk, "seat": seat})


def seat_of(waiting: pool.Waiting) -> int:
    game = waiting.game
    if game is None:
        raise ServiceError("not_paired", _("Not paired yet."), 409)
    return next(s.index for s in game.seat_list if s.player_id == waiting.entry.player_id)


api.add_router("/", router)
