"""Plays the computer's due turns, for sites that run with AI_RUNNER=worker.

Start one or more next to the web processes; they share the work by claiming each
due turn for a lease, and a turn computed for an older position is dropped.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from games.runner.turns import run_worker


class Command(BaseCommand):
    help = "Play the computer's due turns (AI_RUNNER=worker)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--poll", type=float, default=0.2, help="seconds between looks for due turns")
        parser.add_argument("--lease", type=float, default=30.0, help="seconds a claimed turn stays ours")

    def handle(self, *args: Any, poll: float, lease: float, **options: Any) -> None:
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(f"AI worker polling every {poll} s; Ctrl-C stops it.")
        run_worker(poll=poll, lease=lease, stop=stop)
        self.stdout.write("AI worker stopped.")
