"""A server told to stop (SIGTERM) drains before it exits, so a release loses nothing.

Daphne's own SIGTERM stops Twisted's reactor at once: it cancels the requests in flight
and drops every WebSocket (the page sees 1006 and retries after a delay). Under Daphne
this module takes SIGTERM instead and, in order:

1. stops listening, so new connections go to the other processes (nginx retries a
   refused connection on the next server);
2. closes every open WebSocket with ``RESTART_CODE`` (4012: "service restart", in the
   range Daphne lets a server send), on which the pages reconnect at once, through the
   proxy to another process;
3. waits for the HTTP requests in flight to finish (at most ``DRAIN_TIMEOUT`` seconds),
   then stops the reactor.

A second SIGTERM, or SIGINT, stops at once. :class:`Drain` wraps the ASGI application
to know the requests in flight and the open sockets.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Any

from twisted.internet.tcp import Port

log = logging.getLogger(__name__)

RESTART_CODE = 4012
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Drain:
    """The outermost ASGI wrapper: counts HTTP requests in flight, keeps each open socket's
    ``send`` so that a drain can close it."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.in_flight = 0
        self.sockets: dict[int, Send] = {}
        self.draining = False
        self.task: asyncio.Future[None] | None = None  # the drain under way, kept from the collector

    async def __call__(self, scope: Any, receive: Any, send: Send) -> Any:
        if scope["type"] == "http":
            self.in_flight += 1
            try:
                return await self.app(scope, receive, send)
            finally:
                self.in_flight -= 1
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        key = id(scope)

        async def tracked(message: dict[str, Any]) -> None:
            if message.get("type") == "websocket.accept":
                if self.draining:  # accepted while this process stops: go elsewhere now
                    await send({"type": "websocket.close", "code": RESTART_CODE})
                    return
                self.sockets[key] = send
            await send(message)

        try:
            return await self.app(scope, receive, tracked)
        finally:
            self.sockets.pop(key, None)

    async def drain(self, stop_listening: Callable[[], object], timeout: float) -> None:
        """Steps 1-3 above; returns once the requests are done or ``timeout`` passed."""
        self.draining = True
        stop_listening()
        closing = list(self.sockets.values())
        log.info("stopping: %d sockets to reconnect, %d requests in flight", len(closing), self.in_flight)
        for send in closing:
            try:
                await send({"type": "websocket.close", "code": RESTART_CODE})
            except Exception:  # a socket that went meanwhile
                log.debug("a socket closed before its restart notice", exc_info=True)
        deadline = time.monotonic() + timeout
        while (self.in_flight or self.sockets) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if self.in_flight:
            log.warning("stopping with %d requests unfinished after %.0f s", self.in_flight, timeout)


def install(drain: Drain, reactor: Any, timeout: float) -> None:
    """In the reactor's running loop: SIGTERM drains, then stops; a second one stops now.
    The loop's own handler replaces Twisted's, whichever way Twisted installed it."""

    def stop_listening() -> None:
        for reader in list(reactor.getReaders()):
            if isinstance(reader, Port):
                reader.stopListening()  # type: ignore[no-untyped-call]

    async def drain_then_stop() -> None:
        try:
            await drain.drain(stop_listening, timeout)
        finally:
            reactor.stop()

    def on_term() -> None:
        if drain.draining:
            reactor.stop()
            return
        drain.draining = True
        drain.task = asyncio.ensure_future(drain_then_stop())

    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, on_term)
