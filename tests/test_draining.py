"""A server told to stop drains: stops listening, tells its sockets to reconnect (4012),
lets its requests finish (quarto_site/draining.py; the whole path through nginx is
tests/e2e/test_proxy.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from quarto_site.draining import RESTART_CODE, Drain


class App:
    """An ASGI app whose HTTP requests wait for ``release``, and whose sockets accept."""

    def __init__(self) -> None:
        self.release = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self.release.wait()
            await send({"type": "http.response.start", "status": 200})
            return
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass


async def test_a_drain_closes_sockets_with_4012_and_waits_for_requests() -> None:
    app = App()
    drain = Drain(app)
    sent: list[dict[str, Any]] = []
    disconnect = asyncio.Event()

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "websocket.close":
            disconnect.set()  # the client answers the close: the consumer ends

    async def receive() -> dict[str, Any]:
        await disconnect.wait()
        return {"type": "websocket.disconnect", "code": RESTART_CODE}

    socket = asyncio.create_task(drain({"type": "websocket"}, receive, send))
    request = asyncio.create_task(drain({"type": "http"}, receive, send))
    await asyncio.sleep(0.01)
    assert (drain.in_flight, len(drain.sockets)) == (1, 1)

    stopped: list[bool] = []
    draining = asyncio.create_task(drain.drain(lambda: stopped.append(True), timeout=5))
    await asyncio.sleep(0.1)
    assert stopped == [True]
    assert {"type": "websocket.close", "code": RESTART_CODE} in sent
    assert not draining.done()  # a request is still in flight
    app.release.set()
    await asyncio.wait_for(draining, 2)
    await asyncio.gather(socket, request)
    assert (drain.in_flight, len(drain.sockets)) == (0, 0)


async def test_a_socket_accepted_while_draining_is_sent_elsewhere() -> None:
    drain = Drain(App())
    drain.draining = True
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.disconnect", "code": RESTART_CODE}

    await drain({"type": "websocket"}, receive, send)
    assert sent == [{"type": "websocket.close", "code": RESTART_CODE}]


async def test_a_drain_gives_up_on_a_request_after_the_timeout() -> None:
    app = App()
    drain = Drain(app)

    async def send(message: dict[str, Any]) -> None:
        pass

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    request = asyncio.create_task(drain({"type": "http"}, receive, send))
    await asyncio.sleep(0.01)
    await asyncio.wait_for(drain.drain(lambda: None, timeout=0.2), 2)
    assert drain.in_flight == 1
    app.release.set()
    await request
