"""Rated games for the ratings' tests: a new account, and a game it makes in the first seat."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from accounts.models import Account
from accounts.services import account_of
from games.models import Game
from games.services import moves as services

BLITZ = {"initial": 180, "increment": 2}


def new_account(name: str) -> Account:
    row = account_of(User.objects.create_user(name))
    assert row is not None
    return row


def rated_game(
    player_id: str,
    kind: str = "tictactoe",
    *,
    opponent: str = "human",
    clock: dict[str, Any] | None = None,
    rated: bool = True,
    **more: Any,
) -> Game:
    """A game ``player_id`` makes in the first seat: rated, at 3+2, unless told otherwise
    (``opponent="ai", level=...`` for one against the computer)."""
    return services.create_game(
        kind,
        {},
        opponent=opponent,
        seat="first",
        player_id=player_id,
        clock=clock or BLITZ,
        rated=rated,
        **more,
    ).game
