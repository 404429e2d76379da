"""The computer's turns on the task queue, with real worker processes on PostgreSQL and
Redis: a worker killed mid-think loses nothing, and the turn is applied once."""

from __future__ import annotations

import os
import secrets
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.models import Game, Move
from games.services.moves import Actor, play_move

from ..web.helpers import human_first_vs_ai
from .conftest import Processes

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

LEASE = 1.0


def _wait(predicate: Any, timeout: float, what: str) -> float:
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)
    return time.monotonic() - start


@pytest.fixture
def workers(tmp_path: Path, settings: Any) -> Iterator[tuple[Processes, list[Any]]]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    base = database_url.rsplit("/", 1)[0]
    queue_name = f"test-ai-{secrets.token_hex(4)}"
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{base}/{connection.settings_dict['NAME']}",
        AI_RUNNER="queue",
        AI_QUEUE=queue_name,
        AI_DELAY="0",
        AI_BUDGET="1.5",
        AI_LEASE=str(LEASE),
        AI_SWEEP="0.2",
        AI_PROCESSES="1",
        AI_WARM_UP="1",
    )
    settings.AI_RUNNER = "queue"
    settings.AI_QUEUE = queue_name
    settings.AI_DELAY = 0
    processes = Processes(tmp_path, env)
    try:
        procs = [processes.start(f"worker-{i}", "manage.py", "ai_worker") for i in range(2)]
        logs = [tmp_path / f"worker-{i}.log" for i in range(2)]
        _wait(lambda: all("ready." in log.read_text() for log in logs), 60, "the workers")
        yield processes, procs
    finally:
        processes.stop()


def test_a_worker_killed_mid_think_and_the_turn_applied_once(
    workers: tuple[Processes, list[Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    processes, procs = workers
    game = human_first_vs_ai(level="perfect")
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)  # sent to the queue on commit
    token = Game.objects.get(pk=game.pk).ai_due_at
    _wait(lambda: Game.objects.get(pk=game.pk).ai_due_at != token, 10, "a worker's claim")
    logs = [processes.folder / f"worker-{i}.log" for i in range(2)]
    thinking = next(i for i, log in enumerate(logs) if "games.play_turn" in log.read_text())
    os.kill(procs[thinking].pid, signal.SIGKILL)
    killed = time.monotonic()
    _wait(lambda: Game.objects.get(pk=game.pk).ply >= 2, 15, "the other worker's move")
    picked_up = time.monotonic() - killed
    _wait(lambda: Game.objects.get(pk=game.pk).ply >= 3, 15, "the computer's give")
    plies = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == [1, 2, 3]
    survivor = logs[1 - thinking].read_text()
    assert "games.play_turn" in survivor
    # The lease (LEASE s) lapses, the sweeper sends it again, a search of 1.5 s.
    assert picked_up < LEASE + 1.5 + 3
    with capsys.disabled():
        sys.stdout.write(f"\nkilled mid-think: turn applied by the other {picked_up:.2f} s later\n")
