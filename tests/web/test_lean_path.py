"""The JSON API and /healthz take a lean path through Django; pages and browser sessions
take the whole chain (quarto_site/lean.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.db import OperationalError

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
