"""The tournaments' JSON API: listed, made (every refusal with its code), joined, withdrawn
from, read, and a player's game now; a bot plays its games through the games' API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as accounts
from tests.tournaments.helpers import BLITZ, win
from tournaments import pairing
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def call(client: Client, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = "" if body is None else (body if isinstance(body, str) else json.dumps(body))
    return getattr(client, method)(path, data, content_type="application/json", headers=headers)


def personal_token(name: str) -> str:
    account = accounts.account_of(User.objects.create_user(name))
    assert account is not None
    return accounts.create_token(account, "bot")


def error_of(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error", "detail"} and body["detail"], body
    return response.status_code, body["error"]


ARENA = {"kind": "arena", "game": "tictactoe", "clock": BLITZ, "minutes": 20}


def test_an_arena_through_the_api(client: Client) -> None:
    maker, ann, bob = personal_token("maker"), personal_token("ann"), personal_token("bob")
    made = call(client, "post", "/api/v1/tournaments", ARENA, maker)
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    assert made.json()["status"] == "upcoming" and made.json()["time_control"] == "3+2"
    for token in (ann, bob, ann):
        answer = call(client, "post", f"/api/v1/tournaments/{tid}/join", token=token)
        assert answer.status_code == 200 and answer.json() == {"game": None}
    assert call(client, "get", f"/api/v1/tournaments/{tid}").json()["players"] == 2
    pairing.tick()
    game = call(client, "get", f"/api/v1/tournaments/{tid}/me", token=ann).json()["game"]
    assert game is not None
    assert call(client, "get", f"/api/v1/tournaments/{tid}/me", token=bob).json()["game"] == game
    # The bot plays through the games' API with the same token: its seat is the account's.
    seen = call(client, "get", f"/api/v1/games/{game}", token=ann)
    assert seen.status_code == 200
    win(game, 0)
    detail = call(client, "get", f"/api/v1/tournaments/{tid}").json()
    assert detail["status"] == "running"
    assert sorted(s["score"] for s in detail["standings"]) == [0, 2]
    assert detail["games"][0]["id"] == game and detail["games"][0]["done"]
    assert call(client, "get", f"/api/v1/tournaments/{tid}/me", token=ann).json() == {"game": None}
    listed = call(client, "get", "/api/v1/tournaments").json()
    assert [t["id"] for t in listed] == [tid]
    assert call(client, "post", f"/api/v1/tournaments/{tid}/withdraw", token=bob).status_code == 200
    standings = call(client, "get", f"/api/v1/tournaments/{tid}").json()["standings"]
    assert {s["user"]: s["withdrawn"] for s in standings} == {"ann": False, "bob": True}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ('{"kind": "arena", "game": "tictactoe", "clock": {"initial": 180}, "minutes": NaN}', "bad_number"),
        (
            '{"kind": "arena", "game": "tictactoe", "clock": {"initial": 180}, "minutes": Infinity}',
            "bad_number",
        ),
        ('{"kind": "arena", "game": "tictactoe", "clock": {"initial": 180}, "minutes": 1e999}', "bad_number"),
        ({**ARENA, "minutes": 10**40}, "out_of_range"),
        ({**ARENA, "minutes": -5}, "out_of_range"),
        ({**ARENA, "starts_in": 1e300}, "out_of_range"),
        ({**ARENA, "starts_in": -1}, "out_of_range"),
        ('{"kind": "arena", "game": "tictactoe", "clock": {"initial": NaN}, "minutes": 5}', "bad_clock"),
        ({**ARENA, "clock": {"initial": 10**40}}, "bad_clock"),
        ({**ARENA, "kind": "ladder"}, "invalid_request"),
        ({**ARENA, "colour": "white"}, "invalid_request"),
        ({**ARENA, "options": {"advanced": "yes"}}, "invalid_request"),
        ({**ARENA, "game": "go"}, "unknown_game"),
        ({**ARENA, "rounds": 3}, "bad_option"),
        ({**ARENA, "starts_at": "yesterday"}, "bad_start"),
        ({"kind": "swiss", "game": "tictactoe", "clock": BLITZ, "rounds": 0}, "out_of_range"),
        ("[1, 2", "invalid_request"),
    ],
)
def test_bad_input_is_a_400_with_a_code_and_makes_nothing(client: Client, body: Any, code: str) -> None:
    token = personal_token("maker")
    assert error_of(call(client, "post", "/api/v1/tournaments", body, token)) == (400, code)
    assert not Tournament.objects.exists()


def test_a_token_is_needed_to_make_join_or_ask(client: Client) -> None:
    assert error_of(call(client, "post", "/api/v1/tournaments", ARENA)) == (401, "no_token")
    assert error_of(call(client, "post", "/api/v1/tournaments", ARENA, "qs_wrong")) == (401, "unknown_token")
    tid = call(client, "post", "/api/v1/tournaments", ARENA, personal_token("maker")).json()["id"]
    assert error_of(call(client, "post", f"/api/v1/tournaments/{tid}/join")) == (401, "no_token")
    assert error_of(call(client, "get", f"/api/v1/tournaments/{tid}/me")) == (401, "no_token")
    assert error_of(call(client, "get", "/api/v1/tournaments/99999")) == (404, "not_found")
    assert error_of(call(client, "post", "/api/v1/tournaments/99999/join", token=personal_token("x"))) == (
        404,
        "not_found",
    )


def test_withdrawing_without_joining_is_a_409(client: Client) -> None:
    maker = personal_token("maker")
    tid = call(client, "post", "/api/v1/tournaments", ARENA, maker).json()["id"]
    assert error_of(call(client, "post", f"/api/v1/tournaments/{tid}/withdraw", token=maker)) == (
        409,
        "not_joined",
    )


def test_the_routes_are_in_the_openapi_schema(client: Client) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    for path in (
        "/api/v1/tournaments",
        "/api/v1/tournaments/{tournament_id}",
        "/api/v1/tournaments/{tournament_id}/join",
        "/api/v1/tournaments/{tournament_id}/withdraw",
        "/api/v1/tournaments/{tournament_id}/me",
    ):
        assert path in paths, path
    assert set(paths["/api/v1/tournaments"]) == {"get", "post"}


def test_berserk_through_the_api(client: Client) -> None:
    maker, ann, bob = personal_token("maker"), personal_token("ann"), personal_token("bob")
    tid = call(client, "post", "/api/v1/tournaments", ARENA, maker).json()["id"]
    assert error_of(call(client, "post", f"/api/v1/tournaments/{tid}/berserk", token=ann)) == (
        409,
        "not_joined",
    )
    for token in (ann, bob):
        call(client, "post", f"/api/v1/tournaments/{tid}/join", token=token)
    pairing.tick()
    answer = call(client, "post", f"/api/v1/tournaments/{tid}/berserk", token=ann)
    assert answer.status_code == 200 and answer.json()["game"] is not None
    swiss = call(
        client, "post", "/api/v1/tournaments", {**ARENA, "kind": "swiss", "minutes": None, "rounds": 3}, maker
    )
    assert error_of(call(client, "post", f"/api/v1/tournaments/{swiss.json()['id']}/berserk", token=ann)) == (
        409,
        "not_an_arena",
    )


def test_a_swiss_of_five_bots_over_three_rounds(client: Client) -> None:
    tokens = [personal_token(f"bot{n}") for n in range(5)]
    body = {"kind": "swiss", "game": "tictactoe", "clock": BLITZ, "rounds": 3}
    tid = call(client, "post", "/api/v1/tournaments", body, tokens[0]).json()["id"]
    for token in tokens:
        call(client, "post", f"/api/v1/tournaments/{tid}/join", token=token)
    for round_number in (1, 2, 3):
        pairing.tick()
        games = {call(client, "get", f"/api/v1/tournaments/{tid}/me", token=t).json()["game"] for t in tokens}
        assert None in games and len(games - {None}) == 2  # two games and a bye
        for game in games - {None}:
            win(game, 1)
        assert call(client, "get", f"/api/v1/tournaments/{tid}").json()["round"] == round_number
    pairing.tick()
    detail = call(client, "get", f"/api/v1/tournaments/{tid}").json()
    assert detail["status"] == "finished"
    assert sum(s["score"] for s in detail["standings"]) == 9
    assert [s["rank"] for s in detail["standings"]] == [1, 2, 3, 4, 5]
    assert sum(s["sheet"].count("B") for s in detail["standings"]) == 3
    assert all(s["buchholz"] is not None for s in detail["standings"])
