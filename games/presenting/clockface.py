"""A game's clocks as its page shows them: each seat's time, the side to move, the time
control's label, low time, and the first-move countdown.

Renderings are cached and pushed per audience (:mod:`games.presenting.audiences`) and may
reach a page long after they were made, so what they carry never depends on when they were
rendered: each seat's stored time (as of ``clock_since``), ``clock_since`` and the deadline
as epoch ms, and whether the seat to move is being charged. The page's script
(``static/js/clock.js``) takes the time since then off with the server's current time,
which only the full page carries (``data-server-now``, rendered per request). Without a
``now`` the times are shown as of ``clock_since``; the full page passes its request's
moment, so a page without JavaScript shows the times left when it was loaded.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import catalog
from games import clocks as clock_rules
from games.models import Game, Seat
from games.presenting import seat_ratings, sentences
from games.services import clocks

# Without JavaScript a page whose clock runs reloads itself this often (seconds), and
# sooner when the deadline comes first.
NO_JS_REFRESH_REALTIME = 10
NO_JS_REFRESH_CORRESPONDENCE = 60
HOUR_MS = 3600 * clock_rules.MS


def low_ms(control: clock_rules.TimeControl) -> int:
    """Below this a seat's time is marked low: real-time, a tenth of the initial time, at
    least 10 s and at most a minute (1+0: 10 s, 3+2: 18 s, 15+10: 60 s); correspondence,
    a quarter of the days, at most 12 hours (1 day: 6 h, 2 days and more: 12 h)."""
    if control.correspondence:
        return min(12 * HOUR_MS, control.days * clock_rules.DAY_MS // 4)
    return min(60 * clock_rules.MS, max(10 * clock_rules.MS, control.initial * clock_rules.MS // 10))


def control_label(control: clock_rules.TimeControl) -> str:
    """ "3+2" (as written everywhere), "3 days", "unlimited" in the reader's language."""
    if control.correspondence:
        return ngettext("%(count)s day", "%(count)s days", control.days) % {"count": control.days}
    if not control.realtime:
        return _("unlimited")
    return control.label


def left_text(ms: int) -> str:
    """Time to make a first move: "30 s" under a minute, else as a clock says it ("2d 23h")."""
    if ms < 60 * clock_rules.MS:
        return f"{math.ceil(max(0, ms) / clock_rules.MS)} s"
    return clock_rules.clock_text(ms)


def clock_context(
    game: Game, mine: list[int], seats: list[Seat], now: datetime | None = None
) -> dict[str, Any] | None:
    """The clocks' template data, or None for a game without a clock. ``now`` only for the
    full page (see the module's note): the partials are rendered without it."""
    control = game.time_control
    if control.unlimited:
        return None
    spec = catalog.get(game.kind)
    label = f"{control_label(control)} · {_('rated') if game.rated else _('casual')}"
    context: dict[str, Any] = {"label": label, "paused": control.paused, "low": low_ms(control)}
    if control.paused:  # an imported record's clock: kept, shown in the replay, not running
        return {**context, "faces": []}
    stored = [int(ms) for ms in game.remaining] or [control.start_ms()] * len(seats)
    running = clocks.running(game) and game.clock_since is not None
    to_move = game.state.to_move if running else None
    first = running and clocks.first_turn_of_mover(game)
    since = clocks.ms(game.clock_since) if running and game.clock_since else None
    at = clocks.ms(now) if now is not None and since is not None else since
    shown = (
        clock_rules.now_remaining(stored, to_move, since, at, not first)
        if since is not None and at is not None
        else stored
    )
    ratings = seat_ratings.of(game)
    faces = []
    for index, ms in enumerate(stored):
        who = sentences.seat_name(spec, index, mine, seats)
        named = sentences.capital(sentences.with_symbol(spec, index, who, seats))
        faces.append(
            {
                "index": index,
                "who": named,
                "rating": seat_ratings.text(ratings.get(index)),
                "ms": ms,
                "text": clock_rules.clock_text(shown[index]),
                "to_move": index == to_move,
                "ticking": index == to_move and not first,
                "low": shown[index] < context["low"],
                "say_low": (
                    _("You have {} left.")
                    if who == sentences.YOU
                    else _("%(who)s has {} left.") % {"who": named}
                ),
            }
        )
    context.update(faces=faces, running=running, since=since if not first else None)
    if first and to_move is not None and game.deadline is not None:
        deadline = clocks.ms(game.deadline)
        who = sentences.seat_name(spec, to_move, mine, seats)
        context["first"] = {
            "who": sentences.capital(sentences.with_symbol(spec, to_move, who, seats)),
            "yours": who == sentences.YOU,
            "deadline": deadline,
            "text": left_text(deadline - (at or deadline)),
        }
    if now is not None and running and game.deadline is not None:
        context["refresh"] = no_js_refresh(control, clocks.ms(game.deadline) - clocks.ms(now))
    return context


def no_js_refresh(control: clock_rules.TimeControl, to_deadline_ms: int) -> int:
    """How soon a page without JavaScript reloads while a clock runs (seconds): every 10 s
    (a minute in correspondence), or just after the deadline when that comes first."""
    every = NO_JS_REFRESH_CORRESPONDENCE if control.correspondence else NO_JS_REFRESH_REALTIME
    return max(1, min(every, math.ceil(to_deadline_ms / clock_rules.MS) + 1))
