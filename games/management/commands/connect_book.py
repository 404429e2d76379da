"""Build the Connect Four opening book: ``manage.py connect_book --plies 8``.

See games/ai/connect_book.py for what the book holds. The run appends to the book file
as it solves and skips what is already there, so it can be stopped and resumed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ai import connect_book
from games.engine.base import MoveError


class Command(BaseCommand):
    help = "Solve the Connect Four book positions with fewer stones than --plies and append them to the book."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--plies", type=int, default=8, help="book positions have fewer stones than this")
        parser.add_argument("--file", type=Path, default=connect_book.BOOK_FILE, help="the book file")
        parser.add_argument("--start", default="", help="only the part below this position (column letters)")
        parser.add_argument(
            "--seat", type=int, choices=(0, 1), help="only the book's moves as this player (0 moves first)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        try:
            connect_book.replay(options["start"])
        except (ValueError, MoveError) as exc:
            raise CommandError(f"--start {options['start']!r} is not a line of play: {exc}") from None
        added = connect_book.build(
            options["plies"],
            options["file"],
            report=self._report,
            start=options["start"],
            seats=(0, 1) if options["seat"] is None else (options["seat"],),
        )
        self.stdout.write(f"{added} positions added in {time.perf_counter() - started:.0f} s")

    def _report(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
