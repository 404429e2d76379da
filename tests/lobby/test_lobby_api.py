"""The lobby's JSON API: seeks made, listed, followed, accepted, cancelled; quick pairing;
every refusal with its code."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from accounts import services as accounts
from games.models import Game
from lobby.models import Seek

from .helpers import BLITZ, account_row

pytestmark = pytest.mark.django_db


def call(client: Client, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = "" if body is None else json.dumps(body)
    return getattr(client, method)(path, data, content_type="application/json", headers=headers)


def personal_token(name: str, *, bot: bool = False) -> str:
    return accounts.create_token(account_row(name, bot=bot), "bot")


def error_of(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error", "detail"} and body["detail"], body
    return response.status_code, body["error"]


def seek(client: Client, token: str | None = None, **fields: Any) -> dict[str, Any]:
    response = call(client, "post", "/api/v1/seeks", {"game": "tictactoe", **fields}, token)
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def test_a_seek_from_offer_to_game(client: Client) -> None:
    made = seek(client, clock=BLITZ, seat="first")
    assert set(made) == {"id", "token"}
    listed = call(client, "get", "/api/v1/seeks").json()
    assert [(s["id"], s["game"], s["time_control"], s["user"], s["bot"]) for s in listed] == [
        (made["id"], "tictactoe", "3+2", None, False)
    ]
    assert call(client, "get", f"/api/v1/seeks/{made['id']}", token=made["token"]).json() == {
        "status": "open",
        "game": None,
        "seat": None,
        "token": None,
    }
    taken = call(client, "post", f"/api/v1/seeks/{made['id']}/accept")
    assert taken.status_code == 200, taken.content
    accepted = taken.json()
    assert accepted["seat"] == 1 and accepted["token"]
    mine = call(client, "get", f"/api/v1/seeks/{made['id']}", token=made["token"]).json()
    assert mine == {"status": "taken", "game": accepted["game"], "seat": 0, "token": made["token"]}
    theirs = call(client, "get", f"/api/v1/seeks/{made['id']}").json()
    assert theirs["token"] is None and theirs["status"] == "taken"
    move = call(
        client, "post", f"/api/v1/games/{accepted['game']}/moves", {"move": "b2", "ply": 0}, made["token"]
    )
    assert move.status_code == 200, move.content
    assert call(client, "get", "/api/v1/seeks").json() == []


def test_an_account_seeks_with_its_token_and_a_bot_is_marked(client: Client) -> None:
    token = personal_token("robot", bot=True)
    made = seek(client, token, clock=BLITZ, rated=True)
    listed = call(client, "get", "/api/v1/seeks?game=tictactoe").json()
    assert [(s["user"], s["bot"], s["rating"], s["rated"]) for s in listed] == [
        ("robot", True, "1500?", True)
    ]
    assert call(client, "get", "/api/v1/seeks?game=quarto").json() == []
    other = personal_token("human")
    accepted = call(client, "post", f"/api/v1/seeks/{made['id']}/accept", token=other).json()
    game = Game.objects.get(pk=accepted["game"])
    assert game.rated and {s.user.username for s in game.seat_list if s.user} == {"robot", "human"}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "tictactoe", "clock": {"initial": 5}}, "bad_clock"),
        ({"game": "tictactoe", "clock": "3+2"}, "bad_clock"),
        ({"game": "tictactoe", "clock": {"days": 4}}, "bad_clock"),
        ({"game": "connect", "options": {"width": 99}}, "bad_option"),
        ({"game": "connect", "options": {"width": "7"}}, "invalid_request"),
        ({"game": "tictactoe", "seat": "middle"}, "invalid_request"),
        ({"game": "tictactoe", "colour": "red"}, "invalid_request"),
    ],
)
def test_bad_seeks_are_400(client: Client, body: dict[str, Any], code: str) -> None:
    assert error_of(call(client, "post", "/api/v1/seeks", body)) == (400, code)
    assert not Seek.objects.exists()


def test_rated_seek_refusals(client: Client) -> None:
    anonymous = call(client, "post", "/api/v1/seeks", {"game": "tictactoe", "clock": BLITZ, "rated": True})
    assert error_of(anonymous) == (403, "rated_needs_account")
    token = personal_token("alice")
    untimed = call(client, "post", "/api/v1/seeks", {"game": "tictactoe", "rated": True}, token)
    assert error_of(untimed) == (400, "rated_needs_clock")
    made = seek(client, token, clock=BLITZ, rated=True)
    assert error_of(call(client, "post", f"/api/v1/seeks/{made['id']}/accept")) == (
        403,
        "rated_needs_account",
    )


def test_accept_refusals(client: Client) -> None:
    made = seek(client)
    assert error_of(call(client, "post", f"/api/v1/seeks/{made['id']}/accept", token=made["token"])) == (
        409,
        "own_seek",
    )
    token = personal_token("alice")
    mine = seek(client, token)
    assert error_of(call(client, "post", f"/api/v1/seeks/{mine['id']}/accept", token=token)) == (
        409,
        "own_seek",
    )
    assert call(client, "post", f"/api/v1/seeks/{made['id']}/accept").status_code == 200
    assert error_of(call(client, "post", f"/api/v1/seeks/{made['id']}/accept")) == (409, "seek_gone")
    assert error_of(call(client, "post", "/api/v1/seeks/999/accept")) == (404, "not_found")


def test_cancel_is_for_the_seeker(client: Client) -> None:
    made = seek(client)
    assert error_of(call(client, "delete", f"/api/v1/seeks/{made['id']}")) == (403, "not_your_seek")
    assert call(client, "delete", f"/api/v1/seeks/{made['id']}", token=made["token"]).status_code == 204
    assert call(client, "get", f"/api/v1/seeks/{made['id']}").json()["status"] == "cancelled"
    assert error_of(call(client, "post", f"/api/v1/seeks/{made['id']}/accept")) == (409, "seek_gone")


def test_too_many_seeks_and_the_rate_limit(client: Client, settings: Any) -> None:
    settings.LOBBY_MAX_SEEKS = 1
    seek(client)
    assert error_of(call(client, "post", "/api/v1/seeks", {"game": "tictactoe"})) == (409, "too_many_seeks")
    settings.LOBBY_MAX_SEEKS = 10
    settings.RATE_LIMIT_CREATE = "2/minute"
    seek(client)
    answer = call(client, "post", "/api/v1/seeks", {"game": "tictactoe"})
    assert error_of(answer) == (429, "rate_limited") and int(answer["Retry-After"]) >= 1


def test_an_api_seek_not_asked_for_is_cancelled(client: Client, settings: Any) -> None:
    settings.SEEK_ALIVE = 0
    made = seek(client, clock=BLITZ)
    assert call(client, "get", "/api/v1/seeks").json() == []
    assert Seek.objects.get(pk=made["id"]).status == Seek.Status.CANCELLED


def test_pairing_refusals_and_a_retry(client: Client, settings: Any) -> None:
    settings.PAIRING_WAIT = 0
    assert error_of(call(client, "post", "/api/v1/pairing", {"game": "tictactoe", "clock": BLITZ})) == (
        401,
        "no_player",
    )
    token = personal_token("alice")
    for body, code in [
        ({"game": "chess", "clock": BLITZ}, "unknown_game"),
        ({"game": "tictactoe", "clock": {}}, None),
    ]:
        answer = call(client, "post", "/api/v1/pairing", body, token)
        if code:
            assert error_of(answer) == (400, code)
        else:
            assert answer.status_code == 204


@pytest.mark.django_db(transaction=True)
def test_two_bots_meet_through_pairing(settings: Any) -> None:
    settings.PAIRING_WAIT = 5
    tokens = [personal_token("one"), personal_token("two")]
    answers: dict[str, Any] = {}

    def ask(token: str) -> None:
        try:
            answers[token] = call(
                Client(), "post", "/api/v1/pairing", {"game": "tictactoe", "clock": BLITZ}, token
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bodies = [answers[t].json() for t in tokens]
    assert [a.status_code for a in answers.values()] == [200, 200]
    assert bodies[0]["game"] == bodies[1]["game"] and {b["seat"] for b in bodies} == {0, 1}
    game = Game.objects.get(pk=bodies[0]["game"])
    assert game.rated and game.status == Game.Status.PLAYING


def test_the_lobby_is_in_the_openapi_schema(client: Client) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert {
        "/api/v1/seeks",
        "/api/v1/seeks/{seek_id}",
        "/api/v1/seeks/{seek_id}/accept",
        "/api/v1/pairing",
    } <= set(paths)
    assert set(paths["/api/v1/seeks/{seek_id}"]) == {"get", "delete"}
