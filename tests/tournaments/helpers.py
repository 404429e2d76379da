"""Accounts, tournaments and game results for the tournaments' tests."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from accounts import services as accounts
from games.models import Game
from games.services import actions
from games.services.base import Actor
from tournaments import services
from tournaments.models import Entry, Tournament

BLITZ = {"initial": 180, "increment": 2}


def user(name: str, rating: float | None = None) -> Any:
    made = User.objects.create_user(name)  # no password: hashing one takes a while
    accounts.account_of(made)
    return made


def player_of(made: Any) -> str:
    account = accounts.account_of(made)
    assert account is not None
    return account.player_id


def tournament(kind: str = "arena", creator: Any = None, **overrides: Any) -> Tournament:
    creator = creator or User.objects.get_or_create(username="staff", defaults={"is_staff": True})[0]
    fields: dict[str, Any] = {"kind": kind, "game": "tictactoe", "clock": BLITZ}
    fields.update({"minutes": 30} if kind == "arena" else {"rounds": 3})
    fields.update(overrides)
    return services.create(creator, **fields)


def later(seconds: float = 1) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


def seat_player(game: Game, seat: int) -> str:
    return next(s.player_id for s in game.seat_list if s.index == seat)


def win(game_id: int, seat: int) -> None:
    """The game ends, ``seat`` winning (its opponent resigns)."""
    game = Game.objects.get(pk=game_id)
    actions.resign(game_id, Actor(player_id=seat_player(game, 1 - seat)), None)


def draw(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    actions.draw(game_id, Actor(player_id=seat_player(game, 0)), True, None)
    actions.draw(game_id, Actor(player_id=seat_player(game, 1)), True, None)


def entry(t: Tournament, made: Any) -> Entry:
    return Entry.objects.get(tournament=t, user=made)
