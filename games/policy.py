"""Who may see what: one rule asked by the pages, the API and anything else that shows it.

The computer's analysis of a position (hints on the page, ``/analysis`` in the API)
would tell a player the exact value of every action. During a game only the player
to move may ask, and only in a game with hints allowed; once the game is over anyone
may (that is the review).
"""

from __future__ import annotations

from .models import Game
from .services import Actor, ServiceError, seats_held


def analysis_refusal(game: Game, actor: Actor) -> ServiceError | None:
    """Why ``actor`` may not see the analysis of ``game``'s positions now, or None."""
    if game.is_finished or game.state.is_over():
        return None
    if not game.allow_hints:
        return ServiceError("hints_off", "Hints are turned off for this game until it is over.", 403)
    held = seats_held(game, actor)
    if not held:
        return ServiceError(
            "not_your_seat",
            "Hints are for the player whose turn it is: send that seat's token, or wait for the end.",
            403,
        )
    if game.state.to_move not in held:
        return ServiceError("not_your_turn", "Hints are for the player whose turn it is.", 403)
    return None


def check_analysis(game: Game, actor: Actor) -> None:
    """Raise the refusal of :func:`analysis_refusal`, if any."""
    if refusal := analysis_refusal(game, actor):
        raise refusal
