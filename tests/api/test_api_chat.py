"""The chat in the JSON API: read by anyone, written by the players with their seat's token."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import ChatLine
from games.services import chat

from .api_helpers import auth, post

pytestmark = pytest.mark.django_db


def two_players(client: Client) -> tuple[int, str, str]:
    created = post(
        client, "/api/v1/games", {"game": "tictactoe", "opponent": "human", "seat": "first"}
    ).json()
    joined = post(client, f"/api/v1/games/{created['id']}/join", {"invite": created["invite"]}).json()
    return created["id"], created["token"], joined["token"]


def test_players_write_and_anyone_reads(client: Client) -> None:
    game_id, first, second = two_players(client)
    response = post(client, f"/api/v1/games/{game_id}/chat", {"text": "  <hi> there "}, first)
    assert response.status_code == 201
    [line] = response.json()["lines"]
    assert (line["seat"], line["name"], line["text"]) == (0, "", "<hi> there")
    post(client, f"/api/v1/games/{game_id}/chat", {"text": "hello"}, second)
    lines = client.get(f"/api/v1/games/{game_id}/chat").json()["lines"]
    assert [(ln["seat"], ln["text"]) for ln in lines] == [(0, "<hi> there"), (1, "hello")]
    assert {"id", "seat", "name", "text", "created"} == set(lines[0])


def test_refusals(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RATE_LIMIT_CHAT = "1/minute"
    game_id, first, _ = two_players(client)
    _, stranger, _ = two_players(client)
    path = f"/api/v1/games/{game_id}/chat"
    assert post(client, path, {"text": "no token"}).json()["error"] == "no_token"
    refused = post(client, path, {"text": "not mine"}, stranger)
    assert refused.status_code == 403 and refused.json()["error"] == "not_your_seat"
    refused = post(client, path, {"text": "x" * 301}, first)
    assert refused.status_code == 400 and refused.json()["error"] == "too_long"
    assert post(client, path, {"text": "x", "seat": 1}, first).json()["error"] == "invalid_request"
    assert post(client, path, {"text": "ok"}, first).status_code == 201
    refused = post(client, path, {"text": "again"}, first)
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    chat.mute_authors(ChatLine.objects.filter(game_id=game_id))
    refused = post(client, path, {"text": "muted?"}, first)
    assert refused.status_code == 403 and refused.json()["error"] == "muted"
    assert client.get("/api/v1/games/999/chat").status_code == 404
    assert client.get(path, headers=auth(first)).status_code == 200


def test_hidden_lines_are_left_out(client: Client) -> None:
    game_id, first, _ = two_players(client)
    post(client, f"/api/v1/games/{game_id}/chat", {"text": "oops"}, first)
    chat.hide_lines(ChatLine.objects.all())
    assert client.get(f"/api/v1/games/{game_id}/chat").json() == {"lines": []}


def test_a_chat_refused_for_speed_says_when_to_try_again(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.RATE_LIMIT_CHAT = "1/minute"
    game_id, first, _ = two_players(client)
    path = f"/api/v1/games/{game_id}/chat"
    assert post(client, path, {"text": "ok"}, first).status_code == 201
    refused = post(client, path, {"text": "again"}, first)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert f"try again in {refused['Retry-After']} s" in refused.json()["detail"]
