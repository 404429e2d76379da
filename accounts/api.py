"""The account routes of the JSON API (mounted on games' API object): personal tokens,
the token's own account, public profiles. See docs/api.md."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status
from ninja.utils import check_csrf

from accounts import profiles, services
from accounts.models import Account
from accounts.views import public_user
from games.api.plumbing import api, bearer, guarded
from games.api.schemas import ErrorOut
from games.services.moves import ServiceError
from ratings import services as ratings
from ratings.api import RatingOut, rating_json

router = Router(tags=["account"])
ERRORS: dict[int, Any] = dict.fromkeys((400, 401, 403, 404, 409, 413, 415, 429, 503), ErrorOut)


class TokenIn(Schema):
    name: str


class TokenOut(Schema):
    name: str
    token: str


class RecordOut(Schema):
    game: str
    won: int
    drawn: int
    lost: int
    games: int


class UserOut(Schema):
    username: str
    bot: bool
    created: datetime
    records: list[RecordOut]
    playing: list[int]
    ratings: list[RatingOut]


class AccountOut(UserOut):
    tokens: list[str]


def session_account(request: HttpRequest) -> Account:
    """The logged-in account of a browser session that sent its CSRF header, or a refusal."""
    account = services.account_of(request.user)
    if account is None:
        words = _("Log in on the site first: tokens are made from a session.")
        raise ServiceError("not_logged_in", words, 401)
    if check_csrf(request) is not None:
        raise ServiceError("csrf_failed", _("Send the page's CSRF token in the X-CSRFToken header."), 403)
    if not account.in_good_standing:
        raise ServiceError("account_closed", _("This account cannot make tokens."), 403)
    return account


def user_json(user: Any, account: Account | None) -> dict[str, Any]:
    profile = profiles.profile_of(user)
    return {
        "username": user.get_username(),
        "bot": bool(account and account.bot),
        "created": user.date_joined,
        "records": [
            {"game": r.kind, "won": r.won, "drawn": r.drawn, "lost": r.lost, "games": r.games}
            for r in profile.records
        ],
        "playing": [game.pk for game in profile.playing],
        "ratings": [rating_json(row) for row in ratings.ratings_of(user)],
    }


@router.post("/account/tokens", response={201: TokenOut, **ERRORS}, summary="Create a personal token")
@guarded()
def create_token(request: HttpRequest, body: TokenIn) -> Status[dict[str, Any]]:
    """From a logged-in browser session with its CSRF header; the token is shown this once."""
    token = services.create_token(session_account(request), body.name)
    return Status(201, {"name": services.clean_token_name(body.name), "token": token})


@router.delete("/account/tokens/{name}", response={204: None, **ERRORS}, summary="Revoke a personal token")
@guarded()
def revoke_token(request: HttpRequest, name: str) -> Status[None]:
    services.revoke_token(session_account(request), name)
    return Status(204, None)


@router.get("/account", response={200: AccountOut, **ERRORS}, summary="The token's account")
@guarded()
def get_account(request: HttpRequest) -> dict[str, Any]:
    """With a personal token in 'Authorization: Bearer <token>'."""
    account = services.account_for_token(bearer(request))
    if account is None:
        raise ServiceError("unknown_token", _("Send a personal API token (made in your settings)."), 401)
    return {**user_json(account.user, account), "tokens": list(account.tokens.values_list("name", flat=True))}


@router.get("/users/{username}", response={200: UserOut, **ERRORS}, summary="A player's public profile")
@guarded()
def get_user(request: HttpRequest, username: str) -> dict[str, Any]:
    user = public_user(username)
    return user_json(user, Account.objects.filter(user=user).first())


api.add_router("/", router)
