"""Load the mined puzzles (study/data/<game>-puzzles.json) into the database; run after
each deployment (it keeps the ratings of puzzles loaded before)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from study import puzzles


class Command(BaseCommand):
    help = "Load the mined puzzles into the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="quarto")
        parser.add_argument("--path", type=Path, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        created, updated = puzzles.load(options["game"], options["path"])
        self.stdout.write(f"{created} puzzles added, {updated} updated")
