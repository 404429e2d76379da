"""Who is here: open sockets counted per audience, and the presence line each reads.

The open sockets of each audience are counted in the ``live`` cache (shared by every
process when it is Redis) and in this process. A player reads about the others ("Your
opponent is connected.", "Bob (Player 2) is not connected."), a spectator about every
player, everyone how many watch (:func:`games.presenting.sentences.presence_text`). The page
is rendered with the same line (:func:`presence_of`); the live layer pushes it again
when sockets come and go.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.models import Game
from games.presenting import audiences, sentences
from games.services.base import Actor
from games.services.fallback_cache import add_to_counters, redis_down

# Counting sockets. This process's own counts decide what to render as much as the
# cache's, so an evicted counter never silences a push to this process's sockets.
local_counts: Counter[tuple[int, str]] = Counter()


def arrive(game_id: int, audiences_: Sequence[str]) -> None:
    _count(game_id, audiences_, 1)


def leave(game_id: int, audiences_: Sequence[str]) -> None:
    _count(game_id, audiences_, -1)


def _count(game_id: int, audiences_: Sequence[str], delta: int) -> None:
    """One socket more or less in each audience and the game's total: in this process, and
    in the cache in one call (one round trip on Redis, on the connecting socket's loop)."""
    every = [*audiences_, audiences.ANY]
    for audience in every:
        local_counts[game_id, audience] += delta
        if local_counts[game_id, audience] <= 0:
            del local_counts[game_id, audience]
    keys = [audiences.count_key(game_id, audience) for audience in every]
    add_to_counters(audiences.live_cache(), keys, delta, audiences.COUNT_TTL)


def counts(game_id: int, audiences_: Sequence[str]) -> dict[str, int]:
    """Open sockets per audience, over every process sharing the cache."""
    found = audiences.live_cache().get_many([audiences.count_key(game_id, a) for a in audiences_])
    return {
        a: max(int(found.get(audiences.count_key(game_id, a)) or 0), local_counts.get((game_id, a), 0))
        for a in audiences_
    }


def seats_here(by_audience: dict[str, int]) -> set[int]:
    """The seats with a socket open, from the counts of the audiences."""
    return {seat for a, n in by_audience.items() if n > 0 for seat in audiences.audience_seats(a)}


def presence_line(names: audiences.SeatNames, by_audience: dict[str, int], audience: str) -> str:
    """What ``audience`` reads about who is connected (see the module's docstring); with
    Redis unreachable the other processes' sockets are not counted: not known."""
    if redis_down():
        return str(sentences.PRESENCE_UNKNOWN)
    return sentences.presence_text(
        names,
        audiences.audience_seats(audience),
        seats_here(by_audience),
        by_audience.get(audiences.WATCH, 0),
    )


def presence_of(game: Game, actor: Actor) -> str:
    """The presence line of ``actor``'s page as it is rendered now; its socket's pushes follow."""
    seats = audiences.seat_map(game)
    audience = audiences.audience_of(seats, actor.player_id)
    return presence_line(audiences.seat_names(game), counts(game.pk, audiences.audiences(seats)), audience)


# Last seen: the seats whose every socket closed, and those back.
def seat_present(game_id: int, seat: int, seats: audiences.SeatMap) -> bool:
    return any(
        n > 0 and seat in audiences.audience_seats(a)
        for a, n in counts(game_id, audiences.audiences(seats)).items()
    )
