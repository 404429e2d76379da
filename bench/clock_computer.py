"""The computer on the clock: does it ever lose on time at 1+0 or 3+2?

    .venv/bin/python bench/clock_computer.py --games 3
    ... --kinds quarto connect --controls 1+0 --human random --level casual

For each game with a computer player and each time control, plays ``--games`` games
against the computer at the site's delay and budget (settings ``AI_DELAY``/``AI_BUDGET``:
1 s and 1 s unless the environment says otherwise), through the services with the real
clock, on a fresh SQLite database. The human side moves at once: a simple player (wins
when it can, otherwise a random action that does not hand the next player a win) or a
random one. The computer's turns run synchronously after each human move, as the inline
runner does outside a server. Prints per kind and control: games, the computer's losses
on time (must be 0), its least time left after an action (before any increment) and its
mean time per action (its thinking delay and search, from the moves' commit times).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
HUMAN = "bench-human"


def simple_action(state: Any, rng: random.Random) -> Any:
    """Win now if possible; else a random action after which the next player cannot win at once."""
    me = state.to_move
    moves = list(state.legal_moves())
    safe = []
    for move in moves:
        after = state.play(move)
        if after.is_over():
            if after.outcome.winner == me:
                return move
            continue
        if after.to_move != me and any(
            after.play(reply).is_over() and after.play(reply).outcome.winner is not None
            for reply in after.legal_moves()
        ):
            continue
        safe.append(move)
    return rng.choice(safe or moves)


def play_one(kind: str, clock: dict[str, int], level: str, seat: str, human: str, rng: random.Random) -> Any:
    from games.models import Game
    from games.services import moves

    created = moves.create_game(kind, {}, opponent="ai", level=level, seat=seat, player_id=HUMAN, clock=clock)
    me = moves.Actor(player_id=HUMAN)
    while True:
        game = Game.objects.get(pk=created.game.pk)
        if game.status != Game.Status.PLAYING:
            return game
        state = game.state
        if state.to_move != created.seat:
            raise RuntimeError(f"game {game.pk}: the computer's turn was not played")
        action = simple_action(state, rng) if human == "simple" else rng.choice(list(state.legal_moves()))
        moves.play_move(game.pk, me, str(action), game.ply)


def computer_figures(game: Any, human_seat: int) -> tuple[list[int], list[float]]:
    """The computer's time left after each action (before the increment) and each action's time."""
    from games import clocks

    rows = list(game.moves.order_by("ply").values_list("seat", "clock_ms", "created"))
    increment = game.time_control.increment * 1000
    left, took = [], []
    start = game.created
    for i, (seat, clock_ms, created) in enumerate(rows):
        if seat != human_seat:
            passes = i + 1 == len(rows) or rows[i + 1][0] != seat
            # A first turn is not charged and earns no increment.
            first = clocks.first_turn([s for s, _, _ in rows[:i]], seat)
            if clock_ms is not None:
                left.append(clock_ms - (increment if passes and not first else 0))
            took.append((created - start).total_seconds())
        start = created
    return left, took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3, help="games per kind and time control")
    parser.add_argument("--kinds", nargs="*", help="default: every game with a computer player")
    parser.add_argument("--controls", nargs="*", default=["1+0", "3+2"], help="minutes+seconds")
    parser.add_argument("--level", default="strongest", help="a level name, or 'strongest'")
    parser.add_argument("--human", choices=["simple", "random"], default="simple")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-clock-"))
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(SQLITE_PATH=str(folder / "db.sqlite3"), AI_RUNNER="inline", AI_PROCESSES="0")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from games import catalog
    from games.models import Game

    call_command("migrate", verbosity=0)
    print(f"warm-up {catalog.warm_up():.1f} s; AI_DELAY={settings.AI_DELAY} AI_BUDGET={settings.AI_BUDGET}")
    rng = random.Random(args.seed)
    kinds = args.kinds or [k for k, spec in catalog.CATALOG.items() if spec.player]
    for control in args.controls:
        minutes, increment = control.split("+")
        clock = {"initial": round(float(minutes) * 60), "increment": int(increment)}
        for kind in kinds:
            spec = catalog.get(kind)
            level = spec.levels[-1] if args.level == "strongest" else args.level
            flagged, lefts, took, started = 0, [], [], time.monotonic()
            for n in range(args.games):
                game = play_one(kind, clock, level, ("first", "second")[n % 2], args.human, rng)
                human_seat = next(s.index for s in game.seat_list if s.player_id == HUMAN)
                if game.reason == Game.Reason.TIMEOUT and (game.result or {}).get("timeout") != human_seat:
                    flagged += 1
                left, times = computer_figures(game, human_seat)
                lefts += left
                took += times
            print(
                f"{control} {kind:10} ({level}): {args.games} games, computer lost on time {flagged}, "
                f"least time left {min(lefts) / 1000:.1f} s, mean {statistics.mean(took):.2f} s per action "
                f"(max {max(took):.2f} s, {len(took)} actions), {time.monotonic() - started:.0f} s"
            )


if __name__ == "__main__":
    main()
