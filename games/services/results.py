"""How a game's row records its end: as the rules ended it (:func:`record_outcome`, after a
move or an imported record's last action), or as a record says people or the clock ended
it (:func:`record_termination`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import State
from games.models import Game
from games.services.base import ServiceError


def record_outcome(game: Game, state: State[Any]) -> None:
    outcome = state.outcome
    if outcome is None:
        return
    game.offers = {}
    game.reason = Game.Reason.NORMAL
    game.status = Game.Status.DRAWN if outcome.winner is None else Game.Status.WON
    game.winner = outcome.winner
    game.result = {
        "winner": outcome.winner,
        "lines": [list(line) for line in outcome.lines],
        "shared": list(outcome.shared),
    }


def record_termination(game: Game, num_players: int, result: str, termination: str, to_move: int) -> None:
    """Finish an imported game as its record says it ended (``1-0``, ``1/2-0-1/2``..., or ``*``
    for a game abandoned or aborted for no first move, ``to_move`` the seat that made none)."""
    try:
        reason = Game.Reason(termination)
    except ValueError:
        raise ServiceError(
            "bad_record", _("unknown termination %(termination)s") % {"termination": repr(termination)}
        ) from None
    if result == "*" and reason == Game.Reason.ABANDONED:
        game.status, game.winner, game.reason = Game.Status.ABANDONED, None, reason
        game.result = {"winner": None, "lines": [], "shared": []}
        return
    if result == "*" and reason == Game.Reason.NO_START:
        # Aborted: the seat to move made no first move in time.
        game.status, game.winner, game.reason = Game.Status.ABORTED, None, reason
        game.result = {"winner": None, "lines": [], "shared": [], "no_start": to_move}
        return
    scores = result.split("-")
    if len(scores) != num_players or any(s not in ("0", "1") and "/" not in s for s in scores):
        raise ServiceError(
            "bad_record",
            _("the result %(result)s does not fit %(seats)s seats")
            % {"result": repr(result), "seats": num_players},
        )
    winners = [i for i, s in enumerate(scores) if s != "0"]
    drawn = len(winners) == num_players
    game.reason = reason
    game.status = Game.Status.DRAWN if drawn else Game.Status.WON
    game.winner = winners[0] if len(winners) == 1 else None
    game.result = {"winner": game.winner, "lines": [], "shared": []}
    if not drawn:
        game.result["winners"] = winners
        if reason == Game.Reason.RESIGNED:
            losers = [i for i in range(num_players) if i not in winners]
            game.result["resigned"] = losers[0]
        elif reason == Game.Reason.ABANDONED:
            game.result["abandoned"] = [i for i in range(num_players) if i not in winners]
        elif reason == Game.Reason.TIMEOUT:
            loser = next(i for i in range(num_players) if i not in winners)
            game.result["timeout"] = loser
            if game.remaining:  # its time ran out: shown as 0, as the game was
                game.remaining = [0 if i == loser else ms for i, ms in enumerate(game.remaining)]
