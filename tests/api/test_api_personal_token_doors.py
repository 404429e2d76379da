"""A personal token on every endpoint that takes one: the analysis reads its account off the
event loop, and a revoked (or made-up) bearer token is a 401 everywhere, never taken for an
anonymous client."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts import services as accounts
from games import catalog
from games.ai.base import ActionValue
from games.models import Game
from lobby.models import Seek

from .api_helpers import auth, error_of

pytestmark = pytest.mark.django_db(transaction=True)
BLITZ = {"initial": 180, "increment": 2}


@pytest.fixture
def fake_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    def analyse(kind: str, state: Any, budget: float) -> list[ActionValue]:
        return [ActionValue(m, None, False, score=0.0) for m in state.legal_moves()]

    monkeypatch.setattr(catalog, "analyse", analyse)


def personal_token(name: str) -> str:
    account = accounts.account_of(User.objects.create_user(name, password="a-long-pass-phrase"))
    assert account is not None
    return accounts.create_token(account, "bot")


def call(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = "" if body is None else json.dumps(body)
    return getattr(Client(), method)(path, data, content_type="application/json", headers=auth(token or ""))


def test_the_analysis_with_a_personal_token(fake_analysis: None, no_ai_reply: None) -> None:
    token = personal_token("alice")
    body = {"game": "quarto", "opponent": "ai", "level": "casual", "seat": "first"}
    created = call("post", "/api/v1/games", body, token)
    assert created.status_code == 201 and created.json()["token"] is None
    answer = call("get", f"/api/v1/games/{created.json()['id']}/analysis", token=token)
    assert answer.status_code == 200, answer.content
    assert len(answer.json()["actions"]) == 16


def test_someone_elses_personal_token_gets_no_analysis(fake_analysis: None, no_ai_reply: None) -> None:
    mine, theirs = personal_token("alice"), personal_token("bob")
    body = {"game": "quarto", "opponent": "ai", "level": "casual", "seat": "first"}
    game_id = call("post", "/api/v1/games", body, mine).json()["id"]
    assert error_of(call("get", f"/api/v1/games/{game_id}/analysis", token=theirs)) == (403, "not_your_seat")


@pytest.mark.parametrize("made_up", [False, True])
def test_a_revoked_or_unknown_token_is_401_on_every_door_that_takes_personal_tokens(
    made_up: bool, no_ai_reply: None
) -> None:
    token = personal_token("alice")
    # A game and a seek to aim at, made by others.
    game = call("post", "/api/v1/games", {"game": "quarto", "opponent": "human", "seat": "first"}).json()
    seek = call("post", "/api/v1/seeks", {"game": "tictactoe"}).json()
    if made_up:
        token = "qsp_" + "x" * 32
    else:
        account = accounts.account_for_token(token)
        assert account is not None
        accounts.revoke_token(account, "bot")
    games, seeks = Game.objects.count(), Seek.objects.count()
    doors = [
        ("post", "/api/v1/seeks", {"game": "tictactoe"}),
        ("post", "/api/v1/seeks", {"game": "tictactoe", "rated": True, "clock": BLITZ}),
        ("get", f"/api/v1/seeks/{seek['id']}", None),
        ("post", f"/api/v1/seeks/{seek['id']}/accept", None),
        ("delete", f"/api/v1/seeks/{seek['id']}", None),
        ("post", "/api/v1/pairing", {"game": "tictactoe", "clock": BLITZ}),
        ("post", "/api/v1/games", {"game": "quarto", "opponent": "ai", "level": "casual"}),
        ("post", f"/api/v1/games/{game['id']}/join", {"invite": game["invite"]}),
        ("get", f"/api/v1/games/{game['id']}/analysis", None),
        ("post", f"/api/v1/games/{game['id']}/moves", {"move": "1", "ply": 0}),
        ("get", "/api/v1/account", None),
    ]
    for method, path, body in doors:
        answer = call(method, path, body, token)
        assert error_of(answer) == (401, "unknown_token"), (method, path, answer.content)
    assert (Game.objects.count(), Seek.objects.count()) == (games, seeks)
    assert Seek.objects.get(pk=seek["id"]).status == Seek.Status.OPEN


def test_a_seeks_secret_still_follows_and_cancels_it() -> None:
    seek = call("post", "/api/v1/seeks", {"game": "tictactoe"}).json()
    assert call("get", f"/api/v1/seeks/{seek['id']}", token=seek["token"]).json()["status"] == "open"
    assert call("delete", f"/api/v1/seeks/{seek['id']}", token=seek["token"]).status_code == 204
