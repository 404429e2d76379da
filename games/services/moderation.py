"""What the moderators do to a game: abort it. (Chat moderation is :mod:`games.services.chat`'s.)"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils.translation import gettext as _

from games.events import GameEvent, publish
from games.models import Game
from games.services.base import ServiceError, locked_game

log = logging.getLogger(__name__)

ABORTED = "aborted"


def abort_game(game_id: int, reason: str, by: str = "") -> Game:
    """End an unfinished game with no result: status "aborted", the reason recorded. The
    reason is shown to everyone; who aborted it (``by``) goes to the log only."""
    reason = " ".join(str(reason).split())[:200] or "aborted by a moderator"
    with transaction.atomic():
        game = locked_game(game_id)
        if game.is_finished:
            raise ServiceError("game_over", _("Game %(id)s is already over.") % {"id": game_id}, 409)
        game.status = Game.Status.ABORTED
        game.winner = None
        game.ai_due_at = None
        game.reason = Game.Reason.ABORTED
        game.result = {"reason": ABORTED, "detail": reason}
        game.save()
        publish(GameEvent(game.pk, game.ply, "aborted"))
    log.info("game %s aborted by %s: %s", game_id, by or "the site", reason)
    return game


def abort_reason(game: Game) -> str | None:
    """The recorded reason of an aborted game, or None."""
    if game.status != Game.Status.ABORTED:
        return None
    if game.reason == Game.Reason.NO_START:  # the clock's abort (timeouts.end_by_clock), not a moderator's
        return str(Game.Reason.NO_START.label)
    detail = (game.result or {}).get("detail") if isinstance(game.result, dict) else None
    return str(detail or "aborted by a moderator")
