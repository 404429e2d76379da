"""A known endpoint called with the wrong HTTP method: a JSON 405 with Allow, and no change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Move

from .api_helpers import Response, auth, create, error_of, two_players

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot(game_id: int) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game_id)
    return game.ply, game.status, list(Move.objects.filter(game=game).values_list("text", flat=True))


def assert_405(response: Response, method: str, allowed: str) -> None:
    assert error_of(response) == (405, "method_not_allowed")
    assert response["Content-Type"] == "application/json"
    assert response["Allow"] == allowed
    detail = response.json()["detail"]
    assert detail.startswith(f"{method} is not allowed on /api/v1/") and detail.endswith(f"use {allowed}.")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/api/v1/games/{id}/moves", "POST"),
        ("DELETE", "/api/v1/games", "POST"),
        ("PUT", "/api/v1/games/{id}", "GET"),
        ("PATCH", "/api/v1/games/{id}/join", "POST"),
        ("POST", "/api/v1/games/{id}/analysis", "GET"),  # the one async endpoint
        ("DELETE", "/api/v1/games/{id}/record", "GET"),
        ("GET", "/api/v1/records", "POST"),
        ("OPTIONS", "/api/v1/games/{id}", "GET"),
    ],
)
def test_wrong_method_is_a_json_405_naming_the_allowed_ones(
    client: Client, method: str, path: str, allowed: str
) -> None:
    game_id = create(client)["id"]
    before = snapshot(game_id)
    response = client.generic(method, path.format(id=game_id))
    assert_405(response, method, allowed)
    assert response.json()["detail"].startswith(f"{method} is not allowed on {path.format(id=game_id)};")
    assert snapshot(game_id) == before and Game.objects.count() == 1


def test_a_move_sent_with_put_is_not_played(client: Client) -> None:
    game_id, first, _ = two_players(client)
    before = snapshot(game_id)
    body = json.dumps({"move": "8", "ply": 0})
    response = client.generic(
        "PUT", f"/api/v1/games/{game_id}/moves", body, content_type="application/json", headers=auth(first)
    )
    assert_405(response, "PUT", "POST")
    assert snapshot(game_id) == before and before[0] == 0
    assert client.get(f"/api/v1/games/{game_id}").json()["ply"] == 0


def test_a_game_sent_with_delete_or_put_is_not_created(client: Client) -> None:
    body = json.dumps({"game": "quarto", "opponent": "ai", "level": "casual", "seat": "first"})
    for method in ("DELETE", "PUT"):
        response = client.generic(method, "/api/v1/games", body, content_type="application/json")
        assert_405(response, method, "POST")
    assert Game.objects.count() == 0


def test_head_on_a_get_endpoint_keeps_the_405_status_and_allow(client: Client) -> None:
    game_id = create(client)["id"]
    response = client.head(f"/api/v1/games/{game_id}")
    assert response.status_code == 405 and response["Allow"] == "GET"


def test_right_methods_and_unknown_paths_are_unchanged(client: Client) -> None:
    game_id = create(client)["id"]
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200
    assert error_of(client.delete("/api/v1/no-such-thing")) == (404, "not_found")
    assert error_of(client.get("/api/v1/games/99999")) == (404, "not_found")
