"""The computer's turns: recorded as due, replayed after a restart, stale results dropped."""

from __future__ import annotations

import asyncio
import concurrent.futures
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from games.runner import queue
from games.runner import turns as ai_runner
from games.runner.turns import Runner, load_job
from games.services.moves import AI, Actor, play_move

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


class Immediate(concurrent.futures.Executor):
    """Runs a search at once in the calling thread, after ``before`` (another worker)."""

    def __init__(self, before: Any = None) -> None:
        self.before = before

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        if self.before:
            self.before()
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_result(fn(*args, **kwargs))
        return future


def _due_turn(settings: Any) -> tuple[Game, Any]:
    settings.AI_DELAY = 0
    game = human_first_vs_ai()
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    game.refresh_from_db()
    return game, game.ai_due_at


def test_queue_mode_sends_the_due_turn_after_commit(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.AI_RUNNER = "queue"
    sent: list[tuple[int, int, Any]] = []
    monkeypatch.setattr(queue, "send", lambda *message: sent.append(message))
    game = human_first_vs_ai()
    assert sent == []  # the human gives first: nothing is due
    play_move(game.pk, Actor(player_id="s-human"), "5", 0)
    game.refresh_from_db()
    assert sent == [(game.pk, 1, game.ai_due_at)]


def test_a_duplicate_message_applies_once(settings: Any, no_ai_reply: None) -> None:
    game, token = _due_turn(settings)
    assert queue.take_turn(game.pk, 1, token, Immediate()) == "played"
    assert queue.take_turn(game.pk, 1, token, Immediate()) == "gone"
    game.refresh_from_db()
    assert game.ply == 2 and len(game.move_texts) == 2


def test_only_one_message_claims_a_turn(settings: Any, no_ai_reply: None) -> None:
    game, token = _due_turn(settings)
    assert queue.claim(game.pk, 1, token, lease=30) is not None
    assert queue.claim(game.pk, 1, token, lease=30) is None
    assert queue.take_turn(game.pk, 1, token, Immediate()) == "gone"  # the token is spent


def test_a_stale_result_is_dropped(settings: Any, no_ai_reply: None) -> None:
    game, token = _due_turn(settings)
    # While this worker thinks, its lease lapses and another plays the turn.
    outcome = queue.take_turn(game.pk, 1, token, Immediate(before=lambda: play_move(game.pk, AI, "a4", 1)))
    assert outcome == "dropped"
    game.refresh_from_db()
    assert game.move_texts == ["5", "a4"]


def test_the_sweeper_resends_lapsed_leases_and_lost_messages(
    settings: Any, monkeypatch: pytest.MonkeyPatch, no_ai_reply: None
) -> None:
    game, _ = _due_turn(settings)
    sent: list[tuple[int, int, Any]] = []
    monkeypatch.setattr(queue, "send", lambda *message: sent.append(message))
    sweeper = queue.Sweeper(interval=0.01)
    lapsed = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(ai_due_at=lapsed)  # a dead worker's lease
    assert sweeper.sweep() == 1 and sent == [(game.pk, 1, lapsed)]
    assert sweeper.sweep() == 0  # not again at once: maybe only a busy queue
    Game.objects.filter(pk=game.pk).update(ai_due_at=timezone.now() + timedelta(seconds=30))
    assert queue.overdue() == []  # a live lease
    assert queue.take_turn(game.pk, 1, lapsed, Immediate()) == "gone"
