"""Shortcuts for API tests: JSON requests with a seat's token."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client

# What the test client returns: an HttpResponse with .json() (typed only in the stubs).
Response = Any

# Seat 1 (index 1) wins with four round pieces on rank 1.
SECOND_WINS = ["8", "a1", "0", "a4", "9", "b1", "1", "b4", "10", "c1", "2", "c4", "11", "d1"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post(client: Client, path: str, body: Any = None, token: str | None = None) -> Response:
    data = "" if body is None else body if isinstance(body, str | bytes) else json.dumps(body)
    response: Response = client.post(
        path, data, content_type="application/json", headers=auth(token) if token else {}
    )
    return response


def create(client: Client, **fields: Any) -> dict[str, Any]:
    body = {"game": "quarto", "opponent": "ai", "level": "casual", "seat": "first", **fields}
    response = post(client, "/api/v1/games", body)
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def move(client: Client, game_id: int, text: str, ply: int, token: str | None) -> Response:
    return post(client, f"/api/v1/games/{game_id}/moves", {"move": text, "ply": ply}, token)


def two_players(client: Client) -> tuple[int, str, str]:
    """A human-vs-human game over the API: (id, first seat's token, second seat's token)."""
    created = create(client, opponent="human", level=None)
    joined = post(client, f"/api/v1/games/{created['id']}/join", {"invite": created["invite"]})
    assert joined.status_code == 200, joined.content
    return created["id"], created["token"], joined.json()["token"]


def error_of(response: Response) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error", "detail"} and body["detail"], body
    return response.status_code, body["error"]


def play_through(client: Client, game_id: int, texts: list[str], tokens: dict[int, str]) -> Response:
    """Play the texts in order, each with the token of the seat to move; the last response."""
    response: Response = client.get(f"/api/v1/games/{game_id}")
    for text in texts:
        state = response.json()
        response = move(client, game_id, text, state["ply"], tokens[state["to_move"]])
        assert response.status_code == 200, response.content
    return response
