"""Time from a human move's commit to the computer's reply committed: inline or queue.

    DATABASE_URL=postgres://... REDIS_URL=redis://... AI_DELAY=0 AI_BUDGET=0.05 \
        .venv/bin/python bench/ai_turn_latency.py --runner inline --games 20
    ... --runner queue   (starts one `manage.py ai_worker` itself)

Plays one human give per game and polls the game (every 2 ms) until the computer's
placement is committed. ``inline`` runs the web process's runner on an event loop in
this process, as Daphne does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runner", choices=["inline", "queue"], required=True)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    os.environ["AI_RUNNER"] = args.runner
    os.environ["AI_QUEUE"] = f"bench-ai-{os.getpid()}"
    import django

    django.setup()
    from games.models import Game
    from games.runner.turns import runner
    from games.services import moves

    worker = None
    if args.runner == "inline":
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, daemon=True).start()
        loop.call_soon_threadsafe(runner.bind, loop)
        time.sleep(8)  # warm-up
    else:
        command = [sys.executable, "manage.py", "ai_worker"]
        worker = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE)
        assert worker.stderr is not None
        for line in worker.stderr:
            if b"ready." in line:
                break
        time.sleep(8)  # warm-up of its search process
    times = []
    try:
        for _ in range(args.games):
            game = moves.create_game("quarto", {}, opponent="ai", level="casual", seat="first", player_id="b")
            moves.play_move(game.game.pk, moves.Actor(player_id="b"), "5", 0)
            committed = time.perf_counter()
            while Game.objects.filter(pk=game.game.pk).values_list("ply", flat=True)[0] < 2:
                time.sleep(0.002)
            times.append((time.perf_counter() - committed) * 1000)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(20)
    times.sort()
    print(
        f"{args.runner}: {len(times)} replies, p50 {statistics.median(times):.0f} ms, "
        f"p95 {times[int(len(times) * 0.95) - 1]:.0f} ms, max {times[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
