"""POST /api/v1/analysis: any position, given as actions or in the game's notation, valued
by the computer as a game's analysis is; bad input is a 400 with a code; nothing stored."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import catalog
from games.models import Game
from tests.api.api_helpers import error_of, post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, scope="module")
def _warm() -> None:
    catalog.player_of("quarto").warm_up()  # as a server does when it starts


URL = "/api/v1/analysis"
# Quarto with 5 cells empty and piece 8 in hand for player 1: a few plies from the end.
NEAR_END = ".157/b.e0/d2.c/..9a 8 1"


def test_a_position_in_notation_is_valued_exactly(client: Client, settings: Any) -> None:
    settings.AI_BUDGET = 1.0
    response = post(client, URL, {"game": "quarto", "position": NEAR_END})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["position"] == NEAR_END and body["to_move"] == 0 and body["exact"] is True
    assert body["game"] == "quarto" and body["options"] == {"advanced": False}
    empty = ["a1", "b1", "c2", "b3", "a4"]
    assert sorted(m["move"] for m in body["moves"]) == sorted(empty)
    assert all(m["value"] in ("win", "draw", "loss") and m["distance"] is not None for m in body["moves"])
    # the setup reaches the same position
    again = post(client, URL, {"game": "quarto", "moves": body["setup"]}).json()
    assert again["position"] == NEAR_END and again["moves"] == body["moves"]
    assert Game.objects.count() == 0


def test_actions_from_the_start(client: Client) -> None:
    body = post(client, URL, {"game": "quarto", "moves": ["5", "b2"]}).json()
    assert body["ply"] == 2 and body["to_move"] == 1 and len(body["moves"]) == 15
    assert body["position"] == "..../..../.5../.... - 2"
    start = post(client, URL, {"game": "tictactoe"}).json()
    assert start["position"] == ".../.../... x" and len(start["moves"]) == 9 and start["exact"] is True


def test_a_finished_position_has_no_actions(client: Client) -> None:
    body = post(client, URL, {"game": "tictactoe", "position": "xxx/oo./... o"}).json()
    assert body["to_move"] is None and body["moves"] == []


def test_a_game_without_notation_takes_actions(client: Client) -> None:
    body = post(client, URL, {"game": "connect", "moves": ["d1"]}).json()
    assert body["position"] is None and body["to_move"] == 1
    assert error_of(post(client, URL, {"game": "connect", "position": "x"})) == (400, "no_notation")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "quarto", "moves": ["5", "b2", "5"]}, "piece_unavailable"),
        ({"game": "quarto", "moves": ["a1"]}, "wrong_phase"),
        ({"game": "quarto", "moves": ["zz"]}, "bad_notation"),
        ({"game": "quarto", "position": "nonsense"}, "bad_notation"),
        ({"game": "quarto", "position": "..../..../..../.... - 2"}, "wrong_side"),
        ({"game": "quarto", "position": "0123/..../..../.... 5 1"}, "unreachable"),
        ({"game": "quarto", "moves": [], "position": "..../..../..../.... - 1"}, "moves_or_position"),
        ({"game": "quarto", "options": {"advanced": "maybe"}}, "invalid_request"),  # not a JSON boolean
        ({"game": "quarto", "options": {"colour": True}}, "bad_option"),
        ({"game": "connect", "options": {"width": 10**30}}, "bad_option"),
        ({"game": "connect", "options": {"width": 99}}, "bad_option"),
        ({"game": "quarto", "moves": "5"}, "invalid_request"),
        ({"game": "quarto", "moves": [5]}, "invalid_request"),
        ({"game": "quarto", "moves": ["5"] * 201}, "invalid_request"),
        ({"game": "quarto", "position": "x" * 201}, "invalid_request"),
        ({"game": "quarto", "extra": 1}, "invalid_request"),
        ({"game": 7}, "invalid_request"),
        ('{"game": "quarto", "options": {"advanced": NaN}}', "invalid_request"),
        ('{"game": "connect", "options": {"width": Infinity}}', "invalid_request"),
        ('{"game": "connect", "options": {"width": 1e999}}', "invalid_request"),
        ("[1, 2]", "invalid_request"),
        ("{", "invalid_request"),
    ],
)
def test_bad_input_is_refused_with_a_code_and_a_sentence(client: Client, body: Any, code: str) -> None:
    response = post(client, URL, body)
    assert error_of(response) == (400, code), response.content
    assert response.json()["detail"].endswith(".")
    assert Game.objects.count() == 0


def test_the_hints_rate_limit_bounds_it(client: Client, settings: Any) -> None:
    settings.RATE_LIMIT_HINT = "2/minute"
    for _ in range(2):
        assert post(client, URL, {"game": "tictactoe"}).status_code == 200
    response = post(client, URL, {"game": "tictactoe"})
    assert error_of(response) == (429, "rate_limited") and int(response["Retry-After"]) > 0


def test_a_full_pool_refuses(client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from games.runner import pools

    settings.ANALYSIS_MAX_PENDING = 0
    monkeypatch.setattr(pools, "gate", pools.AnalysisGate())
    response = post(client, URL, {"game": "tictactoe"})
    assert error_of(response) == (503, "busy")
