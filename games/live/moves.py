"""Moves sent on the game's socket: the same service, guard, identity and limit as a
posted move.

A frame ``{"move": "a1", "ply": 3, "revision": 7}`` (``revision`` optional, as on the
API) from a page's or a program's socket is played through
:func:`games.services.moves.play_move` for the browser the socket belongs to
(:func:`games.services.players.identify`, as the page asks), counted like a posted move
(``RATE_LIMIT_MOVE``). The answer is the push every socket of the game gets. A refusal
goes to that socket alone: a JSON socket gets ``{"type": "error", "code": ..., "message":
...}``, a page the status line with the sentence, as the answer to a posted move does.
A page resends a click its socket did not answer within a few seconds as a form post (the
same ply: one of the two is stale); when the stale one is the page's own move played by the
other, it is not refused (:func:`games.services.moves.already_played`), so the player never
reads "the game has moved on" about their own move. A program's JSON socket still gets
``stale`` for a frame sent twice. Any other frame keeps its meaning: a resync request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game
from games.presenting import presenters
from games.services import moves as services
from games.services import players, ratelimit
from games.services.base import Actor, ServiceError


@dataclass(frozen=True)
class MoveFrame:
    move: Any
    ply: Any
    revision: Any


def read(text: str | None) -> MoveFrame | None:
    """The move a frame carries, or None for any other frame (a resync request)."""
    try:
        data = json.loads(text or "")
    except ValueError:
        return None
    except RecursionError:  # '{"move": [[[[...' thousands deep: no move, refused as a bad frame
        return MoveFrame(None, None, None)
    if not isinstance(data, dict) or "move" not in data:
        return None
    return MoveFrame(data["move"], data.get("ply"), data.get("revision"))


def _checked(frame: MoveFrame) -> tuple[str, int, int | None]:
    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    if not isinstance(frame.move, str) or not whole(frame.ply):
        raise ServiceError("bad_frame", _('Send {"move": "a1", "ply": 3} with the ply the move is made for.'))
    if frame.revision is not None and not whole(frame.revision):
        raise ServiceError("bad_frame", _("The revision is the state's revision, a whole number."))
    return frame.move, frame.ply, frame.revision


def play(
    game_id: int, session: Any, address: str, frame: MoveFrame, as_json: bool, language: str
) -> str | None:
    """Play ``frame`` for the socket's browser (synchronous code: it reads the session and
    the database); what to send back to that socket alone, in its ``language``, or None
    when it was played."""
    with translation.override(language):
        return _play(game_id, session, address, frame, as_json)


def _play(game_id: int, session: Any, address: str, frame: MoveFrame, as_json: bool) -> str | None:
    player = players.identify(session) if session is not None else None
    actor = Actor(player_id=player)
    try:
        move, ply, revision = _checked(frame)
        if wait := ratelimit.check("move", address, "RATE_LIMIT_MOVE"):
            raise ServiceError(
                "rate_limited",
                _("You are moving too fast: try again in %(wait)s s.") % {"wait": wait},
                429,
                retry_after=wait,
            )
        services.play_move(game_id, actor, move, ply, revision)
    except ServiceError as refused:
        if refused.code == "stale" and not as_json and services.already_played(game_id, actor, move, ply):
            return None  # this page's click, played by its resend over HTTP: nothing to refuse
        return _refusal(game_id, actor, refused, as_json)
    return None


def _refusal(game_id: int, actor: Actor, refused: ServiceError, as_json: bool) -> str | None:
    if as_json:
        return json.dumps({"type": "error", "code": refused.code, "message": refused.message})
    game = Game.objects.filter(pk=game_id).first()
    return None if game is None else presenters.render_partials(game, actor, refused.message)
