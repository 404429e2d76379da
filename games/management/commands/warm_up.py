"""Build (or load) the computer's compiled searches: ``manage.py warm_up``.

numba keeps what it compiles next to the sources (``__pycache__`` in the checkout), so
after this runs once a server's first move against the computer does not wait for the
compiler. scripts/serve runs it before it gives the site's address.

The games' searches are separate modules that share no compiled code, so ``--jobs``
builds them in that many processes at once (default: one per core).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import catalog


def _build(name: str) -> tuple[str, float]:
    """In a worker: one game's search, by its module's name."""
    players = {spec.player.module_name: spec.player for spec in catalog.CATALOG.values() if spec.player}
    return name, players[name].warm_up()


class Command(BaseCommand):
    help = "Compile (or load from numba's cache) every computer player's search."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--jobs", type=int, default=os.cpu_count() or 1, help="Processes building at once."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        players = {spec.player.module_name: spec.player for spec in catalog.CATALOG.values() if spec.player}
        jobs = max(1, min(options["jobs"], len(players)))
        if jobs == 1:
            built = [(name, player.warm_up()) for name, player in players.items()]
        else:
            # Largest first would need the times known in advance; the catalog's order is
            # Quarto first, which is the longest build.
            with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
                built = list(pool.map(_build, players))
        for name, seconds in built:
            if options["verbosity"] > 1:
                self.stdout.write(f"{name}: {seconds:.2f} s")
        self.stdout.write(f"The computer is ready ({time.perf_counter() - started:.1f} s).")
