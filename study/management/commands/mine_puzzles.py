"""Mine puzzles from the site's finished games and from the computer's own games.

    manage.py mine_puzzles --want 600 --seed 1            # writes study/data/quarto-puzzles.json

Appends to the file's puzzles (a position already there is skipped), writing as it goes,
so a run can be stopped and resumed with another seed.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.models import Game
from study import mining


def finished_games(kind: str) -> Iterator[mining.Source]:
    query = Game.objects.filter(kind=kind, status__gte=Game.FINISHED).order_by("pk")
    for game in query.iterator():
        yield mining.Source(kind, dict(game.options), tuple(game.move_texts), f"game:{game.pk}")


class Command(BaseCommand):
    help = "Mine solver-proved puzzles from finished games and the computer's own games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default="quarto")
        parser.add_argument("--want", type=int, default=600, help="puzzles to add")
        parser.add_argument("--seed", type=int, default=1, help="the first self-play game's seed")
        parser.add_argument("--no-site-games", action="store_true", help="self-play only")
        parser.add_argument("--out", type=Path, default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        kind = options["game"]
        path = options["out"] or mining.data_file(kind)
        kept = mining.read(path)
        seen = {p["id"] for p in kept}
        sources: Iterator[mining.Source] = (
            mining.self_play(kind, seed) for seed in itertools.count(options["seed"])
        )
        if not options["no_site_games"]:
            sources = itertools.chain(finished_games(kind), sources)
        started = time.monotonic()
        for count, puzzle in enumerate(mining.mine(sources, options["want"], seen), start=1):
            kept.append(puzzle)
            if count % 25 == 0:
                mining.write(path, kept)
                self.stdout.write(
                    f"{count} puzzles in {time.monotonic() - started:.0f} s ({puzzle['source']})"
                )
        mining.write(path, kept)
        self.stdout.write(f"{len(kept)} puzzles in {path}, {time.monotonic() - started:.0f} s this run")
