"""Faults injected into real processes (Daphne, ``manage.py ai_worker``) sharing
PostgreSQL: what the player sees, and that no move is lost. See docs/security.md.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from ..e2e.conftest import Processes

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def call(
    base: str, path: str, body: Any = None, token: str | None = None, timeout: float = 15
) -> tuple[int, Any, float]:
    """(status, parsed JSON or text, seconds taken) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    took = time.monotonic() - started
    text = raw.decode()
    try:
        return status, json.loads(text), took
    except ValueError:
        return status, text, took


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    base = database_url.rsplit("/", 1)[0]
    return {
        **os.environ,
        "DATABASE_URL": f"{base}/{connection.settings_dict['NAME']}",
        "CHANNEL_PREFIX": f"test-{secrets.token_hex(4)}",
        "AI_DELAY": "0",
        "AI_WARM_UP": "0",
    }


@pytest.fixture
def processes(tmp_path: Path, env: dict[str, str]) -> Iterator[Processes]:
    procs = Processes(tmp_path, env)
    try:
        yield procs
    finally:
        procs.stop()


def terminate_other_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def test_database_connections_cut_mid_run(processes: Processes) -> None:
    processes.env["AI_RUNNER"] = "worker"  # no computer here: only requests
    web = processes.daphne("daphne")
    status, created, _ = call(web, "/api/v1/games", {"game": "quarto", "opponent": "human", "seat": "first"})
    assert status == 201, created
    game = f"/api/v1/games/{created['id']}"
    assert call(web, game)[0] == 200
    assert terminate_other_connections() >= 1
    # The pool checks each connection as it is taken: the cut ones are replaced.
    seen = [call(web, game)[:2] for _ in range(3)]
    assert [status for status, _ in seen] == [200, 200, 200], seen
    assert call(web, f"/games/{created['id']}/")[0] == 200
    # This process's own pooled connections were cut too: start its pool afresh, so the next
    # test's set-up and flush do not wait on a pool still reconnecting.
    connection.close()
    connection.close_pool()  # type: ignore[attr-defined]  # PostgreSQL's wrapper only


def test_the_api_answers_a_database_outage_with_a_json_503(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    from games.api import endpoints as api

    def down(game_id: int) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(api, "load_game", down)
    response = client.get("/api/v1/games/1")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["error"] == "unavailable"


def game_row(game_id: int) -> tuple[int, Any]:
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    return game.ply, game.ai_due_at


def wait_for(predicate: Any, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


# An AI worker killed mid-think: tests/e2e/test_ai_queue.py (the Celery queue's workers).


def test_a_web_process_killed_mid_think_loses_no_turn(processes: Processes) -> None:
    processes.env.update(AI_RUNNER="inline", AI_DELAY="2")  # the inline runner waits, then thinks
    web = processes.daphne("daphne-1")
    body = {"game": "quarto", "opponent": "ai", "level": "casual", "seat": "second"}
    status, created, _ = call(web, "/api/v1/games", body)
    assert status == 201, created
    game_id = created["id"]
    first = processes.procs[0]
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert game_row(game_id)[0] == 0 and game_row(game_id)[1] is not None  # due, not played
    again = processes.daphne("daphne-2")
    # No request: the runner starts with the server and picks up every due turn.
    assert wait_for(lambda: game_row(game_id)[0] >= 1, 15), "the turn was never picked up again"
    assert call(again, f"/api/v1/games/{game_id}")[1]["ply"] == 1
