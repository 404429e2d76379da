"""The seats' heartbeat and the sweep that finds lost seats: time per call.

Fills a database of its own (a SQLite file in a temporary folder; the database of
DATABASE_URL when set: its games are deleted first, so never point it at one you keep)
with ``--games`` person-vs-person games whose pages all closed, then times
``actions.seats_seen`` for a process holding both seats' pages of 10, 100 and 1,000 of
them, and ``actions.seats_lost`` over the whole table (the median of ``--runs`` calls).

    .venv/bin/python bench/seat_heartbeat.py [--games 20000] [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SQLITE_PATH", str(Path(tempfile.mkdtemp(prefix="seat-heartbeat-")) / "db.sqlite3"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.models import Game, Seat  # noqa: E402
from games.services import actions  # noqa: E402


def median_ms(call: Callable[[], object], runs: int) -> float:
    took = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        took.append((time.perf_counter() - started) * 1000)
    return statistics.median(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    Game.objects.all().delete()
    games = Game.objects.bulk_create(
        [Game(kind="quarto", status=Game.Status.PLAYING, invite_code=f"bench-{i}") for i in range(args.games)]
    )
    now = timezone.now()
    seats = [
        Seat(game=g, index=i, kind="human", player_id=f"p{g.pk}-{i}", left_at=now)
        for g in games
        for i in (0, 1)
    ]
    Seat.objects.bulk_create(seats)
    ids = [g.pk for g in games]
    print(f"{connection.vendor}, {len(ids)} games, {2 * len(ids)} seats")
    for held_games in (10, 100, 1000):
        held = {game_id: [0, 1] for game_id in ids[:held_games]}
        actions.seats_seen(held)
        took = median_ms(lambda held=held: actions.seats_seen(held), args.runs)
        print(f"seats_seen, pages of {2 * held_games} seats held: {took:.2f} ms")
    took = median_ms(actions.seats_lost, args.runs)
    print(f"seats_lost, {Seat.objects.filter(left_at=None).count()} seats with a page open: {took:.2f} ms")
    Game.objects.all().delete()


if __name__ == "__main__":
    main()
