"""Who may see or do what: one place, asked by the pages, the API and the socket.

- Seats: :func:`seats_of` (the seats a viewer holds), :func:`is_seat_holder`,
  :func:`is_my_turn` (the game is being played and the viewer holds the seat to move).
- The invite: only the seat holders of a game still waiting for players may see it
  (whoever has the link can take the seat).
- Analysis (hints on the page, ``/analysis`` in the API) would tell a player the exact
  value of every action. During a game only the player to move may ask, and only in a
  game with hints allowed and not rated; once the game is over anyone may (that is the
  review).
- Takebacks: :func:`takeback_refusal`. A rated game against the computer has none (it
  would be a free second try at a rated result); between people the others' consent is
  the actions' business.
- Chat: players write, everyone who sees the game reads (spectators have no chat of
  their own); :func:`chat_refusal` says why someone may not write.
- Abandonment: :func:`gone_seats` are the people whose pages have all been closed for
  ``ABANDON_AFTER`` seconds (``Seat.left_at``; when the server holding them died, since
  it last said it held them: :func:`games.services.abandonment.seats_lost`) and who have not
  moved since, in a game between at least
  two different people (the computer never claims, nor is a hot-seat game abandoned);
  :func:`claim_refusal` says why a viewer may not claim the game now.
- What the computer offers for a game at all is its catalog entry's declared
  capabilities (``analysis``, ``review``, ``hints``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalog
from games.models import Game, Move
from games.services.base import Actor, ServiceError, seats_held


def seats_of(game: Game, actor: Actor) -> list[int]:
    """The seats ``actor`` holds in ``game`` (several in hot-seat play, none for a spectator)."""
    return seats_held(game, actor)


def is_seat_holder(game: Game, actor: Actor) -> bool:
    return bool(seats_of(game, actor))


def is_playing(game: Game) -> bool:
    return game.status == Game.Status.PLAYING and not game.state.is_over()


def is_my_turn(game: Game, actor: Actor) -> bool:
    """The game is being played and ``actor`` holds the seat to move."""
    return is_playing(game) and game.state.to_move in seats_of(game, actor)


def may_see_invite(game: Game, actor: Actor) -> bool:
    """Only a seat holder may pass the invite on: whoever has the link can take the seat."""
    return game.status == Game.Status.WAITING and is_seat_holder(game, actor)


def chat_refusal(game: Game, actor: Actor) -> ServiceError | None:
    """Why ``actor`` may not write in ``game``'s chat, or None: only its players may."""
    if not is_seat_holder(game, actor):
        return ServiceError(
            "not_your_seat", _("Spectators read the chat; only the players write in it."), 403
        )
    return None


def can_chat(game: Game, actor: Actor) -> bool:
    return chat_refusal(game, actor) is None


def can_hint(game: Game, actor: Actor) -> bool:
    """Whether the page offers the hint button to this viewer now."""
    return (
        is_my_turn(game, actor)
        and game.allow_hints
        and not game.rated
        and catalog.get(game.kind).capabilities.hints
    )


def analysis_refusal(game: Game, actor: Actor) -> ServiceError | None:
    """Why ``actor`` may not see the analysis of ``game``'s positions now, or None."""
    if game.copy_of_id is not None and _rated_in_play(game.copy_of):
        return ServiceError(
            "rated", _("This is a copy of a rated game in play: its analysis opens when that game ends."), 403
        )
    if game.is_finished or game.state.is_over():
        return None
    if game.rated:
        return ServiceError("rated", _("A rated game gives no hints or analysis until it is over."), 403)
    if not game.allow_hints:
        return ServiceError("hints_off", _("Hints are turned off for this game until it is over."), 403)
    held = seats_of(game, actor)
    if not held:
        return ServiceError(
            "not_your_seat",
            _("Hints are for the player whose turn it is: send that seat's token, or wait for the end."),
            403,
        )
    if game.state.to_move not in held:
        return ServiceError("not_your_turn", _("Hints are for the player whose turn it is."), 403)
    return None


def _rated_in_play(game: Game | None) -> bool:
    return game is not None and game.rated and not game.is_finished


def check_analysis(game: Game, actor: Actor) -> None:
    """Raise the refusal of :func:`analysis_refusal`, if any."""
    if refusal := analysis_refusal(game, actor):
        raise refusal


def check_analysable(game: Game) -> None:
    """Raise ``no_analysis`` when the computer offers no analysis of this game."""
    if not catalog.get(game.kind).capabilities.analysis:
        raise ServiceError(
            "no_analysis",
            _("The computer cannot analyse %(game)s positions yet.") % {"game": game.title},
            501,
        )


def hint_refusal(game: Game, actor: Actor) -> str | None:
    """Why the page gives ``actor`` no hint now, in words, or None."""
    if not catalog.get(game.kind).capabilities.hints:
        return "There is no analysis for this game."
    if game.is_finished or game.state.is_over():
        return "The game is over: see the review instead."
    refusal = analysis_refusal(game, actor)
    return refusal.message if refusal else None


def against_computer(game: Game) -> bool:
    return any(seat.is_ai for seat in game.seat_list)


def takeback_refusal(game: Game) -> ServiceError | None:
    """Why no takeback may be asked for in ``game`` at all, or None."""
    if not game.allow_takebacks:
        return ServiceError("not_allowed", _("Takebacks are off in this game."), 403)
    if game.rated and against_computer(game):
        return ServiceError(
            "not_allowed", _("A rated game against the computer has no takebacks: play it out."), 403
        )
    return None


def review_refusal(game: Game) -> str | None:
    """Why the review of ``game`` is not available, in words, or None."""
    if not game.is_finished:
        return "The review opens when the game is over."
    if not catalog.get(game.kind).capabilities.review:
        return f"There is no computer review for {game.title} yet."
    return None


def _people_apart(game: Game) -> bool:
    """At least two different people hold the game's seats."""
    holders = {s.player_id or s.token_hash for s in game.seat_list if not s.is_ai}
    holders.discard("")
    return len(holders) >= 2


def gone_seats(game: Game, after: float | None = None, now: datetime | None = None) -> list[int]:
    """The people's seats gone for ``after`` seconds (``ABANDON_AFTER``): no page of theirs
    open since then (``Seat.left_at``) and no move of theirs since they left."""
    if not is_playing(game):
        return []
    left = [s for s in game.seat_list if s.left_at is not None and not s.is_ai]
    if not left or not _people_apart(game):
        return []
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.ABANDON_AFTER if after is None else after)
    gone = []
    for seat in left:
        assert seat.left_at is not None
        if (
            seat.left_at <= limit
            and not Move.objects.filter(game=game, seat=seat.index, created__gt=seat.left_at).exists()
        ):
            gone.append(seat.index)
    return gone


def claim_refusal(game: Game, actor: Actor, now: datetime | None = None) -> ServiceError | None:
    """Why ``actor`` may not claim ``game`` (a win or a draw: the others have gone), or None."""
    held = seats_of(game, actor)
    if not held:
        return ServiceError("not_your_seat", _("You do not hold a seat in this game."), 403)
    if game.is_finished or not is_playing(game):
        return ServiceError("game_over", _("The game is over."), 409)
    if not _people_apart(game):
        return ServiceError(
            "not_abandoned",
            _(
                "Only a game between people can be claimed: the computer never leaves, nor can a "
                "person holding every seat."
            ),
            409,
        )
    if not [s for s in gone_seats(game, now=now) if s not in held]:
        return ServiceError(
            "not_abandoned",
            _(
                "Nobody has gone: a claim opens once an opponent's pages have been closed for "
                "%(seconds)s seconds."
            )
            % {"seconds": f"{settings.ABANDON_AFTER:g}"},
            409,
        )
    return None


def can_claim(game: Game, actor: Actor) -> bool:
    """Whether the page offers this viewer the claim buttons now."""
    return claim_refusal(game, actor) is None
