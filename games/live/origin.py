"""The WebSocket handshake's guards: the page's own origin only, and a clean refusal for
a path no socket lives at.

A browser sends the ``Origin`` of the page that opens a socket. It is accepted when it
is the origin the socket was asked at (the scheme, ``http`` for ``ws`` and ``https`` for
``wss`` or behind a proxy saying so, the ``Host`` header with its port) or one of
``CSRF_TRUSTED_ORIGINS``, and its host is one of ``ALLOWED_HOSTS``. Channels' own check
looked at the host alone, so a page on another port of the same machine was let in.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http.request import validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _origin(text: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, or None when it is not one."""
    try:
        parts = urlsplit(text.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _scheme(scope: dict[str, Any]) -> str:
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header = proxy[0].removeprefix("HTTP_").replace("_", "-").lower().encode()
        if _header(scope, header) == proxy[1]:
            return "https"
    return "https" if scope.get("scheme") == "wss" else "http"


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host  # an IPv6 address, as ALLOWED_HOSTS writes it


def _allowed_hosts() -> list[str]:
    if settings.DEBUG and not settings.ALLOWED_HOSTS:  # as Django allows its pages then
        return [".localhost", "127.0.0.1", "[::1]"]
    return list(settings.ALLOWED_HOSTS)


def allowed_origin(scope: dict[str, Any]) -> bool:
    sent = _header(scope, b"origin")
    origin = _origin(sent) if sent else None
    if origin is None or not validate_host(_bracketed(origin[1]), _allowed_hosts()):
        return False
    trusted = {_origin(o) for o in settings.CSRF_TRUSTED_ORIGINS}
    if origin in trusted:
        return True
    scheme = _scheme(scope)
    host = _header(scope, b"host")
    expected = _origin(f"{scheme}://{host}") if host else (scheme, origin[1], DEFAULT_PORTS[scheme])
    return origin == expected


class SameOriginValidator:
    """Refuses (HTTP 403) a handshake from another origin; lets the rest through to ``app``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed_origin(scope):
            return await Refused()(scope, receive, send)
        return await self.app(scope, receive, send)


class Refused(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    """Closes before accepting: the server answers the handshake with HTTP 403."""

    async def connect(self) -> None:
        await self.close()
