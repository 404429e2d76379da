"""Games ended by their clocks: on time, or aborted for want of a first move.

The server decides, never a page: at the next action of the seat that ran out
(:func:`games.services.moves.play_move` calls :func:`end_by_clock`), or, when nobody sends
anything, by the sweep every ``CLOCK_SWEEP`` seconds (:func:`sweep`, run by each web
process's event loop). Both end the game under its row lock after checking again, so a
game is ended once however many processes sweep.

* The seat to move ran out: it loses, reason ``timeout``. With three or four seats
  (connect-N) the game ends too and the others share the win, as when a seat resigns:
  the rules have no way to play on without a seat.
* A seat missed its first move (``CLOCK_FIRST_MOVE`` seconds in real-time, its days in
  correspondence): the game is aborted, reason ``no_start``; nobody wins or loses.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from games import clocks as clock_rules
from games.models import Game
from games.services import clocks
from games.services.base import finish_game, locked_game, others_win

log = logging.getLogger(__name__)


def end_by_clock(game: Game, when: datetime) -> None:
    """End ``game`` (locked, flagged at ``when``) as its clock says."""
    to_move = game.state.to_move
    first = clock_rules.first_turn([seat for seat, _ in game.move_rows], to_move)
    if first:
        finish_game(game, Game.Status.ABORTED, Game.Reason.NO_START, {"winner": None, "no_start": to_move})
        return
    times = list(game.remaining)
    times[to_move] = 0
    game.remaining = times
    game.clock_since = None  # stopped at zero: nothing more to charge
    others_win(game, [to_move], Game.Reason.TIMEOUT, {"timeout": to_move})


def sweep(when: datetime | None = None) -> list[int]:
    """End every game in play whose seat to move ran out by ``when``; the games ended."""
    when = when or clocks.now()
    due = list(
        Game.objects.filter(status=Game.Status.PLAYING, deadline__lt=when)
        .order_by("deadline")
        .values_list("pk", flat=True)
    )
    ended = []
    for game_id in due:
        with transaction.atomic():
            game = locked_game(game_id)
            if not clocks.flagged(game, when):
                continue  # a move or another sweeper got there first
            end_by_clock(game, when)
            ended.append(game_id)
    if ended:
        log.info("clocks ended %d game(s): %s", len(ended), ended)
    return ended
