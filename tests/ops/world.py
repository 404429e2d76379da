"""A small site's worth of data, made and checked in a subprocess on any database.

``python tests/ops/world.py make`` creates two accounts, a rated game played to its end
(so both have ratings) and a game in play; it prints what it made as JSON.
``python tests/ops/world.py check '<that JSON>'`` reads it all back, plays the next move
of the game in play through the services and prints the game's new ply.
``python tests/ops/world.py write STOP_FILE`` keeps writing (moves in fresh games) until STOP_FILE
exists (two minutes at most), so a backup taken meanwhile is taken while it writes however slow
the machine.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402

from accounts.services import account_of  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import moves as services  # noqa: E402
from games.services.moves import Actor  # noqa: E402
from ratings.models import Rating  # noqa: E402

PASSWORD = "backup-and-restore-1"
CLOCK = {"initial": 600, "increment": 2}


def new_game(rated: bool) -> tuple[Game, Actor, Actor]:
    alice, bob = (account_of(User.objects.get(username=name)) for name in ("alice", "bob"))
    assert alice and bob
    game = services.create_game(
        "tictactoe", {}, opponent="human", seat="first", player_id=alice.player_id, clock=CLOCK, rated=rated
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id=bob.player_id)
    return Game.objects.get(pk=game.pk), Actor(player_id=alice.player_id), Actor(player_id=bob.player_id)


def play(game: Game, actor: Actor, text: str) -> Game:
    game.refresh_from_db()
    return services.play_move(game.pk, actor, text, game.ply)


def make() -> dict[str, Any]:
    for name in ("alice", "bob"):
        User.objects.create_user(name, f"{name}@example.org", PASSWORD)
    ended, alice, bob = new_game(rated=True)
    for actor, text in ((alice, "a1"), (bob, "b1"), (alice, "a2"), (bob, "b2"), (alice, "a3")):
        ended = play(ended, actor, text)
    assert ended.status == Game.Status.WON and ended.winner == 0
    playing, alice, bob = new_game(rated=True)
    for actor, text in ((alice, "b2"), (bob, "a1"), (alice, "c3")):
        playing = play(playing, actor, text)
    return {"ended": ended.pk, "playing": playing.pk, "ply": playing.ply, "ratings": ratings()}


def ratings() -> dict[str, float]:
    return {row.user.username: row.rating for row in Rating.objects.select_related("user")}


def check(made: dict[str, Any]) -> dict[str, Any]:
    alice = User.objects.get(username="alice")
    assert alice.check_password(PASSWORD), "alice's password hash did not survive"
    assert ratings() == made["ratings"], (ratings(), made["ratings"])
    assert Game.objects.get(pk=made["ended"]).winner == 0
    playing = Game.objects.get(pk=made["playing"])
    assert playing.status == Game.Status.PLAYING and playing.ply == made["ply"]
    bob = Actor(player_id=account_of(User.objects.get(username="bob")).player_id)  # type: ignore[union-attr]
    after = play(playing, bob, "c1")
    return {"ply": after.ply, "status": str(Game.Status(after.status).label)}


def write(stop_file: Path) -> int:
    """Moves in fresh games until ``stop_file`` appears: a server busy writing."""
    done = 0
    give_up = time.monotonic() + 120
    while not stop_file.exists() and time.monotonic() < give_up:
        game, alice, bob = new_game(rated=False)
        play(play(game, alice, "a1"), bob, "b1")
        done += 1
    return done


if __name__ == "__main__":
    command, argument = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    if command == "make":
        answer = make()
    elif command == "check":
        answer = check(json.loads(argument))
    else:
        answer = {"games": write(Path(argument))}
    # The last line (the console mail backend writes to stdout too).
    sys.stdout.write("\n" + json.dumps(answer) + "\n")
