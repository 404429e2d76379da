"""Counts every HTTP request by view and status, and times it (first in both chains)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from . import metrics


def view_label(request: HttpRequest) -> str:
    """The URL pattern's name (few and fixed), never the path (any number of them)."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unmatched"
    return match.view_name or match.route or "unnamed"


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        response = self.get_response(request)
        metrics.observe_request(
            view_label(request), request.method or "", response.status_code, time.perf_counter() - start
        )
        return response
