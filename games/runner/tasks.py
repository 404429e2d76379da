"""The Celery task behind ``AI_RUNNER=queue``, and the worker's sweeper and warm-up."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings

from games import catalog
from games.runner import queue
from quarto_site.celery import app

log = logging.getLogger(__name__)
_sweeper: queue.Sweeper | None = None


def _play_turn(game_id: int, ply: int, token: str) -> str:
    outcome = queue.take_turn(game_id, ply, datetime.fromisoformat(token))
    log.info("AI turn of game %s at ply %s: %s", game_id, ply, outcome)
    return outcome


def _start(sender: Any = None, **kwargs: Any) -> None:
    """A worker of the AI queue warms its search process up, then sweeps."""
    global _sweeper
    if settings.AI_WARM_UP:
        log.info("AI warm-up took %.2f s", queue.executor().submit(catalog.warm_up).result())
    _sweeper = queue.Sweeper()
    _sweeper.start()
    _sweeper.sweep()  # at once: turns left by a restart


def _stop(sender: Any = None, **kwargs: Any) -> None:
    if _sweeper is not None:
        _sweeper.stop.set()
    queue.shutdown()


# Celery ships no type hints: registered by call rather than as decorators.
play_turn = app.task(name=queue.PLAY_TURN, ignore_result=True)(_play_turn)
worker_ready.connect(_start)
worker_shutdown.connect(_stop)
