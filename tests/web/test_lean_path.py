"""The JSON API and /healthz take a lean path through Django; pages and browser sessions
take the whole chain (quarto_site/lean.py)."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from channels.testing import HttpCommunicator
from django.core.signals import request_finished
from django.db import OperationalError

from games import catalog
from games.ai.base import ActionValue
from games.models import Game, Move
from quarto_site.asgi import application
from quarto_site.lean import JSON_POLICY, wanted

pytestmark = pytest.mark.django_db(transaction=True)


async def call(
    path: str,
    method: str = "GET",
    body: dict[str, Any] | None = None,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[int, dict[bytes, bytes], bytes]:
    sent = [(b"host", b"testserver"), *(headers or [])]
    data = b""
    if body is not None:
        data = json.dumps(body).encode()
        sent.append((b"content-type", b"application/json"))
    response = await HttpCommunicator(application, method, path, body=data, headers=sent).get_response(
        timeout=10
    )
    return response["status"], dict(response["headers"]), response["body"]


def test_which_requests_are_lean() -> None:
    def scope(path: str, cookie: bytes = b"") -> dict[str, Any]:
        return {"path": path, "headers": [(b"cookie", cookie)] if cookie else []}

    assert wanted(scope("/healthz"))
    assert wanted(scope("/api/v1/games/3/moves"))
    assert wanted(scope("/api/v1/games", b"csrftoken=abc"))
    assert not wanted(scope("/api/v1/account/tokens", b"csrftoken=abc; sessionid=xyz"))
    assert not wanted(scope("/api/v1/docs"))
    assert not wanted(scope("/"))
    assert not wanted(scope("/games/3/"))
    assert not wanted(scope("/healthz/"))


async def test_healthz_and_api_answers_carry_fixed_json_headers_and_no_cookie() -> None:
    status, headers, body = await call("/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    created, created_headers, answer = await call(
        "/api/v1/games", "POST", {"game": "tictactoe", "opponent": "human"}
    )
    assert created == 201, answer
    game = json.loads(answer)
    moved, _, state = await call(f"/api/v1/games/{game['id']}/join", "POST", {"invite": game["invite"]})
    assert moved == 200, state
    for answer_headers in (headers, created_headers):
        assert answer_headers[b"Content-Security-Policy"] == JSON_POLICY.encode()
        assert answer_headers[b"X-Frame-Options"] == b"DENY"
        assert answer_headers[b"X-Content-Type-Options"] == b"nosniff"
        assert b"Set-Cookie" not in answer_headers and b"Vary" not in answer_headers


async def test_a_browser_session_and_the_docs_page_take_the_whole_chain() -> None:
    status, headers, _ = await call("/api/v1/account", headers=[(b"cookie", b"sessionid=not-a-session")])
    assert status == 401
    assert b"'self'" in headers[b"Content-Security-Policy"], "the site's own policy, from its middleware"
    status, headers, page = await call("/api/v1/docs")
    assert status == 200 and b"<html" in page.lower()
    assert headers[b"Content-Security-Policy"] != JSON_POLICY.encode()
    status, headers, _ = await call("/")
    assert status == 200 and headers[b"Content-Security-Policy"] != JSON_POLICY.encode()


async def test_the_database_down_is_still_a_503_on_the_lean_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def down() -> dict[str, str]:
        raise OperationalError("connection refused")

    monkeypatch.setattr("games.web.health.health_state", down)
    status, headers, _ = await call("/healthz")
    assert status == 503 and headers[b"Retry-After"] == b"5"


def count_hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions run through ``sync_to_async`` from now on."""
    hops: list[str] = []
    hop = SyncToAsync.__call__

    async def counted(self: SyncToAsync[..., Any], *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await hop(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    return hops


async def new_game() -> tuple[dict[str, Any], str]:
    """A person-vs-person Quarto game over the lean path, both seats taken: (state, token to move)."""
    status, _, body = await call("/api/v1/games", "POST", {"game": "quarto", "opponent": "human"})
    assert status == 201, body
    made = json.loads(body)
    status, _, body = await call(f"/api/v1/games/{made['id']}/join", "POST", {"invite": made["invite"]})
    assert status == 200, body
    joined = json.loads(body)
    tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
    return joined["state"], tokens[joined["state"]["to_move"]]


def bearer(token: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {token}".encode())]


async def test_a_lean_request_crosses_to_a_thread_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's own ASGI handler crosses five times (the request_started signal, the chain,
    the view through async_to_sync and back, response.close); the lean handler once, and
    the request's end (its connections given back) happens on that crossing's thread."""
    state, token = await new_game()
    finished_on: list[str] = []

    def finished(**kwargs: Any) -> None:
        finished_on.append(threading.current_thread().name)

    request_finished.connect(finished)
    hops = count_hops(monkeypatch)
    try:
        status, _, body = await call("/healthz")
        assert status == 200 and hops == ["LeanASGIHandler.respond"], hops
        move = {"move": state["legal_moves"][0], "ply": state["ply"]}
        status, _, body = await call(f"/api/v1/games/{state['id']}/moves", "POST", move, bearer(token))
        assert status == 200, body
        assert json.loads(body)["ply"] == state["ply"] + 1
        assert hops == ["LeanASGIHandler.respond"] * 2, hops
    finally:
        request_finished.disconnect(finished)
    assert len(finished_on) == 2 and all(name.startswith("lean") for name in finished_on), finished_on


async def test_the_same_move_sent_at_once_on_the_lean_path_applies_once() -> None:
    """Sixteen copies of one move at once, on the handler's threads: one is played, the
    others are refused as stale, and the game holds one move more."""
    state, token = await new_game()
    move = {"move": state["legal_moves"][0], "ply": state["ply"]}
    path = f"/api/v1/games/{state['id']}/moves"
    answers = await asyncio.gather(*(call(path, "POST", move, bearer(token)) for _ in range(16)))
    statuses = sorted(status for status, _, _ in answers)
    assert statuses == [200] + [409] * 15, statuses
    assert {json.loads(body)["error"] for status, _, body in answers if status == 409} == {"stale"}
    game = await Game.objects.aget(pk=state["id"])
    assert game.ply == state["ply"] + 1
    assert await Move.objects.filter(game=game).acount() == state["ply"] + 1


async def test_an_async_endpoint_answers_through_the_lean_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis endpoint is a coroutine: the lean thread runs it on the server's loop."""

    def analyse(kind: str, state: Any, budget: float) -> list[ActionValue]:
        return [ActionValue(move, None, False, score=0.0) for move in state.legal_moves()]

    monkeypatch.setattr(catalog, "analyse", analyse)
    state, token = await new_game()
    status, _, body = await call(f"/api/v1/games/{state['id']}/analysis", headers=bearer(token))
    assert status == 200, body
    assert [a["move"] for a in json.loads(body)["actions"]] == state["legal_moves"]
