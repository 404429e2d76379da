"""The computer's turns: recorded as due, replayed after a restart, stale results dropped."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.runner import turns as ai_runner
from games.runner.turns import Runner, claim, load_job, run_worker
from games.services.moves import Actor, play_move

from .helpers import human_first_vs_ai

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backends]


def test_due_turn_is_stored_on_the_game(no_ai_reply: None) -> None:
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    game.refresh_from_db()
    assert game.ai_due_at is not None
    job = load_job(game.pk)
    assert job is not None and job.ply == 1 and job.moves == ["5"]


def test_stale_result_is_dropped(no_ai_reply: None) -> None:
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    job = load_job(game.pk)
    assert job is not None
    assert ai_runner.apply(job, "a1") is True
    # The same result again (a second worker, a retry): refused, nothing applied twice.
    assert ai_runner.apply(job, "b1") is False
    game.refresh_from_db()
    assert game.move_texts == ["5", "a1"]


def test_claim_lets_one_worker_take_a_turn(no_ai_reply: None) -> None:
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    job = load_job(game.pk)
    assert job is not None
    assert claim(job, lease=30) is True
    assert claim(job, lease=30) is False


def test_server_start_picks_up_turns_left_by_a_restart(no_ai_reply: None) -> None:
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    Game.objects.filter(pk=game.pk).update(ai_due_at=timezone.now() - timedelta(minutes=5))

    fresh = Runner()  # a new process: nothing in memory about this game

    async def start() -> None:
        fresh.bind(asyncio.get_running_loop())
        for _ in range(200):
            await asyncio.sleep(0.02)
            if not fresh._tasks and await _ply(game.pk) >= 3:
                return

    asyncio.run(start())
    game.refresh_from_db()
    assert game.ply == 3 and game.ai_due_at is None


async def _ply(pk: int) -> int:
    from channels.db import database_sync_to_async

    ply: int = await database_sync_to_async(lambda: Game.objects.get(pk=pk).ply)()
    return ply


def test_worker_mode_plays_due_turns(settings: object, no_ai_reply: None) -> None:
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    stop = threading.Event()

    def stop_when_done() -> None:
        for _ in range(300):
            if Game.objects.get(pk=game.pk).ply >= 3:
                break
            stop.wait(0.02)
        stop.set()

    watcher = threading.Thread(target=stop_when_done)
    watcher.start()
    run_worker(poll=0.02, stop=stop)
    watcher.join()
    game.refresh_from_db()
    assert game.ply == 3 and game.state.to_move == 0
