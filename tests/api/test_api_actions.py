"""Resign, draw, takeback and rematch over the JSON API, with the seat's token."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from .api_helpers import create, move, post

pytestmark = pytest.mark.django_db(transaction=True)


def two_people(client: Client) -> tuple[int, str, str]:
    created = create(client, opponent="human")
    joined = post(client, f"/api/v1/games/{created['id']}/join", {"invite": created["invite"]})
    assert joined.status_code == 200
    return created["id"], created["token"], joined.json()["token"]


def state(client: Client, game_id: int) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/v1/games/{game_id}").json()
    return data


def test_draw_offer_accept_and_the_state_says_agreed(client: Client) -> None:
    game, one, two = two_people(client)
    assert state(client, game)["offers"] == {}
    answer = post(client, f"/api/v1/games/{game}/draw/yes?ply=0", token=one)
    assert answer.status_code == 200 and answer.json()["offers"] == {"draw": [0]}
    repeat = post(client, f"/api/v1/games/{game}/draw/yes?ply=0", token=one)
    assert (repeat.status_code, repeat.json()["error"]) == (409, "already_offered")
    done = post(client, f"/api/v1/games/{game}/draw/yes", token=two).json()
    assert (done["status"], done["reason"], done["result"]["winner"], done["legal_moves"]) == (
        "finished",
        "agreed",
        None,
        [],
    )


def test_refusals_are_4xx_errors(client: Client) -> None:
    game, one, two = two_people(client)
    cases = [
        (f"/api/v1/games/{game}/draw/no", two, 409, "no_offer"),
        (f"/api/v1/games/{game}/resign?ply=5", one, 409, "stale"),
        (f"/api/v1/games/{game}/rematch/yes", one, 409, "not_over"),
        (f"/api/v1/games/{game}/takeback/yes", one, 409, "not_allowed"),
        (f"/api/v1/games/{game}/resign", None, 401, "no_token"),
    ]
    for path, token, status, code in cases:
        answer = post(client, path, token=token)
        assert (answer.status_code, answer.json()["error"]) == (status, code), path
    other = create(client)
    wrong = post(client, f"/api/v1/games/{game}/resign", token=other["token"])
    assert (wrong.status_code, wrong.json()["error"]) == (403, "not_your_seat")
    assert post(client, f"/api/v1/games/{game}/draw/maybe", token=one).status_code in (400, 404, 422)
    assert state(client, game)["status"] == "playing"


def test_takeback_against_the_computer_and_resign_and_rematch(client: Client) -> None:
    created = create(client, game="tictactoe", level="beginner")
    game, token = created["id"], created["token"]
    assert move(client, game, "a1", 0, token).status_code == 200
    back = post(client, f"/api/v1/games/{game}/takeback/yes?ply=2", token=token)
    assert back.status_code == 200, back.content
    assert (back.json()["ply"], back.json()["takebacks"]) == (0, 1)
    resigned = post(client, f"/api/v1/games/{game}/resign?ply=0", token=token).json()
    assert (resigned["status"], resigned["reason"], resigned["result"]["winner"]) == (
        "finished",
        "resigned",
        1,
    )
    declined = post(client, f"/api/v1/games/{game}/draw/yes", token=token)
    assert (declined.status_code, declined.json()["error"]) == (409, "game_over")
    again = post(client, f"/api/v1/games/{game}/rematch/yes", token=token).json()
    new = again["rematch"]
    assert new and state(client, new)["seats"][1]["kind"] == "human"
    # The same token holds the new seat.
    played = state(client, new)
    assert move(client, new, played["legal_moves"][0], played["ply"], token).status_code == 200


def test_resign_between_people_and_the_rematch_offer(client: Client) -> None:
    game, one, two = two_people(client)
    post(client, f"/api/v1/games/{game}/resign", token=two)
    offered = post(client, f"/api/v1/games/{game}/rematch/yes", token=two).json()
    assert offered["offers"] == {"rematch": [1]} and offered["rematch"] is None
    accepted = post(client, f"/api/v1/games/{game}/rematch/yes", token=one).json()
    assert accepted["rematch"] and accepted["offers"] == {}


def test_schema_lists_the_actions(client: Client) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    for path in ("resign", "draw/{answer}", "takeback/{answer}", "rematch/{answer}"):
        assert f"/api/v1/games/{{game_id}}/{path}" in paths
