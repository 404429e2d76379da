"""Build (or load) the computer's compiled searches: ``manage.py warm_up``.

numba keeps what it compiles next to the sources (``__pycache__`` in the checkout), so
after this runs once a server's first move against the computer does not wait for the
compiler. scripts/serve runs it before it gives the site's address.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games import catalog


class Command(BaseCommand):
    help = "Compile (or load from numba's cache) every computer player's search."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        players = {spec.player.module_name: spec.player for spec in catalog.CATALOG.values() if spec.player}
        for name, player in players.items():
            seconds = player.warm_up()
            if options["verbosity"] > 1:
                self.stdout.write(f"{name}: {seconds:.2f} s")
        self.stdout.write(f"The computer is ready ({time.perf_counter() - started:.1f} s).")
