"""Bodies must be application/json: a form or text/plain body is what another site can
make a visitor's browser send without a CORS preflight."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Game

from .api_helpers import create, error_of, post

pytestmark = pytest.mark.django_db(transaction=True)

SIMPLE_TYPES = ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", ""]


@pytest.mark.parametrize("content_type", SIMPLE_TYPES)
def test_create_with_a_body_that_is_not_json_typed_is_415(client: Client, content_type: str) -> None:
    body = json.dumps({"game": "quarto", "opponent": "ai", "level": "casual"})
    response = client.post("/api/v1/games", body, content_type=content_type)
    assert error_of(response) == (415, "unsupported_media_type")
    assert "application/json" in response.json()["detail"]
    assert Game.objects.count() == 0


def test_join_move_and_import_refuse_text_plain_and_change_nothing(client: Client) -> None:
    created = create(client, opponent="human", level=None)
    game_id = created["id"]
    join = client.post(
        f"/api/v1/games/{game_id}/join", json.dumps({"invite": created["invite"]}), content_type="text/plain"
    )
    assert error_of(join) == (415, "unsupported_media_type")
    move = client.post(
        f"/api/v1/games/{game_id}/moves",
        json.dumps({"move": "5", "ply": 0}),
        content_type="text/plain",
        headers={"Authorization": f"Bearer {created['token']}"},
    )
    assert error_of(move) == (415, "unsupported_media_type")
    record = client.post("/api/v1/records", '[Game "quarto"]\n\n1. 8\n', content_type="text/plain")
    assert error_of(record) == (415, "unsupported_media_type")
    game = Game.objects.get()
    assert game.status == Game.Status.WAITING and game.ply == 0 and game.seat_list[1].is_open


def test_json_with_a_charset_and_empty_bodies_are_accepted(client: Client) -> None:
    body = json.dumps({"game": "quarto", "opponent": "human"})
    created = client.post("/api/v1/games", body, content_type="application/json; charset=utf-8")
    assert created.status_code == 201
    # A join without a body is not a media-type question: it lacks the invite.
    assert error_of(post(client, f"/api/v1/games/{created.json()['id']}/join")) == (403, "bad_invite")
