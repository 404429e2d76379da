"""What one render round costs: every audience of a person-vs-person game rendered once.

A move in a game watched by its two players and a spectator is rendered three times
(each seat's page, the spectators'), in the process's one render thread, before the push.
In-process, on a fresh SQLite file: for each game, a game between two players after a
few moves, its audiences rendered ``--rounds`` times from a freshly read game object (as
a round reads it); the CPU time per round, the median of ``--repeat`` runs.

    .venv/bin/python bench/render_cost.py [--rounds 40 --repeat 3]

Run it from two trees (a ``git worktree`` of the commit before) to compare a change.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import move_cost  # the bench's own settings and database set-up

KINDS = ("quarto", "tictactoe", "connect", "ultimate")


def round_cpu(game_id: int, seats: Any, shown: list[str], rounds: int) -> float:
    """CPU seconds per round: the game read once, each audience rendered from it."""
    from games.models import Game
    from games.presenting import audiences

    started = time.process_time()
    for _ in range(rounds):
        game = Game.objects.filter(pk=game_id).first()
        assert game is not None
        for audience in shown:
            audiences.render(game, seats, audience)
    return (time.process_time() - started) / rounds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    move_cost.configure(Path(tempfile.mkdtemp(prefix="render-cost-")))

    from games.models import Game
    from games.presenting import audiences, downloads
    from games.services import moves
    from games.services.base import Actor

    print(f"{'game':10} {'audiences':>9} {'ms CPU per round':>17}")
    for kind in KINDS:
        made = moves.create_game(kind, {}, opponent="human", seat="first", player_id="one")
        moves.join_game(made.game.pk, invite=made.game.invite_code, player_id="two")
        for i in range(4):
            state = downloads.game_json(Game.objects.get(pk=made.game.pk))
            mover = Actor(player_id="one" if state["to_move"] == 0 else "two")
            legal = state["legal_moves"]
            moves.play_move(made.game.pk, mover, legal[(i * 7) % len(legal)], state["ply"], None)
        seats = audiences.seat_map(Game.objects.get(pk=made.game.pk))
        shown = audiences.audiences(seats)

        round_cpu(made.game.pk, seats, shown, args.rounds)  # templates loaded, pieces drawn
        median = statistics.median(
            round_cpu(made.game.pk, seats, shown, args.rounds) for _ in range(args.repeat)
        )
        print(f"{kind:10} {len(shown):>9} {median * 1000:>17.2f}")


if __name__ == "__main__":
    main()
