"""A game's clock as the JSON state carries it (the API and the JSON socket).

The JSON socket's states are rendered once per version and served from a cache, maybe
long after: what they carry must not depend on when they were rendered. So the state
gives each seat's time as of a moment (``clock_at``) and whether the seat to move is
being charged (``ticking``); :func:`as_of` moves both to a given moment (the API's
answers, made per request), and every state says the server's time (``now``: set per
request by the API, stamped on each frame by the socket). A client shows
``remaining[to_move] - (now - clock_at)`` for a ticking seat, counting on from there
with its own clock.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.models import Game
from games.services import clocks


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def clock_json(game: Game) -> dict[str, Any]:
    """The clock fields, the same for every viewer and for as long as the game is unchanged."""
    control = game.time_control
    if control.unlimited:
        return {
            "clock": None,
            "remaining": None,
            "clock_at": None,
            "to_move_since": None,
            "deadline": None,
            "first_move": False,
            "ticking": False,
        }
    num_players = len(game.seat_list)
    running = clocks.running(game) and game.clock_since is not None
    first = running and clocks.first_turn_of_mover(game)
    ticking = running and not first
    return {
        "clock": control.to_json(),
        "remaining": [int(ms) for ms in game.remaining] or [control.start_ms()] * num_players,
        "clock_at": _iso(game.clock_since) if ticking else None,
        "to_move_since": _iso(game.clock_since) if running else None,
        "deadline": _iso(game.deadline) if running else None,
        "first_move": first,
        "ticking": ticking,
    }


def as_of(data: dict[str, Any], game: Game, when: datetime) -> dict[str, Any]:
    """``data`` (a state) with the clock's times as of ``when`` and ``now`` set to it."""
    if data.get("ticking"):
        data["remaining"] = clocks.remaining_now(game, when)
        data["clock_at"] = when.isoformat()
    data["now"] = when.isoformat()
    return data
