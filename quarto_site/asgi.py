"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")

from channels.routing import ProtocolTypeRouter, URLRouter
from channels.sessions import SessionMiddlewareStack
from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

from quarto_site.draining import Drain, install  # noqa: E402
from quarto_site.lean import LeanASGIHandler, Router  # noqa: E402

http = Router(django_asgi_app, LeanASGIHandler())

from games.live import push, recovery  # noqa: E402
from games.live.origin import SameOriginValidator  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.runner.turns import runner  # noqa: E402
from lobby.routing import websocket_urlpatterns as lobby_routes  # noqa: E402
from monitoring.sockets import CountSockets  # noqa: E402
from tournaments import live as tournaments_live  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_routes  # noqa: E402


def bind_running_loop() -> None:
    """Hand the running event loop to the AI runner (which then picks up every due turn)
    and to the live push. Binding the same loop again does nothing."""
    loop = asyncio.get_running_loop()
    runner.bind(loop)
    push.bind(loop)
    recovery.bind(loop)
    tournaments_live.bind(loop)  # the tournaments' timer, beside the clock sweeper


def bind_when_served() -> bool:
    """Bind as soon as the server runs, not on its first connection: a restarted process
    that nobody calls still plays the computer's due turns.

    Daphne runs no ASGI lifespan; it installs Twisted's asyncio reactor before it imports
    this module and then runs that reactor. ``callWhenRunning`` fires once it starts, and
    ``callLater(0, ...)`` then runs the binding inside the reactor's running asyncio loop.
    In a process that never runs the reactor (management commands, tests importing this
    module) nothing happens. True when the binding was scheduled.
    """
    reactor = sys.modules.get("twisted.internet.reactor")  # never import it: that installs one
    if reactor is None:
        return False
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    if not isinstance(reactor, AsyncioSelectorReactor):
        return False
    reactor.callWhenRunning(reactor.callLater, 0, bind_running_loop)
    reactor.callWhenRunning(reactor.callLater, 0, install, application, reactor, settings.DRAIN_TIMEOUT)
    return True


class BindRunner:
    """Hands the server's event loop to the AI runner and the live push on every connection:
    the fallback for servers other than Daphne, and for an event loop that changed."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        bind_running_loop()
        return await self.app(scope, receive, send)


# The session only, loaded lazily (the consumer caches its player id): Channels' auth
# middleware would read the user from the database on every connect, on the one thread
# that serves synchronous views.
# The lobby's and tournaments' sockets first: games' routes end with a catch-all refusal.
websockets = SessionMiddlewareStack(URLRouter([*lobby_routes, *tournament_routes, *websocket_urlpatterns]))

application = Drain(
    BindRunner(
        ProtocolTypeRouter(
            {
                "http": http,
                "websocket": CountSockets(SameOriginValidator(websockets)),
            }
        )
    )
)
bind_when_served()
