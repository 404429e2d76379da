"""The analysis endpoint: every legal action with its value, when hints are allowed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.test import Client

from games import catalog
from games.ai.base import ActionValue

from .api_helpers import SECOND_WINS, auth, create, error_of, move, play_through, two_players

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fake_analysis(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, float]]:
    """The computer's analysis replaced by one that calls every action a draw but the first."""
    calls: list[tuple[Any, float]] = []

    def analyse(kind: str, state: Any, budget: float) -> list[ActionValue]:
        calls.append((state, budget))
        moves = state.legal_moves()
        return [ActionValue(moves[0], "win", True, distance=3)] + [
            ActionValue(m, None, False, score=0.25) for m in moves[1:]
        ]

    monkeypatch.setattr(catalog, "analyse", analyse)
    return calls


def test_analysis_lists_every_legal_action(client: Client, fake_analysis: list[Any]) -> None:
    data = create(client)
    response = client.get(f"/api/v1/games/{data['id']}/analysis", headers=auth(data["token"]))
    assert response.status_code == 200
    body = response.json()
    assert body["ply"] == 0 and body["to_move"] == 0 and body["exact"] is False
    assert [a["move"] for a in body["actions"]] == [str(p) for p in range(16)]
    assert body["actions"][0] == {"move": "0", "value": "win", "exact": True, "distance": 3, "score": None}
    assert body["actions"][1] == {"move": "1", "value": None, "exact": False, "distance": None, "score": 0.25}
    assert fake_analysis[0][1] > 0


def test_analysis_of_an_earlier_position(client: Client, fake_analysis: list[Any]) -> None:
    game_id, one, two = two_players(client)
    assert move(client, game_id, "5", 0, one).status_code == 200
    url = f"/api/v1/games/{game_id}/analysis"
    body = client.get(f"{url}?ply=1", headers=auth(two)).json()
    assert body["ply"] == 1 and body["to_move"] == 1 and len(body["actions"]) == 16  # where to place 5
    assert error_of(client.get(f"{url}?ply=99", headers=auth(two))) == (400, "bad_ply")
    assert error_of(client.get(f"{url}?ply=x", headers=auth(two))) == (400, "invalid_request")


def test_during_a_game_only_the_seat_to_move_gets_analysis(client: Client, fake_analysis: list[Any]) -> None:
    game_id, one, two = two_players(client)
    url = f"/api/v1/games/{game_id}/analysis"
    assert error_of(client.get(url)) == (403, "not_your_seat")  # a spectator
    assert error_of(client.get(url, headers=auth("made-up"))) == (401, "unknown_token")  # no such token
    assert error_of(client.get(url, headers=auth(two))) == (403, "not_your_turn")
    assert client.get(url, headers=auth(one)).status_code == 200
    assert len(fake_analysis) == 1  # the refusals searched nothing
    play_through(client, game_id, SECOND_WINS, {0: one, 1: two})
    assert client.get(f"{url}?ply=5").status_code == 200  # the review: anyone, once it is over


def test_hints_off_hides_analysis_until_the_game_is_over(client: Client, fake_analysis: list[Any]) -> None:
    game_id, one, two = two_players(client)
    from games.models import Game

    Game.objects.filter(pk=game_id).update(allow_hints=False)
    assert error_of(client.get(f"/api/v1/games/{game_id}/analysis")) == (403, "hints_off")
    play_through(client, game_id, SECOND_WINS, {0: one, 1: two})
    finished = client.get(f"/api/v1/games/{game_id}/analysis")
    assert finished.status_code == 200 and finished.json()["actions"] == []
    assert client.get(f"/api/v1/games/{game_id}/analysis?ply=13").json()["to_move"] == 1


def test_unknown_game_is_404(client: Client, fake_analysis: list[Any]) -> None:
    assert error_of(client.get("/api/v1/games/999/analysis")) == (404, "not_found")


def test_a_player_without_analysis_is_501(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # Declared, not probed: a game whose entry offers no analysis.
    quarto = catalog.get("quarto")
    no_analysis = dataclasses.replace(quarto.capabilities, analysis=False)
    monkeypatch.setitem(catalog.CATALOG, "quarto", dataclasses.replace(quarto, capabilities=no_analysis))
    data = create(client)
    response = client.get(f"/api/v1/games/{data['id']}/analysis", headers=auth(data["token"]))
    assert error_of(response) == (501, "no_analysis")
