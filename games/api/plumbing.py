"""The JSON API's framework plumbing: the NinjaAPI object, its JSON errors (405s
included), the seat-token authentication, and the guard (rate limit, body size, JSON
only) every endpoint wears. The endpoints themselves are :mod:`games.api.endpoints`.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import URLPattern, URLResolver
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.decorators import decorate_view
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer

from games import identity
from games.models import TOKEN_SEAT, hash_token
from games.runner.pools import Busy
from games.services import moves as services
from games.services import ratelimit

log = logging.getLogger(__name__)

MAX_TOKEN_LENGTH = 64


def error(status: int, code: str, detail: str, **headers: str) -> JsonResponse:
    """The API's refusal: ``code`` stays English for programs; ``detail`` is said in the
    request's language (Accept-Language; quarto_site.lean.RequestLanguageMiddleware on the
    lean path) where the site writes the sentence through gettext (the rules' own reasons
    and ninja's validation messages stay English)."""
    response = JsonResponse({"error": code, "detail": detail}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def method_not_allowed(request: HttpRequest, refusal: HttpResponseNotAllowed) -> JsonResponse:
    """Ninja's plain-text 405 retold as our JSON error, keeping its Allow header."""
    allowed = sorted({m.strip() for m in refusal["Allow"].split(",") if m.strip()})
    word = _("or")
    detail = _("%(method)s is not allowed on %(path)s; use %(allowed)s.") % {
        "method": request.method,
        "path": request.path,
        "allowed": f" {word} ".join(allowed),
    }
    return error(405, "method_not_allowed", detail, Allow=", ".join(allowed))


def _json_405(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap an endpoint's URL view so that ninja's 405 comes out as a JSON error.

    Ninja routes every method of a path to one view (PathView.get_view); when no
    operation takes the request's method, that view returns HttpResponseNotAllowed
    without running anything: no auth, rate limit, parsing or service call. Our
    endpoints never return that class themselves, so retelling it here changes
    nothing but the 405's body. ``functools.wraps`` keeps ``csrf_exempt``.
    """
    if iscoroutinefunction(view):

        @functools.wraps(view)
        async def async_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            response: HttpResponseBase = await view(request, *args, **kwargs)
            if isinstance(response, HttpResponseNotAllowed):
                return method_not_allowed(request, response)
            return response

        return async_view

    @functools.wraps(view)
    def sync_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response: HttpResponseBase = view(request, *args, **kwargs)
        if isinstance(response, HttpResponseNotAllowed):
            return method_not_allowed(request, response)
        return response

    return sync_view


class JsonAPI(NinjaAPI):
    """NinjaAPI whose URL views answer a wrong method with a JSON 405 (see _json_405).

    Ninja has no hook for its 405 (PathView._not_allowed is private and PathView is
    built inside the routers), so the public ``urls`` are wrapped instead.
    """

    @property
    def urls(self) -> tuple[list[URLResolver | URLPattern], str, str]:
        patterns, app_name, namespace = super().urls
        wrapped: list[URLResolver | URLPattern] = [
            URLPattern(p.pattern, _json_405(p.callback), p.default_args, p.name)
            if isinstance(p, URLPattern)
            else p
            for p in patterns
        ]
        return wrapped, app_name, namespace


api = JsonAPI(
    title="Quarto Site API",
    version="1",
    urls_namespace="api-v1",
    description="Play Quarto, tic-tac-toe, connect-N and Ultimate Tic-Tac-Toe over JSON. "
    "Errors are {error, detail}; a seat's token goes in 'Authorization: Bearer <token>'.",
)


# -- authentication, limits, errors ----------------------------------------------------


def known_token(request: HttpRequest, token: str | None) -> bool:
    """True when the token holds a seat in some game (looked up once per request)."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return False
    memo: dict[str, bool] = request.__dict__.setdefault("_known_tokens", {})
    if token not in memo:
        memo[token] = bool(TOKEN_SEAT.rows(hash_token(token)))
    return memo[token]


def token_holder(request: HttpRequest, token: str | None) -> identity.Holder | None:
    """Who a personal token acts for (looked up once per request), or None."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    memo: dict[str, identity.Holder | None] = request.__dict__.setdefault("_token_holders", {})
    if token not in memo:
        memo[token] = identity.token_holder(token)
    return memo[token]


def token_player(request: HttpRequest, token: str | None) -> str | None:
    """The player id a personal token acts as, or None."""
    holder = token_holder(request, token)
    return holder.player_id if holder else None


def token_language(request: HttpRequest) -> str:
    """The language the account of the request's personal token chose, or "" (none, or no
    such token): the API's sentences follow it before Accept-Language, as the pages follow
    an account's. The lookup is the one the request's authentication uses."""
    holder = token_holder(request, bearer(request))
    return holder.language if holder else ""


class SeatToken(HttpBearer):
    """A token that holds a seat in some game, or a personal token (acting for its account);
    whether it holds a seat in *this* game is the service's call."""

    def authenticate(self, request: HttpRequest, token: str) -> str | None:
        token = token.strip()
        return token if known_token(request, token) or token_player(request, token) else None


seat_token = SeatToken()


def bearer(request: HttpRequest) -> str | None:
    value = request.headers.get("Authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def actor(request: HttpRequest) -> services.Actor:
    """Who a request acts as: a personal token's account (its player id), else the seat token."""
    token = bearer(request)
    player = token_player(request, token)
    return services.Actor(player_id=player) if player else services.Actor(token=token)


def checked_actor(request: HttpRequest) -> services.Actor:
    """:func:`actor`, refusing a bearer token that is neither a seat's nor a personal one (a
    revoked token, a typo) with a 401, rather than taking it for an anonymous spectator.
    Reads the database: synchronous code only."""
    token = bearer(request)
    if token and not token_player(request, token) and not known_token(request, token):
        raise services.ServiceError("unknown_token", _("That token is unknown or revoked."), 401)
    return actor(request)


def client_id(request: HttpRequest) -> str:
    """Whom the rate limit counts: the client's address. Tokens are free to mint, so
    counting per token would let one client multiply its share."""
    return f"ip:{ratelimit.request_address(request)}"


def count_created(request: HttpRequest) -> None:
    """Count a game this client makes (a rematch) against ``RATE_LIMIT_CREATE``, the budget
    the pages' new game and "Play again" share; a 429 when it is spent."""
    wait = ratelimit.check("create", ratelimit.request_address(request), "RATE_LIMIT_CREATE")
    if wait:
        raise services.ServiceError(
            "rate_limited",
            _("You are starting games too fast: try again in %(seconds)d s.") % {"seconds": wait},
            429,
            retry_after=wait,
        )


def _refusal(request: HttpRequest, max_body_setting: str) -> HttpResponse | None:
    """A 429 or 413 answer when the request must go no further, else None."""
    wait = ratelimit.check("api", client_id(request), "API_RATE_LIMIT")
    if wait:
        detail = _("Too many requests: try again in %(seconds)d s.") % {"seconds": wait}
        return error(429, "rate_limited", detail, Retry_After=str(wait))
    limit: int = getattr(settings, max_body_setting)
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit or (request.method in ("POST", "PUT", "PATCH") and len(request.body) > limit):
        return error(
            413, "too_large", _("The request body is limited to %(limit)d bytes.") % {"limit": limit}
        )
    if request.body and request.content_type != "application/json":
        # A form or text/plain body is what another site can make a browser send
        # without asking first (no CORS preflight): the API takes JSON only.
        sent = request.content_type or _("untyped")
        detail = _("Send the body as application/json, not %(type)s.") % {"type": sent}
        return error(415, "unsupported_media_type", detail)
    return None


def guarded(max_body_setting: str = "API_MAX_BODY") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Rate limit per client, then refuse oversized bodies, before anything is parsed."""

    def decorator(run: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(run):

            @functools.wraps(run)
            async def async_wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
                refusal = await sync_to_async(_refusal)(request, max_body_setting)
                return refusal or await run(request, *args, **kwargs)

            return async_wrapper

        @functools.wraps(run)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            return _refusal(request, max_body_setting) or run(request, *args, **kwargs)

        return wrapper

    return decorate_view(decorator)


@api.exception_handler(services.ServiceError)
def _service_error(request: HttpRequest, exc: services.ServiceError) -> HttpResponse:
    if exc.retry_after is not None:
        return error(exc.status, exc.code, exc.message, Retry_After=str(exc.retry_after))
    return error(exc.status, exc.code, exc.message)


@api.exception_handler(Busy)
def _busy(request: HttpRequest, exc: Busy) -> HttpResponse:
    return error(exc.status, exc.code, exc.message, Retry_After=str(exc.retry_after))


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    if bearer(request) is None:
        detail = _("Send your seat's token as 'Authorization: Bearer <token>'.")
        return error(401, "no_token", detail, WWW_Authenticate="Bearer")
    return error(401, "unknown_token", _("That token holds no seat."), WWW_Authenticate="Bearer")


# The last part of an error's location that names the member of a union it was tried as.
UNION_MEMBERS = {"bool": "true or false", "int": "a whole number"}


def _describe(item: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
    if item.get("type") == "extra_forbidden":
        return _("unknown field %(field)s") % {"field": where}
    return f"{where or 'body'}: {item.get('msg', 'invalid')}"


def _union_failures(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One error per value that matched no member of a union (pydantic gives one per
    member, named by the member's type): "options.width: true or false, or a whole
    number"."""
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for item in errors:
        loc = tuple(item.get("loc", ()))
        if loc and loc[-1] in UNION_MEMBERS:
            key = loc[:-1]
            entry = merged.setdefault(key, {"loc": key, "members": []})
            entry["members"].append(UNION_MEMBERS[loc[-1]])
        else:
            merged[loc] = item
    for entry in merged.values():
        if "members" in entry:
            entry["msg"] = ", or ".join(entry["members"])
    return list(merged.values())


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = _union_failures(list(exc.errors))
    return error(400, "invalid_request", "; ".join(_describe(item) for item in errors[:5]) + ".")


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = {400: "invalid_request", 403: "forbidden", 404: "not_found"}.get(exc.status_code, "error")
    detail = str(exc).rstrip(".")
    if detail == "Cannot parse request body":
        return error(exc.status_code, code, _("The request body is not valid JSON."))
    return error(exc.status_code, code, detail + ".")


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def _database_down(request: HttpRequest, exc: Exception) -> HttpResponse:
    """The database unreachable (or a connection cut): a clear 503 to retry, not a 500 page."""
    log.error("database error on %s", request.path, exc_info=True)
    return error(503, "unavailable", _("The database is unavailable; try again shortly."), Retry_After="5")


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error(404, "not_found", _("No such resource."))


@csrf_exempt  # a POST here changes nothing; without this it got the CSRF failure page (HTML 403)
def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Everything under /api/v1/ that is no endpoint (itself included): a JSON 404, not a page."""
    return error(404, "not_found", _("No endpoint at %(path)s; see /api/v1/docs.") % {"path": request.path})


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 400 handler: under /api/ the API's JSON error, elsewhere Django's page.

    Django answers a request for a host it does not serve (DisallowedHost) before any
    view runs, with this handler.
    """
    if request.path.startswith("/api/"):
        if isinstance(exception, DisallowedHost):
            return error(400, "bad_host", _("This site is not served under that host name."))
        return error(400, "bad_request", _("The request could not be understood."))
    return defaults.bad_request(request, exception or Exception())
