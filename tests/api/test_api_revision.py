"""The move guard names the position (its revision), not only its length (its ply)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game

from .api_helpers import create, error_of, post

pytestmark = pytest.mark.django_db(transaction=True)


def people(client: Client) -> tuple[int, str, str]:
    created = create(client, game="tictactoe", opponent="human", level=None)
    joined = post(client, f"/api/v1/games/{created['id']}/join", {"invite": created["invite"]})
    assert joined.status_code == 200, joined.content
    return created["id"], created["token"], joined.json()["token"]


def play(client: Client, game: int, token: str, **body: Any) -> Any:
    return post(client, f"/api/v1/games/{game}/moves", body, token)


def test_a_move_made_for_a_position_taken_back_is_stale(client: Client) -> None:
    game, one, two = people(client)
    assert play(client, game, one, move="a1", ply=0).status_code == 200
    assert play(client, game, two, move="b2", ply=1).status_code == 200
    after_c3 = play(client, game, one, move="c3", ply=2).json()
    assert after_c3["revision"] == Game.objects.get(pk=game).revision
    # The first seat takes c3 back, the second accepts, and a2 is played instead.
    assert post(client, f"/api/v1/games/{game}/takeback/yes?ply=3", token=one).status_code == 200
    assert post(client, f"/api/v1/games/{game}/takeback/yes?ply=3", token=two).status_code == 200
    assert play(client, game, one, move="a2", ply=2).json()["ply"] == 3
    # The second seat's answer to c3, delayed: the same ply, another position.
    late = play(client, game, two, move="a3", ply=3, revision=after_c3["revision"])
    assert error_of(late) == (409, "stale")
    assert "reload" in late.json()["detail"]
    assert Game.objects.get(pk=game).move_texts == ["a1", "b2", "a2"]
    now = client.get(f"/api/v1/games/{game}").json()
    assert play(client, game, two, move="a3", ply=now["ply"], revision=now["revision"]).status_code == 200


def test_a_revision_is_optional_and_checked_for_type(client: Client) -> None:
    game, one, _ = people(client)
    assert error_of(play(client, game, one, move="a1", ply=0, revision="1"))[1] == "invalid_request"
    assert error_of(play(client, game, one, move="a1", ply=0, revision=-1))[1] == "invalid_request"
    assert play(client, game, one, move="a1", ply=0).status_code == 200
