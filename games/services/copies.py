"""Which game in play an imported record copies.

A record exported from a game in play can be imported, and the copy analysed: the
position is public, and hints off is a promise between the players, not a secret
(docs/security.md). The copy is marked with the game it came from, so that moderators
see it in the admin.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.models import Game

# Games in play that share the record's last move are compared; the newest first.
CANDIDATES = 20


def game_in_play_copied(copy: Game, moves: Sequence[str]) -> Game | None:
    """The game in play, other than ``copy``, whose moves start with ``moves`` (at least
    one), with the same kind and options; ``None`` when there is none."""
    if not moves:
        return None
    games = (
        Game.objects.filter(
            kind=copy.kind,
            status__in=(Game.Status.WAITING, Game.Status.PLAYING),
            moves__ply=len(moves),
            moves__text=moves[-1],
        )
        .exclude(pk=copy.pk)
        .order_by("-updated")
        .distinct()[:CANDIDATES]
    )
    for game in games:
        if game.options == copy.options and game.move_texts[: len(moves)] == list(moves):
            return game
    return None
