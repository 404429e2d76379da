"""Counts open WebSockets by kind (``/ws/<kind>/...``) around the socket application."""

from __future__ import annotations

from typing import Any

from . import metrics


def socket_kind(path: str) -> str:
    parts = [part for part in path.split("/") if part]
    if len(parts) >= 2 and parts[0] == "ws" and parts[1] in ("games", "lobby", "tournaments"):
        return "lobby-wait" if parts[1:3] == ["lobby", "wait"] else parts[1]
    return "other"


class CountSockets:
    """An ASGI wrapper: a socket counts from its accept until its application returns."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        kind = socket_kind(scope.get("path", ""))
        accepted = False

        async def counting_send(message: Any) -> None:
            nonlocal accepted
            if message.get("type") == "websocket.accept" and not accepted:
                accepted = True
                metrics.sockets.labels(kind).inc()
                metrics.socket_opens.labels(kind).inc()
            await send(message)

        try:
            return await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                metrics.sockets.labels(kind).dec()
