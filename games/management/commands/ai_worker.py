"""Plays the computer's turns, for sites that run with AI_RUNNER=queue.

A Celery worker on the ``AI_QUEUE`` queue (nothing else runs there: analysis, hints
and reviews stay in the web processes' own pool) with its sweeper, which sends again
the turns whose lease lapsed or whose message was lost. Start one or more next to the
web processes; ``celery -A quarto_site worker -Q $AI_QUEUE -P threads`` is the same.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from quarto_site.celery import app


class Command(BaseCommand):
    help = "Play the computer's turns from the task queue (AI_RUNNER=queue)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--concurrency",
            type=int,
            default=max(1, settings.AI_PROCESSES),
            help="turns played at once (each searches in one of AI_PROCESSES processes)",
        )
        parser.add_argument("--loglevel", default="INFO")

    def handle(self, *args: Any, concurrency: int, loglevel: str, **options: Any) -> None:
        if not settings.CELERY_BROKER_URL:
            self.stderr.write("ai_worker needs REDIS_URL (or CELERY_BROKER_URL) for its queue.")
            raise SystemExit(2)
        app.worker_main(
            [
                "worker",
                "--queues",
                settings.AI_QUEUE,
                "--pool",
                "threads",
                "--concurrency",
                str(concurrency),
                "--hostname",
                f"ai-{os.getpid()}@%h",
                "--loglevel",
                loglevel,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ]
        )
