"""The tournaments' routes of the JSON API (mounted on games' API object). See docs/api.md,
"Tournaments". A personal token acts for its account; listing and reading need none."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from accounts import services as accounts
from games.api.plumbing import api, bearer, guarded
from games.api.schemas import ErrorOut, Options
from games.services.base import ServiceError
from tournaments import berserk, presenting, services
from tournaments.models import Tournament

router = Router(tags=["tournaments"])
ERRORS: dict[int, Any] = dict.fromkeys((400, 401, 403, 404, 409, 413, 415, 429, 503), ErrorOut)
STATUS = {10: "upcoming", 20: "running", 30: "finished"}


class TournamentIn(Schema):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["arena", "swiss"]
    game: str = Field(max_length=20, description="quarto, tictactoe, connect or ultimate")
    options: Options | None = Field(
        default=None, max_length=8, description="The game's own options, as for a new game."
    )
    clock: Any = Field(description='{"initial": seconds, "increment": seconds}: a real-time clock.')
    minutes: Any = Field(default=None, description="An arena's duration, 1 to 1440.")
    rounds: Any = Field(default=None, description="A Swiss event's rounds, 1 to 30.")
    starts_at: Any = Field(default=None, description="ISO 8601 with a time zone; or starts_in.")
    starts_in: Any = Field(default=None, description="Seconds from now, 0 to 2592000; none: now.")
    rated: Any = Field(default=False, description="true or false.")
    name: Any = Field(default=None, description="Up to 80 characters; a name is made when left out.")


class TournamentOut(Schema):
    id: int
    name: str
    kind: str
    game: str
    options: dict[str, Any]
    clock: dict[str, Any]
    time_control: str
    rated: bool
    minutes: int | None
    rounds: int | None
    round: int
    status: Literal["upcoming", "running", "finished"]
    starts_at: datetime
    ends_at: datetime | None
    players: int


class StandingOut(Schema):
    rank: int
    user: str
    score: float = Field(description="Arena points; Swiss points (a win 1, a draw 0.5).")
    rating: int
    streak: int = Field(description="Wins in a row (arena: 2 or more is on fire).")
    on_fire: bool
    sheet: str = Field(description='Points game by game ("2 4 0"; "-" not counted; "B" a bye).')
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    withdrawn: bool
    game: int | None = Field(description="The game it plays now.")


class GameOut(Schema):
    id: int
    round: int
    seats: list[str] = Field(description="The accounts in the first and second seat.")
    done: bool
    points: list[int] = Field(description="What the game scored each seat, once done.")


class DetailOut(TournamentOut):
    standings: list[StandingOut]
    games: list[GameOut]


class MeOut(Schema):
    game: int | None = Field(description="Your game in the tournament now; null while you wait.")


def account_user(request: HttpRequest) -> Any:
    token = bearer(request)
    account = accounts.account_for_token(token)
    if account is None:
        if token:
            raise ServiceError("unknown_token", _("That token is unknown or revoked."), 401)
        raise ServiceError("no_token", _("Send your personal token as 'Authorization: Bearer <token>'."), 401)
    return account.user


def summary(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "kind": tournament.kind,
        "game": tournament.game,
        "options": tournament.options,
        "clock": tournament.clock,
        "time_control": presenting.time_control(tournament),
        "rated": tournament.rated,
        "minutes": tournament.minutes,
        "rounds": tournament.rounds,
        "round": tournament.round,
        "status": STATUS[tournament.status],
        "starts_at": tournament.starts_at,
        "ends_at": tournament.ends_at,
        "players": tournament.entries.count(),
    }


def detail(tournament: Tournament) -> dict[str, Any]:
    swiss = tournament.kind == Tournament.Kind.SWISS
    standings = [
        {
            "rank": place,
            "user": entry.user.get_username(),
            "score": entry.score / 2 if swiss else entry.score,
            "rating": round(entry.rating),
            "streak": entry.streak,
            "on_fire": not swiss and entry.on_fire,
            "sheet": entry.sheet,
            "buchholz": entry.buchholz / 2 if swiss else None,
            "sonneborn_berger": entry.sonneborn / 4 if swiss else None,
            "withdrawn": entry.withdrawn,
            "game": entry.game_id,
        }
        for place, entry in enumerate(services.standings(tournament), 1)
    ]
    pairings = tournament.pairings.filter(game__isnull=False).select_related("first__user", "second__user")
    games = [
        {
            "id": p.game_id,
            "round": p.round,
            "seats": [p.first.user.get_username(), p.second.user.get_username() if p.second else ""],
            "done": p.done,
            "points": [p.first_points, p.second_points],
        }
        for p in pairings.order_by("-pk")[:200]
    ]
    return {**summary(tournament), "standings": standings, "games": games}


@router.get("/tournaments", response={200: list[TournamentOut], **ERRORS}, summary="The tournaments")
@guarded()
def list_tournaments(
    request: HttpRequest, status: Literal["upcoming", "running", "finished"] | None = None
) -> list[dict[str, Any]]:
    """Upcoming and running first (by start), then the 50 last finished."""
    rows = Tournament.objects.all()
    if status is not None:
        rows = rows.filter(status={v: k for k, v in STATUS.items()}[status])
    live = rows.filter(status__lt=Tournament.Status.FINISHED).order_by("starts_at")[:100]
    over = rows.filter(status=Tournament.Status.FINISHED).order_by("-ends_at", "-pk")[:50]
    return [summary(t) for t in [*live, *over]]


@router.post("/tournaments", response={201: TournamentOut, **ERRORS}, summary="Make a tournament")
@guarded()
def create_tournament(request: HttpRequest, body: TournamentIn) -> Status[dict[str, Any]]:
    """With a personal token. An account may have TOURNAMENTS_PER_ACCOUNT (3) tournaments to
    come or running at once (409 too_many_tournaments). An arena gives minutes, a Swiss
    event rounds; it starts at starts_at, starts_in seconds from now, or now."""
    made = services.create(
        account_user(request),
        kind=body.kind,
        game=body.game,
        options=body.options,
        clock=body.clock,
        minutes=body.minutes,
        rounds=body.rounds,
        starts_at=body.starts_at,
        starts_in=body.starts_in,
        rated=body.rated,
        name=body.name,
    )
    return Status(201, summary(made))


@router.get("/tournaments/{tournament_id}", response={200: DetailOut, **ERRORS}, summary="A tournament")
@guarded()
def get_tournament(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    return detail(services.get(tournament_id))


@router.post("/tournaments/{tournament_id}/join", response={200: MeOut, **ERRORS}, summary="Join")
@guarded()
def join(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """Joining twice is joining once; after a withdrawal it is coming back."""
    entry = services.join(tournament_id, account_user(request))
    return {"game": entry.game_id}


@router.post("/tournaments/{tournament_id}/withdraw", response={200: MeOut, **ERRORS}, summary="Withdraw")
@guarded()
def withdraw(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """No more pairings; a game in progress is played out."""
    entry = services.withdraw(tournament_id, account_user(request))
    return {"game": entry.game_id}


@router.post("/tournaments/{tournament_id}/berserk", response={200: MeOut, **ERRORS}, summary="Berserk")
@guarded()
def go_berserk(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """An arena only: halve your clock in your current game before your first move, for one
    more point on a win (409 not_playing, too_late, not_an_arena)."""
    pairing = berserk.berserk(tournament_id, account_user(request))
    return {"game": pairing.game_id}


@router.get("/tournaments/{tournament_id}/me", response={200: MeOut, **ERRORS}, summary="Your game now")
@guarded()
def me(request: HttpRequest, tournament_id: int) -> dict[str, Any]:
    """Your game in the tournament now (a bot asks this between games), or null."""
    return {"game": services.current_game(tournament_id, account_user(request))}


api.add_router("/", router)
