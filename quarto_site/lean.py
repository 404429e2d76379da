"""A lean path through Django for the JSON API and ``/healthz``.

A page needs the whole middleware chain (sessions, CSRF, log-in, messages, a
Content-Security-Policy with a fresh nonce, htmx). A bot's API call with its token and a
load balancer's health probe need none of it, and it was most of what they cost
(docs/performance.md, "A lean path"). So the ASGI application sends them to a second
Django handler built with ``LEAN_MIDDLEWARE``: the security headers, constant headers for
JSON (a CSP that allows nothing, no framing), an anonymous user, the language of the
error sentences (Accept-Language), and the database's 503.

A request under ``/api/`` that carries the session cookie (a logged-in browser making a
personal token) and the API's HTML docs page still take the full chain.

The lean handler also crosses to a thread once per request, not five times: Django's ASGI
handler runs the ``request_started`` signal, the middleware chain (which, being
synchronous, calls the view through ``async_to_sync`` and back) and ``response.close``
each through a hop of their own, every request on a new thread. Here the whole request,
signals included, runs in one call on a thread of a pool kept for the process
(``LEAN_THREADS``); the response is closed there (the connections go back) before its
bytes are sent from the event loop (docs/performance.md, "What a move costs").
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix
from django.utils import translation
from django.utils.cache import patch_vary_headers

LEAN_MIDDLEWARE = [
    "monitoring.middleware.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "quarto_site.lean.JsonHeadersMiddleware",
    "quarto_site.lean.RequestLanguageMiddleware",
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


class RequestLanguageMiddleware:
    """The API's sentences (its error details) in the client's language, as the full chain
    gives it: the language of a personal token's account, then Accept-Language, English.
    Every request activates its own, so a thread of the pool never keeps the previous
    request's. No cookie is set, and the answers that are not refusals say nothing in
    words: they vary on nothing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        from games.api.plumbing import token_language  # the apps are ready once a chain is built

        self.get_response = get_response
        self.token_language = token_language

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = self.token_language(request) or translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if response.status_code >= 400:  # only a refusal's sentence depends on it
            patch_vary_headers(response, ("Accept-Language",))
        return response


class LeanASGIHandler(ASGIHandler):
    """Django's ASGI handler with ``middleware`` instead of ``settings.MIDDLEWARE``, each
    request in one call on a thread of the handler's pool."""

    def __init__(self, middleware: list[str] | None = None, threads: int | None = None) -> None:
        self.middleware = LEAN_MIDDLEWARE if middleware is None else middleware
        super().__init__()
        self.executor = ThreadPoolExecutor(threads or settings.LEAN_THREADS, thread_name_prefix="lean")

    def load_middleware(self, is_async: bool = False) -> None:
        # Django reads the list from the settings; swapped for the moment it is read
        # (at start-up, once per handler). Built synchronous: the chain and the view run in
        # the request's thread in one go (an async view is called through async_to_sync).
        full = settings.MIDDLEWARE
        settings.MIDDLEWARE = self.middleware
        try:
            super().load_middleware(is_async=False)
        finally:
            settings.MIDDLEWARE = full

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            respond = sync_to_async(self.respond, thread_sensitive=False, executor=self.executor)
            response = await respond(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:  # closed once its iterator is spent
                await sync_to_async(response.close, thread_sensitive=False, executor=self.executor)()
        finally:
            body_file.close()

    def respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """Django's work for one request, in the thread: the signals, the request, the
        middleware and the view; the response closed unless it streams."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, refusal = self.create_request(scope, body_file)
        response: HttpResponseBase | None = refusal if request is None else self.get_response(request)
        assert response is not None  # create_request gives a request or a refusal
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if not response.streaming:
            response.close()  # request_finished: the database connections go back now
        return response


class Router:
    """The ASGI application for HTTP: lean requests to one handler, the rest to the other."""

    def __init__(self, full: Any, lean: Any) -> None:
        self.full = full
        self.lean = lean

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        app = self.lean if wanted(scope) else self.full
        return await app(scope, receive, send)
