"""The at-scale set-up: two Daphne processes and an AI worker sharing PostgreSQL and Redis.

A player on one server moves, the worker process plays the computer's reply, and a
spectator connected to the other server sees both moves arrive live.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from .conftest import Processes

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, str]]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    # The subprocesses share the test database pytest-django made for this run.
    base = database_url.rsplit("/", 1)[0]
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{base}/{connection.settings_dict['NAME']}",
        CHANNEL_PREFIX=f"test-{secrets.token_hex(4)}",
        AI_RUNNER="queue",
        AI_QUEUE=f"test-ai-{secrets.token_hex(4)}",
        AI_DELAY="0.2",
        AI_BUDGET="0.2",
    )
    processes = Processes(tmp_path, env)
    try:
        first = processes.daphne("daphne-1")
        second = processes.daphne("daphne-2")
        processes.start("ai-worker", "manage.py", "ai_worker")
        yield first, second
    finally:
        processes.stop()


def test_moves_reach_a_spectator_on_another_server(cluster: tuple[str, str], browser: Any) -> None:
    first, second = cluster
    player = browser.new_context().new_page()
    player.goto(first + "/")
    player.locator(".game-card--quarto select[name=seat]").select_option("first")
    player.locator(".game-card--quarto button[type=submit]").click()
    player.wait_for_selector(".tray.is-giving")
    game_path = player.url.split("/", 3)[3]

    spectator = browser.new_context().new_page()
    spectator.goto(f"{second}/{game_path}")
    spectator.wait_for_selector(".board")

    player.locator("button.tray__slot:not([disabled])").first.click()
    # The worker process places the given piece and gives one back; both servers push it.
    spectator.wait_for_selector(".board__cell .board__piece", timeout=20000)
    player.wait_for_selector(".status__line.is-my-turn", timeout=20000)
    spectator.wait_for_function("document.querySelector('.status__line').dataset.ply === '3'", timeout=20000)
    player.context.close()
    spectator.context.close()
