"""One WebSocket per open game page, joined to its audience's group and the game's.

The consumer finds out once who the viewer is (which seats, or a spectator: from the
cache, see :mod:`games.live.push`), joins its groups, then sends the audience's current
rendering from the cache. After that it forwards the bytes rendered once per audience
for every change (``live.frame``) and the small events meant for it (``live.event``),
without touching the database or a template.

Programs connect with ``?format=json`` and receive instead, on connect and after every
move (and whenever they send anything)::

    {"type": "state", "ply": 7, "state": {...the API's game state...}}

The ``state`` is what ``GET /api/v1/games/<id>`` returns (see docs/api.md), rendered once
per change and cached: the clock's times as of the turn's start, and ``now`` stamped here
as each frame is sent (:func:`games.presenting.audiences.stamped`).

Limits: at most ``WS_MAX_PER_CLIENT`` sockets open per client address (in this
process; the next one is accepted and closed at once with code 4429), and a burst of
incoming frames costs at most one resync (a cache read) per ``WS_RESYNC_INTERVAL`` seconds.

Without a channel layer (Redis unreachable) a socket still opens and gets the current
partials and a notice that live updates are paused (the page polls meanwhile); the
consumer tries to join its groups every ``WS_LAYER_RETRY`` seconds and, once in, says
so and sends the current position: pushes resume without a reload. (Daphne allows no
close code the htmx ws extension would retry on, so the socket stays open instead.)
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.live import messages, push, recovery, rounds
from games.live import moves as socket_moves
from games.presenting import audiences, presence
from games.services import clocks, players, ratelimit
from quarto_site.languages import scope_language

log = logging.getLogger(__name__)


def wants_json(query_string: bytes) -> bool:
    return parse_qs(query_string.decode("latin-1")).get("format") == ["json"]


def live_notice(as_json: bool, paused: bool, language: str = settings.LANGUAGE_CODE) -> str:
    if as_json:
        if paused:
            return json.dumps({"type": "paused", "detail": "Live updates are paused; poll meanwhile."})
        return json.dumps({"type": "resumed"})
    with translation.override(language):
        return render_to_string("games/game.html#live_notice", {"paused": paused, "oob": True})


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    address: str | None = None
    groups_joined: list[str] | None = None
    counted: list[str] | None = None
    last_render = 0.0
    resync: asyncio.Task[None] | None = None
    rejoin: asyncio.Task[None] | None = None
    paused = False
    shown: str | None = None  # the version of the last rendering sent (recovery compares)
    language = str(settings.LANGUAGE_CODE)  # what the page reads (its pushes are rendered in it)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its hop to the shared synchronous thread to close old
        database connections before every message: this consumer never uses the database
        on the event loop (its reads and moves run in worker threads that close their own),
        and a push to 1,000 sockets of a process queued 1,000 such hops behind each other
        (docs/performance.md, "Scale-out")."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        push.bind(asyncio.get_running_loop())
        recovery.bind(asyncio.get_running_loop())
        address = ratelimit.scope_address(self.scope)
        if not ratelimit.open_socket(address):
            # Accepted, then closed: a handshake refused is an HTTP 403 that neither a page nor
            # a program can tell from a wrong origin; the close code says why.
            await self.accept()
            await self.close(code=ratelimit.TOO_MANY_SOCKETS)
            return
        self.address = address
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.as_json = wants_json(self.scope.get("query_string", b""))
        viewer = await self._viewer()
        if viewer is None:
            await self.close(code=4404)
            return
        self.viewer = viewer
        self.language = scope_language(self.scope)
        self.audience = audiences.JSON if self.as_json else audiences.localized(viewer, self.language)
        # Accepted as soon as the game is known: Daphne refuses (403) a handshake not
        # accepted within 5 s, and in a burst of connecting sockets the rest of the
        # connection (the groups, the count, the first rendering) is what waits.
        await self.accept()
        # Join and be counted before reading the current rendering: a move committed in
        # between is then rendered for this audience and pushed here, not lost in the gap.
        joined = await self._join()
        self.counted = self._counted()
        presence.arrive(self.game_id, self.counted)
        messages.seat_arrived(self.game_id, viewer)
        shown = audiences.shown_version(self.game_id)
        html = await rounds.current(self.game_id, self.audience)
        if html is None:  # deleted meanwhile
            presence.leave(self.game_id, self.counted)
            self.counted = None
            await self._leave()
            await self.close(code=4404)
            return
        self.last_render = time.monotonic()
        self.shown = shown or audiences.shown_version(self.game_id)
        await self.send(text_data=self._stamped(html))
        messages.presence_soon(self.game_id)
        recovery.sockets.add(self)
        if not joined:
            await self.pause()
            self.rejoin = asyncio.create_task(self._rejoin())

    def _counted(self) -> list[str]:
        """Where this socket is counted: its bare audience first (who is here), then the
        audience it reads (its language's, or "json")."""
        return list(dict.fromkeys([self.viewer, self.audience]))

    async def _viewer(self) -> str | None:
        """The viewer's audience (``seat-N``... or ``watch``); None for an unknown game."""
        seats = audiences.cached_seats(self.game_id)
        if seats is None:
            seats = await rounds.load_seats(self.game_id)
            if seats is None:
                return None
        session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        session = self.scope.get("session")
        if not session_key or session is None or not any(seats):
            return audiences.WATCH
        # The page's own answer (players.identify): remembered, else read from the session.
        player = players.known(session_key) or await rounds.in_worker(players.identify, session)
        return audiences.audience_of(seats, player)

    async def _join(self) -> bool:
        """Join the audience's group and the game's (and the session's, for a seat holder);
        False when the layer (Redis) cannot be reached."""
        wanted = [audiences.audience_group(self.game_id, self.audience), audiences.group_name(self.game_id)]
        session_key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        if session_key and self.viewer != audiences.WATCH:
            wanted.append(audiences.session_group(session_key))
        try:
            for group in wanted:
                await self.channel_layer.group_add(group, self.channel_name)
        except Exception:
            log.warning("no channel layer for game %s: live updates paused", self.game_id, exc_info=True)
            return False
        self.groups_joined = wanted
        return True

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(settings.WS_LAYER_RETRY)
            if await self._join():
                break
        self.rejoin = None
        await self._resumed()

    async def pause(self) -> None:
        """Pushes cannot reach this socket (Redis is down): the page polls meanwhile."""
        self.paused = True
        await self.send(text_data=live_notice(self.as_json, paused=True, language=self.language))

    async def recover(self) -> None:
        """Redis is back (perhaps empty): join the groups again and send the position."""
        if self.rejoin is not None:
            self.rejoin.cancel()
            self.rejoin = None
        if await self._join():
            await self._resumed()

    async def _resumed(self) -> None:
        if self.paused:
            self.paused = False
            await self.send(text_data=live_notice(self.as_json, paused=False, language=self.language))
        await self.send_current()

    async def disconnect(self, code: int) -> None:
        recovery.sockets.discard(self)
        if self.address is not None:
            ratelimit.close_socket(self.address)
            self.address = None
        for task in (self.resync, self.rejoin):
            if task is not None:
                task.cancel()
        was_counted = self.counted is not None
        await self._leave()
        if was_counted:
            messages.presence_soon(self.game_id)

    async def _leave(self) -> None:
        """Be counted out and leave the groups joined (with the layer down, their entries
        expire there by themselves)."""
        if self.counted is not None:
            presence.leave(self.game_id, self.counted)
            messages.seat_departed(self.game_id, self.counted[0])
            self.counted = None
        for group in self.groups_joined or ():
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # the layer is down
                log.warning("could not leave %s", group, exc_info=True)
        self.groups_joined = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A move is played (:mod:`games.live.moves`); any other message from the page asks
        for a resync, and a burst gets one, a little later."""
        frame = socket_moves.read(text_data)
        if frame is not None:
            await self.play(frame)
            return
        if self.resync is not None:
            return  # one is already on its way
        wait = self.last_render + settings.WS_RESYNC_INTERVAL - time.monotonic()
        if wait <= 0:
            await self.send_current()
            return
        self.resync = asyncio.create_task(self._resync(wait))

    async def play(self, frame: socket_moves.MoveFrame) -> None:
        session = self.scope.get("session")
        refusal = await database_sync_to_async(socket_moves.play)(
            self.game_id, session, self.address or "", frame, self.as_json, self.language
        )
        if refusal is not None:
            await self.send(text_data=refusal)
        elif self.paused:  # no push reaches this socket: the move's position comes from here
            await self.send_current()

    async def _resync(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.resync = None
        await self.send_current()

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            # The page closed while this was on its way (Daphne refuses the send): its
            # disconnect follows and counts the socket out. Raised here, it would end this
            # consumer without that, and its seat would look held for good.
            log.debug("socket of game %s closed before a send", getattr(self, "game_id", None))

    async def send_current(self) -> None:
        self.last_render = time.monotonic()
        # Read before the rendering: a version set meanwhile is then sent again, not missed.
        shown = audiences.shown_version(self.game_id)
        text = await rounds.current(self.game_id, self.audience)
        if text is not None:
            self.shown = shown or audiences.shown_version(self.game_id)
            await self.send(text_data=self._stamped(text))

    async def session_ended(self, event: dict[str, Any]) -> None:
        """The browser logged out: from now on this socket is a spectator's, as its page
        would be on a reload (the seat's renderings, hint and invite stop here)."""
        if self.viewer == audiences.WATCH:
            return
        await self._leave()
        self.viewer = audiences.WATCH
        self.audience = (
            audiences.JSON if self.as_json else audiences.localized(audiences.WATCH, self.language)
        )
        if await self._join():
            self.counted = self._counted()
            presence.arrive(self.game_id, self.counted)
            messages.presence_soon(self.game_id)
        await self.send_current()

    async def live_frame(self, event: dict[str, Any]) -> None:
        """The audience's rendering of a change, rendered once for all its sockets."""
        if event.get("ver") is not None:
            self.shown = event["ver"]
        await self.send(text_data=self._stamped(event["text"]))

    def _stamped(self, text: str) -> str:
        """A JSON state with the server's time of sending, for the clocks (see clockdata)."""
        return audiences.stamped(text, clocks.now()) if self.as_json else text

    async def live_event(self, event: dict[str, Any]) -> None:
        """A small event (presence, a chat line, an offer): HTML or data, as the socket speaks."""
        payload = event["payload"]
        if self.as_json:
            if payload.get("data") is not None:
                await self.send(text_data=json.dumps({"type": payload.get("kind"), **payload["data"]}))
        elif payload.get("html"):
            await self.send(text_data=payload["html"])
