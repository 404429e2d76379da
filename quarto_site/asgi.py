"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import asyncio
import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")

from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import SessionMiddlewareStack
from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from games.live import push  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.runner.turns import runner  # noqa: E402


class BindRunner:
    """Hands the server's event loop to the AI runner and the live push on the first connection."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        runner.bind(asyncio.get_running_loop())
        push.bind(asyncio.get_running_loop())
        return await self.app(scope, receive, send)


# The session only, loaded lazily (the consumer caches its player id): Channels' auth
# middleware would read the user from the database on every connect, on the one thread
# that serves synchronous views.
websockets = SessionMiddlewareStack(URLRouter(websocket_urlpatterns))

application = BindRunner(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(websockets),
        }
    )
)
