"""The database unreachable (or a connection cut) while serving a page: a clear 503 with
``Retry-After``, not Django's 500 page. The API answers its own JSON 503
(games/api/plumbing.py); anything else under ``/api/`` gets the same JSON here.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext, gettext_noop

log = logging.getLogger(__name__)

RETRY_AFTER = "5"
MESSAGE = gettext_noop("The site's database is unavailable; try again in a moment.")


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Turns a database error raised by a view (or its template) into a 503.

    Synchronous only, on purpose: as the innermost middleware it makes Django run the
    whole stack as one synchronous chain in the request's thread under ASGI. Otherwise
    every ``MiddlewareMixin`` below WhiteNoise (which is synchronous) runs each of its
    hooks through a ``sync_to_async`` hop of its own, about ten thread switches a
    request (docs/performance.md, "The API move's own cost").
    """

    async_capable = False

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.error("database error on %s", request.path, exc_info=exception)
        response: HttpResponse
        if request.path.startswith("/api/"):
            detail = "The database is unavailable; try again shortly."
            response = JsonResponse({"error": "unavailable", "detail": detail}, status=503)
        else:
            # No request context: the context processors would read the session, from the
            # database that is down.
            page = render_to_string(
                "503.html", {"message": gettext(MESSAGE), "refresh": request.method == "GET"}
            )
            response = HttpResponse(page, status=503)
        response["Retry-After"] = RETRY_AFTER
        response["Cache-Control"] = "no-store"
        return response
