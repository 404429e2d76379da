"""The replay's sentence: what the shown position is, never a live turn ("Move 5 of 12:
X (the computer) played b2. O to move." rather than "The computer is thinking…")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import catalog
from games.engine import State
from games.models import Game
from games.presenting import sentences


def position_text(game: Game, shown: Game) -> str:
    """``shown`` is ``game`` as it stood after some of its actions (games.web.replay.at_ply)."""
    spec = catalog.get(game.kind)
    seats = game.seat_list
    rows = game.move_rows
    ply = shown.ply
    state: State[Any] = shown.state
    if ply == 0:
        said = _("The start of the game:")
    else:
        seat, text = rows[ply - 1]
        before = spec.rules.replay(game.options, [t for _, t in rows[: ply - 1]])
        done = spec.words.review(before, text)
        said = _("Move %(ply)s of %(last)s: %(who)s %(action)s.") % {
            "ply": ply,
            "last": len(rows),
            "who": sentences.seat_title(spec, seat, seats),
            "action": done,
        }
    if ply == len(rows) and (state.outcome is not None or game.status >= Game.FINISHED):
        return f"{said} {sentences.status_text(game, state, [], seats)}"
    task = spec.words.turn(state)
    who = sentences.seat_title(spec, state.to_move, seats)
    if task is None:
        return f"{said} " + _("%(who)s to move next.") % {"who": who}
    return f"{said} " + _("%(who)s to %(task)s next.") % {"who": who, "task": task.others}
