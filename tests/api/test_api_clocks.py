"""Clocks over the JSON API: created with a time control, every refusal, the state's clock
fields as time passes (an injected clock: no test sleeps), a move too late."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.test import Client

from games.clocks import DAY_MS
from games.models import Game
from tests.api.api_helpers import create, error_of, move, post

pytestmark = pytest.mark.django_db


def people(client: Client, clock: Any, game: str = "tictactoe") -> tuple[int, str, str]:
    """Two people over the API with ``clock``: (id, first seat's token, second seat's token)."""
    created = create(client, game=game, opponent="human", level=None, clock=clock)
    joined = post(client, f"/api/v1/games/{created['id']}/join", {"invite": created["invite"]})
    assert joined.status_code == 200, joined.content
    return created["id"], created["token"], joined.json()["token"]


def state(client: Client, game_id: int) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/v1/games/{game_id}").json()
    return data


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_game_without_a_clock_says_so(client: Client) -> None:
    data = create(client)["state"]
    assert data["clock"] is None and data["remaining"] is None
    assert data["to_move_since"] is None and data["deadline"] is None and data["clock_at"] is None
    assert data["ticking"] is False and data["first_move"] is False
    assert data["now"] is not None


def test_create_with_a_fischer_clock_against_the_computer(client: Client, fake_clock: Any) -> None:
    data = create(client, clock={"initial": 180, "increment": 2})["state"]
    assert data["clock"] == {"initial": 180, "increment": 2}
    assert data["remaining"] == [180_000, 180_000]
    # Every seat is taken: the clock runs, the first move is due within CLOCK_FIRST_MOVE.
    assert at(data["to_move_since"]) == fake_clock.now() == at(data["now"])
    assert data["first_move"] is True and data["ticking"] is False
    assert (at(data["deadline"]) - fake_clock.now()).total_seconds() == 30


def test_create_with_days_per_move(client: Client, fake_clock: Any) -> None:
    game_id, _, _ = people(client, {"days": 3})
    data = state(client, game_id)
    assert data["clock"] == {"days": 3}
    assert data["remaining"] == [3 * DAY_MS, 3 * DAY_MS]
    assert (at(data["deadline"]) - fake_clock.now()).days == 3


def test_a_game_waiting_for_its_second_player_has_no_running_clock(client: Client) -> None:
    data = create(client, game="tictactoe", opponent="human", level=None, clock={"initial": 60})["state"]
    assert data["clock"] == {"initial": 60, "increment": 0}
    assert data["remaining"] == [60_000, 60_000], "full time, not yet running"
    assert data["to_move_since"] is None and data["deadline"] is None and data["ticking"] is False


@pytest.mark.parametrize(
    "clock",
    [
        {"initial": 10},
        {"initial": 10801},
        {"initial": 180, "increment": 61},
        {"initial": 180, "increment": -1},
        {"initial": "180"},
        {"initial": 180.5},
        {"initial": True},
        {"increment": 2},
        {"initial": 180, "days": 3},
        {"days": 4},
        {"days": "3"},
        {"initial": 180, "paused": True},
        {"minutes": 3},
        "3+2",
        [180, 2],
        180,
        True,
    ],
    ids=repr,
)
def test_every_bad_clock_is_refused_with_a_sentence_and_creates_nothing(client: Client, clock: Any) -> None:
    before = Game.objects.count()
    response = post(client, "/api/v1/games", {"game": "tictactoe", "opponent": "ai", "clock": clock})
    assert error_of(response) == (400, "bad_clock")
    assert response.json()["detail"].endswith(".")
    assert Game.objects.count() == before


def test_the_state_counts_the_mover_down_as_of_now(client: Client, fake_clock: Any) -> None:
    game_id, x, o = people(client, {"initial": 60, "increment": 2})
    fake_clock.advance(5)
    assert move(client, game_id, "b2", 0, x).status_code == 200  # a first move: not charged
    fake_clock.advance(7)
    answer = move(client, game_id, "a1", 1, o).json()
    assert answer["remaining"] == [60_000, 60_000] and answer["ticking"] is True
    assert answer["first_move"] is False and at(answer["to_move_since"]) == fake_clock.now()
    fake_clock.advance(12.5)
    data = state(client, game_id)
    # X has been thinking 12.5 s: taken off as of now, and clock_at says when "now" is.
    assert data["remaining"] == [47_500, 60_000]
    assert at(data["clock_at"]) == at(data["now"]) == fake_clock.now()
    assert (at(data["deadline"]) - at(data["to_move_since"])).total_seconds() == 60
    answer = move(client, game_id, "c3", 2, x).json()
    assert answer["remaining"] == [49_500, 60_000], "charged 12.5 s, then the 2 s increment"
    assert answer["to_move"] == 1


def test_a_move_after_the_time_ran_out_is_refused_409_timeout(client: Client, fake_clock: Any) -> None:
    game_id, x, o = people(client, {"initial": 15})
    move(client, game_id, "b2", 0, x)
    move(client, game_id, "a1", 1, o)
    fake_clock.advance(15.5)
    response = move(client, game_id, "c3", 2, x)
    assert error_of(response) == (409, "timeout")
    assert "time ran out" in response.json()["detail"]
    data = state(client, game_id)
    assert data["status"] == "finished" and data["reason"] == "timeout"
    assert data["result"]["winner"] == 1 and data["result"]["timeout"] == 0
    assert data["moves"] == ["b2", "a1"] and data["ticking"] is False and data["deadline"] is None
    assert data["remaining"][0] == 0


def test_no_first_move_in_time_aborts_the_game(client: Client, fake_clock: Any) -> None:
    game_id, x, _ = people(client, {"initial": 180, "increment": 2})
    fake_clock.advance(31)
    response = move(client, game_id, "b2", 0, x)
    assert error_of(response) == (409, "timeout")
    assert "aborted" in response.json()["detail"]
    data = state(client, game_id)
    assert data["reason"] == "no_start" and data["result"]["winner"] is None
    assert data["remaining"] == [180_000, 180_000]


def test_the_schema_documents_the_clock(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    new_game = schema["components"]["schemas"]["NewGameIn"]["properties"]["clock"]
    assert len(new_game["oneOf"]) == 3
    state_fields = schema["components"]["schemas"]["StateOut"]["properties"]
    fields = ("clock", "remaining", "clock_at", "ticking", "to_move_since", "deadline", "first_move", "now")
    assert set(fields) <= set(state_fields)
    assert {"timeout", "no_start"} <= set(state_fields["reason"]["anyOf"][0]["enum"])
