"""Small messages to open pages: chat lines, offers, presence lines, seats coming and going.

:func:`to_audience` and :func:`to_all` carry a payload ``{"kind": ..., "html": ...,
"data": {...}}``: HTML sockets receive ``html`` (an out-of-band swap), JSON sockets
``{"type": kind, **data}``; either may be left out.

Presence: a moment after a socket comes or goes (once per game per
``WS_PRESENCE_DELAY``), and after a seat changes hands or names, each HTML audience with
a socket open gets its own presence line (:mod:`games.presenting.presence`), rendered
once for all its sockets. When a seat's last socket closes the seat is marked gone
(:func:`games.services.abandonment.seats_left`); a socket of that seat coming back
clears it (and renders afresh when it was set).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from games.live import rounds
from games.models import Game
from games.presenting import audiences, presence, presenters
from games.services import abandonment, chat

log = logging.getLogger(__name__)


# The events that JSON sockets also receive as messages of their own (HTML pages get the
# render), and which: a declined offer changes the offers and adds the chat's line about it.
SMALL_EVENTS = {"chat": ("chat",), "offer": ("offer",), "declined": ("offer", "chat")}


def small_payload(game_id: int, kind: str) -> dict[str, Any] | None:
    """The JSON sockets' message for a chat line or an offer; None when no JSON socket is open.

    ``{"type": "chat", "line": {...}}`` (the newest line shown, as ``GET .../chat`` gives
    it; ``null`` once every line is hidden) or ``{"type": "offer", "ply": n, "offers":
    {"draw": [0]}}`` (the pending offers after an offer was made, declined or withdrawn).
    """
    if presence.counts(game_id, [audiences.JSON])[audiences.JSON] <= 0:
        return None
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    data: dict[str, Any] = {"ply": game.ply}
    if kind == "chat":
        lines = chat.visible_lines(game, limit=1)
        data["line"] = (
            {
                "id": lines[0].pk,
                "seat": lines[0].seat,
                "name": lines[0].name,
                "text": lines[0].text,
                "created": lines[0].created.isoformat(),
            }
            if lines
            else None
        )
    else:
        data["offers"] = {k: list(offer["seats"]) for k, offer in game.offers.items()}
    return {"kind": kind, "data": data}


def small_event(game_id: int, kind: str) -> None:
    """Send a chat line or the offers to the game's JSON sockets, soon (as :func:`broadcast`)."""
    if rounds.on_server_loop(lambda: rounds.spawn(_send_small(game_id, kind))):
        return
    try:
        payload = small_payload(game_id, kind)
        if payload is not None:
            to_all(game_id, payload)
    except Exception:
        log.exception("could not send the %s of game %s", kind, game_id)


async def _send_small(game_id: int, kind: str) -> None:
    try:
        payload = await rounds.in_worker(small_payload, game_id, kind)
        if payload is not None:
            await ato_all(game_id, payload)
    except Exception:
        log.exception("could not send the %s of game %s", kind, game_id)


def _back(game_id: int, seats_: list[int]) -> bool:
    return abandonment.seats_back(game_id, seats_) > 0


def _left(game_id: int, seats_: list[int]) -> int:
    return abandonment.seats_left(game_id, seats_)


def seat_arrived(game_id: int, audience: str) -> None:
    """A socket of ``audience`` opened: its seats are here (again)."""
    if audiences.audience_seats(audience):
        rounds.spawn(_seat_arrived(game_id, audiences.audience_seats(audience)))


async def _seat_arrived(game_id: int, seats_: list[int]) -> None:
    try:
        if await rounds.in_worker(_back, game_id, seats_):
            rounds.schedule(game_id, True)  # the claim buttons go away
    except Exception:
        log.exception("could not mark seats %s of game %s as back", seats_, game_id)


def seat_departed(game_id: int, audience: str) -> None:
    """A socket of ``audience`` closed (and was counted out): the seats with no socket left
    anywhere are gone from now; the game is rendered afresh once they may be claimed."""
    held = audiences.audience_seats(audience)
    if not held:
        return
    seats = audiences.cached_seats(game_id)
    gone = [s for s in held if seats is None or not presence.seat_present(game_id, s, seats)]
    if gone:
        rounds.spawn(_seat_departed(game_id, gone))


async def _seat_departed(game_id: int, seats_: list[int]) -> None:
    try:
        if await rounds.in_worker(_left, game_id, seats_):
            loop = asyncio.get_running_loop()
            loop.call_later(settings.ABANDON_AFTER + 0.5, rounds.schedule, game_id, True)
    except Exception:
        log.exception("could not mark seats %s of game %s as gone", seats_, game_id)


# Presence, coalesced per game.
_presence_due: set[int] = set()


def presence_soon(game_id: int) -> None:
    """Tell the game's pages who is here, once, ``WS_PRESENCE_DELAY`` seconds from now."""
    if game_id in _presence_due:
        return
    _presence_due.add(game_id)
    asyncio.get_running_loop().call_later(settings.WS_PRESENCE_DELAY, _start_presence, game_id)


def _start_presence(game_id: int) -> None:
    _presence_due.discard(game_id)
    rounds.spawn(_send_presence(game_id))


def presence_later(game_id: int) -> None:
    """:func:`presence_soon` from any thread (a subscriber): on the server's event loop, if any."""
    rounds.on_server_loop(presence_soon, game_id)


async def _send_presence(game_id: int) -> None:
    """Each HTML audience with a socket open gets its own line, rendered once."""
    try:
        lineup = await rounds.load_lineup(game_id)
        if lineup is None:
            return
        seats, names = lineup
        bare = audiences.audiences(seats)
        counted = presence.counts(game_id, audiences.spoken(bare))
        by_audience = {a: counted[a] for a in bare}
        # An audience's group holds its HTML sockets only (JSON sockets are in "json"):
        # the line goes there as a frame, as the renderings do, in each language read.
        lines = []
        for audience in audiences.listening(bare, counted):
            with translation.override(audiences.split(audience)[1]):
                line = presence.presence_line(names, by_audience, audiences.split(audience)[0])
                lines.append((audience, presenters.presence_html(line)))
        await rounds.send_frames(game_id, lines)
    except Exception:  # the next arrival or departure says it again
        log.exception("could not tell game %s who is connected", game_id)


# Small events.
async def ato_audience(game_id: int, audience: str, payload: dict[str, Any]) -> None:
    """Send ``payload`` to an audience: ``"watch"``, ``"seats"`` (every seat holder),
    ``"seat-N"`` (whoever holds seat N, alone or with other seats) or an audience name."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "live.event", "payload": payload}
    if audience == audiences.WATCH:
        targets = [audiences.WATCH]
    else:
        seats = audiences.cached_seats(game_id)
        if seats is None:
            seats = await rounds.load_seats(game_id)
        named = [a for a in audiences.audiences(seats or []) if a != audiences.WATCH]
        wanted = audiences.audience_seats(audience)
        if audience == "seats":
            targets = named
        elif len(wanted) == 1:
            targets = [a for a in named if wanted[0] in audiences.audience_seats(a)]
        else:
            targets = [audience]
    for target in [localized for bare in targets for localized in audiences.spoken([bare])]:
        await layer.group_send(audiences.audience_group(game_id, target), message)


async def ato_all(game_id: int, payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(audiences.group_name(game_id), {"type": "live.event", "payload": payload})


def to_audience(game_id: int, audience: str, payload: dict[str, Any]) -> None:
    """:func:`ato_audience` from synchronous code (a subscriber, a view)."""
    async_to_sync(ato_audience)(game_id, audience, payload)


def to_all(game_id: int, payload: dict[str, Any]) -> None:
    """Send ``payload`` to every socket of the game (see the module's docstring)."""
    async_to_sync(ato_all)(game_id, payload)
