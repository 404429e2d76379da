"""A lean path through Django for the JSON API and ``/healthz``.

A page needs the whole middleware chain (sessions, CSRF, log-in, messages, a
Content-Security-Policy with a fresh nonce, htmx). A bot's API call with its token and a
load balancer's health probe need none of it, and it was most of what they cost
(docs/performance.md, "A lean path"). So the ASGI application sends them to a second
Django handler built with ``LEAN_MIDDLEWARE``: the security headers, constant headers for
JSON (a CSP that allows nothing, no framing), an anonymous user, and the database's 503.

A request under ``/api/`` that carries the session cookie (a logged-in browser making a
personal token) and the API's HTML docs page still take the full chain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponse

LEAN_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "quarto_site.lean.JsonHeadersMiddleware",
    "quarto_site.unavailable.DatabaseUnavailableMiddleware",
]
# What a JSON answer may load or be framed by: nothing.
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
FULL_CHAIN = ("/api/v1/docs",)


def wanted(scope: dict[str, Any]) -> bool:
    """Whether this HTTP request takes the lean path."""
    path: str = scope.get("path", "")
    if path == "/healthz":
        return True
    if not path.startswith("/api/") or path.startswith(FULL_CHAIN):
        return False
    cookie = settings.SESSION_COOKIE_NAME.encode() + b"="
    return not any(name == b"cookie" and cookie in value for name, value in scope.get("headers", ()))


class JsonHeadersMiddleware:
    """What CSPMiddleware, X-Frame-Options and the log-in give the full chain, for JSON
    answers: fixed headers and an anonymous user, nothing computed per request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.user = AnonymousUser()
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", JSON_POLICY)
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response


class LeanASGIHandler(ASGIHandler):
    """Django's ASGI handler with ``middleware`` instead of ``settings.MIDDLEWARE``."""

    def __init__(self, middleware: list[str] | None = None) -> None:
        self.middleware = LEAN_MIDDLEWARE if middleware is None else middleware
        super().__init__()

    def load_middleware(self, is_async: bool = False) -> None:
        # Django reads the list from the settings; swapped for the moment it is read
        # (at start-up, once per handler).
        full = settings.MIDDLEWARE
        settings.MIDDLEWARE = self.middleware
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = full


class Router:
    """The ASGI application for HTTP: lean requests to one handler, the rest to the other."""

    def __init__(self, full: Any, lean: Any) -> None:
        self.full = full
        self.lean = lean

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        app = self.lean if wanted(scope) else self.full
        return await app(scope, receive, send)
