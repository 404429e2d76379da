"""A web process restarted while the computer's turn is due plays it without being called:
the runner starts with the server, not with its first request. The embedded set-up
(SQLite, in-memory layer, inline runner), so this runs in the default suite.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..e2e.conftest import ROOT, Processes

# A game whose computer turn is due, left by a process that died before playing it: the
# runner's scheduling is switched off here, so the row keeps its ``ai_due_at``.
DUE_GAME = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from games.runner.turns import runner
runner.schedule = lambda game_id: None
from games.services.moves import create_game
game = create_game("tictactoe", opponent="ai", seat="second").game
assert game.ply == 0 and game.ai_due_at is not None
print(game.pk)
"""


def embedded_env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SQLITE_PATH=str(folder / "db.sqlite3"), AI_RUNNER="inline", AI_DELAY="0", AI_WARM_UP="0")
    env.update(AI_PROCESSES="0", DJANGO_SETTINGS_MODULE="quarto_site.settings")
    return env


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    procs = Processes(tmp_path, embedded_env(tmp_path))
    try:
        yield procs
    finally:
        procs.stop()


def ply(database: Path, game_id: int) -> int:
    with sqlite3.connect(database, timeout=5) as db:
        row = db.execute("SELECT ply FROM games_game WHERE id = ?", (game_id,)).fetchone()
    return int(row[0])


@pytest.mark.slow
def test_a_restarted_web_process_nobody_calls_plays_the_due_turn(processes: Processes) -> None:
    made = subprocess.run(
        [sys.executable, "-c", DUE_GAME], cwd=ROOT, env=processes.env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    game_id = int(made.stdout.split()[-1])
    database = Path(processes.env["SQLITE_PATH"])
    assert ply(database, game_id) == 0

    # Daphne starts; nothing connects to it, not even to see whether it listens.
    started = time.monotonic()
    daphne = processes.start(
        "daphne", "-m", "daphne", "-b", "127.0.0.1", "-p", "0", "quarto_site.asgi:application"
    )
    deadline = started + 30
    while time.monotonic() < deadline and ply(database, game_id) == 0:
        assert daphne.poll() is None, (processes.folder / "daphne.log").read_text()
        time.sleep(0.1)
    took = time.monotonic() - started
    assert ply(database, game_id) == 1, (
        "the due turn was never played: " + (processes.folder / "daphne.log").read_text()
    )
    # Daphne's own start (importing Django and the site) is most of it.
    assert took < 15, f"the due turn took {took:.1f} s after the server started"


async def test_a_server_started_while_the_database_is_down_picks_up_due_turns_later(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from django.db import OperationalError

    from games.models import Game
    from games.runner import turns

    settings.AI_RUNNER, settings.AI_WARM_UP = "inline", False
    monkeypatch.setattr(turns, "STARTUP_RETRY", 0.01)
    reads = []

    class Due:
        def filter(self, **lookups: Any) -> Due:
            reads.append(lookups)
            if len(reads) == 1:
                raise OperationalError("connection refused")
            return self

        def values_list(self, *fields: str, flat: bool) -> list[int]:
            return [42]

    monkeypatch.setattr(Game, "objects", Due())
    runner = turns.Runner()
    started: list[int] = []
    monkeypatch.setattr(runner, "_start_task", started.append)
    runner.bind(asyncio.get_running_loop())
    for _ in range(200):
        if started:
            break
        await asyncio.sleep(0.01)
    assert started == [42] and len(reads) == 2
