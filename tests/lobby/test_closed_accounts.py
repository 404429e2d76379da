"""Closing or banning an account gives up what it offers in the lobby: its open seeks are
cancelled (no longer listed nor accepted), its pool places given up, and its seeks'
secrets hold no seat any more; no rating of the account changes through them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as accounts
from games.models import Game
from games.services import actions
from games.services.moves import Actor, ServiceError
from lobby import pool, services
from lobby.models import PoolEntry, Seek
from ratings.models import Rating, RatingChange

from .helpers import BLITZ, account

pytestmark = pytest.mark.django_db


def close(name: str) -> None:
    row = accounts.account_of(User.objects.get(username=name))
    assert row is not None
    accounts.close_account(row)


def ban(name: str) -> None:
    row = accounts.account_of(User.objects.get(username=name))
    assert row is not None
    accounts.ban_account(row)


ENDINGS: list[Callable[[str], None]] = [close, ban]


def move(game_id: int, text: str, ply: int, token: str) -> Any:
    return Client().post(
        f"/api/v1/games/{game_id}/moves",
        json.dumps({"move": text, "ply": ply}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )


@pytest.mark.parametrize("end", ENDINGS, ids=["closed", "banned"])
def test_an_ended_accounts_open_seeks_and_pool_places_go(end: Callable[[str], None]) -> None:
    alice, bob = account("alice"), account("bob")
    rated = services.create_seek(alice, "tictactoe", clock=BLITZ, rated=True)
    casual = services.create_seek(alice, "connect", clock={"days": 3})
    pool.join(alice, "quarto", BLITZ)
    assert PoolEntry.objects.filter(player_id=alice.player_id).exists()
    end("alice")
    for made in (rated, casual):
        assert Seek.objects.get(pk=made.seek.pk).status == Seek.Status.CANCELLED
        with pytest.raises(ServiceError) as refused:
            services.accept_seek(made.seek.pk, bob)
        assert refused.value.code == "seek_gone"
    assert services.open_seeks() == [] and Client().get("/api/v1/seeks").json() == []
    assert not PoolEntry.objects.filter(player_id=alice.player_id).exists()
    assert Game.objects.count() == 0 and not Rating.objects.exists()


def test_an_open_seek_of_an_account_closed_meanwhile_is_not_accepted() -> None:
    """Whatever the order of the closing and the accept: the seeker must still stand."""
    alice, bob = account("alice"), account("bob")
    made = services.create_seek(alice, "tictactoe", clock=BLITZ, rated=True)
    User.objects.filter(username="alice").update(is_active=False)
    with pytest.raises(ServiceError) as refused:
        services.accept_seek(made.seek.pk, bob)
    assert (refused.value.code, Game.objects.count()) == ("seek_gone", 0)


@pytest.mark.parametrize("end", ENDINGS, ids=["closed", "banned"])
def test_a_taken_seeks_secret_plays_no_more_and_rates_nobody(
    end: Callable[[str], None], no_ai_reply: Any
) -> None:
    alice = account("alice")
    alice = type(alice)(**{**alice.__dict__, "api": True})  # an API client: the secret holds its seat
    bob = account("bob")
    made = services.create_seek(alice, "tictactoe", clock=BLITZ, rated=True, seat="first")
    game = services.accept_seek(made.seek.pk, bob).game
    assert move(game.pk, "b2", 0, made.token).status_code == 200, "the secret plays while the account stands"
    end("alice")
    answer = move(game.pk, "a1", 1, made.token)
    if Game.objects.get(pk=game.pk).is_finished:  # a ban aborts the account's games
        assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    else:
        assert (answer.status_code, answer.json()["error"]) == (401, "unknown_token")
        actions.resign(game.pk, Actor(player_id=bob.player_id), None)
    assert not RatingChange.objects.filter(user__username="alice").exists()
    assert not Rating.objects.filter(user__username="alice").exists()


@pytest.mark.parametrize("end", ENDINGS, ids=["closed", "banned"])
def test_a_dead_secret_is_told_no_seat_by_the_seeks_status(end: Callable[[str], None]) -> None:
    """The status read with the secret answered seat 0 and the secret, which holds nothing."""
    alice = account("alice")
    alice = type(alice)(**{**alice.__dict__, "api": True})
    made = services.create_seek(alice, "tictactoe", clock=BLITZ, rated=True, seat="first")
    services.accept_seek(made.seek.pk, account("bob"))

    def status() -> Any:
        bearer = {"Authorization": f"Bearer {made.token}"}
        return Client().get(f"/api/v1/seeks/{made.seek.pk}", headers=bearer).json()

    assert (status()["seat"], status()["token"]) == (0, made.token), "the secret holds the seat"
    end("alice")
    assert (status()["seat"], status()["token"]) == (None, None)
